"""The aml-gpu stack end to end, as a user runs it: `gpu-stacks plan aml-gpu` and bad stack files."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from azure_gpu_stacks.engine.cli import main

from tests.conftest import REPO
from tests.shared_plans import plans_shared


@pytest.fixture(scope="module", autouse=True)
def plans() -> Iterator[dict[str, Any]]:
    """The file's plans by their arguments (tests/shared_plans.py): the text plan reads the plan of the stack's JSON."""
    with plans_shared() as plans:
        yield plans


COMPUTE = "azure-native:machinelearningservices:Compute"
WORKSPACE = "azure-native:machinelearningservices:Workspace"
STORAGE = "azure-native:storage:StorageAccount"
VAULT = "azure-native:keyvault:Vault"
REGISTRY = "azure-native:containerregistry:Registry"


@pytest.fixture
def plan(shipped_plan_json: Callable[[str], dict[str, Any]]) -> dict[str, Any]:
    """One JSON plan of the shipped stack, planned once for the session."""
    return shipped_plan_json("aml-gpu")


def _plan_json(argv: list[str]) -> dict[str, Any]:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(argv)
    assert code == 0, out.getvalue()
    return json.loads(out.getvalue())


def one(plan: dict[str, Any], type_token: str) -> dict[str, Any]:
    [found] = [r for r in plan["resources"] if r["type"] == type_token]
    return found


def test_aml_stack_plans_clean(plan: dict[str, Any]) -> None:
    assert plan["stack"] == "aml-gpu"
    assert plan["refusals"] == []
    assert {r["type"] for r in plan["resources"]} == {
        "azure-native:resources:ResourceGroup",
        "azure-gpu-stacks:index:AmlCluster",
        STORAGE,
        VAULT,
        REGISTRY,
        "azure-native:operationalinsights:Workspace",
        "azure-native:applicationinsights:Component",
        WORKSPACE,
        COMPUTE,
        "azure-native:monitor:ActionGroup",  # the idle-GPU alarm (gpuIdleAlert), to the budget's contacts
        "azure-native:monitor:MetricAlert",
        "azure-gpu-stacks:index:CostAlert",
        "azure-native:consumption:Budget",
    }


def test_aml_stack_cluster_is_0_to_4_a100_nodes_that_scale_down_after_15_minutes(plan: dict[str, Any]) -> None:
    compute = one(plan, COMPUTE)["inputs"]
    aml = compute["properties"]["properties"]

    assert compute["computeName"] == "a100-cluster"
    assert compute["identity"] == {"type": "SystemAssigned"}
    assert aml["vmSize"] == "Standard_NC24ads_A100_v4"
    assert aml["scaleSettings"] == {"minNodeCount": 0, "maxNodeCount": 4, "nodeIdleTimeBeforeScaleDown": "PT15M"}
    assert (aml["vmPriority"], aml["enableNodePublicIp"], aml["remoteLoginPortPublicAccess"]) == (
        "Dedicated",
        False,
        "Disabled",
    )


def test_aml_stack_workspace_dependencies_are_hardened_and_protected(plan: dict[str, Any]) -> None:
    storage, vault, registry = one(plan, STORAGE), one(plan, VAULT), one(plan, REGISTRY)

    assert (storage["inputs"]["allowBlobPublicAccess"], storage["inputs"]["minimumTlsVersion"]) == (False, "TLS1_2")
    props = vault["inputs"]["properties"]
    assert (props["enableRbacAuthorization"], props["enableSoftDelete"], props["enablePurgeProtection"]) == (
        True,
        True,
        True,
    )
    assert (storage["protect"], vault["protect"], registry["protect"]) == (True, True, True)
    assert one(plan, WORKSPACE)["protect"] is False


def test_aml_stack_workspace_has_identity_and_managed_network(plan: dict[str, Any]) -> None:
    ws = one(plan, WORKSPACE)["inputs"]

    assert ws["identity"] == {"type": "SystemAssigned"}
    assert ws["managedNetwork"]["isolationMode"] == "AllowInternetOutbound"
    assert (
        "/resourceGroups/rg-aml-gpu/providers/Microsoft.ContainerRegistry/registries/craml" in ws["containerRegistry"]
    )


def test_aml_stack_has_a_monthly_budget_on_its_resource_group(plan: dict[str, Any]) -> None:
    budget = one(plan, "azure-native:consumption:Budget")["inputs"]

    assert (budget["amount"], budget["timeGrain"]) == (1000, "Monthly")
    assert budget["scope"].endswith("/resourceGroups/rg-aml-gpu")
    assert len(budget["notifications"]) == 4


def test_aml_stack_outputs_workspace_compute_range_and_studio_url(plan: dict[str, Any]) -> None:
    out = plan["outputs"]
    ws_id = out["amlWorkspaceId"]

    assert ws_id.startswith("/subscriptions/") and ws_id.endswith(f"/workspaces/{out['amlWorkspaceName']}")
    assert "/resourceGroups/rg-aml-gpu/providers/Microsoft.MachineLearningServices/" in ws_id
    assert (out["amlComputeName"], out["amlVmSize"], out["amlNodeRange"]) == (
        "a100-cluster",
        "Standard_NC24ads_A100_v4",
        "0..4",
    )
    assert out["amlStudioUrl"] == f"https://ml.azure.com/?wsid={ws_id}"


def test_aml_stack_text_plan_shows_the_cluster_at_a_glance(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", "aml-gpu"]) == 0
    text = capsys.readouterr().out

    assert (
        "aml-cluster  [azure-native:machinelearningservices:Compute]  size=Standard_NC24ads_A100_v4  "
        "priority=Dedicated  "
        "min nodes=0  max nodes=4  idle=PT15M  node public IP=False  remote login=Disabled"
    ) in text
    assert "[azure-native:keyvault:Vault]  rbac=True  soft delete days=90  purge protection=True  protected" in text
    assert "public blob access=False  min TLS=TLS1_2  protected" in text
    assert "OK: aml-gpu deploys as planned (13 resources)." in text


def write_stack(tmp_path: Path, aml: dict[str, Any]) -> Path:
    """The shipped aml-gpu stack with its amlCluster section replaced."""
    stack = yaml.safe_load((REPO / "stacks" / "Pulumi.aml-gpu.yaml").read_text())
    stack["config"]["azure-gpu-stacks:amlCluster"] = aml
    path = tmp_path / "Pulumi.aml-bad.yaml"
    path.write_text(yaml.safe_dump(stack))
    return path


@pytest.mark.parametrize(
    ("aml", "expected"),
    [
        ({"minNodeCount": 5, "maxNodeCount": 4}, "amlCluster.minNodeCount: 5 is above maxNodeCount 4; allowed: 0 to 4"),
        ({"minNodeCount": -1}, "amlCluster.minNodeCount: -1; allowed: a whole number of nodes, at least 0"),
        ({"maxNodeCount": -4}, "amlCluster.maxNodeCount: -4; allowed: a whole number of nodes, at least 1"),
        ({"idleTimeBeforeScaleDown": "15m"}, "amlCluster.idleTimeBeforeScaleDown: '15m' is not an ISO 8601 duration"),
        (
            {"idleTimeBeforeScaleDown": "PT48H"},
            "amlCluster.idleTimeBeforeScaleDown: 'PT48H' (172800 seconds) is out of range",
        ),
        ({"vmSize": "Standard_E4s_v5"}, "amlCluster.vmSize: 'Standard_E4s_v5' has no GPU; allowed: a GPU size"),
        ({"vmSize": "Standard_NC24s_v3"}, "amlCluster.vmSize: 'Standard_NC24s_v3' was retired on 2025-09-30"),
        ({"vmPriority": "Spot"}, "amlCluster.vmPriority: 'Spot'; allowed: Dedicated, LowPriority"),
        ({"computeName": "x"}, "amlCluster.computeName: 'x' cannot name an Azure ML compute"),
        (
            {"workspaceName": "ml workspace"},
            "amlCluster.workspaceName: 'ml workspace' cannot name an Azure ML workspace",
        ),
        (
            {
                "workspaceId": "/subscriptions/s/resourceGroups/r/providers/Microsoft.MachineLearningServices/"
                "workspaces/w",
                "containerRegistry": True,
            },
            "amlCluster.containerRegistry: only for a new workspace; allowed: leave it unset when workspaceId is given",
        ),
        ({"maxNodes": 4}, "amlCluster.maxNodes: unknown key; did you mean 'maxNodeCount'?"),
    ],
)
def test_aml_stack_bad_config_exits_2_with_the_key_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], aml: dict[str, Any], expected: str
) -> None:
    stack_file = write_stack(tmp_path, aml)
    code = main(["plan", str(stack_file)])
    captured = capsys.readouterr()

    assert code == 2
    assert captured.out == ""
    assert captured.err.startswith(f"gpu-stacks: error: {stack_file}: azure-gpu-stacks:")  # the file actually read
    assert expected in captured.err
    assert "Traceback" not in captured.err


def test_aml_stack_warns_about_nodes_that_bill_while_idle(tmp_path: Path) -> None:
    plan = _plan_json(
        [
            "plan",
            str(write_stack(tmp_path, {"minNodeCount": 1, "maxNodeCount": 2, "vmPriority": "LowPriority"})),
            "--json",
        ]
    )

    assert "azure-gpu-stacks:amlCluster.minNodeCount: 1 node runs, and bills, even when no job does" in plan["warnings"]
    assert any(
        w.startswith("azure-gpu-stacks:amlCluster.vmPriority: low-priority nodes can be preempted")
        for w in plan["warnings"]
    )


def test_aml_stack_plan_exits_0_from_the_command_line() -> None:
    from tests.cli_process import gpu_stacks_process  # its own process, forked from one that imported gpu-stacks

    run = gpu_stacks_process(["plan", "aml-gpu"], cwd=REPO, timeout=120)

    assert run.returncode == 0, run.stderr
    assert run.stdout.rstrip().endswith("OK: aml-gpu deploys as planned (13 resources).")
