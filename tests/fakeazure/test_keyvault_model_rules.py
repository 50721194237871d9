"""The fake ARM's Microsoft.KeyVault (fakeazure/models/keyvault.py), in process: what a vault or secret PUT is refused
for, at each bound, and what Azure answers for one it accepts.

Expected values are the sources' (observed 2026-11-27): the REST spec (Azure/azure-rest-api-specs
specification/keyvault/resource-manager/Microsoft.KeyVault/stable/2024-11-01 at 315e54b73595: keyvault.json's
VaultProperties, "softDelete data retention days. It accepts >=7 and <=90"; examples/createVault.json and
examples/createSecret.json); Learn's "Azure Key Vault secrets" (about-secrets: "a maximum size of 25k bytes", "The
maximum length of this field is 255 characters") and "Naming rules and restrictions for Azure resources"
(Microsoft.KeyVault vaults: 3-24 alphanumerics and hyphens, start with a letter, end with a letter or digit, no
consecutive hyphens).
"""

from __future__ import annotations

from typing import Any

import pytest
from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.fakeazure.errors import ArmError

GROUP = "sample-resource-group"
VAULT = "sample-vault"
TENANT = "00000000-0000-0000-0000-000000000000"


def _arm() -> FakeArm:
    arm = FakeArm(default_location="westus")
    arm.put("azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": GROUP, "location": "westus"}, "rg")
    return arm


def _vault(arm: FakeArm, name: str = VAULT, **properties: Any) -> dict[str, Any]:
    body = {"tenantId": TENANT, "sku": {"family": "A", "name": "standard"}, **properties}
    inputs = {"resourceGroupName": GROUP, "vaultName": name, "properties": body}
    return arm.put("azure-native:keyvault:Vault", name, inputs, f"urn:vault:{name}").outputs


def _secret(arm: FakeArm, name: str = "secret-name", properties: Any = None) -> dict[str, Any]:
    body = {"value": "secret-value"} if properties is None else properties
    inputs = {"resourceGroupName": GROUP, "vaultName": VAULT, "secretName": name, "properties": body}
    return arm.put("azure-native:keyvault:Secret", name, inputs, f"urn:secret:{name}").outputs


def _refusal(call: Any, *args: Any, **kwargs: Any) -> ArmError:
    with pytest.raises(ArmError) as refused:
        call(*args, **kwargs)
    return refused.value


# --- vaults --------------------------------------------------------------------------------------------------------


def test_a_new_vault_answers_its_uri_and_keeps_its_request_as_create_vault_json_does() -> None:
    out = _vault(_arm(), enabledForDeployment=True)
    properties = out["properties"]

    assert properties["vaultUri"].rstrip("/") == "https://sample-vault.vault.azure.net"
    assert properties["provisioningState"] == "Succeeded"
    assert (properties["tenantId"], properties["sku"], properties["enabledForDeployment"]) == (
        TENANT,
        {"family": "A", "name": "standard"},
        True,
    )
    assert out["tags"] == {}  # createVault.json answers `tags: {}` to a request without tags


@pytest.mark.parametrize("name", ["abc", "a" * 24, "kv-gpu-1", "Kv1"])
def test_a_vault_name_inside_azure_s_naming_rule_is_accepted(name: str) -> None:
    assert _vault(_arm(), name)["properties"]["provisioningState"] == "Succeeded"


@pytest.mark.parametrize("name", ["ab", "a" * 25, "1kv", "kv-", "kv--gpu", "kv_gpu"])
def test_a_vault_name_outside_azure_s_naming_rule_is_refused(name: str) -> None:
    error = _refusal(_vault, _arm(), name)

    assert error.code == "VaultNameNotValid"
    assert f"The vault name '{name}' is invalid" in error.message


@pytest.mark.parametrize("missing", ["tenantId", "sku"])
def test_a_vault_without_its_tenant_or_sku_is_refused(missing: str) -> None:
    # keyvault.json: VaultProperties requires tenantId and sku
    arm = _arm()
    body = {"tenantId": TENANT, "sku": {"family": "A", "name": "standard"}}
    del body[missing]
    inputs = {"resourceGroupName": GROUP, "vaultName": VAULT, "properties": body}
    error = _refusal(arm.put, "azure-native:keyvault:Vault", "kv", inputs, "urn:kv")

    assert error.code == "InvalidParameter"
    assert f"Key vault '{VAULT}' needs properties.tenantId and properties.sku" in error.message


def test_a_vault_whose_sku_has_no_name_is_refused() -> None:
    error = _refusal(_vault, _arm(), sku={"family": "A"})

    assert error.code == "InvalidParameter"


