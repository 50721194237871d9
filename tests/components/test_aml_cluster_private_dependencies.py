"""AmlCluster's key vault, storage account and registry refuse the public internet by default (issue 36).

The settings asked for are checkov's (CKV_AZURE_109 and 189 on the vault, 35 and 36 on the storage account, 139 on
the registry; checkov 3.3.30's rule texts, observed 2026-11-27) and those of Azure's verified module for a private AML
workspace (Azure/terraform-azurerm-avm-res-machinelearningservices-workspace, examples/private_managed_vnet/main.tf:
`public_network_access_enabled = false`, network rules `default_action = "Deny"`, `bypass = "AzureServices"`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from azure_gpu_stacks.components.checks import ComponentInputError

from tests.components.test_aml_cluster import REGISTRY, STORAGE, VAULT, build_cluster
from tests.conftest import Recording


@pytest.fixture
def closed(record: Callable[..., Recording]) -> Recording:
    return record(build_cluster(container_registry=True, registry_sku="Premium"))


def test_the_key_vault_refuses_public_traffic_and_lets_trusted_azure_services_through(closed: Recording) -> None:
    props = closed.inputs(VAULT)["properties"]

    assert props["publicNetworkAccess"] == "Disabled"  # CKV_AZURE_189
    assert props["networkAcls"] == {"defaultAction": "Deny", "bypass": "AzureServices"}  # CKV_AZURE_109


def test_the_storage_account_refuses_public_traffic_and_lets_trusted_azure_services_through(closed: Recording) -> None:
    st = closed.inputs(STORAGE)

    assert st["publicNetworkAccess"] == "Disabled"
    assert st["networkRuleSet"] == {"defaultAction": "Deny", "bypass": "AzureServices"}  # CKV_AZURE_35, CKV_AZURE_36


def test_a_premium_registry_refuses_public_traffic(closed: Recording) -> None:
    cr = closed.inputs(REGISTRY)

    assert cr["sku"] == {"name": "Premium"}
    assert cr["publicNetworkAccess"] == "Disabled"  # CKV_AZURE_139
    assert cr["networkRuleSet"] == {"defaultAction": "Deny"}
    assert cr["networkRuleBypassOptions"] == "AzureServices"
    assert closed.refusals == []


def test_a_basic_registry_is_left_as_azure_makes_it_since_only_premium_can_close(
    record: Callable[..., Recording],
) -> None:
    # Azure Policy's built-in "Container registries should have SKUs that support Private Links" audits every SKU but
    # Premium: asking a Basic registry for what only Premium has would be refused, so it is not asked.
    cr = record(build_cluster(container_registry=True)).inputs(REGISTRY)

    assert cr["sku"] == {"name": "Basic"}
    assert cr.get("publicNetworkAccess") != "Disabled"  # the SDK's default, Enabled
    assert "networkRuleSet" not in cr


def test_private_dependencies_false_opens_them_as_azure_does(record: Callable[..., Recording]) -> None:
    rec = record(build_cluster(container_registry=True, registry_sku="Premium", private_dependencies=False))

    assert rec.inputs(VAULT)["properties"].get("publicNetworkAccess") != "Disabled"
    assert "networkAcls" not in rec.inputs(VAULT)["properties"]
    assert rec.inputs(STORAGE).get("publicNetworkAccess") != "Disabled"
    assert "networkRuleSet" not in rec.inputs(STORAGE)
    assert rec.inputs(REGISTRY).get("publicNetworkAccess") != "Disabled"


def test_storage_replication_is_an_option_and_stays_locally_redundant_by_default(
    record: Callable[..., Recording],
) -> None:
    assert record(build_cluster()).inputs(STORAGE)["sku"] == {"name": "Standard_LRS"}
    assert record(build_cluster(storage_sku="Standard_GZRS")).inputs(STORAGE)["sku"] == {"name": "Standard_GZRS"}


@pytest.mark.parametrize(
    ("overrides", "key", "allowed"),
    [
        ({"storage_sku": "Standard_XRS"}, "storage_sku", "Standard_GRS"),
        ({"registry_sku": "Classic"}, "registry_sku", "Basic, Standard, Premium"),
    ],
)
def test_a_sku_azure_does_not_offer_is_refused_naming_the_allowed_ones(
    record: Callable[..., Recording], overrides: dict[str, Any], key: str, allowed: str
) -> None:
    with pytest.raises(ComponentInputError) as err:
        record(build_cluster(container_registry=True, **overrides))

    assert key in str(err.value)
    assert allowed in str(err.value)


def test_the_dependency_options_are_refused_with_an_existing_workspace(record: Callable[..., Recording]) -> None:
    workspace = (
        "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/ml/providers/"
        "Microsoft.MachineLearningServices/workspaces/team"
    )
    with pytest.raises(ComponentInputError) as err:
        record(build_cluster(workspace_id=workspace, storage_sku="Standard_GRS"))

    assert "storage_sku" in str(err.value)
    assert "only for a new workspace" in str(err.value)
