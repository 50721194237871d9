"""require-gpu-vm-auto-shutdown: single GPU VMs shut down every day.

Rule: every `compute:VirtualMachine` with a GPU size has a `devtestlab:GlobalSchedule` in the stack
with taskType ComputeVmShutdownTask and status Enabled that targets it (its targetResourceId comes
from the VM, or names it, or the schedule is named `shutdown-computevm-<vm name>`).
Why: a development or inference GPU VM left on overnight and over weekends is most of its bill.
Azure doc: https://learn.microsoft.com/azure/virtual-machines/auto-shutdown-vm
"""

from __future__ import annotations

from typing import Any

from pulumi_policy import EnforcementLevel, ReportViolation, Severity, StackValidationArgs, StackValidationPolicy

from ..catalog.shapes import canonical_type
from . import config
from .resource_groups import dependencies_of
from .values import get, same, text
from .vm_size_lifecycle import catalog_entry

NAME = "require-gpu-vm-auto-shutdown"
VM_TYPE = "azure-native:compute:VirtualMachine"
SCHEDULE_TYPE = "azure-native:devtestlab:GlobalSchedule"
CONFIG = config.schema({})


def validate(args: StackValidationArgs, report_violation: ReportViolation) -> None:
    schedules = [
        r
        for r in args.resources
        if canonical_type(r.resource_type) == SCHEDULE_TYPE
        and same(get(r.props, "taskType"), "ComputeVmShutdownTask")
        and same(get(r.props, "status"), "Enabled")
    ]
    for vm in args.resources:
        if canonical_type(vm.resource_type) != VM_TYPE:
            continue
        entry = catalog_entry(get(vm.props, "hardwareProfile", "vmSize"))
        if entry is None or not entry.is_gpu:
            continue
        if any(_targets(schedule, vm) for schedule in schedules):
            continue
        report_violation(
            f"'{vm.name}' ({entry.name}) has no enabled daily shutdown schedule; add a devtestlab GlobalSchedule "
            f"named shutdown-computevm-<vm name> with taskType ComputeVmShutdownTask targeting it.",
            vm.urn,
        )


def _targets(schedule: Any, vm: Any) -> bool:
    if any(getattr(d, "urn", None) == vm.urn for d in dependencies_of(schedule, "targetResourceId")):
        return True
    vm_name = text(get(vm.props, "vmName")) or text(get(vm.props, "name"))
    if vm_name is None:
        return False
    target = (text(get(schedule.props, "targetResourceId")) or "").lower()
    named = (text(get(schedule.props, "name")) or "").lower()
    return target.endswith(f"/virtualmachines/{vm_name.lower()}") or named == f"shutdown-computevm-{vm_name.lower()}"


POLICY = StackValidationPolicy(
    name=NAME,
    description="GPU VMs should shut down automatically every day.",
    validate=validate,
    enforcement_level=EnforcementLevel.ADVISORY,
    severity=Severity.MEDIUM,
    config_schema=CONFIG,
    remediation_steps=(
        "Keep the GpuVm component's autoShutdown on (the default), or add a devtestlab GlobalSchedule named "
        "shutdown-computevm-<vm name> with taskType ComputeVmShutdownTask, status Enabled, a dailyRecurrence time "
        "and targetResourceId set to the VM's id."
    ),
    url="https://learn.microsoft.com/azure/virtual-machines/auto-shutdown-vm",
)
