"""The fake ARM's AKS types: managed clusters and agent pools, accepted or refused as ARM would."""

from __future__ import annotations

import base64
import re
from typing import Any

import pytest
import yaml
from azure_gpu_stacks.catalog.az_files import Usage, family_key
from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.fakeazure.errors import (
    ArmError,
    Conflict,
    InvalidParameter,
    ParentResourceNotFound,
    QuotaExceeded,
    SkuNotAvailable,
)

from tests.conftest import arm_with_group

RG = "rg-aks"
CLUSTER = "azure-native:containerservice:ManagedCluster"
POOL = "azure-native:containerservice:AgentPool"


def system_pool(**overrides: Any) -> dict[str, Any]:
    return {"name": "system", "mode": "System", "count": 2.0, "vmSize": "Standard_D4s_v5", **overrides}


def cluster_props(**overrides: Any) -> dict[str, Any]:
    return {
        "resourceGroupName": RG,
        "resourceName": "aks1",
        "location": "eastus",
        "dnsPrefix": "aks1",
        "agentPoolProfiles": [system_pool()],
        **overrides,
    }


def gpu_pool_props(**overrides: Any) -> dict[str, Any]:
    return {
        "resourceGroupName": RG,
        "resourceName": "aks1",
        "agentPoolName": "gpu",
        "mode": "User",
        "vmSize": "Standard_NC4as_T4_v3",
        "enableAutoScaling": True,
        "count": 0.0,
        "minCount": 0.0,
        "maxCount": 3.0,
        "nodeTaints": ["sku=gpu:NoSchedule"],
        **overrides,
    }


@pytest.fixture
def arm() -> FakeArm:
    return arm_with_group(RG)


def put_cluster(arm: FakeArm, **overrides: Any) -> Any:
    return arm.put(CLUSTER, "aks", cluster_props(**overrides), "aks")


def refusal(call: Any) -> ArmError:
    with pytest.raises(ArmError) as err:
        call()
    return err.value


def test_fake_cluster_returns_fqdn_node_resource_group_and_state(arm: FakeArm) -> None:
    out = put_cluster(arm).outputs

    assert re.fullmatch(r"aks1-[0-9a-f]{8}\.hcp\.eastus\.azmk8s\.io", out["fqdn"])
    assert out["nodeResourceGroup"] == f"MC_{RG}_aks1_eastus"
    assert (out["provisioningState"], out["powerState"]) == ("Succeeded", {"code": "Running"})


def test_fake_cluster_credentials_are_a_base64_kubeconfig_for_its_fqdn(arm: FakeArm) -> None:
    fqdn = put_cluster(arm).outputs["fqdn"]
    answer = arm.invoke(
        "azure-native:containerservice:listManagedClusterUserCredentials",
        {"resourceGroupName": RG, "resourceName": "aks1"},
    )

    kubeconfig = yaml.safe_load(base64.b64decode(answer["kubeconfigs"][0]["value"]))
    assert kubeconfig["clusters"][0]["cluster"]["server"] == f"https://{fqdn}:443"


def test_fake_agent_pool_on_a_cluster_that_does_not_exist_is_refused(arm: FakeArm) -> None:
    error = refusal(lambda: arm.put(POOL, "gpu", gpu_pool_props(resourceName="nope"), "gpu"))

    assert isinstance(error, ParentResourceNotFound)
    assert "Parent resource 'nope' not found" in error.message


def test_fake_agent_pool_joins_an_existing_cluster(arm: FakeArm) -> None:
    put_cluster(arm)
    pool = arm.put(POOL, "gpu", gpu_pool_props(), "gpu")

    assert pool.id.endswith("/managedClusters/aks1/agentPools/gpu")
    assert pool.outputs["provisioningState"] == "Succeeded"


def test_fake_second_agent_pool_with_the_same_name_is_refused(arm: FakeArm) -> None:
    put_cluster(arm)
    arm.put(POOL, "gpu", gpu_pool_props(), "gpu")

    assert isinstance(refusal(lambda: arm.put(POOL, "gpu-again", gpu_pool_props(), "gpu-again")), Conflict)


def test_fake_agent_pool_named_like_an_inline_pool_is_refused(arm: FakeArm) -> None:
    put_cluster(arm)
    error = refusal(lambda: arm.put(POOL, "dup", gpu_pool_props(agentPoolName="system"), "dup"))

    assert isinstance(error, Conflict)
    assert error.message == "Managed cluster 'aks1' already has an agent pool named 'system'."


def test_fake_system_pool_on_spot_is_refused_inline_and_alone(arm: FakeArm) -> None:
    inline = refusal(lambda: put_cluster(arm, agentPoolProfiles=[system_pool(scaleSetPriority="Spot")]))
    put_cluster(arm)
    alone = refusal(
        lambda: arm.put(
            POOL,
            "sys2",
            gpu_pool_props(agentPoolName="sys2", mode="System", scaleSetPriority="Spot", count=1.0, minCount=1.0),
            "s",
        )
    )

    for error in (inline, alone):
        assert isinstance(error, InvalidParameter)
        assert "is a System pool on Spot; System pools must use Regular priority" in error.message


def test_fake_cluster_without_a_system_pool_is_refused(arm: FakeArm) -> None:
    error = refusal(lambda: put_cluster(arm, agentPoolProfiles=[system_pool(mode="User")]))

    assert "there has to be at least one System agent pool" in error.message