def test_purge_protection_cannot_be_switched_off() -> None:
    # keyvault.json, enablePurgeProtection: "Enabling this functionality is irreversible - that is, the property
    # does not accept false as its value."
    error = _refusal(_vault, _arm(), enablePurgeProtection=False)

    assert error.code == "BadRequest"
    assert 'The property "enablePurgeProtection" cannot be set to false' in error.message
    assert _vault(_arm(), enablePurgeProtection=True)["properties"]["enablePurgeProtection"] is True


@pytest.mark.parametrize("days", [7, 90])
def test_soft_delete_retention_of_7_to_90_days_is_accepted(days: int) -> None:
    assert _vault(_arm(), softDeleteRetentionInDays=days)["properties"]["softDeleteRetentionInDays"] == days


@pytest.mark.parametrize("days", [6, 91])
def test_soft_delete_retention_outside_7_to_90_days_is_refused(days: int) -> None:
    error = _refusal(_vault, _arm(), softDeleteRetentionInDays=days)

    assert (error.code, error.message) == ("InvalidParameter", f"softDeleteRetentionInDays {days}; allowed: 7 to 90.")


# --- secrets -------------------------------------------------------------------------------------------------------


def test_a_secret_answers_as_create_secret_json_does_without_its_value() -> None:
    arm = _arm()
    _vault(arm)
    out = _secret(arm)
    properties = out["properties"]

    assert "value" not in properties
    assert properties["secretUri"] == "https://sample-vault.vault.azure.net/secrets/secret-name"
    version = properties["secretUriWithVersion"].removeprefix(
        "https://sample-vault.vault.azure.net/secrets/secret-name/"
    )
    assert len(version) == 32 and int(version, 16) >= 0  # the example's: 32 hexadecimal digits
    assert properties["attributes"] == {"enabled": True}  # the example's, less the day's created and updated times
    assert out["location"] == "westus"  # the vault's


def test_two_secrets_of_a_vault_have_their_own_versions() -> None:
    arm = _arm()
    _vault(arm)
    first, second = (_secret(arm, name)["properties"]["secretUriWithVersion"] for name in ("one", "two"))

    assert first.rsplit("/", 1)[1] != second.rsplit("/", 1)[1]


def test_a_secret_s_value_of_25_k_bytes_is_accepted_and_one_byte_more_is_refused() -> None:
    # about-secrets: "a maximum size of 25k bytes" (25 x 1024 read as the bound)
    arm = _arm()
    _vault(arm)
    accepted = _secret(arm, "at-bound", {"value": "x" * 25 * 1024})
    error = _refusal(_secret, arm, "over-bound", {"value": "x" * (25 * 1024 + 1)})

    assert "value" not in accepted["properties"]
    assert error.code == "InvalidParameter"
    assert error.message == "Key vault secret 'over-bound': the value is 25601 bytes; allowed: at most 25600."


def test_a_secret_s_size_is_counted_in_bytes_not_characters() -> None:
    # 12,801 two-byte characters are 25,602 bytes: over the bound though fewer characters than it
    arm = _arm()
    _vault(arm)
    error = _refusal(_secret, arm, "accented", {"value": "é" * 12801})

    assert "the value is 25602 bytes" in error.message


def test_a_secret_s_content_type_of_255_characters_is_accepted_and_256_refused() -> None:
    arm = _arm()
    _vault(arm)
    accepted = _secret(arm, "at-bound", {"value": "v", "contentType": "t" * 255})
    error = _refusal(_secret, arm, "over-bound", {"value": "v", "contentType": "t" * 256})

    assert accepted["properties"]["contentType"] == "t" * 255
    assert error.code == "InvalidParameter"
    assert "contentType is 256 characters; allowed: at most 255" in error.message


def test_a_secret_without_properties_is_refused() -> None:
    # secrets.json: SecretCreateOrUpdateParameters requires properties
    arm = _arm()
    _vault(arm)
    inputs = {"resourceGroupName": GROUP, "vaultName": VAULT, "secretName": "secret-name"}
    error = _refusal(arm.put, "azure-native:keyvault:Secret", "secret", inputs, "urn:secret")

    assert error.code == "InvalidParameter"
    assert "Key vault secret 'secret-name' needs properties" in error.message


def test_a_secret_without_a_value_is_accepted() -> None:
    arm = _arm()
    _vault(arm)

    assert _secret(arm, properties={"contentType": "text/plain"})["properties"]["contentType"] == "text/plain"
