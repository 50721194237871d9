"""Microsoft.Insights action groups (azure-native's `monitor` module): who a budget or alert notifies."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from azure_gpu_stacks.fakeazure.core import ArmResourceType
from azure_gpu_stacks.fakeazure.errors import InvalidParameter

if TYPE_CHECKING:
    from azure_gpu_stacks.fakeazure.backend import FakeArm


class ActionGroup(ArmResourceType):
    token = "azure-native:monitor:ActionGroup"
    arm_type = "Microsoft.Insights/actionGroups"
    name_input = "actionGroupName"

    def check(self, arm: FakeArm, name: str, props: dict[str, Any]) -> None:
        short = props.get("groupShortName") or ""
        if not 1 <= len(short) <= 12:
            raise InvalidParameter(f"groupShortName {short!r} must be 1 to 12 characters.")


TYPES: tuple[ArmResourceType, ...] = (ActionGroup(),)
