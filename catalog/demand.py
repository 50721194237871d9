"""What VM capacity each recorded resource asks for: size, node count at full scale and when idle,
priority and region. Cost and quota are both computed from these demands.

Read from the inputs as the engine sees them (camelCase ARM names, numbers as floats) through the
one shape table, `azure_gpu_stacks.catalog.shapes`: every pool it counts (virtual
machines, scale sets, AKS pools inline or on their own, Azure ML clusters and compute instances)
is one demand; full scale is the pool's maximum count (AKS `maxCount` when autoscaling, Azure ML
`maxNodeCount`), idle its minimum (AKS `minCount`, Azure ML `minNodeCount`); the defaults where an
input is left out are ARM's, in the table. A VM runs idle only for the hours outside its
auto-shutdown (below).

Auto-shutdown assumption: a `devtestlab.GlobalSchedule` with `taskType: ComputeVmShutdownTask`
(not `Disabled`) that targets a VM stops it daily at `dailyRecurrence.time`. Azure does not start
it again; we assume someone starts it at the start of each working day, `ASSUMED_START_OF_DAY`
(09:00 in the schedule's own time zone), so it runs from 09:00 to the shutdown time every day
(10 h for a 19:00 shutdown; weekends are not modelled, which over- rather than under-estimates).
The schedule is found through the VM it depends on (its `targetResourceId` is the VM's id).

Autoscale schedule: an enabled `monitor.AutoscaleSetting` whose `targetResourceUri` is a scale set
and whose profiles recur weekly runs, in each profile's span, that profile's minimum capacity; a
recurring profile holds from its start until the next profile starts (ARM's recurrences have no
end; learn.microsoft.com/azure/azure-monitor/autoscale/autoscale-multiprofile, observed 2026-11-22).
The idle demand is the largest of those minimums, for the average hours a day it runs (a cluster
at 3 nodes 08:00-19:00 Monday to Friday and 0 otherwise: 3 nodes for 55 / 7 = 7.86 h a day).
Profiles are taken to share one time zone; a default profile under recurring ones never holds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..sdk.values import dig, unwrap_secrets
from .limits import normalize_region
from .shapes import (
    AGENT_POOL,
    BATCH_POOL,
    MANAGED_CLUSTER,
    VM,
    VMSS,
    Priority,
    Quota,
    read,
    shapes,
)


class RecordedResource(Protocol):
    """What a demand is read from: a resource's type, names, inputs (engine names, camelCase) and the
    URNs it depends on. The engine's recorded resources are these; a policy builds them from what the
    Pulumi engine hands it (`ResourceInputs`), so both read the same demands and the same cost."""

    @property
    def urn(self) -> str: ...
    @property
    def type(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def dependencies(self) -> tuple[str, ...]: ...
    def plain_inputs(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class ResourceInputs:
    """A resource as plain values (what a policy sees): one `RecordedResource`."""

    urn: str
    type: str
    name: str
    inputs: Mapping[str, Any] = field(default_factory=dict)
    dependencies: tuple[str, ...] = ()

    def plain_inputs(self) -> dict[str, Any]:
        unwrapped = unwrap_secrets(dict(self.inputs))
        return unwrapped if isinstance(unwrapped, dict) else {}


RESOURCE_GROUP = "azure-native:resources:ResourceGroup"
SCHEDULE = "azure-native:devtestlab:GlobalSchedule"
AUTOSCALE = "azure-native:monitor:AutoscaleSetting"
WEEK_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MINUTES_PER_WEEK = 7 * 24 * 60

SHUTDOWN_TASK = "ComputeVmShutdownTask"
ASSUMED_START_OF_DAY = "0900"  # HHmm, in the schedule's time zone; see the module docstring
HOURS_PER_DAY = 24.0
HOURS_PER_MONTH = 730  # as Azure's pricing calculator counts a month


@dataclass(frozen=True)
class Demand:
    """VM capacity one resource (or one AKS pool profile) asks for."""

    resource: str  # logical name; `cluster/pool` for a ManagedCluster's agent pool profiles
    type: str  # Pulumi type token
    size: str  # VM size as written in the inputs
    count: int  # nodes at full scale
    idle_count: int  # nodes running when nothing is scheduled
    priority: Priority
    region: str | None
    idle_hours_per_day: float = HOURS_PER_DAY  # hours a day the idle nodes run (auto-shutdown, autoscale schedule)
    idle_schedule: str | None = None  # what shortens the idle day: "auto-shutdown" or "autoscale"
    quota: Quota = "compute"  # whose vCPU quota the nodes draw on: Microsoft.Compute's or Azure ML's

    @property
    def discounted(self) -> bool:
        """Billed at the Spot / low-priority rate and counted against the low-priority pool
        (`lowPriorityCores`; Azure ML's `Total Cluster LowPriority Regional vCPUs`)."""
        return self.priority != "Regular"


def _minutes(hhmm: str) -> int | None:
    if len(hhmm) != 4 or not hhmm.isdigit():
        return None
    return int(hhmm[:2]) * 60 + int(hhmm[2:])


def hours_before_shutdown(shutdown_time: str, start_time: str = ASSUMED_START_OF_DAY) -> float:
    """Hours a day a VM runs when started at `start_time` and shut down at `shutdown_time` (HHmm)."""
    start, stop = _minutes(start_time), _minutes(shutdown_time)
    if start is None or stop is None:
        return HOURS_PER_DAY
    minutes = (stop - start) % (24 * 60)
    return (minutes or 24 * 60) / 60


def _shutdown_hours(resources: Sequence[RecordedResource]) -> dict[str, float]:
    """VM URN -> hours a day it runs, for every VM an enabled daily shutdown schedule targets."""
    vms_by_name = {}
    for r in resources:
        if r.type == VM:
            vm_name = r.plain_inputs().get("vmName")
            if isinstance(vm_name, str):
                vms_by_name[vm_name.lower()] = r.urn
    vm_urns = {r.urn for r in resources if r.type == VM}
    hours: dict[str, float] = {}
    for r in resources:
        inputs = r.plain_inputs()
        if r.type != SCHEDULE or inputs.get("taskType") != SHUTDOWN_TASK or inputs.get("status") == "Disabled":
            continue
        time = dig(inputs, "dailyRecurrence", "time")
        if not isinstance(time, str):
            continue
        targets = [urn for urn in r.dependencies if urn in vm_urns]
        target_id = inputs.get("targetResourceId")
        if not targets and isinstance(target_id, str):
            named = vms_by_name.get(target_id.rstrip("/").rsplit("/", 1)[-1].lower())
            targets = [named] if named else []
        for urn in targets:
            hours[urn] = min(hours.get(urn, HOURS_PER_DAY), hours_before_shutdown(time))
    return hours


def _capacity(value: Any) -> int | None:
    try:
        return int(str(value))
    except ValueError:
        return None


def scheduled_idle(profiles: Any) -> tuple[int, float] | None:
    """(nodes, hours a day) an autoscale setting's weekly recurring profiles run, or None without any."""
    events: list[tuple[int, int]] = []  # (minute of the week a profile starts, its minimum capacity)
    for profile in profiles if isinstance(profiles, list) else []:
        schedule = dig(profile, "recurrence", "schedule") if isinstance(profile, dict) else None
        capacity = _capacity(dig(profile, "capacity", "minimum")) if schedule else None
        if not isinstance(schedule, dict) or capacity is None:
            continue
        for day in schedule.get("days") or []:
            if str(day).lower() not in WEEK_DAYS:
                continue
            for hour in schedule.get("hours") or []:
                for minute in schedule.get("minutes") or [0]:
                    events.append(
                        (WEEK_DAYS.index(str(day).lower()) * 24 * 60 + int(hour) * 60 + int(minute), capacity)
                    )
    if not events:
        return None
    events.sort()
    node_minutes = 0
    for i, (start, capacity) in enumerate(events):
        following = events[i + 1][0] if i + 1 < len(events) else events[0][0] + MINUTES_PER_WEEK
        node_minutes += capacity * (following - start)
    nodes = max(capacity for _, capacity in events)
    return (nodes, node_minutes / nodes / 60 / 7) if nodes else (0, HOURS_PER_DAY)


def _autoscaled(resources: Sequence[RecordedResource]) -> dict[str, tuple[int, float]]:
    """Scale set URN -> (idle nodes, hours a day) for every scale set an enabled autoscale schedule targets."""
    scale_sets = {r.urn for r in resources if r.type == VMSS}
    found: dict[str, tuple[int, float]] = {}
    for r in resources:
        inputs = r.plain_inputs()
        if r.type != AUTOSCALE or inputs.get("enabled") is not True:
            continue
        idle = scheduled_idle(inputs.get("profiles"))
        if idle is None:
            continue
        for urn in r.dependencies:
            if urn in scale_sets:
                found[urn] = idle
    return found


def _group_locations(resources: Sequence[RecordedResource]) -> dict[str, str]:
    locations = {}
    for r in resources:
        if r.type == RESOURCE_GROUP:
            inputs = r.plain_inputs()
            if isinstance(inputs.get("resourceGroupName"), str) and isinstance(inputs.get("location"), str):
                locations[inputs["resourceGroupName"].lower()] = inputs["location"]
    return locations


def _cluster_locations(resources: Sequence[RecordedResource]) -> dict[str, str]:
    locations = {}
    for r in resources:
        if r.type == MANAGED_CLUSTER:
            inputs = r.plain_inputs()
            if isinstance(inputs.get("resourceName"), str) and isinstance(inputs.get("location"), str):
                locations[inputs["resourceName"].lower()] = inputs["location"]
    return locations


BATCH_ACCOUNT = "azure-native:batch:BatchAccount"


def _batch_accounts(resources: Sequence[RecordedResource]) -> dict[str, tuple[str | None, Quota]]:
    """Each Batch account's region and whose quota its pools draw on: a user-subscription account's pools the
    subscription's Compute quota, a Batch-managed one's (the default) the account's own (`catalog.quota_counters`)."""
    found: dict[str, tuple[str | None, Quota]] = {}
    for r in resources:
        if r.type == BATCH_ACCOUNT:
            inputs = r.plain_inputs()
            mode = str(inputs.get("poolAllocationMode") or "BatchService")
            location = inputs.get("location")
            found[str(inputs.get("accountName") or r.name).lower()] = (
                location if isinstance(location, str) else None,
                "compute" if mode.lower() == "usersubscription" else "batch",
            )
    return found


def collect(resources: Sequence[RecordedResource], default_region: str | None = None) -> list[Demand]:
    """Every VM demand of a recorded program, in registration order.

    The region is the resource's `location`, else its AKS cluster's, else its resource group's,
    else `default_region` (the stack's `azure-native:location`).
    """
    shutdown = _shutdown_hours(resources)
    autoscaled = _autoscaled(resources)
    groups = _group_locations(resources)
    clusters = _cluster_locations(resources)
    accounts = _batch_accounts(resources) if any(r.type == BATCH_POOL for r in resources) else {}
    demands: list[Demand] = []
    for r in resources:
        if not shapes(r.type):
            continue
        inputs = r.plain_inputs()
        for pool in read(r.type, inputs):
            if not pool.pool.counted:
                continue
            if not isinstance(pool.size, str) or not pool.size:
                continue  # unknown in preview, or not set: nothing to price or count
            if pool.pool.optional and pool.full_count == 0:
                continue
            account = accounts.get(str(inputs.get("accountName") or "").lower())
            if account is None and len(accounts) == 1:  # an auto-named account: the program's only one
                account = next(iter(accounts.values()))
            account_region, quota = account or (None, pool.pool.quota)
            region = (
                pool.location
                or account_region
                or clusters.get(str(inputs.get("resourceName") or "").lower() if r.type == AGENT_POOL else "")
                or groups.get(str(inputs.get("resourceGroupName") or "").lower())
                or default_region
            )
            suffix = "" if pool.index is None else f"/{pool.name or pool.index}"
            idle_count, idle_hours = autoscaled.get(r.urn, (pool.idle_count, shutdown.get(r.urn, HOURS_PER_DAY)))
            schedule = "autoscale" if r.urn in autoscaled else "auto-shutdown" if r.urn in shutdown else None
            demands.append(
                Demand(
                    resource=r.name + suffix,
                    type=r.type,
                    size=pool.size,
                    count=pool.full_count,
                    idle_count=idle_count,
                    priority=pool.priority,
                    region=normalize_region(region) if isinstance(region, str) else None,
                    idle_hours_per_day=idle_hours,
                    idle_schedule=schedule,
                    quota=quota,
                )
            )
    return demands
