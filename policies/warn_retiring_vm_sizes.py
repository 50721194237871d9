"""warn-retiring-vm-sizes: say early when a VM size is about to be retired.

Rule: a VM size that is retiring on the day judged (config `asOf`, default today in UTC), with its
retirement date within `retiringWindowDays` (default 365) of that day, is a violation (advisory by
default) naming the date and the replacement. Capacity-restricted sizes have their own policy.
Why: after the retirement date Azure deallocates the VMs; reserved-instance purchases and new
subscriptions are cut off before that. A year is enough to test and move a GPU workload.
Azure doc: https://learn.microsoft.com/azure/virtual-machines/sizes/lifecycle/retirements-and-capacity-restrictions
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, ReportViolation, ResourceValidationArgs, ResourceValidationPolicy, Severity

from ..catalog.verdict import SizeVerdict
from . import config
from .vm_size_lifecycle import AS_OF_KEY, AS_OF_PROPERTY, as_of, classify

NAME = "warn-retiring-vm-sizes"
DEFAULT_WINDOW_DAYS = 365

CONFIG = config.schema(
    {
        "retiringWindowDays": {
            "type": "integer",
            "minimum": 0,
            "default": DEFAULT_WINDOW_DAYS,
            "description": "Warn about sizes retiring within this many days of the day judged (asOf).",
        },
        AS_OF_KEY: AS_OF_PROPERTY,
    }
)


def message(path: str, verdict: SizeVerdict) -> str:
    """The violation for a retiring size at `path`, as seen on the verdict's day; docs/policies.md shows it."""
    return (
        f"{path} is '{verdict.name}', which Azure retires on {verdict.date} "
        f"(in {verdict.days_left} days); move to {verdict.replacement} before then."
    )


def validate(args: ResourceValidationArgs, report_violation: ReportViolation) -> None:
    values = config.values(args, CONFIG)
    window = int(values["retiringWindowDays"])
    day = as_of(values)
    for found in classify(args.resource_type, args.props, day=day):
        days_left = found.verdict.days_left
        if found.status == "retiring" and days_left is not None and days_left <= window:
            report_violation(message(found.path, found.verdict), None)


POLICY = ResourceValidationPolicy(
    name=NAME,
    description="VM sizes should not be close to retirement.",
    validate=validate,
    enforcement_level=EnforcementLevel.ADVISORY,
    severity=Severity.LOW,
    config_schema=CONFIG,
    remediation_steps=(
        "Plan the move to the replacement the message names before the retirement date; test the workload "
        "on the new size (drivers and images can differ between GPU generations)."
    ),
    url="https://learn.microsoft.com/azure/virtual-machines/sizes/lifecycle/retirements-and-capacity-restrictions",
)
