"""Microsoft.Resources: resource groups, the container every other resource is placed in."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...catalog.names import name_rule
from ..core import ArmResourceType, Invoke, Resource, require_named
from ..lookups import lookup

if TYPE_CHECKING:
    from ..core import Arm


class ResourceGroup(ArmResourceType):
    token = "azure-native:resources:ResourceGroup"
    arm_type = "Microsoft.Resources/resourceGroups"
    name_input = "resourceGroupName"
    autoname_max = 90

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        # A name derived from the stack (`rg-<stack>`) can break this: stack `dev.` makes `rg-dev.`.
        require_named(name, RESOURCE_GROUP_NAME, "resource group")

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        return {"properties": {"provisioningState": "Succeeded"}}


RESOURCE_GROUP_NAME = name_rule("Microsoft.Resources/resourceGroups")  # the one name table
RESOURCE_GROUP = ResourceGroup.token
RESOURCE_GROUP_ARM_TYPE = ResourceGroup.arm_type

TYPES: tuple[ArmResourceType, ...] = (ResourceGroup(),)
INVOKES: dict[str, Invoke] = {
    "azure-native:resources:getResourceGroup": lookup("Microsoft.Resources/resourceGroups", "resourceGroupName"),
}
