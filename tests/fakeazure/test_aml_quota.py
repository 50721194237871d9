"""Azure ML clusters against Azure ML's own quota: `--aml-usage` (the JSON of `az ml compute
list-usage` or of the REST usages list), the fake ARM's refusal, and `quota` and `check` agreeing.

The fixtures tests/data/aml-list-usage-rest.json and aml-list-usage-cli.json hold the same
counters in the two shapes: the REST list (`{"value": [...]}`, camelCase, as in the spec's
examples/Usage/list.json) and the CLI's bare list (azure-ai-ml's snake_case). Both carry what the
spec's example carries: the `Clusters` count, per-workspace and per-compute entries and per-family
LowPriority entries with limit -1, which are not the subscription's vCPU quota.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from azure_gpu_stacks.catalog.az_files import Usage, family_key, read_aml_usage
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.fakeazure.backend import FakeArm

from tests.conftest import REPO, Recording, in_resource_group
from tests.fakeazure.test_fakeazure_aml import cluster, dependencies, refusal_of, workspace
from tests.shared_plans import plans_shared


@pytest.fixture(scope="module", autouse=True)
def plans() -> Iterator[dict[str, Any]]:
    """The file's plans by their arguments (tests/shared_plans.py): `quota` plans a stack without the limits,
    whatever the usage file, so its cases of one stack read one plan (`check` plans with them)."""
    with plans_shared() as plans:
        yield plans


DATA = REPO / "tests" / "data"
AML_REST = DATA / "aml-list-usage-rest.json"
AML_CLI = DATA / "aml-list-usage-cli.json"
A100_FAMILY = "Standard NCADSA100v4 Family Cluster Dedicated vCPUs"  # aml-gpu: 4 x Standard_NC24ads_A100_v4
T4_FAMILY = "Standard NCASv3_T4 Family Cluster Dedicated vCPUs"
DEDICATED = "Total Cluster Dedicated Regional vCPUs"
LOW_PRIORITY = "Total Cluster LowPriority Regional vCPUs"
COMMAND = "az ml compute list-usage --resource-group RG --workspace-name WS -o json"


def aml_usage(tmp_path: Path, counters: dict[str, tuple[int, int]], *, rest: bool = True) -> Path:
    """A usage file with `counters` (name -> (current, limit)) as the subscription's, in either shape."""
    sub = "/subscriptions/00000000-0000-0000-0000-000000000000"
    entries = []
    for name, (current, limit) in counters.items():
        if rest:
            entries.append(
                {
                    "id": f"{sub}/usages",
                    "currentValue": current,
                    "limit": limit,
                    "name": {"value": name, "localizedValue": name},
                }
            )
        else:
            entries.append(
                {
                    "id": f"{sub}/usages",
                    "current_value": current,
                    "limit": limit,
                    "name": {"value": name, "localized_value": name},
                }
            )
    path = tmp_path / "aml-usage.json"
    path.write_text(json.dumps({"value": entries} if rest else entries))
    return path


def low_priority_stack(tmp_path: Path) -> Path:
    """The shipped aml-gpu stack with LowPriority nodes."""
    stack = yaml.safe_load((REPO / "stacks" / "Pulumi.aml-gpu.yaml").read_text())
    stack["config"]["azure-gpu-stacks:amlCluster"]["vmPriority"] = "LowPriority"
    path = tmp_path / "Pulumi.aml-lowpri.yaml"
    path.write_text(yaml.safe_dump(stack))
    return path


def low_priority_cluster(rg: Any, workspace_name: Any, name: str, max_nodes: int) -> Any:
    """A LowPriority cluster of 0 to `max_nodes` x Standard_NC4as_T4_v3 (4 vCPUs)."""
    from pulumi_azure_native import machinelearningservices as ml

    return ml.Compute(
        name,
        compute_name=name,
        workspace_name=workspace_name,
        resource_group_name=rg.name,
        properties=ml.AmlComputeArgs(
            compute_type="AmlCompute",
            properties=ml.AmlComputePropertiesArgs(
                vm_size="Standard_NC4as_T4_v3",
                vm_priority="LowPriority",
                enable_node_public_ip=True,
                scale_settings=ml.ScaleSettingsArgs(min_node_count=0, max_node_count=max_nodes),
            ),
        ),
    )


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- the file ------------------------------------------------------------------------------------


