"""require-aml-gpu-instance-shutdown: an Azure ML GPU compute instance stops itself.

Rule: a `machinelearningservices:Compute` of computeType ComputeInstance with a GPU VM size sets
`idleTimeBeforeShutdown` (Azure accepts PT15M to P3D) or has an enabled Stop schedule in
`schedules.computeStartStop` (action Stop, status not Disabled).
Why: a compute instance bills its VM for every hour it runs, used or not; with neither, a GPU dev box left on over a
weekend bills ~60 GPU hours for nothing. Azure lets an instance stop after idling or on a schedule; this policy asks for
one of the two.
Azure doc (observed 2026-11-26): https://learn.microsoft.com/azure/machine-learning/how-to-create-compute-instance
("Configure idle shutdown", "Schedule automatic start and stop").
"""

from __future__ import annotations

from typing import Any

from pulumi_policy import EnforcementLevel, ReportViolation, ResourceValidationArgs, ResourceValidationPolicy, Severity

from ..catalog.aml_compute_instance import COMPUTE_TYPE, IDLE_SHUTDOWN_MIN
from ..catalog.shapes import canonical_type
from . import config
from .values import UNKNOWN, elements, get, same, text
from .vm_size_lifecycle import catalog_entry

NAME = "require-aml-gpu-instance-shutdown"
CONFIG = config.schema({})
SETTINGS = "properties.properties"


def validate(args: ResourceValidationArgs, report_violation: ReportViolation) -> None:
    if canonical_type(args.resource_type) != "azure-native:machinelearningservices:Compute":
        return
    if not same(get(args.props, "properties", "computeType"), COMPUTE_TYPE):
        return
    settings = get(args.props, "properties", "properties")
    entry = catalog_entry(get(settings, "vmSize"))
    if entry is None or not entry.is_gpu:
        return
    idle = get(settings, "idleTimeBeforeShutdown")
    schedules = get(settings, "schedules", "computeStartStop")
    if idle is UNKNOWN or text(idle) is not None or schedules is UNKNOWN or _stops_on_schedule(schedules):
        return
    report_violation(
        f"GPU compute instance ({entry.name}) never stops itself: {SETTINGS}.idleTimeBeforeShutdown is not set and "
        f"{SETTINGS}.schedules has no enabled Stop schedule; it bills every hour it is left running. Set "
        f"idleTimeBeforeShutdown (from {IDLE_SHUTDOWN_MIN} to P3D, e.g. PT30M) or a Stop schedule.",
        None,
    )


def _stops_on_schedule(schedules: Any) -> bool:
    """Whether any start/stop schedule stops the instance (an unknown one is given the benefit of the doubt)."""
    for schedule in elements(schedules):
        action, status = get(schedule, "action"), get(schedule, "status")
        if action is UNKNOWN or status is UNKNOWN:
            return True
        if same(action, "Stop") and not same(status, "Disabled"):
            return True
    return False


POLICY = ResourceValidationPolicy(
    name=NAME,
    description="Azure ML GPU compute instances must stop after idling or on a schedule.",
    validate=validate,
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.HIGH,
    config_schema=CONFIG,
    remediation_steps=(
        "Set properties.properties.idleTimeBeforeShutdown to an ISO 8601 duration from PT15M to P3D (e.g. PT30M), or "
        "add a schedules.computeStartStop entry with action Stop (the AmlComputeInstance component does the first "
        "by default)."
    ),
    url="https://learn.microsoft.com/azure/machine-learning/how-to-create-compute-instance",
)
