"""`gpu-stacks preflight`: Azure's Validate and What-If answers, replayed from recordings shaped from
the REST spec's own examples (tests/data/arm-responses), through the real azure-mgmt-resource client.

Expected codes, ids and waits come from the recordings; resources and stack file lines from the plan
and the stack file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.engine.arm.client import Connection
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.engine.commands import preflight

from tests.arm_replay import RESPONSES, SUBSCRIPTION, RecordingTransport, Replay, StaticCredential, load
from tests.conftest import REPO
from tests.shared_plans import plans_shared


class Azure:
    """One recorded conversation standing in for Azure, and what the command sent it."""

    def __init__(self, case: str):
        self.case = case
        self.replay: Replay = load(case)
        self.transport = RecordingTransport(self.replay)
        self.credential = StaticCredential()
        self.cloud: str | None = None

    def connection(self, args: Any) -> Connection:
        self.cloud = args.cloud
        options = {"transport": self.transport, "polling_interval": 0}
        return Connection(args.subscription, args.cloud, self.credential, options)


@pytest.fixture
def azure(monkeypatch: pytest.MonkeyPatch) -> Any:
    def answer(case: str) -> Azure:
        fake = Azure(case)
        monkeypatch.setattr(preflight, "make_connection", fake.connection)
        return fake

    return answer


@pytest.fixture(scope="module", autouse=True)
def plans() -> Iterator[dict[str, Any]]:
    """The file's plans by their arguments (tests/shared_plans.py): each case asks Azure about the same template."""
    with plans_shared() as plans:
        yield plans


def recorded(case: str) -> dict[str, Any]:
    return json.loads((RESPONSES / f"{case}.json").read_text())


