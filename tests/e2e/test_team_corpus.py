"""Team-shaped Pulumi projects (tests/data/teams/), written as Pulumi's docs and examples write
them, planned and checked offline with the result `pulumi preview` would give.

Each case: the project, the stack, extra flags, the exit code, and what the plan must show. What
only a real preview could say (provider defaults, Azure's live answers) is not claimed here.

Each case of CHECKS is checked once for the file (`checked`), writing every format in that one run: the
verdict tests read its exit code and text, the tests of what a plan shows read its JSON, whose stack
document is what `plan --json` prints (test_check_json_holds_what_plan_json_prints). The tests whose point
is a command's exit 2 and its one stderr line run that command themselves.
"""

from __future__ import annotations

import contextlib
import io
import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from azure_gpu_stacks.engine.cli import main

from tests.conftest import REPO
from tests.shared_plans import corpus, plans_shared

TEAMS = REPO / "tests" / "data" / "teams"
# with tests/engine/arm/test_arm_round_trip.py, which replays the same stacks' plans: one process plans each once
pytestmark = pytest.mark.xdist_group("team-corpus")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def by_name(document: dict) -> dict[str, dict]:
    return {r["name"]: r for r in document["resources"]}


def test_every_team_project_is_in_this_table() -> None:
    assert sorted(p.name for p in TEAMS.iterdir()) == sorted({case[0] for case in CHECKS})


# team, stack, extra flags, exit code of `gpu-stacks check`
CHECKS = [
    ("vision-team", "dev", (), 0),
    ("research-team", "dev", (), 0),
    ("research-team", "prod", (), 0),
    ("inference-team", "prod", (), 0),
    ("inference-team", "staging", (), 2),
    ("llm-team", "dev", (), 0),
    ("platform-team", "dev", ("--existing", str(TEAMS / "platform-team" / "existing.json")), 0),
    ("platform-team", "westus", ("--existing", str(TEAMS / "platform-team" / "existing.json")), 1),
    ("platform-team", "dev", (), 2),
    ("k8s-team", "dev", ("--existing", str(TEAMS / "k8s-team" / "existing.json")), 0),
    ("k8s-team", "clash", ("--existing", str(TEAMS / "k8s-team" / "existing.json")), 1),
    ("k8s-team", "dev", (), 2),
    ("k8s-team", "operator", ("--existing", str(TEAMS / "k8s-team" / "existing.json")), 0),
    ("k8s-team", "byo", ("--existing", str(TEAMS / "k8s-team" / "existing.json")), 0),
    ("k8s-team", "handrolled", ("--existing", str(TEAMS / "k8s-team" / "existing.json")), 1),
    ("render-team", "dev", (), 0),
    ("render-team", "sample", (), 1),
    ("render-team", "lowpri", (), 1),
]


FORMATS = ("json", "markdown", "sarif")  # written to files beside the text on stdout


@dataclass(frozen=True)
class Checked:
    """One `gpu-stacks check STACK --project TEAM [EXTRA]` run: its exit code, stdout (text), stderr, and the
    other formats it wrote (none where the stack could not be evaluated)."""

    code: int
    out: str
    err: str
    written: dict[str, str]

    def document(self) -> dict:
        """The stack's plan document of the check's JSON (a fresh copy for each caller)."""
        [stack] = json.loads(self.written["json"])["stacks"]
        return stack


CheckedCases = dict[tuple[str, str, tuple[str, ...]], Checked]  # (team, stack, extra) of CHECKS -> its run


