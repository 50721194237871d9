"""Microsoft.DevTestLab: the global schedule behind a VM's auto-shutdown."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...catalog.time_zones import windows_time_zone
from ...sdk.values import dig
from ..core import ArmResourceType, Resource
from ..errors import InvalidParameter, InvalidScheduleId

if TYPE_CHECKING:
    from ..core import Arm


class GlobalSchedule(ArmResourceType):
    """A DevTest Labs schedule outside a lab: the VM auto-shutdown of the portal."""

    token = "azure-native:devtestlab:GlobalSchedule"
    arm_type = "Microsoft.DevTestLab/schedules"
    name_input = "name"

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        # targetResourceId is optional in the spec's ScheduleProperties; its GlobalSchedules_CreateOrUpdate
        # example (a LabVmsStartupTask) sends none (tests/data/azure-specs, devtestlab 2018-09-15)
        target_id = props.get("targetResourceId")
        target = arm.require(target_id, "targetResourceId") if target_id is not None else None
        if props.get("taskType") == "ComputeVmShutdownTask" and target is not None:
            expected = f"shutdown-computevm-{target.name}"
            group = str(props.get("resourceGroupName") or "")
            if name.lower() != expected.lower() or group.lower() != str(target.resource_group or "").lower():
                # Azure's wording (observed 2026-11-22 in public issue threads about auto-shutdown schedules).
                raise InvalidScheduleId(
                    f"The schedule should be created in subscription {arm.subscription_id}, resource group "
                    f"{target.resource_group} and with name {expected}; got '{name}' in resource group '{group}'."
                )
        time = dig(props, "dailyRecurrence", "time")
        if time is not None and not (len(time) == 4 and time.isdigit() and int(time[:2]) < 24 and int(time[2:]) < 60):
            raise InvalidParameter(f"dailyRecurrence.time {time!r} is not a time of day as HHmm (e.g. 1900).")

        # The spec's timeZoneId: "The possible values for this property can be found in
        # TimeZoneConverter.TZConvert.KnownWindowsTimeZoneIds" (Windows ids: the catalog's `time_zones`;
        # Azure/azure-rest-api-specs, Microsoft.DevTestLab, observed 2026-11-22). No public code for the refusal.
        if props.get("timeZoneId") is not None:
            try:
                windows_time_zone(str(props["timeZoneId"]))
            except ValueError as bad:
                raise InvalidParameter(f"timeZoneId {bad}.") from None

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        return {"provisioningState": "Succeeded", "createdDate": arm.now.isoformat()}


TYPES: tuple[ArmResourceType, ...] = (GlobalSchedule(),)
