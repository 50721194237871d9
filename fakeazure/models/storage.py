"""Microsoft.Storage: storage accounts (an Azure ML workspace's default store)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...catalog.limits import LIMITS
from ...sdk.values import dig
from ..core import ArmResourceType, Resource
from ..errors import AccountNameInvalid, InvalidParameter

if TYPE_CHECKING:
    from ..core import Arm


class StorageAccount(ArmResourceType):
    token = "azure-native:storage:StorageAccount"
    arm_type = "Microsoft.Storage/storageAccounts"
    name_input = "accountName"
    autoname_max = 24

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        if not LIMITS.names.storage_account.matches(name):
            # The message ARM gives (quoted in pulumi-azure-native#3665, observed 2026-11-22).
            raise AccountNameInvalid(
                f"{name} is not a valid storage account name. Storage account name must be between 3 and 24 "
                "characters in length and use numbers and lower-case letters only."
            )
        if not dig(props, "sku", "name") or not props.get("kind"):
            raise InvalidParameter(f"Storage account '{name}' needs sku.name and kind.")

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        endpoints = {
            kind: f"https://{res.name}.{kind}.core.windows.net/" for kind in ("blob", "dfs", "file", "queue", "table")
        }
        # The static website endpoint, in a zone Azure picks (Learn, "Tutorial: Add outputs to your ARM
        # template", the deployment's primaryEndpoints output: "web": "https://<account>.z19.web.core.windows.net/";
        # observed 2026-11-26).
        endpoints["web"] = f"https://{res.name}.z19.web.core.windows.net/"
        return {"primaryEndpoints": endpoints, "statusOfPrimary": "available", "provisioningState": "Succeeded"}


TYPES: tuple[ArmResourceType, ...] = (StorageAccount(),)