def innermost_codes(case: str) -> list[str]:
    """The innermost error codes of a case's last answer, read from the recording (or the spec example)."""
    from tests.arm_replay import spec_response

    body = recorded(case)["exchanges"][-1]["body"]
    if "$spec" in body:
        body = spec_response(body["$spec"], body["$response"])["body"]

    def leaves(error: dict[str, Any]) -> list[str]:
        return [c for d in error["details"] for c in leaves(d)] if error.get("details") else [error["code"]]

    return leaves(body["error"])


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["preflight", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_accepted_template_exits_0_and_sends_the_exported_template(
    azure: Any, capsys: pytest.CaptureFixture[str], plans: dict[str, Any]
) -> None:
    fake = azure("validate-accepted")
    code, out, err = run(capsys, "training-a100", "--subscription", SUBSCRIPTION)
    plans.clear()  # export-arm plans the stack again: the template sent is the one a plan of its own exports
    assert main(["export-arm", "training-a100"]) == 0
    exported = json.loads(capsys.readouterr().out)
    sent = fake.replay.sent

    assert code == 0, err
    assert "accepted" in out
    assert (
        sent[0][0] == "POST"
        and f"/subscriptions/{SUBSCRIPTION}/providers/Microsoft.Resources/deployments/" in sent[0][1]
    )
    assert sent[0][2]["properties"]["template"] == exported
    assert sent[0][2]["location"] == "eastus"


def test_nested_invalid_template_is_reported_by_its_innermost_error(
    azure: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    azure("validate-invalid-template")
    code, out, err = run(capsys, "training-a100", "--subscription", SUBSCRIPTION, "--json")
    report = json.loads(out)

    assert code == 1, err
    assert report["formatVersion"] == 1
    assert [f["code"] for f in report["azure"]["findings"]] == innermost_codes("validate-invalid-template")
    assert report["azure"]["findings"][0]["urn"] is None  # its target ('a') is no resource of this stack


def test_quota_refusal_points_at_the_scale_set_and_its_size_in_the_stack_file(
    azure: Any, capsys: pytest.CaptureFixture[str], shipped_plans: dict[str, Any]
) -> None:
    azure("validate-quota")
    code, out, err = run(capsys, "training-a100", "--subscription", SUBSCRIPTION, "--format", "json")
    finding = json.loads(out)["azure"]["findings"][0]
    scale_set = next(r for r in shipped_plans["training-a100"].resources if r.type.endswith(":VirtualMachineScaleSet"))
    size = scale_set.plain_inputs()["sku"]["name"]
    lines = (REPO / "stacks" / "Pulumi.training-a100.yaml").read_text().splitlines()
    size_line = next(n for n, line in enumerate(lines, 1) if re.match(rf"\s*vmSize:\s*{size}\s*(#.*)?$", line))

    assert code == 1
    assert finding["code"] == innermost_codes("validate-quota")[0]
    assert finding["urn"] == scale_set.urn
    assert (finding["stackKey"], finding["line"]) == ("azure-gpu-stacks:trainingCluster.vmSize", size_line)


def test_policy_deny_names_the_resource_group(
    azure: Any, capsys: pytest.CaptureFixture[str], shipped_plans: dict[str, Any]
) -> None:
    azure("validate-policy")
    code, out, err = run(capsys, "training-a100", "--subscription", SUBSCRIPTION)
    group = next(r for r in shipped_plans["training-a100"].resources if r.type.endswith(":ResourceGroup"))

    assert code == 1
    assert f"- {group.name}" in out and "RequestDisallowedByPolicy" in out


def test_throttling_waits_as_retry_after_says_then_goes_on(azure: Any, capsys: pytest.CaptureFixture[str]) -> None:
    fake = azure("validate-throttled")
    code, out, err = run(capsys, "training-a100", "--subscription", SUBSCRIPTION)
    retry_after = float(recorded("validate-throttled")["exchanges"][0]["headers"]["Retry-After"])

    assert code == 0, err
    assert fake.transport.waits == [retry_after]
    assert fake.replay.exchanges == []


@pytest.mark.parametrize("case", ["validate-long-running", "what-if-long-running"])
def test_a_long_running_answer_is_polled_to_its_end(azure: Any, capsys: pytest.CaptureFixture[str], case: str) -> None:
    fake = azure(case)
    what_if = ("--what-if",) if case.startswith("what-if") else ()
    code, out, err = run(capsys, "training-a100", "--subscription", SUBSCRIPTION, *what_if)

    assert code == 0, err
    assert fake.replay.exchanges == []  # every poll the recording holds was made
    assert [m for m, _, _ in fake.replay.sent].count("GET") == sum(
        1 for e in recorded(case)["exchanges"] if e["method"] == "GET"
    )


def test_what_if_lists_each_change(azure: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.arm_replay import spec_response

    azure("what-if")
    code, out, err = run(capsys, "training-a100", "--subscription", SUBSCRIPTION, "--what-if", "--format", "json")
    changes = spec_response("PostDeploymentWhatIfOnSubscription.json", "200")["body"]["properties"]["changes"]

    assert code == 0, err
    got = json.loads(out)["azure"]["changes"]
    assert [(c["resourceId"], c["changeType"]) for c in got] == [(c["resourceId"], c["changeType"]) for c in changes]


@pytest.mark.parametrize("cloud", ["AzureChinaCloud", "AzureUSGovernment", "AzureCloud"])
def test_a_sovereign_cloud_is_reached_at_its_own_endpoint_and_scope(
    azure: Any, capsys: pytest.CaptureFixture[str], cloud: str
) -> None:
    from azure.core import AzureClouds
    from azure.mgmt.core.tools import get_arm_endpoints
    from azure_gpu_stacks.engine.arm.clouds import CLOUDS

    fake = azure("validate-accepted")
    code, _, err = run(capsys, "inference-t4", "--subscription", SUBSCRIPTION, "--cloud", cloud)
    endpoints = get_arm_endpoints(AzureClouds[CLOUDS[cloud][0]])

    assert code == 0, err
    assert fake.replay.sent[0][1].startswith(endpoints["resource_manager"])
    assert fake.credential.scopes[0] == tuple(endpoints["credential_scopes"])


@pytest.mark.parametrize("fmt", ["markdown", "sarif", "text", "json"])
def test_every_format_carries_azure_s_code_and_the_offline_verdict(
    azure: Any, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    azure("validate-policy")
    code, out, _ = run(capsys, "training-a100", "--subscription", SUBSCRIPTION, "--format", fmt)

    assert code == 1 and "RequestDisallowedByPolicy" in out
    if fmt == "sarif":
        result = json.loads(out)["runs"][0]["results"][0]
        assert result["ruleId"].endswith("RequestDisallowedByPolicy")
    if fmt in ("markdown", "text"):
        assert "offline" in out


def test_the_fidelity_record_sets_azure_beside_the_offline_verdict(
    azure: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path, shipped_plans: dict[str, Any]
) -> None:
    azure("validate-quota")
    record = tmp_path / "record.json"
    code, _, err = run(capsys, "training-a100", "--subscription", SUBSCRIPTION, "--record", str(record))
    rows = {r["urn"]: r for r in json.loads(record.read_text())["resources"]}
    scale_set = next(r for r in shipped_plans["training-a100"].resources if r.type.endswith(":VirtualMachineScaleSet"))
    azure_resources = [r for r in shipped_plans["training-a100"].resources if r.custom]

    assert code == 1, err
    assert set(rows) == {r.urn for r in azure_resources}
    assert rows[scale_set.urn]["agreement"] == "refused by Azure only"  # offline, the quota is not known
    assert {r["agreement"] for u, r in rows.items() if u != scale_set.urn} == {"agree"}
    assert all(re.fullmatch(r"[0-9a-f]{64}", r["bodySha256"]) for r in rows.values())


def test_no_secret_reaches_the_request_log_the_output_or_the_record(
    azure: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from tests.engine.arm.test_export_arm import MARKER, SECRET_PROGRAM

    root = tmp_path / "secretive"
    root.mkdir()
    (root / "Pulumi.yaml").write_text("name: secretive\nruntime: python\n")
    (root / "__main__.py").write_text(SECRET_PROGRAM)
    (root / "Pulumi.dev.yaml").write_text("config: {}\n")
    fake = azure("validate-accepted")
    record = tmp_path / "record.json"
    code, out, err = run(
        capsys,
        "dev",
        "--project",
        str(root),
        "--subscription",
        SUBSCRIPTION,
        "--record",
        str(record),
        "--format",
        "json",
    )
    sent = fake.replay.sent[0][2]

    assert code == 0, err
    assert MARKER in json.dumps(sent["properties"]["parameters"])  # Azure gets the value to validate...
    assert MARKER not in json.dumps(sent["properties"]["template"])  # ...never inside the template
    assert MARKER not in out + err + record.read_text()


def test_without_the_azure_extra_one_line_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(preflight, "azure_installed", lambda: False)
    code, out, err = run(capsys, "training-a100", "--subscription", SUBSCRIPTION)

    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "pip install 'azure-gpu-stacks[azure]'" in err
    assert main(["plan", "inference-t4"]) in (0, 1)  # every other command works as before


def test_a_subscription_that_is_not_an_id_is_refused_before_anything_runs(
    azure: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = azure("validate-accepted")
    code, out, err = run(capsys, "training-a100", "--subscription", "my-subscription")

    assert code == 2 and out == "" and fake.replay.sent == []
    assert err.count("\n") == 1 and "'my-subscription'" in err and "allowed:" in err


def test_a_what_if_change_is_mapped_to_the_resource_s_urn(shipped_plans: dict[str, Any]) -> None:
    from azure_gpu_stacks.engine.arm.template import export
    from azure_gpu_stacks.engine.arm.verdict import resource_by_id

    plan = shipped_plans["training-a100"]
    group = next(r for r in plan.resources if r.type.endswith(":ResourceGroup"))
    change_id = f"/subscriptions/{SUBSCRIPTION}/resourceGroups/{group.plain_inputs()['resourceGroupName']}"
    template = export(plan.resources, project=plan.project, stack=plan.stack, identity=plan.identity)

    found = resource_by_id(change_id, template)
    assert found is not None and found.urn == group.urn
    assert resource_by_id(f"/subscriptions/{SUBSCRIPTION}/resourceGroups/someone-elses", template) is None
