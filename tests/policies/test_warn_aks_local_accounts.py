"""warn-aks-local-accounts: from a cluster with Entra ID, Azure RBAC and no local accounts, one change per test."""

from __future__ import annotations

from typing import Any

import pytest

from tests.policy_helpers import UNKNOWN, Res, changed, found

POLICY = "warn-aks-local-accounts"
CLUSTER = "azure-native:containerservice:ManagedCluster"
SECURE = {
    "resourceGroupName": "rg",
    "disableLocalAccounts": True,
    "aadProfile": {"managed": True, "enableAzureRBAC": True},
}
TAIL = ": otherwise a local kubeconfig reaches every GPU node outside Entra ID and its audit."


def test_passes_entra_id_with_azure_rbac_and_no_local_accounts() -> None:
    assert found([Res(CLUSTER, "aks", SECURE)], POLICY) == []


@pytest.mark.parametrize(
    ("path", "value", "missing"),
    [
        (("disableLocalAccounts",), ..., "disableLocalAccounts (no static cluster-admin credential)"),
        (("disableLocalAccounts",), False, "disableLocalAccounts (no static cluster-admin credential)"),
        (
            ("aadProfile", "enableAzureRBAC"),
            False,
            "aadProfile.enableAzureRBAC (Azure RBAC for Kubernetes authorization)",
        ),
        (("aadProfile", "managed"), ..., "aadProfile.managed (Entra ID sign-in)"),
    ],
    ids=["local-accounts-left-on", "local-accounts-on", "no-azure-rbac", "no-entra-id"],
)
def test_reports_each_missing_setting(path: tuple[str, ...], value: Any, missing: str) -> None:
    cluster = Res(CLUSTER, "aks", changed(SECURE, path, value))

    assert found([cluster], POLICY) == [("advisory", "aks", f"set {missing} to true{TAIL}")]


def test_a_cluster_with_nothing_set_gets_one_finding_naming_all_three() -> None:
    cluster = Res(CLUSTER, "aks", {"resourceGroupName": "rg"})

    assert found([cluster], POLICY) == [
        (
            "advisory",
            "aks",
            "set disableLocalAccounts (no static cluster-admin credential), aadProfile.managed (Entra ID sign-in), "
            f"aadProfile.enableAzureRBAC (Azure RBAC for Kubernetes authorization) to true{TAIL}",
        )
    ]


def test_unknowns_are_judged_after_deployment() -> None:
    assert found([Res(CLUSTER, "aks", changed(SECURE, ("disableLocalAccounts",), UNKNOWN))], POLICY) == []
