"""Scale a scale set to zero nodes outside working hours, through Azure Monitor autoscale.

One autoscale setting (`Microsoft.Insights/autoscaleSettings`) on the scale set with two recurring
profiles (frequency Week) and fixed capacities (minimum = maximum = default, no metric rules): at
`start` on each working day the cluster's node count, at `end` 0 nodes. A recurring profile in ARM
has a start and no end; it holds until the next profile starts (the portal's "end time" is another
profile it adds for you), so the 0-node profile holds through the night and the weekend.

Scaling in deletes nodes: a job still running at `end` is stopped on every node (WARNING below).

Docs (observed 2026-11-22):
https://learn.microsoft.com/azure/azure-monitor/autoscale/autoscale-multiprofile
https://learn.microsoft.com/azure/virtual-machine-scale-sets/virtual-machine-scale-sets-autoscale-overview
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

import pulumi
from pulumi_azure_native import monitor

from ..catalog.time_zones import windows_time_zone
from .checks import Problems, time_of_day
from .placement import placement

DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
DEFAULT_DAYS = DAYS[:5]
DEFAULT_TIME_ZONE = "UTC"
WORKING_PROFILE = "working-hours"
OFF_PROFILE = "outside-working-hours"
WARNING = (
    "the cluster scales in to 0 nodes at {end} ({time_zone}) every working day and stays there until {start}: "
    "scaling in deletes the nodes, which stops any job still running on them; finish or checkpoint jobs before {end}"
)


class WorkingHoursArgs(TypedDict):
    """When a TrainingCluster runs; outside these hours it has 0 nodes."""

    start: str
    """Start of working hours, HHmm, e.g. 0800."""
    end: str
    """End of working hours, HHmm, after start on the same day, e.g. 1900."""
    days: NotRequired[Sequence[str]]
    """Working days, Monday to Sunday. Default: Monday to Friday."""
    time_zone: NotRequired[str]
    """Windows time zone id of start and end, e.g. W. Europe Standard Time. Default: UTC."""


@dataclass(frozen=True)
class WorkingHours:
    start: str  # HHmm
    end: str  # HHmm
    days: tuple[str, ...]
    time_zone: str

    def as_args(self) -> dict[str, Any]:
        """As WorkingHoursArgs, canonical (what the component's checked inputs hold)."""
        return {"start": self.start, "end": self.end, "days": list(self.days), "time_zone": self.time_zone}

    def warning(self) -> str:
        return WARNING.format(start=self.start, end=self.end, time_zone=self.time_zone)


def _minutes(hhmm: str) -> int:
    return int(hhmm[:2]) * 60 + int(hhmm[2:])


def working_days(value: Any) -> tuple[str, ...]:
    """Day names, each once, in week order."""
    if isinstance(value, str) or not isinstance(value, Sequence) or not value:
        raise ValueError(f"{value!r}; allowed: a list of days from {', '.join(DAYS)}")
    by_key = {day.lower(): day for day in DAYS}
    unknown = [str(d) for d in value if str(d).lower() not in by_key]
    if unknown:
        raise ValueError(f"{', '.join(repr(d) for d in unknown)} not a day; allowed: {', '.join(DAYS)}")
    named = {by_key[str(d).lower()] for d in value}
    if len(named) != len(value):
        raise ValueError(f"{list(value)!r} names a day twice; allowed: each day once")
    return tuple(day for day in DAYS if day in named)


def window(start: str, end: str) -> None:
    """Working hours are one span within a day (no overnight span)."""
    if _minutes(end) <= _minutes(start):
        raise ValueError(
            f"end {end} is not after start {start}; allowed: start and end on the same day, e.g. 0800 to 1900"
        )


def validated(problems: Problems, key: str, value: Any) -> WorkingHours | None:
    """`value` (WorkingHoursArgs) checked, every problem added to `problems` under `key`."""
    if not isinstance(value, Mapping):
        problems.add(key, f"{value!r}; allowed: start and end (HHmm), optional days and time_zone")
        return None
    unknown = sorted(set(value) - set(WorkingHoursArgs.__annotations__))
    if unknown:
        problems.add(key, f"unknown {', '.join(unknown)}; allowed: start, end, days, time_zone")
    found = len(problems.found)
    for required in ("start", "end"):
        if value.get(required) is None:
            problems.add(f"{key}.{required}", "required key is missing")
    start = problems.check(f"{key}.start", time_of_day, str(value["start"])) if value.get("start") is not None else None
    end = problems.check(f"{key}.end", time_of_day, str(value["end"])) if value.get("end") is not None else None
    days = problems.check(f"{key}.days", working_days, _or(value.get("days"), DEFAULT_DAYS))
    time_zone = problems.check(f"{key}.time_zone", windows_time_zone, _or(value.get("time_zone"), DEFAULT_TIME_ZONE))
    if start and end:
        problems.check(key, lambda _: window(start, end), None)
    if len(problems.found) > found or not (start and end and days and time_zone):
        return None
    return WorkingHours(start, end, days, time_zone)


def _or(value: Any, default: Any) -> Any:
    return default if value is None else value


def _profile(name: str, nodes: int, hours: WorkingHours, at: str) -> monitor.AutoscaleProfileArgs:
    count = str(nodes)
    return monitor.AutoscaleProfileArgs(
        name=name,
        capacity=monitor.ScaleCapacityArgs(minimum=count, maximum=count, default=count),
        rules=[],
        recurrence=monitor.RecurrenceArgs(
            frequency=monitor.RecurrenceFrequency.WEEK,
            schedule=monitor.RecurrentScheduleArgs(
                time_zone=hours.time_zone, days=list(hours.days), hours=[int(at[:2])], minutes=[int(at[2:])]
            ),
        ),
    )


def create_autoscale(
    name: str,
    scale_set_id: pulumi.Input[str],
    nodes: int,
    hours: WorkingHours,
    args: Mapping[str, Any],
    parent: pulumi.Resource,
) -> monitor.AutoscaleSetting:
    """The autoscale setting that runs `nodes` nodes in working hours and 0 outside them; `args`: the
    component's validated args (resource group, region, tags)."""
    return monitor.AutoscaleSetting(
        f"{name}-autoscale",
        target_resource_uri=scale_set_id,
        enabled=True,  # ARM's default is false: a setting that never scales
        profiles=[_profile(WORKING_PROFILE, nodes, hours, hours.start), _profile(OFF_PROFILE, 0, hours, hours.end)],
        **placement(args),
        opts=pulumi.ResourceOptions(parent=parent),
    )
