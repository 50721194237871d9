"""Microsoft.Resources: resource groups, the container every other resource is placed in."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...catalog.limits import NameRule
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


# https://learn.microsoft.com/azure/azure-resource-manager/management/resource-name-rules
# (Microsoft.Resources, resourcegroups; observed 2026-11-22): 1-90 characters, "underscores,
# hyphens, periods, parentheses, and letters or digits", and it "can't end with period".
# (One character is allowed, which LIMITS.names.resource_group's pattern does not yet allow.)
RESOURCE_GROUP_NAME = NameRule(
    pattern=r"^[-\w.()]{0,89}[-\w()]$",
    max_length=90,
    allowed="1 to 90 letters, digits, '_', '-', '.', '(' and ')', not ending in '.'",
)
RESOURCE_GROUP = ResourceGroup.token
RESOURCE_GROUP_ARM_TYPE = ResourceGroup.arm_type

TYPES: tuple[ArmResourceType, ...] = (ResourceGroup(),)
INVOKES: dict[str, Invoke] = {
    "azure-native:resources:getResourceGroup": lookup("Microsoft.Resources/resourceGroups", "resourceGroupName"),
}
