"""require-infiniband-scale-set-placement: InfiniBand scale sets are placed so InfiniBand works.

Rule: a `compute:VirtualMachineScaleSet` whose size has InfiniBand (per the catalog) sets
`proximityPlacementGroup.id`, `singlePlacementGroup: true` and `orchestrationMode: Uniform`, each
explicitly.
Why: InfiniBand links only VMs in one placement group of one scale set ("Large scale (SPG=false) does
not support InfiniBand networking"); Flexible orchestration has no InfiniBand, and the Azure CLI has
defaulted to Flexible since November 2023; a proximity placement group keeps the nodes close. The
orchestration mode cannot change after creation.
Azure doc: https://learn.microsoft.com/azure/virtual-machines/setup-infiniband
"""

from __future__ import annotations

from typing import Any

from pulumi_policy import EnforcementLevel, ReportViolation, ResourceValidationArgs, ResourceValidationPolicy, Severity

from ..catalog.shapes import VMSS, canonical_type
from . import config
from .values import UNKNOWN, flag, get, same, text
from .vm_size_lifecycle import catalog_entry

NAME = "require-infiniband-scale-set-placement"
CONFIG = config.schema({})


def validate(args: ResourceValidationArgs, report_violation: ReportViolation) -> None:
    if canonical_type(args.resource_type) != VMSS:
        return
    entry = catalog_entry(get(args.props, "sku", "name"))
    if entry is None or not entry.has_infiniband:
        return
    for message in _problems(args.props, entry.name):
        report_violation(message, None)


def _problems(props: Any, size: str) -> list[str]:
    found: list[str] = []
    ppg = get(props, "proximityPlacementGroup", "id")
    if ppg is not UNKNOWN and text(ppg) is None:
        found.append(f"proximityPlacementGroup is not set; put the {size} scale set in a proximity placement group.")
    single = get(props, "singlePlacementGroup")
    if single is not UNKNOWN and flag(single) is not True:
        shown = "not set" if single is None else f"{single!r}"
        found.append(f"singlePlacementGroup is {shown}; set it to true, InfiniBand spans one placement group only.")
    mode = get(props, "orchestrationMode")
    if mode is not UNKNOWN and not same(mode, "Uniform"):
        shown = f"'{text(mode)}'" if text(mode) else "not set"
        found.append(f"orchestrationMode is {shown}; set it to Uniform, Flexible scale sets have no InfiniBand.")
    return found


POLICY = ResourceValidationPolicy(
    name=NAME,
    description="InfiniBand scale sets must use one placement group, Uniform orchestration and a proximity "
    "placement group.",
    validate=validate,
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.HIGH,
    config_schema=CONFIG,
    remediation_steps=(
        "Set orchestrationMode: Uniform, singlePlacementGroup: true and proximityPlacementGroup.id to a proximity "
        "placement group in the same region (the training cluster component does all three). An existing scale "
        "set cannot change its orchestration mode: recreate it."
    ),
    url="https://learn.microsoft.com/azure/virtual-machines/setup-infiniband",
)
