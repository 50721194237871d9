"""Microsoft.ContainerRegistry: container registries an Azure ML workspace may use."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...catalog.limits import LIMITS
from ...sdk.values import dig
from ..core import ArmResourceType, Resource, require_named
from ..errors import InvalidParameter

if TYPE_CHECKING:
    from ..core import Arm


class ContainerRegistry(ArmResourceType):
    token = "azure-native:containerregistry:Registry"
    arm_type = "Microsoft.ContainerRegistry/registries"
    name_input = "registryName"
    autoname_max = 50

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        require_named(name, LIMITS.names.container_registry, "container registry")
        if not dig(props, "sku", "name"):
            raise InvalidParameter(f"Container registry '{name}' needs sku.name.")

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        return {"loginServer": f"{res.name.lower()}.azurecr.io", "provisioningState": "Succeeded"}


TYPES: tuple[ArmResourceType, ...] = (ContainerRegistry(),)
