"""Microsoft.Authorization: role assignments, and the deploying identity (`getClientConfig`)."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from azure_gpu_stacks.fakeazure.core import ArmResourceType, Invoke, Resource
from azure_gpu_stacks.fakeazure.errors import InvalidParameter
from azure_gpu_stacks.fakeazure.util import stable_uuid

if TYPE_CHECKING:
    from azure_gpu_stacks.fakeazure.backend import FakeArm


class RoleAssignment(ArmResourceType):
    """An Azure RBAC role assignment, an extension resource under `scope`."""

    token = "azure-native:authorization:RoleAssignment"
    arm_type = "Microsoft.Authorization/roleAssignments"
    name_input = "roleAssignmentName"
    scoped = True
    located = False

    def check(self, arm: FakeArm, name: str, props: dict[str, Any]) -> None:
        arm.require(props.get("scope"), "scope")
        role = str(props.get("roleDefinitionId") or "")
        if "/providers/Microsoft.Authorization/roleDefinitions/" not in role:
            raise InvalidParameter(f"Role assignment '{name}': roleDefinitionId {role!r} is not a role definition id.")
        try:
            uuid.UUID(str(props.get("principalId")))
        except ValueError:
            raise InvalidParameter(f"Role assignment '{name}': principalId {props.get('principalId')!r} is not an object id.") from None

    def computed(self, arm: FakeArm, res: Resource) -> dict[str, Any]:
        return {"principalType": res.properties.get("principalType") or "User", "createdOn": arm.now.isoformat()}



def _client_config(arm: FakeArm, args: dict[str, Any]) -> dict[str, Any]:
    return {
        "clientId": arm.client_id,
        "objectId": stable_uuid("object", arm.client_id),
        "subscriptionId": arm.subscription_id,
        "tenantId": arm.tenant_id,
    }


TYPES: tuple[ArmResourceType, ...] = (RoleAssignment(),)
INVOKES: dict[str, Invoke] = {"azure-native:authorization:getClientConfig": _client_config}
