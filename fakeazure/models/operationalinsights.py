"""Microsoft.OperationalInsights: Log Analytics workspaces, where Application Insights writes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...catalog.limits import LIMITS
from ...sdk.values import stable_uuid
from ..core import ArmResourceType, Invoke, Resource, require_named
from ..errors import InvalidParameter
from ..lookups import lookup

if TYPE_CHECKING:
    from ..core import Arm


class LogAnalyticsWorkspace(ArmResourceType):
    token = "azure-native:operationalinsights:Workspace"
    arm_type = "Microsoft.OperationalInsights/workspaces"
    name_input = "workspaceName"

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        require_named(name, LIMITS.names.log_analytics_workspace, "Log Analytics workspace")
        days = props.get("retentionInDays")
        if days is not None and not 30 <= days <= 730:
            raise InvalidParameter(f"retentionInDays {days!r}; allowed: 30 to 730.")

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        return {"customerId": stable_uuid(res.id, "customerId"), "provisioningState": "Succeeded"}


TYPES: tuple[ArmResourceType, ...] = (LogAnalyticsWorkspace(),)
INVOKES: dict[str, Invoke] = {
    "azure-native:operationalinsights:getWorkspace": lookup(
        "Microsoft.OperationalInsights/workspaces", "workspaceName"
    ),
}
