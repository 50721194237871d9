"""warn-always-on-infiniband-cluster: an InfiniBand GPU cluster does not run around the clock unasked.

Rule: a `compute:VirtualMachineScaleSet` of a GPU size with InfiniBand and a capacity above 0 has an
enabled `monitor:AutoscaleSetting` in the stack that targets it (its targetResourceUri comes from
the scale set, or names it) with a profile of minimum capacity 0: a schedule that scales it to zero.
The violation says what the cluster costs for each day it idles (the catalog's approximate price in
the scale set's region, Spot where the nodes are Spot) and how to park it.
Why: ND-series nodes cost 27 to 98 USD an hour each; a cluster left up between training runs bills
all of it. Parking keeps the network, placement group and scale set definition for the next run.
Azure doc: https://learn.microsoft.com/azure/azure-monitor/autoscale/autoscale-multiprofile
"""

from __future__ import annotations

from typing import Any

from pulumi_policy import EnforcementLevel, ReportViolation, Severity, StackValidationArgs, StackValidationPolicy

from ..catalog import VmSize
from ..catalog.limits import normalize_region
from ..catalog.shapes import VMSS, canonical_type
from . import config
from .resource_groups import dependencies_of
from .values import elements, flag, get, number, same, text
from .vm_size_lifecycle import catalog_entry

NAME = "warn-always-on-infiniband-cluster"
AUTOSCALE_TYPE = "azure-native:monitor:AutoscaleSetting"
HOURS_PER_DAY = 24
CONFIG = config.schema({})
HOW_TO_PARK = (
    "park it between runs with trainingCluster.nodeCount: 0 and `pulumi up` (the network, placement group and "
    "scale set stay; set the count back and `pulumi up` to start it), or scale it to 0 nodes outside working "
    "hours with trainingCluster.workingHours"
)


def validate(args: StackValidationArgs, report_violation: ReportViolation) -> None:
    schedules = [
        r
        for r in args.resources
        if canonical_type(r.resource_type) == AUTOSCALE_TYPE
        and flag(get(r.props, "enabled")) is True
        and _scales_to_zero(r)
    ]
    for scale_set in args.resources:
        if canonical_type(scale_set.resource_type) != VMSS:
            continue
        entry = catalog_entry(get(scale_set.props, "sku", "name"))
        nodes = number(get(scale_set.props, "sku", "capacity"))
        if (
            entry is None
            or not (entry.is_gpu and entry.has_infiniband)
            or not isinstance(nodes, (int, float))
            or nodes <= 0
        ):
            continue
        if any(_targets(schedule, scale_set) for schedule in schedules):
            continue
        report_violation(
            f"'{scale_set.name}' {_idle_cost(entry, int(nodes), scale_set)}; {HOW_TO_PARK}.", scale_set.urn
        )


def _idle_cost(entry: VmSize, nodes: int, scale_set: Any) -> str:
    spot = same(get(scale_set.props, "virtualMachineProfile", "priority"), "Spot")
    region = text(get(scale_set.props, "location"))
    price = None if region is None else entry.usd_per_hour(normalize_region(region), spot)
    runs = f"runs {nodes} x {entry.name} around the clock"
    if price is None:
        return f"{runs}, at full price on every day nothing trains"
    daily = price * nodes * HOURS_PER_DAY
    rate = "Spot" if spot else "pay-as-you-go"
    return (
        f"{runs}: about {daily:,.2f} USD for every day nothing trains ({nodes} x {price:g} USD/h x 24 h, the "
        f"catalog's approximate {rate} price in {region})"
    )


def _scales_to_zero(setting: Any) -> bool:
    """A profile with minimum capacity 0 (ARM writes capacities as strings: "0")."""
    return any(text(get(p, "capacity", "minimum")) == "0" for p in elements(get(setting.props, "profiles")))


def _targets(setting: Any, scale_set: Any) -> bool:
    if any(getattr(d, "urn", None) == scale_set.urn for d in dependencies_of(setting, "targetResourceUri")):
        return True
    name = text(get(scale_set.props, "vmScaleSetName")) or text(get(scale_set.props, "name"))
    target = (text(get(setting.props, "targetResourceUri")) or "").lower()
    return name is not None and target.endswith(f"/virtualmachinescalesets/{name.lower()}")


POLICY = StackValidationPolicy(
    name=NAME,
    description="InfiniBand GPU clusters should be parked or scaled to zero when nothing trains.",
    validate=validate,
    enforcement_level=EnforcementLevel.ADVISORY,
    severity=Severity.MEDIUM,
    config_schema=CONFIG,
    remediation_steps=(
        "Set trainingCluster.nodeCount to 0 and run `pulumi up` to park the cluster between training runs; set it "
        "back and run `pulumi up` to start it. Or set trainingCluster.workingHours (start, end, days, timeZone) to "
        "scale it to 0 nodes outside working hours through Azure Monitor autoscale."
    ),
    url="https://learn.microsoft.com/azure/azure-monitor/autoscale/autoscale-multiprofile",
)
