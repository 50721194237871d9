"""warn-gpu-host-without-identity on Azure ML computes: a GPU AmlCompute cluster or compute instance needs a managed
identity to read its datastores' connection information from Key Vault and pull images from the registry (Learn,
how-to-identity-based-service-authentication, observed 2026-11-27). From a GPU cluster with a system-assigned
identity, as AmlCluster builds it, one change per test."""

from __future__ import annotations

from typing import Any

import pytest

from tests.policy_helpers import UNKNOWN, Res, changed, found

POLICY = "warn-gpu-host-without-identity"
COMPUTE = "azure-native:machinelearningservices:Compute"
GPU = "Standard_NC24ads_A100_v4"
CLUSTER = {
    "resourceGroupName": "rg",
    "workspaceName": "ws",
    "identity": {"type": "SystemAssigned"},
    "properties": {"computeType": "AmlCompute", "disableLocalAuth": True, "properties": {"vmSize": GPU}},
}


def without(shown: str) -> str:
    return (
        f"properties.properties.vmSize '{GPU}' runs without a managed identity (identity.type is {shown}): its jobs "
        "could reach storage, registries and Key Vault only with keys copied onto the host; set identity.type to "
        "SystemAssigned (or UserAssigned) and grant it roles."
    )


def test_passes_a_gpu_cluster_with_an_identity() -> None:
    assert found([Res(COMPUTE, "cluster", CLUSTER)], POLICY) == []


@pytest.mark.parametrize(("value", "shown"), [(..., "not set"), ("None", "None")], ids=["left-out", "none"])
def test_reports_a_gpu_cluster_without_one(value: Any, shown: str) -> None:
    props = changed(CLUSTER, ("identity",), ...) if value is ... else changed(CLUSTER, ("identity", "type"), value)

    assert found([Res(COMPUTE, "cluster", props)], POLICY) == [("advisory", "cluster", without(shown))]


def test_reports_a_gpu_compute_instance_without_one() -> None:
    instance = changed(changed(CLUSTER, ("identity",), ...), ("properties", "computeType"), "ComputeInstance")

    assert found([Res(COMPUTE, "notebook", instance)], POLICY) == [("advisory", "notebook", without("not set"))]


def test_cpu_computes_user_assigned_and_unknowns_are_left() -> None:
    cpu = changed(changed(CLUSTER, ("identity",), ...), ("properties", "properties", "vmSize"), "Standard_D4s_v5")
    user = changed(CLUSTER, ("identity", "type"), "UserAssigned")
    unknown = changed(CLUSTER, ("identity", "type"), UNKNOWN)

    assert found([Res(COMPUTE, "cpu", cpu), Res(COMPUTE, "user", user), Res(COMPUTE, "unknown", unknown)], POLICY) == []
