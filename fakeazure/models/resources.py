"""Microsoft.Resources: resource groups, the container every other resource is placed in."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from azure_gpu_stacks.fakeazure.core import ArmResourceType, Resource

if TYPE_CHECKING:
    from azure_gpu_stacks.fakeazure.backend import FakeArm


class ResourceGroup(ArmResourceType):
    token = "azure-native:resources:ResourceGroup"
    arm_type = "Microsoft.Resources/resourceGroups"
    name_input = "resourceGroupName"
    autoname_max = 90

    def computed(self, arm: FakeArm, res: Resource) -> dict[str, Any]:
        return {"properties": {"provisioningState": "Succeeded"}}


RESOURCE_GROUP = ResourceGroup.token
RESOURCE_GROUP_ARM_TYPE = ResourceGroup.arm_type

TYPES: tuple[ArmResourceType, ...] = (ResourceGroup(),)
