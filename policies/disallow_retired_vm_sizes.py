"""disallow-retired-vm-sizes: no resource may ask for a VM size Azure has retired.

Rule: every VM size in a resource (VMs, scale sets, AKS pools, AML compute, Batch pools, ...; see
`azure_gpu_stacks.catalog.shapes`) that is retired on the day judged (config `asOf`, default
today in UTC: a size is retired from its retirement date on) is a violation.
Why: Azure refuses to provision a retired size, and deallocates what still runs on it; the failure
shows up only at deployment, after the rest of the stack was created.
Azure doc: https://learn.microsoft.com/azure/virtual-machines/sizes/lifecycle/retirements-and-capacity-restrictions
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, ReportViolation, ResourceValidationArgs, ResourceValidationPolicy, Severity

from . import config
from .vm_size_lifecycle import AS_OF_KEY, AS_OF_PROPERTY, as_of, classify

NAME = "disallow-retired-vm-sizes"
CONFIG = config.schema({AS_OF_KEY: AS_OF_PROPERTY})  # nothing else to tune: Azure refuses every retired size


def validate(args: ResourceValidationArgs, report_violation: ReportViolation) -> None:
    day = as_of(config.values(args, CONFIG))
    for verdict in classify(args.resource_type, args.props, day=day):
        if verdict.status == "retired":
            report_violation(
                f"{verdict.path} is '{verdict.size}', which Azure retired on {verdict.verdict.date} and can no longer "
                f"deploy; use {verdict.verdict.replacement} or another current size.",
                None,
            )


POLICY = ResourceValidationPolicy(
    name=NAME,
    description="VM sizes must not be retired by Azure.",
    validate=validate,
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.HIGH,
    config_schema=CONFIG,
    remediation_steps=(
        "Change the size to the replacement the message names (or another current size of the catalog, "
        "`catalog/vm_sizes.yaml`). AKS pools and AML clusters cannot change size in place: add a "
        "new pool or cluster with the new size, move the workloads, then delete the old one."
    ),
    url="https://learn.microsoft.com/azure/virtual-machines/sizes/lifecycle/retirements-and-capacity-restrictions",
)
