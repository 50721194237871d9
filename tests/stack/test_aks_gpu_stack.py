"""The aks-gpu stack end to end: `gpu-stacks plan aks-gpu` and the aksGpuPool config section."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.engine.cli import main

from tests.cli_process import gpu_stacks_process
from tests.conftest import REPO
from tests.shared_plans import plans_shared


@pytest.fixture(scope="module", autouse=True)
def plans() -> Iterator[dict[str, Any]]:
    """The file's plans by their arguments (tests/shared_plans.py): the text plan reads the plan of the stack's JSON."""
    with plans_shared() as plans:
        yield plans


STACK = "aks-gpu"


@pytest.fixture
def planned(shipped_plan_json: Callable[[str], dict[str, Any]]) -> dict[str, Any]:
    """`gpu-stacks plan aks-gpu --json`, planned once for the session (which asserts it exits 0)."""
    return shipped_plan_json(STACK)


def one(plan: dict[str, Any], type_token: str) -> dict[str, Any]:
    [found] = [r for r in plan["resources"] if r["type"] == type_token]
    return found


def write_stack(tmp_path: Path, section: str) -> str:
    path = tmp_path / "Pulumi.bad-aks.yaml"
    path.write_text("config:\n  azure-native:location: eastus\n  azure-gpu-stacks:aksGpuPool:\n" + section)
    return str(path)


def test_aks_gpu_stack_plans_cleanly_warning_only_that_the_device_plugin_needs_kubelogin(
    planned: dict[str, Any],
) -> None:
    plan = planned

    assert plan["refusals"] == []
    [warning] = plan["warnings"]
    assert warning.startswith("AksGpuPool 'aks-gpu': deploying the device plugin reaches the cluster's Kubernetes API")
    assert "run `az aks install-cli` (kubectl and kubelogin), then `export AAD_LOGIN_METHOD=azurecli`" in warning


def test_aks_gpu_stack_gpu_pool_scales_from_zero_to_three_tainted_nodes(planned: dict[str, Any]) -> None:
    pool = one(planned, "azure-native:containerservice:AgentPool")["inputs"]

    assert (pool["vmSize"], pool["mode"], pool["minCount"], pool["maxCount"], pool["count"]) == (
        "Standard_NC4as_T4_v3",
        "User",
        0,
        3,
        0,
    )
    assert pool["nodeTaints"] == ["sku=gpu:NoSchedule"]


def test_aks_gpu_stack_cluster_uses_azure_rbac_without_local_accounts(planned: dict[str, Any]) -> None:
    cluster = one(planned, "azure-native:containerservice:ManagedCluster")["inputs"]

    assert cluster["aadProfile"] == {"managed": True, "enableAzureRBAC": True}
    assert cluster["disableLocalAccounts"] is True
    assert [p["vmSize"] for p in cluster["agentPoolProfiles"]] == ["Standard_D4s_v5"]


def test_aks_gpu_stack_deploys_the_device_plugin_and_a_budget(planned: dict[str, Any]) -> None:
    plan = planned
    daemonset = one(plan, "kubernetes:apps/v1:DaemonSet")["inputs"]

    assert daemonset["spec"]["template"]["spec"]["containers"][0]["image"] == "nvcr.io/nvidia/k8s-device-plugin:v0.18.0"
    assert one(plan, "azure-native:consumption:Budget")["inputs"]["amount"] == 500


def test_aks_gpu_stack_exports_cluster_pool_and_a_secret_kubeconfig(planned: dict[str, Any]) -> None:
    outputs = planned["outputs"]

    assert outputs["aksClusterId"].endswith(f"/managedClusters/{outputs['aksClusterName']}")
    assert (outputs["gpuPoolName"], outputs["gpuVmSize"], outputs["gpuNodeRange"]) == (
        "gpu",
        "Standard_NC4as_T4_v3",
        "0..3",
    )
    assert outputs["kubeconfig"] == "[secret]"


def test_aks_gpu_stack_text_plan_shows_the_pool_and_plugin(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", STACK]) == 0
    text = capsys.readouterr().out

    assert "size=Standard_NC4as_T4_v3  mode=User  min=0  max=3  taints=sku=gpu:NoSchedule  driver=Install" in text
    assert "image=nvcr.io/nvidia/k8s-device-plugin:v0.18.0" in text


def test_aks_gpu_stack_cli_exits_zero_as_a_process() -> None:
    # its own process, forked from one that imported gpu-stacks (tests/cli_process.py)
    done = gpu_stacks_process(["plan", STACK], cwd=REPO, timeout=120)

    assert done.returncode == 0, done.stderr
    # The shipped cluster's API server is public (its authorized ranges are a commented example), which the
    # advisory policy says without failing the plan.
    assert "warn-public-aks-api-server" in done.stdout
    # Nor is encryption at host on for its GPU nodes (opt-in: the subscription must register the feature).
    assert "warn-gpu-host-without-encryption-at-host: aks-gpu-pool" in done.stdout
    # its Kubernetes resources (another provider's: the device plugin, the DCGM exporter) are counted as not
    # checked offline (issue 39)
    assert done.stdout.rstrip().endswith(
        "OK: aks-gpu deploys as planned (17 resources, 2 advisory policy notes, 3 not checked offline)."
    )


@pytest.mark.parametrize(
    ("section", "expected"),
    [
        ("    vmSize: Standard_D4s_v5\n", "azure-gpu-stacks:aksGpuPool.vmSize: 'Standard_D4s_v5' has no GPU"),
        (
            "    vmSize: Standard_NC24s_v3\n",
            "azure-gpu-stacks:aksGpuPool.vmSize: 'Standard_NC24s_v3' was retired on 2025-09-30",
        ),
        (
            "    systemVmSize: Standard_NC4as_T4_v3\n",
            "azure-gpu-stacks:aksGpuPool.systemVmSize: 'Standard_NC4as_T4_v3' has a GPU",
        ),
        (
            "    minCount: 3\n    maxCount: 1\n",
            "azure-gpu-stacks:aksGpuPool.minCount: 3 is above maxCount 1; allowed: minCount <= maxCount",
        ),
        (
            '    nodeTaints: ["team=a:NoSchedule"]\n',
            "azure-gpu-stacks:aksGpuPool.nodeTaints: ['team=a:NoSchedule'] drops sku=gpu:NoSchedule",
        ),
        (
            "    migProfile: MIG1g\n",
            "azure-gpu-stacks:aksGpuPool.migProfile: MIG1g on 'Standard_NC4as_T4_v3' (NVIDIA T4): AKS splits "
            "GPUs only on",
        ),
        (
            "    gpuDriver: None\n    installDevicePlugin: true\n",
            "aksGpuPool.installDevicePlugin: true with gpuDriver None",
        ),
        (
            "    existingCluster: {name: shared}\n",
            "azure-gpu-stacks:aksGpuPool.existingCluster: {'name': 'shared'}; allowed: {id} or {name, "
            "resourceGroupName}",
        ),
        ("    maxNodes: 3\n", "azure-gpu-stacks:aksGpuPool.maxNodes: unknown key"),
    ],
)
def test_aks_gpu_config_refuses_bad_values_with_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, section: str, expected: str
) -> None:
    code = main(["plan", write_stack(tmp_path, section)])
    captured = capsys.readouterr()

    assert code == 2
    assert expected in captured.err
    assert "Traceback" not in captured.err and captured.out == ""


def test_aks_gpu_config_reports_every_problem_at_once(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code = main(["plan", write_stack(tmp_path, "    vmSize: Standard_D4s_v5\n    poolName: GPU\n")])
    err = capsys.readouterr().err

    assert code == 2
    assert (
        "2 problems" in err
        and "aksGpuPool.vmSize" in err
        and "aksGpuPool.poolName: 'GPU' cannot name an AKS node pool" in err
    )


def test_aks_gpu_stack_on_a_missing_existing_cluster_fails_with_azures_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    cluster = (
        "/subscriptions/00000000-0000-0000-0000-0000000000aa/resourceGroups/rg-x/providers/"
        "Microsoft.ContainerService/managedClusters/shared"
    )
    code = main(["plan", write_stack(tmp_path, f"    existingCluster:\n      id: {cluster}\n")])
    err = capsys.readouterr().err

    assert code == 2
    assert err.startswith(
        "gpu-stacks: error: invoke of azure-native:containerservice:listManagedClusterUserCredentials failed: "
        f"ResourceNotFound: The Resource '{cluster}' was not found."
    )
    assert len(err.splitlines()) == 1