def test_aml_usage_cli_list_and_rest_value_read_the_same() -> None:
    cli, rest = read_aml_usage(AML_CLI), read_aml_usage(AML_REST)

    assert cli == rest
    # Kept: the subscription's counters. Left out: per-workspace and per-compute entries, and the
    # per-family LowPriority entries whose limit is -1 (the regional low-priority total holds them).
    assert sorted(u.family for u in rest.values()) == sorted(
        [
            "Clusters",
            DEDICATED,
            "Standard DSv2 Family Cluster Dedicated vCPUs",
            T4_FAMILY,
            A100_FAMILY,
            "Standard NDAMSv4_A100 Family Cluster Dedicated vCPUs",
            LOW_PRIORITY,
        ]
    )
    assert rest[family_key(A100_FAMILY)] == Usage(A100_FAMILY, 24, 120)  # not the workspace's or the compute's 24/120


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            '{"value": "eastus"}',
            "value: 'eastus' is not a list; allowed: the JSON that `az ml compute list-usage --resource-group RG "
            "--workspace-name WS -o json` writes (a list), or the REST list of "
            'Microsoft.MachineLearningServices/locations/REGION/usages ({"value": [...]})',
        ),
        (
            '{"value": [{"currentValue": 1, "limit": -2, "name": {"value": "Total Cluster Dedicated Regional '
            'vCPUs"}}]}',
            "value[0].limit: -2 is not allowed; allowed: -1 (no limit of its own) or a whole number from 0 to 2^63-1",
        ),
        (
            '[{"current_value": "many", "limit": 24, "name": {"value": "Total Cluster Dedicated Regional vCPUs"}}]',
            "entry [0].current_value: 'many' is not a whole number; allowed: a whole number from 0 to 2^63-1",
        ),
        (
            '[{"limit": 24, "name": {"value": "Total Cluster Dedicated Regional vCPUs"}}]',
            "entry [0].currentValue: missing; allowed: the JSON that `az ml compute list-usage",
        ),
        (
            '[{"currentValue": "0", "limit": "24", "name": {"value": "standardNCASv3_T4Family"}}]',
            "no Azure ML regional total (Total Cluster Dedicated Regional vCPUs or Total Cluster LowPriority "
            "Regional vCPUs) among the subscription's counters; allowed: the JSON that `az ml compute list-usage",
        ),
        ('{"usages": []}', "expected the JSON that `az ml compute list-usage"),
    ],
    ids=[
        "value-not-a-list",
        "limit-below-minus-1",
        "current-not-a-number",
        "current-missing",
        "a-vm-usage-file",
        "no-value",
    ],
)
def test_aml_usage_malformed_file_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, expected: str
) -> None:
    path = tmp_path / "aml-usage.json"
    path.write_text(text)

    for command in ("quota", "check"):
        code, out, err = run(capsys, command, "aml-gpu", "--aml-usage", str(path))

        assert code == 2
        assert out == ""
        assert err.startswith(f"gpu-stacks: error: {path}: {expected}")
        assert err.count("\n") == 1 and "Traceback" not in err


# --- gpu-stacks quota ------------------------------------------------------------------------------


def test_quota_judges_the_aml_cluster_against_azure_ml_quota_not_compute(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "quota",
        "aml-gpu",
        "--aml-usage",
        str(AML_CLI),
        "--usage",
        str(DATA / "list-usage-cli.json"),
        "--format",
        "json",
    )
    report = json.loads(out)

    assert code == 0
    assert report["amlLimitsFrom"] == str(AML_CLI)
    assert [
        (r["provider"], r["family"], r["needed"], r["limit"], r["free"], r["verdict"]) for r in report["quota"]
    ] == [
        ("Microsoft.MachineLearningServices", A100_FAMILY, 96, 120, 96, "exact"),
        ("Microsoft.MachineLearningServices", DEDICATED, 96, 300, 272, "ok"),
    ]
    assert report["quota"][0]["resources"] == ["aml-cluster"]