@pytest.fixture(scope="session")  # this file's only; not module-scoped, which would give the file a group of its own
def checked(tmp_path_factory: pytest.TempPathFactory) -> CheckedCases:
    """Every case of CHECKS checked once, in-process as the tests above run the CLI; its plans are kept for
    tests/engine/arm/test_arm_round_trip.py (tests/shared_plans.py's corpus "teams")."""
    results = {}
    for index, (team, stack, extra, _) in enumerate(CHECKS):
        folder = tmp_path_factory.mktemp(f"check-{index}")
        files = {fmt: folder / f"report.{fmt}" for fmt in FORMATS}
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), plans_shared(plans=corpus("teams")):
            code = main(
                ["check", stack, "--project", str(TEAMS / team), *extra]
                + [f"--format={fmt}={path}" for fmt, path in files.items()]
                + ["--format", "text"]
            )
        written = {fmt: path.read_text() for fmt, path in files.items() if path.exists()}
        results[(team, stack, extra)] = Checked(code, out.getvalue(), err.getvalue(), written)
    return results


def plan(checked: CheckedCases, team: str, stack: str, *extra: str) -> dict:
    """What `gpu-stacks plan STACK --project TEAM --json [EXTRA]` prints for a case of CHECKS that plans."""
    result = checked[(team, stack, extra)]
    assert result.code in (0, 1), result.err
    return result.document()


@pytest.mark.parametrize(("team", "stack", "extra", "code"), CHECKS, ids=[f"{c[0]}-{c[1]}-{len(c[2])}" for c in CHECKS])
def test_check_gives_the_verdict_a_preview_would(
    checked: CheckedCases, team: str, stack: str, extra: tuple[str, ...], code: int
) -> None:
    result = checked[(team, stack, extra)]
    assert result.code == code, result.out + result.err
    if code == 0:
        assert result.out.startswith(f"OK: {stack} deploys as planned")


def test_check_json_holds_what_plan_json_prints(capsys: pytest.CaptureFixture[str], checked: CheckedCases) -> None:
    """The tests below read a plan's document from the check's JSON: it is `plan --json`'s, key for key (here
    of the platform team's stack, which joins resources it looks up in an --existing file)."""
    code, out, err = run(capsys, "plan", "dev", "--project", str(TEAMS / "platform-team"), "--json", *PLATFORM)

    assert code == 0, err
    assert json.loads(out) == checked[("platform-team", "dev", PLATFORM)].document()


def test_vision_team_runs_its_program_from_infra_with_its_modules_and_files(
    checked: CheckedCases,
) -> None:
    document = plan(checked, "vision-team", "dev")
    names = by_name(document)

    assert names["box-vm"]["inputs"]["hardwareProfile"] == {"vmSize": "Standard_NC8as_T4_v3"}  # infra/vm-size.txt
    assert {"vnet", "gpu", "budget-budget"} <= set(names)  # infra/network.py, infra/budget.py
    assert "box-vnet" not in names  # the VM joined the team's subnet instead of making its own
    assert names["budget-budget"]["inputs"]["amount"] == 400  # the declared default of budgetUsd
    assert document["refusals"] == []


def test_research_team_component_parents_the_toolkits_components(
    checked: CheckedCases,
) -> None:
    document = plan(checked, "research-team", "dev")
    names = by_name(document)

    assert sorted(r["name"] for r in document["resources"] if r["type"] == "research:index:GpuWorkstation") == [
        "ada",
        "grace",
    ]
    assert names["ada-vm"]["parent"].endswith("research:index:GpuWorkstation::ada")
    assert names["ada-vm"]["urn"] == (
        "urn:pulumi:dev::research-team::research:index:GpuWorkstation$azure-gpu-stacks:index:GpuVm::ada-vm"
    )
    assert document["outputs"]["stack"] == "organization/research-team/dev"


def test_research_team_prod_takes_its_own_size(checked: CheckedCases) -> None:
    names = by_name(plan(checked, "research-team", "prod"))

    assert names["ada-vm-vm"]["inputs"]["hardwareProfile"] == {"vmSize": "Standard_NC24ads_A100_v4"}
    assert "grace" not in names


