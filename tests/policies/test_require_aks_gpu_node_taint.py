"""require-aks-gpu-node-taint: from a tainted GPU pool, one change per test."""

from __future__ import annotations

from tests.policy_helpers import UNKNOWN, Res, changed, found

POLICY = "require-aks-gpu-node-taint"
POOL = "azure-native:containerservice:AgentPool"
GPU_SIZE = "Standard_NC24ads_A100_v4"
TAINT = "sku=gpu:NoSchedule"  # the pack's default (docs/policies.md)
COMPLIANT = {
    "resourceGroupName": "rg",
    "agentPoolName": "gpu",
    "vmSize": GPU_SIZE,
    "mode": "User",
    "nodeTaints": [TAINT],
    "count": 0.0,
}


def lacks(path: str, pool: str, size: str, found_taints: str, taint: str = TAINT) -> str:
    return (
        f"{path} of pool '{pool}' ({size}, a GPU size) lack '{taint}' (found: {found_taints}); "
        "add it so only pods that tolerate it run on GPU nodes."
    )


def test_passes_a_tainted_gpu_pool() -> None:
    assert found([Res(POOL, "pass_pool", COMPLIANT)], POLICY) == []


def test_refuses_a_gpu_pool_without_the_taint() -> None:
    spot = "kubernetes.azure.com/scalesetpriority=spot:NoSchedule"
    pool = Res(POOL, "fail_pool", changed(COMPLIANT, ("nodeTaints",), [spot]))

    assert found([pool], POLICY) == [("mandatory", "fail_pool", lacks("nodeTaints", "gpu", GPU_SIZE, spot))]


def test_checks_each_pool_of_a_managed_cluster() -> None:
    pools = [{"name": "sys", "vmSize": "Standard_D4s_v5"}, {"name": "gpu", "vmSize": "Standard_NC4as_T4_v3"}]
    cluster = Res("azure-native:containerservice:ManagedCluster", "fail_cluster", {"agentPoolProfiles": pools})

    assert found([cluster], POLICY) == [
        (
            "mandatory",
            "fail_cluster",
            lacks("agentPoolProfiles[1].nodeTaints", "gpu", "Standard_NC4as_T4_v3", "none"),
        )
    ]


def test_ignores_cpu_pools_and_unknown_taints() -> None:
    cpu = Res(POOL, "pass_cpu", changed(COMPLIANT, ("vmSize",), "Standard_D4s_v5") | {"nodeTaints": []})
    preview = Res(POOL, "pass_preview", changed(COMPLIANT, ("nodeTaints",), UNKNOWN))

    assert found([cpu, preview], POLICY) == []


def test_required_taint_is_configurable() -> None:
    other = "nvidia.com/gpu=present:NoSchedule"

    assert found([Res(POOL, "fail_pool", COMPLIANT)], POLICY, {POLICY: {"requiredTaint": other}}) == [
        ("mandatory", "fail_pool", lacks("nodeTaints", "gpu", GPU_SIZE, TAINT, taint=other))
    ]


def test_a_taint_written_with_spaces_is_the_same_taint() -> None:
    spaced = Res(POOL, "pass_pool", changed(COMPLIANT, ("nodeTaints",), ["sku = gpu : NoSchedule"]))

    assert found([spaced], POLICY) == []
    assert found([Res(POOL, "pass_pool", COMPLIANT)], POLICY, {POLICY: {"requiredTaint": "sku=gpu : NoSchedule"}}) == []


def test_every_other_taint_is_named_and_an_unnamed_pool_is_the_pool() -> None:
    taints = ["team=ml:NoSchedule", "dedicated=gpu:NoExecute"]
    unnamed = {k: v for k, v in changed(COMPLIANT, ("nodeTaints",), taints).items() if k != "agentPoolName"}

    [(_, _, message)] = found([Res(POOL, "fail_pool", unnamed)], POLICY)
    assert message == (
        f"nodeTaints of the pool ({GPU_SIZE}, a GPU size) lack '{TAINT}' (found: team=ml:NoSchedule, "
        "dedicated=gpu:NoExecute); add it so only pods that tolerate it run on GPU nodes."
    )
