"""require-aml-gpu-scale-to-zero: Azure ML GPU clusters scale down to zero nodes, soon after idling.

Rule: an `machinelearningservices:Compute` of computeType AmlCompute with a GPU VM size has
`scaleSettings.minNodeCount` 0 (Azure's default when unset) and an explicit
`scaleSettings.nodeIdleTimeBeforeScaleDown` (ISO 8601 duration) of at most `maxIdleMinutes`
(default 30).
Why: a cluster that keeps a node, or idles for hours before scaling down, bills GPUs nobody uses.
Azure doc: https://learn.microsoft.com/azure/machine-learning/how-to-create-attach-compute-cluster
"""

from __future__ import annotations

from typing import Any

from pulumi_policy import EnforcementLevel, ReportViolation, ResourceValidationArgs, ResourceValidationPolicy, Severity

from ..catalog.durations import duration_seconds
from ..catalog.shapes import canonical_type
from ..catalog.words import counted
from . import config
from .values import UNKNOWN, get, number, same, text
from .vm_size_lifecycle import catalog_entry

NAME = "require-aml-gpu-scale-to-zero"
DEFAULT_MAX_IDLE_MINUTES = 30
CONFIG = config.schema(
    {
        "maxIdleMinutes": {
            "type": "number",
            "minimum": 0,
            "default": DEFAULT_MAX_IDLE_MINUTES,
            "description": "Longest allowed nodeIdleTimeBeforeScaleDown, in minutes.",
        }
    }
)


def validate(args: ResourceValidationArgs, report_violation: ReportViolation) -> None:
    if canonical_type(args.resource_type) != "azure-native:machinelearningservices:Compute":
        return
    if not same(get(args.props, "properties", "computeType"), "AmlCompute"):
        return
    settings = get(args.props, "properties", "properties")
    entry = catalog_entry(get(settings, "vmSize"))
    if entry is None or not entry.is_gpu:
        return
    max_minutes = float(config.values(args, CONFIG)["maxIdleMinutes"])
    for message in _problems(get(settings, "scaleSettings"), entry.name, max_minutes):
        report_violation(message, None)


def _problems(scale: Any, size: str, max_minutes: float) -> list[str]:
    if scale is UNKNOWN:
        return []
    found: list[str] = []
    prefix = "properties.properties.scaleSettings"
    min_nodes = get(scale, "minNodeCount")
    if min_nodes is not UNKNOWN and (count := number(min_nodes)) is not None and count != 0:
        bill = "bills" if count == 1 else "bill"
        found.append(
            f"{prefix}.minNodeCount is {count:g}, so {counted(count, f'{size} node')} {bill} while idle; set it to 0."
        )
    idle = get(scale, "nodeIdleTimeBeforeScaleDown")
    limit = f"PT{max_minutes:g}M"
    if idle is UNKNOWN:
        return found
    value = text(idle)
    if value is None:
        found.append(
            f"{prefix}.nodeIdleTimeBeforeScaleDown is not set; set an idle time of at most {limit}, e.g. PT15M."
        )
    elif (seconds := _seconds(value)) is None:
        found.append(
            f"{prefix}.nodeIdleTimeBeforeScaleDown is '{value}', not an ISO 8601 duration; use e.g. PT15M (at "
            f"most {limit})."
        )
    elif seconds > max_minutes * 60:
        found.append(
            f"{prefix}.nodeIdleTimeBeforeScaleDown is '{value}', longer than {limit}; idle GPU nodes bill until then."
        )
    return found


def _seconds(value: str) -> float | None:
    """Seconds of the duration as Azure reads it (`catalog.durations`, the one parser); None when it is not one."""
    try:
        return duration_seconds(value)
    except ValueError:
        return None


POLICY = ResourceValidationPolicy(
    name=NAME,
    description="Azure ML GPU clusters must scale to zero soon after they idle.",
    validate=validate,
    enforcement_level=EnforcementLevel.ADVISORY,
    severity=Severity.MEDIUM,
    config_schema=CONFIG,
    remediation_steps=(
        "Set scaleSettings.minNodeCount to 0 and scaleSettings.nodeIdleTimeBeforeScaleDown to a short ISO 8601 "
        "duration such as PT15M (the aml-gpu stack's cluster does both)."
    ),
    url="https://learn.microsoft.com/azure/machine-learning/how-to-create-attach-compute-cluster",
)
