"""limit-gpu-vcpus: caps off by default; configured, a stack and each team are held to theirs."""

from __future__ import annotations

import contextlib
import io
import json
from typing import Any

import pytest
from azure_gpu_stacks.engine.cli import main

from tests.policy_helpers import Res, catalog_size, found

POLICY = "limit-gpu-vcpus"
VMSS = "azure-native:compute:VirtualMachineScaleSet"
AKS = "azure-native:containerservice:ManagedCluster"
A100 = "Standard_ND96asr_v4"
T4 = "Standard_NC4as_T4_v3"
TAIL = "lower node counts or sizes, or ask the platform team for a larger share."


def scale_set(name: str, size: str, nodes: int, team: str | None) -> Res:
    tags = {"team": team} if team else {}
    return Res(VMSS, name, {"resourceGroupName": "rg", "sku": {"name": size, "capacity": float(nodes)}, "tags": tags})


def aks(team: str, max_nodes: int) -> Res:
    pools = [
        {"name": "system", "vmSize": "Standard_D4s_v5", "count": 2.0, "mode": "System"},
        {
            "name": "gpu",
            "vmSize": T4,
            "count": 0.0,
            "minCount": 0.0,
            "maxCount": float(max_nodes),
            "enableAutoScaling": True,
        },
    ]
    return Res(AKS, "aks", {"resourceGroupName": "rg", "agentPoolProfiles": pools, "tags": {"team": team}})


def a100_vcpus(nodes: int) -> int:
    return int(catalog_size(A100)["vcpus"]) * nodes


def test_no_cap_until_one_is_configured() -> None:
    assert found([scale_set("train", A100, 16, "vision")], POLICY) == []


def test_a_stack_over_its_cap_names_each_pool() -> None:
    resources = [scale_set("train", A100, 2, "vision"), aks("speech", 3)]
    t4 = int(catalog_size(T4)["vcpus"]) * 3
    total = a100_vcpus(2) + t4

    assert found(resources, POLICY, {POLICY: {"maxGpuVcpusPerStack": total - 1}}) == [
        (
            "advisory",
            "(stack)",
            f"the stack asks for {total} GPU vCPUs at full scale ('train' {a100_vcpus(2)}, 'aks' {t4}), more than "
            f"maxGpuVcpusPerStack {total - 1}; {TAIL}",
        )
    ]
    assert found(resources, POLICY, {POLICY: {"maxGpuVcpusPerStack": total}}) == []


def test_each_team_is_held_to_its_own_cap() -> None:
    resources = [scale_set("train", A100, 2, "vision"), scale_set("eval", A100, 1, "vision"), aks("speech", 3)]
    caps = {"vision": a100_vcpus(3) - 1, "speech": 1000}

    assert found(resources, POLICY, {POLICY: {"maxGpuVcpusPerTeam": caps}}) == [
        (
            "advisory",
            "(stack)",
            f"team 'vision' asks for {a100_vcpus(3)} GPU vCPUs at full scale ('train' {a100_vcpus(2)}, 'eval' "
            f"{a100_vcpus(1)}), more than its cap of {a100_vcpus(3) - 1} in maxGpuVcpusPerTeam; {TAIL}",
        )
    ]


def test_the_team_tag_is_configurable_and_untagged_pools_have_no_team_cap() -> None:
    tagged = Res(
        VMSS,
        "train",
        {"resourceGroupName": "rg", "sku": {"name": A100, "capacity": 1.0}, "tags": {"cost-center": "cv"}},
    )
    untagged = scale_set("other", A100, 4, None)
    config = {POLICY: {"teamTag": "cost-center", "maxGpuVcpusPerTeam": {"cv": 1}}}

    assert [message.split(" asks")[0] for _, _, message in found([tagged, untagged], POLICY, config)] == ["team 'cv'"]


