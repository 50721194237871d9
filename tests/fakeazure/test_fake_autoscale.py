"""The fake ARM's Azure Monitor autoscale setting (`monitor:AutoscaleSetting`): each rule it checks,
with the code and message a refusal carries, driven through Pulumi's mocks as a program drives it
(issue: Azure fidelity). The sources of the rules are in `fakeazure/models/monitor.py`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from azure_gpu_stacks.fakeazure import FAKE_SUBSCRIPTION_ID

from tests.conftest import TEST_RG, Recording, in_resource_group

AUTOSCALE = "azure-native:monitor:AutoscaleSetting"
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
MISSING = (
    f"/subscriptions/{FAKE_SUBSCRIPTION_ID}/resourceGroups/{TEST_RG}"
    "/providers/Microsoft.Compute/virtualMachineScaleSets/gone"
)


def schedule(**changes: Any) -> Any:
    from pulumi_azure_native import monitor

    return monitor.RecurrenceArgs(
        frequency=changes.pop("frequency", "Week"),
        schedule=monitor.RecurrentScheduleArgs(
            **{"time_zone": "UTC", "days": WEEKDAYS, "hours": [8], "minutes": [0], **changes}
        ),
    )


def profile(
    name: str = "working-hours",
    *,
    capacity: tuple[str, str, str] = ("3", "3", "3"),
    rules: int = 0,
    recurrence: Any = "weekly",
    fixed_date: Any = None,
) -> Any:
    from pulumi_azure_native import monitor

    minimum, maximum, default = capacity
    rule = monitor.ScaleRuleArgs(
        metric_trigger=monitor.MetricTriggerArgs(
            metric_name="Percentage CPU",
            metric_resource_uri=MISSING,
            time_grain="PT1M",
            statistic="Average",
            time_window="PT10M",
            time_aggregation="Average",
            operator="GreaterThan",
            threshold=80,
        ),
        scale_action=monitor.ScaleActionArgs(direction="Increase", type="ChangeCount", value="1", cooldown="PT5M"),
    )
    return monitor.AutoscaleProfileArgs(
        name=name,
        capacity=monitor.ScaleCapacityArgs(minimum=minimum, maximum=maximum, default=default),
        rules=[rule] * rules,
        recurrence=schedule() if recurrence == "weekly" else recurrence,
        fixed_date=fixed_date,
    )


def setting(profiles: Callable[[], list[Any]], *, target: str | None = None) -> Callable[[], None]:
    """A program: the resource group, a virtual network, and an autoscale setting on it (the fake
    does not check which resource types autoscale supports), named `scale`."""

    def build(rg: Any) -> None:
        from pulumi_azure_native import monitor, network

        vnet = network.VirtualNetwork(
            "vnet",
            resource_group_name=rg.name,
            location="eastus",
            address_space=network.AddressSpaceArgs(address_prefixes=["10.0.0.0/16"]),
        )
        monitor.AutoscaleSetting(
            "scale",
            autoscale_setting_name="scale",
            resource_group_name=rg.name,
            location="eastus",
            enabled=True,
            target_resource_uri=target or vnet.id,
            profiles=profiles(),
        )

    return in_resource_group(build)


def refusal(rec: Recording) -> tuple[str, str]:
    [found] = rec.refusals
    assert found.resource == "scale"
    return found.code, found.message


def test_autoscale_setting_with_working_hours_profiles_is_accepted(record: Callable[..., Recording]) -> None:
    rec = record(
        setting(lambda: [profile(), profile("outside", capacity=("0", "0", "0"), recurrence=schedule(hours=[19]))])
    )

    assert rec.refusals == []
    [scale] = [r for r in rec.arm.resources() if r.name == "scale"]
    assert scale.id == (
        f"/subscriptions/{FAKE_SUBSCRIPTION_ID}/resourceGroups/{TEST_RG}/providers/Microsoft.Insights/autoscaleSettings/scale"
    )


def test_autoscale_setting_of_a_missing_target_is_target_resource_not_found(record: Callable[..., Recording]) -> None:
    rec = record(setting(lambda: [profile()], target=MISSING))

    assert refusal(rec) == (
        "TargetResourceNotFound",
        f"The target resource '{MISSING}' of the autoscale setting 'scale' was not found (targetResourceUri).",
    )


@pytest.mark.parametrize(
    ("profiles", "message"),
    [
        (
            lambda: [profile(f"p{i}", recurrence=schedule(minutes=[i])) for i in range(21)],
            "The autoscale setting 'scale' has 21 profiles; allowed: 1 to 20.",
        ),
        (
            lambda: [profile("a", recurrence=None), profile("b", recurrence=None)],
            "The autoscale setting 'scale' has 2 default profiles (a, b), profiles with neither fixedDate nor "
            "recurrence; "
            "allowed: one.",
        ),
        (
            lambda: [profile(rules=11, capacity=("1", "5", "1"))],
            "The autoscale profile profiles[0] 'working-hours' has 11 rules; allowed: at most 10.",
        ),
        (
            lambda: [profile(capacity=("1", "three", "1"))],
            "The autoscale profile profiles[0] 'working-hours': capacity.maximum 'three'; allowed: a whole "
            "number, 0 or more.",
        ),
        (
            lambda: [profile(capacity=("6", "6", "1"))],  # Azure's own wording
            "The minimum capacity value '6' that you specified in the autoscale setting is greater than the default "
            "capacity of '1'. Enter a minimum capacity less than '1'.",
        ),
        (
            lambda: [profile(recurrence=schedule(frequency="Day"))],
            "The autoscale profile profiles[0] 'working-hours': recurrence.frequency 'Day'; allowed: Week.",
        ),
        (
            lambda: [profile(recurrence=schedule(time_zone="Europe/Berlin"))],
            "The autoscale profile profiles[0] 'working-hours': recurrence.schedule.timeZone 'Europe/Berlin' is "
            "an IANA "
            "time zone name (did you mean W. Europe Standard Time?); allowed: a Windows time zone id, e.g. UTC, "
            "W. Europe "
            "Standard Time, Eastern Standard Time (all of them: `tzutil /l` on Windows, or `Get-TimeZone "
            "-ListAvailable` "
            "in PowerShell).",
        ),
        (
            lambda: [profile(recurrence=schedule(days=["Monday", "Funday"]))],
            "The autoscale profile profiles[0] 'working-hours': recurrence.schedule.days ['Monday', 'Funday']; "
            "allowed: "
            "one or more of Sunday, Monday, Tuesday, Wednesday, Thursday, Friday, Saturday (or their numbers, 0 for "
            "Sunday to 6 for Saturday).",
        ),
        (
            lambda: [profile(recurrence=schedule(hours=[24]))],
            "The autoscale profile profiles[0] 'working-hours': recurrence.schedule.hours [24]; allowed: 0 to 23.",
        ),
        (
            lambda: [profile(recurrence=schedule(minutes=[60]))],
            "The autoscale profile profiles[0] 'working-hours': recurrence.schedule.minutes [60]; allowed: 0 to 59.",
        ),
        (
            lambda: [profile(recurrence=None, fixed_date=_fixed(start="next friday"))],
            "The autoscale profile profiles[0] 'working-hours': fixedDate.start 'next friday'; allowed: an ISO "
            "8601 date-time.",
        ),
        (
            lambda: [profile(recurrence=None, fixed_date=_fixed(time_zone="Mars Standard Time"))],
            "The autoscale profile profiles[0] 'working-hours': fixedDate.timeZone 'Mars Standard Time' is not a "
            "Windows "
            "time zone id (did you mean Mauritius Standard Time, Marquesas Standard Time, Myanmar Standard "
            "Time?); allowed: a Windows time zone id, e.g. UTC, W. Europe Standard "
            "Time, Eastern Standard Time (all of them: `tzutil /l` on Windows, or `Get-TimeZone -ListAvailable` "
            "in PowerShell).",
        ),
    ],
    ids=[
        "21-profiles",
        "2-defaults",
        "11-rules",
        "capacity-word",
        "minimum-over-default",
        "frequency-day",
        "iana-zone",
        "unknown-day",
        "hour-24",
        "minute-60",
        "fixed-date-start",
        "fixed-date-zone",
    ],
)
def test_autoscale_setting_azure_refuses_is_bad_request(
    record: Callable[..., Recording], profiles: Callable[[], list[Any]], message: str
) -> None:
    rec = record(setting(profiles))

    assert refusal(rec) == ("BadRequest", message)


def _fixed(*, start: str = "2026-11-27T00:00:00", time_zone: str = "UTC") -> Any:
    from pulumi_azure_native import monitor

    return monitor.TimeWindowArgs(start=start, end="2026-11-28T00:00:00", time_zone=time_zone)


def test_autoscale_fixed_date_and_default_profile_are_accepted(record: Callable[..., Recording]) -> None:
    rec = record(
        setting(
            lambda: [profile("default", recurrence=None), profile("black-friday", recurrence=None, fixed_date=_fixed())]
        )
    )

    assert rec.refusals == []


def test_autoscale_frequency_outside_the_sdk_enum_is_refused_by_the_enum_check(
    record: Callable[..., Recording],
) -> None:
    rec = record(setting(lambda: [profile(recurrence=schedule(frequency="Fortnight"))]))

    code, message = refusal(rec)
    assert code == "InvalidParameter"
    assert "'Fortnight'" in message and "Week" in message


def test_a_default_capacity_over_the_maximum_is_an_advisory(record: Callable[..., Recording]) -> None:
    # no public copy of Azure refusing it was found: a warning, never a refusal (issue 33)
    rec = record(setting(lambda: [profile(capacity=("1", "2", "3"))]))

    assert rec.refusals == []
    assert any("default capacity 3 is above its maximum 2" in a for a in rec.arm.advisories)