def test_quota_aml_shortfall_prints_the_azure_ml_remedy_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    usage = aml_usage(tmp_path, {A100_FAMILY: (24, 96), DEDICATED: (0, 300)})

    code, out, _ = run(capsys, "quota", "aml-gpu", "--aml-usage", str(usage))

    assert code == 1
    assert f"eastus  {A100_FAMILY}      96     96    72  short" in out
    assert (
        "To request more Azure ML quota:\n"
        f"  {A100_FAMILY} in eastus: short by 24 vCPUs; request a limit of at least 120:\n"
        "    Azure ML quota, apart from the VM quota: in the Azure portal open the workspace > Usage + quotas > "
        f"region eastus > {A100_FAMILY} > Request quota > 120\n"
        "    or in Azure Machine Learning studio: https://ml.azure.com/quota\n"
    ) in out
    assert "az quota update" not in out  # that is Compute's remedy, not Azure ML's
    assert out.rstrip().endswith("FAILED: aml-gpu: not enough quota, or a size not available.")


def test_quota_without_aml_usage_says_azure_ml_quota_was_not_checked(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "quota", "aml-gpu", "--usage", str(DATA / "list-usage-cli.json"))

    assert code == 0
    assert f"eastus  {A100_FAMILY}      96      ?     ?  no limits" in out
    assert f"Azure ML quota not checked: pass --aml-usage FILE, saved by `{COMMAND}`." in out
    assert out.rstrip().endswith("aml-gpu: needs listed; no limits to compare them with.")


def test_quota_aml_family_missing_from_the_file_is_not_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    usage = aml_usage(tmp_path, {DEDICATED: (0, 300)}, rest=False)

    code, out, _ = run(capsys, "quota", "aml-gpu", "--aml-usage", str(usage))

    assert code == 0
    assert f"Not in the limits: {A100_FAMILY} (eastus)" in out


# --- the fake ARM through the Pulumi mocks --------------------------------------------------------


def test_fake_refuses_an_aml_cluster_whose_nodes_exceed_its_family_quota(
    record: Callable[..., Recording], fake_arm: FakeArm
) -> None:
    fake_arm.aml_usage = {
        family_key(T4_FAMILY): Usage(T4_FAMILY, 0, 4),
        family_key(DEDICATED): Usage(DEDICATED, 0, 100),
    }

    def build(rg: Any) -> None:
        cluster(rg, workspace(rg, **dependencies(rg)).name)  # 0 to 2 x Standard_NC4as_T4_v3 (4 vCPUs)

    code, message = refusal_of(record(in_resource_group(build)), "cluster")

    assert code == "ClusterMinNodesExceedCoreQuota"
    assert message == (
        "The specified subscription has a Standard NCASv3_T4 family vCPU quota of 4 and cannot accomodate for at least "
        "2 requested managed compute nodes which maps to 8 vCPUs. Talk to your Subscription Admin or refer to "
        "https://learn.microsoft.com/azure/machine-learning/how-to-manage-quotas#vm-quota-increases to increase the "
        f"{T4_FAMILY} quota (in use: 0; location: eastus). The fake ARM counts the cluster at its maxNodeCount; Azure "
        "refuses at creation only what max(minNodeCount, 1) = 1 nodes exceed, and the rest when a job scales up."
    )


def test_fake_low_priority_aml_nodes_draw_on_the_regional_low_priority_pool(
    record: Callable[..., Recording], fake_arm: FakeArm
) -> None:
    fake_arm.aml_usage = {
        family_key(T4_FAMILY): Usage(T4_FAMILY, 0, 0),  # no dedicated T4 quota at all
        family_key(DEDICATED): Usage(DEDICATED, 0, 0),
        family_key(LOW_PRIORITY): Usage(LOW_PRIORITY, 92, 100),
    }

    def build(rg: Any) -> None:
        ws = workspace(rg, **dependencies(rg)).name
        low_priority_cluster(rg, ws, "lowpri-a", 2)  # 2 x 4 vCPUs: the 8 free
        low_priority_cluster(rg, ws, "lowpri-b", 1)  # one node more than the pool holds

    rec = record(in_resource_group(build))

    assert [(r.resource, r.code, r.message.split(". ")[0]) for r in rec.refusals] == [
        (
            "lowpri-b",
            "ClusterMinNodesExceedCoreQuota",
            "The specified subscription has a total vCPU quota of 100 and cannot accomodate for at least 1 requested "
            "managed compute nodes which maps to 4 vCPUs",
        )
    ]
    assert f"increase the {LOW_PRIORITY} quota (in use: 100; location: eastus)" in rec.refusals[0].message


