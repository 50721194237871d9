"""Microsoft.ManagedIdentity: user-assigned identities, which teams share and join by id or look up."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...sdk.values import stable_uuid
from ..core import ArmResourceType, Invoke, Resource
from ..lookups import lookup

if TYPE_CHECKING:
    from ..core import Arm


class UserAssignedIdentity(ArmResourceType):
    token = "azure-native:managedidentity:UserAssignedIdentity"
    arm_type = "Microsoft.ManagedIdentity/userAssignedIdentities"
    name_input = "resourceName"

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        """The principal and client ids Entra ID gives the identity, and its tenant."""
        return {
            "principalId": stable_uuid(res.id, "principal"),
            "clientId": stable_uuid(res.id, "client"),
            "tenantId": arm.tenant_id,
        }


TYPES: tuple[ArmResourceType, ...] = (UserAssignedIdentity(),)
INVOKES: dict[str, Invoke] = {
    "azure-native:managedidentity:getUserAssignedIdentity": lookup(
        "Microsoft.ManagedIdentity/userAssignedIdentities", "resourceName"
    ),
}
