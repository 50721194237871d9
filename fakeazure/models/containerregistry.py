"""Microsoft.ContainerRegistry: container registries an Azure ML workspace may use."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from azure_gpu_stacks.fakeazure.core import ArmResourceType, Resource, require_named
from azure_gpu_stacks.fakeazure.errors import InvalidParameter
from azure_gpu_stacks.fakeazure.util import dig

if TYPE_CHECKING:
    from azure_gpu_stacks.fakeazure.backend import FakeArm


REGISTRY_NAME = re.compile(r"^[A-Za-z0-9]{5,50}$")


class ContainerRegistry(ArmResourceType):
    token = "azure-native:containerregistry:Registry"
    arm_type = "Microsoft.ContainerRegistry/registries"
    name_input = "registryName"
    autoname_max = 50

    def check(self, arm: FakeArm, name: str, props: dict[str, Any]) -> None:
        require_named(name, REGISTRY_NAME, "container registry", "5 to 50 letters and digits")
        if not dig(props, "sku", "name"):
            raise InvalidParameter(f"Container registry '{name}' needs sku.name.")

    def computed(self, arm: FakeArm, res: Resource) -> dict[str, Any]:
        return {"loginServer": f"{res.name.lower()}.azurecr.io", "provisioningState": "Succeeded"}



TYPES: tuple[ArmResourceType, ...] = (ContainerRegistry(),)