def test_fake_aml_nodes_do_not_draw_on_the_compute_quota(record: Callable[..., Recording], fake_arm: FakeArm) -> None:
    fake_arm.usage = {
        family_key("standardNCASv3_T4Family"): Usage("standardNCASv3_T4Family", 0, 0),
        family_key("cores"): Usage("cores", 0, 0),
    }

    def build(rg: Any) -> None:
        cluster(rg, workspace(rg, **dependencies(rg)).name)

    assert record(in_resource_group(build)).refusals == []


def test_fake_compute_instance_takes_one_node_of_azure_ml_quota(
    record: Callable[..., Recording], fake_arm: FakeArm
) -> None:
    fake_arm.aml_usage = {
        family_key(T4_FAMILY): Usage(T4_FAMILY, 0, 4),
        family_key(DEDICATED): Usage(DEDICATED, 0, 100),
    }

    def build(rg: Any) -> None:
        from pulumi_azure_native import machinelearningservices as ml

        ws = workspace(rg, **dependencies(rg)).name
        for name in ("ci-one", "ci-two"):
            ml.Compute(
                name,
                compute_name=name,
                workspace_name=ws,
                resource_group_name=rg.name,
                properties=ml.ComputeInstanceArgs(
                    compute_type="ComputeInstance",
                    properties=ml.ComputeInstancePropertiesArgs(vm_size="Standard_NC4as_T4_v3"),
                ),
            )

    rec = record(in_resource_group(build))

    assert [(r.resource, r.code) for r in rec.refusals] == [("ci-two", "ClusterMinNodesExceedCoreQuota")]
    assert (
        "quota of 4 and cannot accomodate for at least 1 requested managed compute nodes which maps to 4 vCPUs"
        in rec.refusals[0].message
    )


# --- quota and check agree ------------------------------------------------------------------------

AGREEMENT_CASES = {
    "family-short": ({A100_FAMILY: (24, 96), DEDICATED: (0, 300)}, False, 1),
    "family-exact": ({A100_FAMILY: (24, 120), DEDICATED: (0, 300)}, False, 0),
    "regional-total-short": ({A100_FAMILY: (0, 96), DEDICATED: (210, 300)}, False, 1),
    "low-priority-short": ({A100_FAMILY: (0, 0), DEDICATED: (0, 0), LOW_PRIORITY: (10, 100)}, True, 1),
    "low-priority-enough": ({A100_FAMILY: (0, 0), DEDICATED: (0, 0), LOW_PRIORITY: (4, 100)}, True, 0),
    "family-missing": ({DEDICATED: (0, 300)}, False, 0),
}


@pytest.mark.parametrize(
    ("counters", "low_priority", "exit_code"), AGREEMENT_CASES.values(), ids=AGREEMENT_CASES.keys()
)
def test_quota_and_check_give_the_same_verdict_for_the_same_aml_usage(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    counters: dict[str, tuple[int, int]],
    low_priority: bool,
    exit_code: int,
) -> None:
    usage = aml_usage(tmp_path, counters)
    stack = str(low_priority_stack(tmp_path)) if low_priority else "aml-gpu"

    quota_code, quota_out, _ = run(capsys, "quota", stack, "--aml-usage", str(usage), "--format", "json")
    check_code, check_out, _ = run(capsys, "check", stack, "--aml-usage", str(usage), "--format", "json")

    short = [r["family"] for r in json.loads(quota_out)["quota"] if r["verdict"] == "short"]
    refusals = [r for s in json.loads(check_out)["stacks"] for r in s["refusals"]]
    assert quota_code == check_code == exit_code
    assert [r["code"] for r in refusals] == (["ClusterMinNodesExceedCoreQuota"] if short else [])
    for family in short:  # the counter quota calls short is the one the refusal names
        assert f"increase the {family} quota" in refusals[0]["message"]