def test_inference_team_joins_the_network_stacks_subnet(
    checked: CheckedCases,
) -> None:
    document = plan(checked, "inference-team", "prod")
    nic = by_name(document)["infer-nic"]["inputs"]

    assert nic["ipConfigurations"][0]["subnet"]["id"].endswith("/virtualNetworks/vnet-hub/subnets/gpu")
    assert document["outputs"]["workspaceKey"] == "[secret]"
    assert document["outputs"]["hubVnet"] == "vnet-hub"


def test_inference_team_staging_has_no_network_outputs_offline(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "plan", "staging", "--project", str(TEAMS / "inference-team"))

    assert (code, out) == (2, "")
    assert err.startswith(
        "gpu-stacks: error: StackReference 'acme/network/staging': no outputs of that stack offline; "
    )


def test_llm_team_secrets_reach_key_vault_and_appear_nowhere(
    checked: CheckedCases,
) -> None:
    document = plan(checked, "llm-team", "dev")
    names = by_name(document)

    assert names["hf-token"]["inputs"]["properties"] == {"value": "[secret]"}
    assert names["db-password"]["inputs"]["properties"] == {"value": "[secret]"}
    assert document["outputs"]["hfOrg"] == "[secret]"  # from a secret object: Pulumi keeps it secret
    result = checked[("llm-team", "dev", ())]
    assert set(result.written) == set(FORMATS)
    for out in (result.out, *result.written.values()):
        assert "acme-ml" not in out and "v1:" not in out


def test_llm_team_plain_password_is_refused_as_pulumi_refuses_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stack = tmp_path / "Pulumi.dev.yaml"
    text = (TEAMS / "llm-team" / "Pulumi.dev.yaml").read_text()
    stack.write_text(
        text.replace(
            "llm-team:dbPassword:\n    secure: v1:ZGItcGFzc3dvcmQtY2lwaGVydGV4dA==",
            "llm-team:dbPassword: S3cret-Plain-Pass",
        )
    )

    code, out, err = run(capsys, "plan", str(stack), "--project", str(TEAMS / "llm-team"))
    assert (code, out) == (2, "")
    assert "must be encrypted as it's secret" in err and "S3cret" not in err


PLATFORM = ("--existing", str(TEAMS / "platform-team" / "existing.json"))
K8S = ("--existing", str(TEAMS / "k8s-team" / "existing.json"))
SUBSCRIPTION = "3f2c8a41-6b7d-4e15-9c0a-2d5e7f1b9a64"  # the one the --existing files were saved from


def test_platform_team_joins_the_existing_hub_subnet_by_id(
    checked: CheckedCases,
) -> None:
    document = plan(checked, "platform-team", "dev", *PLATFORM)
    names = by_name(document)
    hub = f"/subscriptions/{SUBSCRIPTION}/resourceGroups/rg-hub/providers/Microsoft.Network/virtualNetworks/vnet-hub"

    assert names["gpu-nic"]["inputs"]["ipConfigurations"][0]["subnet"]["id"] == f"{hub}/subnets/gpu"
    assert names["rg"]["inputs"]["location"] == "eastus"  # the hub's region, from the look-up
    assert document["outputs"]["hubVnetId"] == hub
    assert document["outputs"]["sshCommand"] is None  # the NIC's dynamic address: Azure's, known after deployment
    assert "gpu-vnet" not in names


def test_platform_team_in_another_region_is_refused_as_azure_refuses_it(
    checked: CheckedCases,
) -> None:
    result = checked[("platform-team", "westus", PLATFORM)]  # the refusal's line, as `plan` prints it too
    code, out = result.code, result.out

    assert code == 1
    assert (
        "  - gpu-nic [azure-native:network:NetworkInterface]: InvalidResourceReference: Resource /subscriptions/" in out
    )
    assert "both resources are in the same region (eastus, not westus2)" in out


