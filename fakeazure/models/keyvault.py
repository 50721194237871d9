"""Microsoft.KeyVault: key vaults (an Azure ML workspace's secrets) and the secrets a program puts in them.

Secrets (`Microsoft.KeyVault/vaults/secrets`, the control-plane PUT ARM deployments use): the vault
must exist; the name follows the spec's secretName pattern (`LIMITS.names.key_vault_secret`); the
value is at most 25 KB and contentType at most 255 characters ("a maximum size of 25k bytes each",
"The maximum length of this field is 255 characters":
https://learn.microsoft.com/azure/key-vault/secrets/about-secrets, observed 2026-11-22; 25k read as
25 x 1024 bytes). ARM never returns a secret's value ("'value' will never be returned from the
service", Azure/azure-rest-api-specs .../Microsoft.KeyVault/stable/2023-07-01/secrets.json), so the
fake's outputs leave it out. No public error code was found for these refusals: `InvalidParameter`.
Not faked: the data plane (RBAC on secrets, access policies), soft-deleted secrets of the same name,
and secret attributes (expiry, not-before).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...catalog.limits import LIMITS
from ...sdk.values import dig, stable_uuid
from ..core import ArmResourceType, Invoke, Resource, require_named
from ..errors import BadRequest, InvalidParameter, VaultNameNotValid
from ..lookups import lookup

if TYPE_CHECKING:
    from ..core import Arm


class KeyVault(ArmResourceType):
    token = "azure-native:keyvault:Vault"
    arm_type = "Microsoft.KeyVault/vaults"
    name_input = "vaultName"
    autoname_max = 24

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        if not LIMITS.names.key_vault.matches(name):
            raise VaultNameNotValid(
                f"The vault name '{name}' is invalid. A vault's name must be between 3-24 alphanumeric characters. "
                "The name must begin with a letter, end with a letter or digit, and not contain consecutive hyphens."
            )
        properties = props.get("properties") or {}
        if not properties.get("tenantId") or not dig(properties, "sku", "name"):
            raise InvalidParameter(f"Key vault '{name}' needs properties.tenantId and properties.sku.")
        if properties.get("enablePurgeProtection") is False:
            raise BadRequest(
                'The property "enablePurgeProtection" cannot be set to false. Enabling the purge protection for a '
                "vault is an irreversible action; leave it unset or true."
            )
        days = properties.get("softDeleteRetentionInDays")
        if days is not None and not 7 <= days <= 90:
            raise InvalidParameter(f"softDeleteRetentionInDays {days!r}; allowed: 7 to 90.")

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        properties = {**(res.properties.get("properties") or {})}
        properties.update(vaultUri=f"https://{res.name}.vault.azure.net/", provisioningState="Succeeded")
        return {"properties": properties}


class Secret(ArmResourceType):
    token = "azure-native:keyvault:Secret"
    arm_type = "Microsoft.KeyVault/vaults/secrets"
    name_input = "secretName"
    parent_inputs = ("vaultName",)
    located = False
    autoname_max = LIMITS.names.key_vault_secret.max_length
    max_value_bytes = 25 * 1024
    max_content_type = 255

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        require_named(name, LIMITS.names.key_vault_secret, "key vault secret")
        properties = props.get("properties")
        if not isinstance(properties, dict):
            raise InvalidParameter(f"Key vault secret '{name}' needs properties (the spec marks them required).")
        size = len(str(properties.get("value") or "").encode())
        if size > self.max_value_bytes:
            raise InvalidParameter(
                f"Key vault secret '{name}': the value is {size} bytes; allowed: at most {self.max_value_bytes}."
            )
        content_type = str(properties.get("contentType") or "")
        if len(content_type) > self.max_content_type:
            raise InvalidParameter(
                f"Key vault secret '{name}': contentType is {len(content_type)} characters; allowed: at most "
                f"{self.max_content_type}."
            )

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        vault = res.id.split("/vaults/")[1].split("/")[0]
        properties = {k: v for k, v in (res.properties.get("properties") or {}).items() if k != "value"}
        uri = f"https://{vault}.vault.azure.net/secrets/{res.name}"
        properties.update(
            secretUri=uri, secretUriWithVersion=f"{uri}/{stable_uuid(res.id, 'version').replace('-', '')}"
        )
        return {"properties": properties}


TYPES: tuple[ArmResourceType, ...] = (KeyVault(), Secret())
INVOKES: dict[str, Invoke] = {
    "azure-native:keyvault:getVault": lookup("Microsoft.KeyVault/vaults", "vaultName"),
}
