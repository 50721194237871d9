"""Microsoft.OperationalInsights: Log Analytics workspaces, where Application Insights writes."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from azure_gpu_stacks.fakeazure.core import ArmResourceType, Invoke, require_named, Resource
from azure_gpu_stacks.fakeazure.lookups import lookup
from azure_gpu_stacks.fakeazure.errors import InvalidParameter
from azure_gpu_stacks.fakeazure.util import stable_uuid

if TYPE_CHECKING:
    from azure_gpu_stacks.fakeazure.backend import FakeArm


LOG_WORKSPACE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]{2,61}[A-Za-z0-9]$")


class LogAnalyticsWorkspace(ArmResourceType):
    token = "azure-native:operationalinsights:Workspace"
    arm_type = "Microsoft.OperationalInsights/workspaces"
    name_input = "workspaceName"

    def check(self, arm: FakeArm, name: str, props: dict[str, Any]) -> None:
        require_named(name, LOG_WORKSPACE_NAME, "Log Analytics workspace", "4 to 63 letters, digits and '-'")
        days = props.get("retentionInDays")
        if days is not None and not 30 <= days <= 730:
            raise InvalidParameter(f"retentionInDays {days!r}; allowed: 30 to 730.")

    def computed(self, arm: FakeArm, res: Resource) -> dict[str, Any]:
        return {"customerId": stable_uuid(res.id, "customerId"), "provisioningState": "Succeeded"}


TYPES: tuple[ArmResourceType, ...] = (LogAnalyticsWorkspace(),)
INVOKES: dict[str, Invoke] = {
    "azure-native:operationalinsights:getWorkspace": lookup("Microsoft.OperationalInsights/workspaces", "workspaceName"),
}
