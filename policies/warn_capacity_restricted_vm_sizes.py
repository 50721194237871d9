"""warn-capacity-restricted-vm-sizes: say when a VM size is End of Life with capacity restrictions.

Rule: a VM size that is capacity-restricted on the day judged (config `asOf`, default today in UTC)
is a violation (advisory by default) naming when the restrictions began, the retirement date and
the replacement.
Why: from July 2026 Azure restricts capacity growth for End of Life series (Dsv3, DSv2, B, Fsv2 and
others): a new subscription cannot deploy them, quota increases are refused, and a deployment within
approved quota can still fail for lack of regional capacity. A stack that works today in one
subscription breaks in the next one, and cannot grow.
Azure doc: https://learn.microsoft.com/azure/virtual-machines/sizes/lifecycle/retirements-and-capacity-restrictions
(observed 2026-11-22)
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, ReportViolation, ResourceValidationArgs, ResourceValidationPolicy, Severity

from . import config
from .vm_size_lifecycle import AS_OF_KEY, AS_OF_PROPERTY, as_of, classify

NAME = "warn-capacity-restricted-vm-sizes"
CONFIG = config.schema({AS_OF_KEY: AS_OF_PROPERTY})


def validate(args: ResourceValidationArgs, report_violation: ReportViolation) -> None:
    day = as_of(config.values(args, CONFIG))
    for verdict in classify(args.resource_type, args.props, day=day):
        if verdict.status != "capacity-restricted":
            continue
        lifecycle = verdict.verdict
        report_violation(
            f"{verdict.path} is '{verdict.size}', which Azure has restricted since {lifecycle.restricted_from}: "
            f"new subscriptions cannot deploy it and its quota will not be increased; Azure retires it on "
            f"{lifecycle.date}. Move to {lifecycle.replacement}.",
            None,
        )


POLICY = ResourceValidationPolicy(
    name=NAME,
    description="VM sizes should not be End of Life sizes with capacity restrictions.",
    validate=validate,
    enforcement_level=EnforcementLevel.ADVISORY,
    severity=Severity.MEDIUM,
    config_schema=CONFIG,
    remediation_steps=(
        "Move to the replacement the message names (a Current size) before the stack needs a new subscription "
        "or more quota; existing subscriptions keep their approved quota until the retirement date."
    ),
    url="https://learn.microsoft.com/azure/virtual-machines/sizes/lifecycle/retirements-and-capacity-restrictions",
)
