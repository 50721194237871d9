"""Microsoft.Authorization: role assignments, and the deploying identity (`getClientConfig`)."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from ...sdk.values import stable_uuid
from ..core import ArmResourceType, Invoke, Resource, scope_id
from ..errors import UnmatchedPrincipalType, coded

if TYPE_CHECKING:
    from ..core import Arm


class RoleAssignment(ArmResourceType):
    """An Azure RBAC role assignment, an extension resource under `scope`."""

    token = "azure-native:authorization:RoleAssignment"
    arm_type = "Microsoft.Authorization/roleAssignments"
    name_input = "roleAssignmentName"
    scoped = True
    located = False

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        arm.require(scope_id(props.get("scope")), "scope")
        # Authorization's codes for these two, as public deployment notes quote them (code corpus, observed
        # 2026-11-27): "InvalidPrincipalId: The Principal ID '...' is not valid." and "Deployment fails with
        # InvalidRoleDefinitionId" for a role definition id that is not one.
        role = str(props.get("roleDefinitionId") or "")
        if "/providers/Microsoft.Authorization/roleDefinitions/" not in role:
            raise coded(
                "InvalidRoleDefinitionId",
                f"The role definition ID '{role}' is not valid (role assignment '{name}': a "
                "/providers/Microsoft.Authorization/roleDefinitions/<guid> id).",
            )
        try:
            uuid.UUID(str(props.get("principalId")))
        except ValueError:
            raise coded(
                "InvalidPrincipalId",
                f"The Principal ID '{props.get('principalId')}' is not valid (role assignment '{name}': an object id).",
            ) from None
        wanted = props.get("principalType")
        if props.get("principalId") == deployer_object_id(arm) and wanted and wanted != arm.deployer_principal_type:
            # Seen in Azure/modern-web-app-pattern-dotnet#129 (observed 2026-11-22).
            raise UnmatchedPrincipalType(
                f"The PrincipalId '{props['principalId']}' has type '{arm.deployer_principal_type}' , "
                "which is different "
                f"from specified PrincipalType '{wanted}'."
            )

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        deployer = res.properties.get("principalId") == deployer_object_id(arm)
        default = arm.deployer_principal_type if deployer else "User"
        return {"principalType": res.properties.get("principalType") or default, "createdOn": arm.now.isoformat()}


def deployer_object_id(arm: Arm) -> str:
    """The object id of the identity running Pulumi, as `getClientConfig` reports it."""
    return object_id_of(arm.client_id)


def object_id_of(client_id: str) -> str:
    """The fake's object id for the client `client_id` (never a real one: derived from the fake client id)."""
    return stable_uuid("object", client_id)


def _client_config(arm: Arm, args: dict[str, Any]) -> dict[str, Any]:
    return {
        "clientId": arm.client_id,
        "objectId": deployer_object_id(arm),
        "subscriptionId": arm.subscription_id,
        "tenantId": arm.tenant_id,
    }


TYPES: tuple[ArmResourceType, ...] = (RoleAssignment(),)
INVOKES: dict[str, Invoke] = {"azure-native:authorization:getClientConfig": _client_config}
