"""warn-aml-public-access: from a closed workspace and a cluster without local auth, one change per test."""

from __future__ import annotations

from typing import Any

import pytest

from tests.policy_helpers import UNKNOWN, Res, changed, found

POLICY = "warn-aml-public-access"
WORKSPACE = "azure-native:machinelearningservices:Workspace"
COMPUTE = "azure-native:machinelearningservices:Compute"
CLOSED = {"resourceGroupName": "rg", "publicNetworkAccess": "Disabled", "sku": {"name": "Basic"}}
CLUSTER = {
    "resourceGroupName": "rg",
    "workspaceName": "ws",
    "properties": {
        "computeType": "AmlCompute",
        "disableLocalAuth": True,
        "properties": {"vmSize": "Standard_NC4as_T4_v3"},
    },
}


def open_workspace(shown: str) -> str:
    return (
        f"publicNetworkAccess is {shown}: the workspace answers the public internet; set it to Disabled and reach the "
        "workspace through a private endpoint (AmlCluster's public_network_access)."
    )


def local_auth(state: str, compute_type: str) -> str:
    return (
        f"properties.disableLocalAuth is {state}: the {compute_type} can be reached with local credentials outside "
        "Entra ID; set it to true."
    )


def test_passes_a_closed_workspace_and_a_cluster_without_local_auth() -> None:
    assert found([Res(WORKSPACE, "ws", CLOSED), Res(COMPUTE, "cluster", CLUSTER)], POLICY) == []


@pytest.mark.parametrize(
    ("value", "shown"),
    [("Enabled", "Enabled"), (..., "not set (Azure's default: Enabled)")],
    ids=["enabled", "left-out"],
)
def test_reports_a_workspace_open_to_the_internet(value: Any, shown: str) -> None:
    workspace = Res(WORKSPACE, "ws", changed(CLOSED, ("publicNetworkAccess",), value))

    assert found([workspace], POLICY) == [("advisory", "ws", open_workspace(shown))]


def test_reads_disabled_in_any_case_and_leaves_unknowns() -> None:
    lower = Res(WORKSPACE, "lower", changed(CLOSED, ("publicNetworkAccess",), "disabled"))
    unknown = Res(WORKSPACE, "unknown", changed(CLOSED, ("publicNetworkAccess",), UNKNOWN))

    assert found([lower, unknown], POLICY) == []


@pytest.mark.parametrize(
    ("compute_type", "value", "state"),
    [("AmlCompute", False, "false"), ("AmlCompute", ..., "not set"), ("ComputeInstance", ..., "not set")],
    ids=["cluster-false", "cluster-left-out", "instance-left-out"],
)
def test_reports_a_compute_with_local_auth(compute_type: str, value: Any, state: str) -> None:
    props = changed(
        changed(CLUSTER, ("properties", "disableLocalAuth"), value), ("properties", "computeType"), compute_type
    )

    assert found([Res(COMPUTE, "cluster", props)], POLICY) == [("advisory", "cluster", local_auth(state, compute_type))]


def test_other_compute_types_and_unknowns_are_left() -> None:
    attached = changed(
        changed(CLUSTER, ("properties", "disableLocalAuth"), ...), ("properties", "computeType"), "Kubernetes"
    )
    unknown = changed(CLUSTER, ("properties", "disableLocalAuth"), UNKNOWN)

    assert found([Res(COMPUTE, "attached", attached), Res(COMPUTE, "unknown", unknown)], POLICY) == []
