"""A `secure:` config value the offline run cannot decrypt skips only the rules that depend on its value.

The program gets a placeholder for the secret (`inputs.offline_secret`); Azure judges the user's real value, so a
refusal some value of the secret would avoid is not the fake's to give. Every other rule still applies: the other
properties of the same resource, and what holds whatever the secret is (a secret sent where the spec asks for a
number). Before, any placeholder in a resource skipped every value rule of that resource.

Expected refusals are Azure's: Key Vault's REST spec (Microsoft.KeyVault 2024-11-01, VaultProperties:
softDeleteRetentionInDays "accepts >=7 and <=90", sku.name an enum of standard and premium, tenantId a string in
GUID format) and Linux's host name limit of 64 characters (Azure's message quoted in
hashicorp/terraform-provider-azurerm#280; Learn's resource-name-rules); observed 2026-11-27.
"""

from __future__ import annotations

from typing import Any

import pytest
from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.fakeazure.errors import ArmError
from azure_gpu_stacks.inputs.offline_secret import OFFLINE_SECRET

TENANT = "72f988bf-86f1-41af-91ab-2d7cd011db47"


def _vault(properties: dict[str, Any]) -> ArmError | None:
    arm = FakeArm(default_location="westeurope")
    arm.put("azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": "rg1"}, "rg")
    body = {"sku": {"family": "A", "name": "standard"}, **properties}
    try:
        arm.put(
            "azure-native:keyvault:Vault",
            "kv",
            {"vaultName": "kv-team1", "resourceGroupName": "rg1", "properties": body},
            "kv",
        )
    except ArmError as error:
        return error
    return None


def test_a_secret_tenant_alone_is_left_to_azure() -> None:
    assert _vault({"tenantId": OFFLINE_SECRET}) is None


@pytest.mark.parametrize(
    ("wrong", "words"),
    [
        ({"softDeleteRetentionInDays": 100}, "softDeleteRetentionInDays 100; allowed: 7 to 90"),
        ({"sku": {"family": "A", "name": "gold"}}, "The value 'gold' of properties.sku.name is not valid"),
    ],
)
def test_a_wrong_property_beside_a_secret_one_is_still_refused(wrong: dict[str, Any], words: str) -> None:
    refused = _vault({"tenantId": OFFLINE_SECRET, **wrong})

    assert refused is not None and refused.code == "InvalidParameter"
    assert words in str(refused)
    assert OFFLINE_SECRET not in str(refused)


def test_a_secret_where_the_spec_asks_a_number_is_refused_whatever_its_value() -> None:
    refused = _vault({"tenantId": TENANT, "softDeleteRetentionInDays": OFFLINE_SECRET})

    assert refused is not None and refused.code == "InvalidParameter"
    assert "properties.softDeleteRetentionInDays is invalid: a number is expected, not a string" in str(refused)
    assert OFFLINE_SECRET not in str(refused)
