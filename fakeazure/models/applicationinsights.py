"""Microsoft.Insights components (azure-native's `applicationinsights` module): Azure ML's telemetry."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...sdk.values import stable_uuid
from ..core import ArmResourceType, Resource, expect_type
from ..errors import InvalidParameter
from .operationalinsights import LogAnalyticsWorkspace

if TYPE_CHECKING:
    from ..core import Arm


class ApplicationInsights(ArmResourceType):
    token = "azure-native:applicationinsights:Component"
    arm_type = "Microsoft.Insights/components"
    name_input = "resourceName"

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        if not props.get("kind") or not props.get("applicationType"):
            raise InvalidParameter(f"Application Insights component '{name}' needs kind and applicationType.")
        if props.get("workspaceResourceId") is not None:
            logs = arm.require(props["workspaceResourceId"], "workspaceResourceId")
            expect_type(logs, LogAnalyticsWorkspace.arm_type, "workspaceResourceId")

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        key = stable_uuid(res.id, "instrumentationKey")
        return {
            "appId": stable_uuid(res.id, "appId"),
            "instrumentationKey": key,
            "connectionString": f"InstrumentationKey={key};IngestionEndpoint=https://{res.location}-0.in.applicationinsights.azure.com/",
            "provisioningState": "Succeeded",
        }


TYPES: tuple[ArmResourceType, ...] = (ApplicationInsights(),)
