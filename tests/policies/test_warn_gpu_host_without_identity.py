"""warn-gpu-host-without-identity: from a GPU VM with a system-assigned identity, one change per test."""

from __future__ import annotations

from typing import Any

import pytest

from tests.policy_helpers import UNKNOWN, Res, changed, found

POLICY = "warn-gpu-host-without-identity"
VM = "azure-native:compute:VirtualMachine"
VMSS = "azure-native:compute:VirtualMachineScaleSet"
GPU = "Standard_NC4as_T4_v3"
HOST = {"resourceGroupName": "rg", "hardwareProfile": {"vmSize": GPU}, "identity": {"type": "SystemAssigned"}}


def without(shown: str, path: str = "hardwareProfile.vmSize") -> str:
    return (
        f"{path} '{GPU}' runs without a managed identity (identity.type is {shown}): its jobs could reach storage, "
        "registries and Key Vault only with keys copied onto the host; set identity.type to SystemAssigned (or "
        "UserAssigned) and grant it roles."
    )


def test_passes_a_gpu_vm_with_an_identity() -> None:
    assert found([Res(VM, "vm", HOST)], POLICY) == []


@pytest.mark.parametrize(("value", "shown"), [(..., "not set"), ("None", "None")], ids=["left-out", "none"])
def test_reports_a_gpu_vm_without_one(value: Any, shown: str) -> None:
    props = changed(HOST, ("identity",), ...) if value is ... else changed(HOST, ("identity", "type"), value)

    assert found([Res(VM, "vm", props)], POLICY) == [("advisory", "vm", without(shown))]


def test_reports_a_gpu_scale_set_without_one() -> None:
    scale_set = Res(VMSS, "nodes", {"resourceGroupName": "rg", "sku": {"name": GPU, "capacity": 2}})

    assert found([scale_set], POLICY) == [("advisory", "nodes", without("not set", "sku.name"))]


def test_cpu_hosts_user_assigned_and_unknowns_are_left() -> None:
    cpu = Res(VM, "cpu", changed(changed(HOST, ("identity",), ...), ("hardwareProfile", "vmSize"), "Standard_D4s_v5"))
    user = Res(VM, "user", changed(HOST, ("identity", "type"), "UserAssigned"))
    unknown = Res(VM, "unknown", changed(HOST, ("identity", "type"), UNKNOWN))

    assert found([cpu, user, unknown], POLICY) == []


# --- Azure ML computes and AKS clusters -----------------------------------------------------------

# warn-gpu-host-without-identity on Azure ML computes and AKS clusters: a GPU AmlCompute cluster or compute instance
# needs a managed identity to read its datastores' connection information from Key Vault and pull images from the
# registry (Learn, how-to-identity-based-service-authentication, observed 2026-11-27); an AKS cluster without one runs
# on a service principal's client secret (Learn, kubernetes-service-principal: managed identities are recommended
# instead). From a GPU cluster with a system-assigned identity, as AmlCluster and AksGpuPool build them, one change per
# test.

COMPUTE = "azure-native:machinelearningservices:Compute"
CLUSTER_AKS = "azure-native:containerservice:ManagedCluster"
ML_GPU = "Standard_NC24ads_A100_v4"
CLUSTER = {
    "resourceGroupName": "rg",
    "workspaceName": "ws",
    "identity": {"type": "SystemAssigned"},
    "properties": {"computeType": "AmlCompute", "disableLocalAuth": True, "properties": {"vmSize": ML_GPU}},
}


POOLS = [
    {"name": "system", "vmSize": "Standard_D4s_v5", "count": 2.0, "mode": "System"},
    {"name": "gpu", "vmSize": "Standard_NC4as_T4_v3", "count": 0.0, "mode": "User"},
]
AKS_CLUSTER = {"resourceGroupName": "rg", "identity": {"type": "SystemAssigned"}, "agentPoolProfiles": POOLS}


def ml_without(shown: str, path: str = "properties.properties.vmSize", size: str = ML_GPU) -> str:
    return (
        f"{path} '{size}' runs without a managed identity (identity.type is {shown}): its jobs "
        "could reach storage, registries and Key Vault only with keys copied onto the host; set identity.type to "
        "SystemAssigned (or UserAssigned) and grant it roles."
    )


def test_passes_a_gpu_cluster_with_an_identity() -> None:
    assert found([Res(COMPUTE, "cluster", CLUSTER)], POLICY) == []


@pytest.mark.parametrize(("value", "shown"), [(..., "not set"), ("None", "None")], ids=["left-out", "none"])
def test_reports_a_gpu_cluster_without_one(value: Any, shown: str) -> None:
    props = changed(CLUSTER, ("identity",), ...) if value is ... else changed(CLUSTER, ("identity", "type"), value)

    assert found([Res(COMPUTE, "cluster", props)], POLICY) == [("advisory", "cluster", ml_without(shown))]


def test_reports_a_gpu_compute_instance_without_one() -> None:
    instance = changed(changed(CLUSTER, ("identity",), ...), ("properties", "computeType"), "ComputeInstance")

    assert found([Res(COMPUTE, "notebook", instance)], POLICY) == [("advisory", "notebook", ml_without("not set"))]


def test_cpu_computes_user_assigned_and_unknowns_are_left() -> None:
    cpu = changed(changed(CLUSTER, ("identity",), ...), ("properties", "properties", "vmSize"), "Standard_D4s_v5")
    user = changed(CLUSTER, ("identity", "type"), "UserAssigned")
    unknown = changed(CLUSTER, ("identity", "type"), UNKNOWN)

    assert found([Res(COMPUTE, "cpu", cpu), Res(COMPUTE, "user", user), Res(COMPUTE, "unknown", unknown)], POLICY) == []


def test_passes_an_aks_cluster_with_an_identity() -> None:
    assert found([Res(CLUSTER_AKS, "aks", AKS_CLUSTER)], POLICY) == []


def test_reports_an_aks_cluster_with_a_gpu_pool_on_a_service_principal() -> None:
    on_secret = changed(
        changed(AKS_CLUSTER, ("identity",), ...), ("servicePrincipalProfile",), {"clientId": "app", "secret": "s3cret"}
    )

    assert found([Res(CLUSTER_AKS, "aks", on_secret)], POLICY) == [
        ("advisory", "aks", ml_without("not set", "agentPoolProfiles[1].vmSize", "Standard_NC4as_T4_v3"))
    ]


def test_an_aks_cluster_without_an_inline_gpu_pool_is_left() -> None:
    cpu_only = changed(changed(AKS_CLUSTER, ("identity",), ...), ("agentPoolProfiles",), POOLS[:1])

    assert found([Res(CLUSTER_AKS, "aks", cpu_only)], POLICY) == []
