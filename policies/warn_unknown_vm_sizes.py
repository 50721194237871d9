"""warn-unknown-vm-sizes: say when a VM size is not in the catalog, so its status cannot be checked.

Rule: a VM size the catalog does not know (after case-insensitive matching, `Standard_` prefix
optional) is a violation (advisory by default), with close matches when there are any: a well-formed
name is taken offline (`azure_gpu_stacks.catalog.verdict`), so this advisory is what a plan says of it. Sizes listed in
`ignoredSizes` are accepted as they are.
Why: a misspelt size fails only at deployment, and a size unknown to the catalog escapes the retirement
and cost checks.
Azure doc: https://learn.microsoft.com/azure/virtual-machines/sizes/overview
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, ReportViolation, ResourceValidationArgs, ResourceValidationPolicy, Severity

from ..catalog import normalize_size_name
from . import config
from .vm_size_lifecycle import classify

NAME = "warn-unknown-vm-sizes"

CONFIG = config.schema(
    {
        "ignoredSizes": {
            "type": "array",
            "items": {"type": "string"},
            "default": [],
            "description": "Sizes to accept although the catalog does not know them (any casing).",
        }
    }
)


def validate(args: ResourceValidationArgs, report_violation: ReportViolation) -> None:
    ignored = {normalize_size_name(s) for s in config.values(args, CONFIG)["ignoredSizes"]}
    for found in classify(args.resource_type, args.props):
        verdict = found.verdict
        if verdict.standing not in ("unknown", "not-a-size") or normalize_size_name(verdict.name) in ignored:
            continue
        if verdict.unconfirmed is not None:
            report_violation(
                f"{found.path} is '{verdict.name}', which Azure's SKU list offers but the size catalog lists as "
                f"unconfirmed ({verdict.unconfirmed.why}); its retirement and GPU cost cannot be checked.",
                None,
            )
            continue
        hint = f" ({verdict.did_you_mean})" if verdict.suggestions else ""
        report_violation(
            f"{found.path} is '{verdict.name}', which the size catalog does not know{hint}; its retirement "
            "and GPU cost cannot be checked.",
            None,
        )


POLICY = ResourceValidationPolicy(
    name=NAME,
    description="VM sizes should be known to the size catalog.",
    validate=validate,
    enforcement_level=EnforcementLevel.ADVISORY,
    severity=Severity.LOW,
    config_schema=CONFIG,
    remediation_steps=(
        "Fix the spelling (see the suggestion), or add the size to catalog/vm_sizes.yaml with its "
        "source, or list it in this policy's ignoredSizes."
    ),
    url="https://learn.microsoft.com/azure/virtual-machines/sizes/overview",
)
