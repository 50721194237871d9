"""Microsoft.OperationalInsights: Log Analytics workspaces, where Application Insights writes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from azure_gpu_stacks.catalog.limits import LIMITS
from azure_gpu_stacks.fakeazure.core import ArmResourceType, Invoke, Resource, require_named
from azure_gpu_stacks.fakeazure.errors import InvalidParameter
from azure_gpu_stacks.fakeazure.lookups import lookup
from azure_gpu_stacks.sdk.values import stable_uuid

if TYPE_CHECKING:
    from azure_gpu_stacks.fakeazure.backend import FakeArm


class LogAnalyticsWorkspace(ArmResourceType):
    token = "azure-native:operationalinsights:Workspace"
    arm_type = "Microsoft.OperationalInsights/workspaces"
    name_input = "workspaceName"

    def check(self, arm: FakeArm, name: str, props: dict[str, Any]) -> None:
        require_named(name, LIMITS.names.log_analytics_workspace, "Log Analytics workspace")
        days = props.get("retentionInDays")
        if days is not None and not 30 <= days <= 730:
            raise InvalidParameter(f"retentionInDays {days!r}; allowed: 30 to 730.")

    def computed(self, arm: FakeArm, res: Resource) -> dict[str, Any]:
        return {"customerId": stable_uuid(res.id, "customerId"), "provisioningState": "Succeeded"}


TYPES: tuple[ArmResourceType, ...] = (LogAnalyticsWorkspace(),)
INVOKES: dict[str, Invoke] = {
    "azure-native:operationalinsights:getWorkspace": lookup(
        "Microsoft.OperationalInsights/workspaces", "workspaceName"
    ),
}