def test_a_look_up_with_no_existing_file_names_the_function_the_id_and_the_fix(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "plan", "dev", "--project", str(TEAMS / "platform-team"))

    assert (code, out) == (2, "")
    current = "$(az account show --query id -o tsv)"
    vnet = f"/subscriptions/{current}/resourceGroups/rg-hub/providers/Microsoft.Network/virtualNetworks/vnet-hub"
    assert err == (
        "gpu-stacks: error: invoke of azure-native:network:getVirtualNetwork failed: ResourceNotFound: The Resource "
        f"'{vnet}' was not found; offline, save it with `az resource show --ids {vnet} -o json > FILE` and pass "
        "--existing FILE.\n"
    )


def test_k8s_team_adds_its_pool_to_the_shared_cluster(checked: CheckedCases) -> None:
    document = plan(checked, "k8s-team", "dev", *K8S)
    names = by_name(document)

    assert "azure-native:containerservice:ManagedCluster" not in {r["type"] for r in document["resources"]}
    pool = (
        names["t4-gpu-pool"]["inputs"]
        if "t4-gpu-pool" in names
        else next(r["inputs"] for r in document["resources"] if r["type"] == "azure-native:containerservice:AgentPool")
    )
    assert (pool["resourceGroupName"], pool["resourceName"]) == ("rg-aks", "aks-shared")
    assert document["outputs"]["clusterVersion"] == "1.33"


def test_k8s_team_pool_named_like_an_inline_pool_is_refused(
    checked: CheckedCases,
) -> None:
    result = checked[("k8s-team", "clash", K8S)]  # the refusal's line, as `plan` prints it too
    code, out = result.code, result.out

    assert code == 1
    assert "Conflict: Managed cluster 'aks-shared' already has an agent pool named 'system'." in out


def test_existing_files_are_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "existing.json"
    bad.write_text(json.dumps({"id": "vnet-hub", "name": "vnet-hub"}))

    code, out, err = run(capsys, "plan", "dev", "--project", str(TEAMS / "platform-team"), "--existing", str(bad))
    assert (code, out) == (2, "")
    assert err == (
        f"gpu-stacks: error: {bad}: id: 'vnet-hub'; allowed: an ARM resource id "
        "(/subscriptions/<id>/resourceGroups/<group>/providers/...)\n"
    )


def test_k8s_team_hand_rolled_operator_beside_the_device_plugin_is_found_by_the_ownership_policy(
    checked: CheckedCases,
) -> None:
    result = checked[("k8s-team", "handrolled", K8S)]
    code = result.code
    violations = [v for v in result.document()["violations"] if v["policy"] == "aks-gpu-driver-ownership"]

    assert code == 1
    assert any("2 GPU advertisers" in v["message"] for v in violations)
    assert any("driver.enabled=True, toolkit.enabled=True" in v["message"] for v in violations)


def test_render_team_batch_sample_is_judged_as_azure_would(
    checked: CheckedCases,
) -> None:
    """The Batch quickstart's pool (Standard_NC6s_v3, retired 2025-09-30) is refused; low-priority nodes in a
    Batch-managed account (retired 2025-09-30) are refused by ARM and by the pack."""

    def refused_plan(stack: str) -> dict:
        result = checked[("render-team", stack, ())]
        assert result.code == 1
        return result.document()

    sample = refused_plan("sample")
    assert [(r["resource"], r["code"]) for r in sample["refusals"]] == [("render-pool", "SkuNotAvailable")]
    assert {v["policy"] for v in sample["violations"] if v["level"] == "mandatory"} == {
        "disallow-retired-vm-sizes",
        "disallow-batch-low-priority-nodes",
    }

    lowpri = refused_plan("lowpri")
    assert [(r["resource"], r["code"]) for r in lowpri["refusals"]] == [("render-pool", "InvalidPropertyValue")]
    assert "low-priority nodes were retired on 2025-09-30" in lowpri["refusals"][0]["message"]


def test_render_team_pool_idles_at_zero_nodes(checked: CheckedCases) -> None:
    document = plan(checked, "render-team", "dev")

    assert document["refusals"] == []
    [line] = document["cost"]["resources"]
    assert (line["resource"], line["count"], line["idleCount"]) == ("render-pool", 4, 0)