def test_fake_cluster_without_local_accounts_needs_managed_entra_id(arm: FakeArm) -> None:
    error = refusal(lambda: put_cluster(arm, disableLocalAccounts=True))

    assert "need AKS-managed Entra ID (aadProfile.managed)" in error.message
    assert put_cluster(arm, disableLocalAccounts=True, aadProfile={"managed": True, "enableAzureRBAC": True}).outputs[
        "fqdn"
    ]


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"minCount": 4.0, "maxCount": 3.0}, "minCount 4 of agent pool 'gpu' is greater than maxCount 3"),
        ({"maxCount": 1001.0}, "maxCount 1001 of agent pool 'gpu'; allowed for User pools: 0 to 1000"),
        (
            {"gpuInstanceProfile": "MIG1g"},
            "gpuInstanceProfile MIG1g is not supported on VM size 'Standard_NC4as_T4_v3'",
        ),
        ({"agentPoolName": "GPU_pool"}, "agent pool name 'GPU_pool' must be 1 to 12 lower-case letters and digits"),
        # MIG on a size NVIDIA can split but AKS does not offer MIG pools on (Learn gpu-multi-instance)
        (
            {"vmSize": "Standard_ND96isr_H200_v5", "gpuInstanceProfile": "MIG1g"},
            "gpuInstanceProfile MIG1g is not supported on VM size 'Standard_ND96isr_H200_v5'",
        ),
        (
            {"vmSize": "Standard_NC24ads_A100_v4", "gpuInstanceProfile": "MIG1g", "osSKU": "AzureLinux"},
            "gpuInstanceProfile MIG1g is not supported with osSKU AzureLinux",
        ),
        # the 2025-09-01 spec: "cannot be specified unless the scaleSetPriority is 'Spot'"
        ({"scaleSetEvictionPolicy": "Delete"}, "sets scaleSetEvictionPolicy without scaleSetPriority Spot"),
        # the spec: "any decimal value greater than zero or -1"
        ({"scaleSetPriority": "Spot", "spotMaxPrice": 0.0}, "spotMaxPrice 0.0 of agent pool 'gpu'"),
    ],
)
def test_fake_agent_pool_refuses_what_aks_refuses(arm: FakeArm, overrides: dict[str, Any], expected: str) -> None:
    put_cluster(arm)

    assert expected in refusal(lambda: arm.put(POOL, "gpu", gpu_pool_props(**overrides), "gpu")).message


@pytest.mark.parametrize(
    "overrides",
    [
        {"vmSize": "Standard_NC24ads_A100_v4", "gpuInstanceProfile": "MIG3g"},
        {"vmSize": "Standard_NC40ads_H100_v5", "gpuInstanceProfile": "MIG1g"},
        {"scaleSetPriority": "Spot", "scaleSetEvictionPolicy": "Delete", "spotMaxPrice": -1.0},
        {"scaleSetPriority": "Spot", "spotMaxPrice": 0.25},
    ],
)
def test_fake_agent_pool_accepts_mig_and_spot_as_aks_does(arm: FakeArm, overrides: dict[str, Any]) -> None:
    put_cluster(arm)

    assert arm.put(POOL, "gpu", gpu_pool_props(**overrides), "gpu").outputs["provisioningState"] == "Succeeded"


def test_fake_agent_pool_refuses_a_retired_size(arm: FakeArm) -> None:
    put_cluster(arm)
    error = refusal(lambda: arm.put(POOL, "gpu", gpu_pool_props(vmSize="Standard_NC6s_v3"), "gpu"))

    assert isinstance(error, SkuNotAvailable)
    assert "'Standard_NC6s_v3' (vmSize) is retired" in error.message


def test_fake_cluster_checks_the_size_of_each_inline_pool(arm: FakeArm) -> None:
    error = refusal(lambda: put_cluster(arm, agentPoolProfiles=[system_pool(vmSize="Standard_NC6")]))

    assert "'Standard_NC6' (agentPoolProfiles[0].vmSize) is retired" in error.message


def test_fake_agent_pool_takes_quota_at_full_scale(arm: FakeArm) -> None:
    """An autoscaling pool takes its maxCount, as `gpu-stacks quota` counts it (Azure checks only
    `count` at creation; the autoscaler then stops at the quota), so check and quota agree."""
    t4 = family_key("standardNCASv3_T4Family")
    arm.usage = {t4: Usage("standardNCASv3_T4Family", 0, 8)}
    put_cluster(arm)

    arm.put(
        POOL, "one", gpu_pool_props(agentPoolName="one", count=0.0, minCount=0.0, maxCount=1.0), "one"
    )  # 1 x 4 vCPUs
    arm.put(
        POOL, "fixed", gpu_pool_props(agentPoolName="fixed", enableAutoScaling=False, count=1.0), "fixed"
    )  # count: 4
    error = refusal(lambda: arm.put(POOL, "idle", gpu_pool_props(agentPoolName="idle"), "idle"))  # count 0, maxCount 3

    assert isinstance(error, QuotaExceeded)  # AKS wraps Compute's refusal (mspnp/aks-baseline issue 377)
    assert error.message.startswith("Provisioning of resource(s) for Agent Pool idle failed. Message: Operation could")
    assert error.message.endswith(
        "Current Limit: 8, Current Usage: 8, Additional Required: 12, (Minimum) New Limit Required: 20. "
        "Submit a request for Quota increase by specifying parameters listed in the 'Details' section for "
        "deployment to succeed. The fake ARM counts the pool at full scale (3 nodes); Azure checks 0 at creation, "
        "and the autoscaler stops at the quota."
    )