def test_cpu_pools_and_malformed_caps_count_for_nothing() -> None:
    cpu = scale_set("web", "Standard_D4s_v5", 100, "vision")
    config = {POLICY: {"maxGpuVcpusPerTeam": {"vision": "ten", "other": -1}}}

    assert found([cpu, scale_set("train", A100, 1, "vision")], POLICY, config) == []
    assert found([cpu], POLICY, {POLICY: {"maxGpuVcpusPerStack": 1}}) == []


# --- the quota preflight's arithmetic -------------------------------------------------------------

# limit-gpu-vcpus counts a stack's GPU vCPUs with the quota preflight's arithmetic (issue 36: "checked with the quota
# preflight's arithmetic"): on every shipped stack, a cap equal to what `gpu-stacks quota` says the stack needs of
# its GPU family passes, and one vCPU less is reported with that number. The families are those the stack files name
# (e.g. training-a100: "192 vCPUs of standardNDASv4_A100Family"; aks-gpu: "12 vCPUs of standardNCASv3_T4Family
# quota"); Azure ML and Batch count their own quota, under the names their APIs give the family.

GPU_FAMILY = {
    "aks-gpu": ("Microsoft.Compute", "standardNCASv3_T4Family"),
    "aml-gpu": ("Microsoft.MachineLearningServices", "Standard NCADSA100v4 Family Cluster Dedicated vCPUs"),
    "batch-gpu": ("Microsoft.Batch", "standardNCASv3_T4Family"),
    "inference-t4": ("Microsoft.Compute", "standardNCASv3_T4Family"),
    "training-a100": ("Microsoft.Compute", "standardNDASv4_A100Family"),
}
# What the stack files say the stack needs (their comments), where they say it.
DOCUMENTED = {"aks-gpu": 12, "training-a100": 192}


def quota_needed(stack: str) -> int:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["quota", stack, "--json"]) == 0
    provider, family = GPU_FAMILY[stack]
    [needed] = [
        row["needed"]
        for row in json.loads(out.getvalue())["quota"]
        if row["provider"] == provider and row["family"] == family
    ]
    return int(needed)


@pytest.mark.parametrize("stack", sorted(GPU_FAMILY))
def test_the_stack_cap_is_reached_exactly_at_what_quota_counts(shipped_plans: dict[str, Any], stack: str) -> None:
    needed = quota_needed(stack)
    resources = [Res(r.type, r.name, r.plain_inputs()) for r in shipped_plans[stack].resources]

    assert found(resources, POLICY, {POLICY: {"maxGpuVcpusPerStack": needed}}) == []
    [(_, _, message)] = found(resources, POLICY, {POLICY: {"maxGpuVcpusPerStack": needed - 1}})
    assert message.startswith(f"the stack asks for {needed} GPU vCPUs at full scale")
    assert needed == DOCUMENTED.get(stack, needed)


def test_a_team_at_exactly_its_cap_passes_and_a_cap_of_zero_holds_a_team_to_none() -> None:
    stack = [scale_set("vision-a100", A100, 2, "vision")]

    assert found(stack, POLICY, {POLICY: {"maxGpuVcpusPerTeam": {"vision": a100_vcpus(2)}}}) == []
    [(_, _, message)] = found(stack, POLICY, {POLICY: {"maxGpuVcpusPerTeam": {"vision": 0}}})
    assert message.startswith(f"team 'vision' asks for {a100_vcpus(2)} GPU vCPUs at full scale")


def test_a_cluster_s_gpu_pools_are_added_up() -> None:
    cluster = aks("vision", 3)
    cluster.props["agentPoolProfiles"].append(
        {**cluster.props["agentPoolProfiles"][1], "name": "gpu2", "maxCount": 2.0}
    )
    t4_vcpus = int(catalog_size(T4)["vcpus"])

    [(_, _, message)] = found([cluster], POLICY, {POLICY: {"maxGpuVcpusPerStack": 1}})
    assert message.startswith(f"the stack asks for {t4_vcpus * 5} GPU vCPUs at full scale ('aks' {t4_vcpus * 5})")
