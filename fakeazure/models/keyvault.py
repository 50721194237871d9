"""Microsoft.KeyVault: key vaults (an Azure ML workspace's secrets)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from azure_gpu_stacks.fakeazure.core import ArmResourceType, Invoke, Resource
from azure_gpu_stacks.fakeazure.lookups import lookup
from azure_gpu_stacks.fakeazure.errors import BadRequest, InvalidParameter, VaultNameNotValid
from azure_gpu_stacks.fakeazure.util import dig

if TYPE_CHECKING:
    from azure_gpu_stacks.fakeazure.backend import FakeArm


VAULT_NAME = re.compile(r"^[A-Za-z](?!.*--)[A-Za-z0-9-]{1,22}[A-Za-z0-9]$")


class KeyVault(ArmResourceType):
    token = "azure-native:keyvault:Vault"
    arm_type = "Microsoft.KeyVault/vaults"
    name_input = "vaultName"
    autoname_max = 24

    def check(self, arm: FakeArm, name: str, props: dict[str, Any]) -> None:
        if not VAULT_NAME.match(name):
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

    def computed(self, arm: FakeArm, res: Resource) -> dict[str, Any]:
        properties = {**(res.properties.get("properties") or {})}
        properties.update(vaultUri=f"https://{res.name}.vault.azure.net/", provisioningState="Succeeded")
        return {"properties": properties}


TYPES: tuple[ArmResourceType, ...] = (KeyVault(),)
INVOKES: dict[str, Invoke] = {
    "azure-native:keyvault:getVault": lookup("Microsoft.KeyVault/vaults", "vaultName"),
}
