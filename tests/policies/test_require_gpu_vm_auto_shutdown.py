"""require-gpu-vm-auto-shutdown: from a GPU VM with an enabled daily shutdown schedule, one change per test."""

from __future__ import annotations

from typing import Any

import pytest

from tests.policy_helpers import Res, found

POLICY = "require-gpu-vm-auto-shutdown"
VM = "azure-native:compute:VirtualMachine"
SCHEDULE = "azure-native:devtestlab:GlobalSchedule"
GPU_SIZE = "Standard_NC4as_T4_v3"
VM_ID = "/subscriptions/x/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/t4-vm1234"


def no_schedule(vm: str) -> str:
    return (
        f"'{vm}' ({GPU_SIZE}) has no enabled daily shutdown schedule; add a devtestlab GlobalSchedule "
        "named shutdown-computevm-<vm name> with taskType ComputeVmShutdownTask targeting it."
    )


def shutdown_for(vm_name: str, depends: bool = True, **changes: Any) -> Res:
    props = {
        "name": "shutdown-computevm-t4-vm1234",
        "taskType": "ComputeVmShutdownTask",
        "status": "Enabled",
        "dailyRecurrence": {"time": "1900"},
        "timeZoneId": "UTC",
        "targetResourceId": VM_ID,
        **changes,
    }
    return Res(SCHEDULE, "pass_shutdown", props, [vm_name] if depends else [])


def gpu_vm(name: str) -> Res:
    return Res(VM, name, {"resourceGroupName": "rg", "hardwareProfile": {"vmSize": GPU_SIZE}})


def test_passes_a_gpu_vm_with_an_enabled_schedule() -> None:
    assert found([gpu_vm("pass_vm"), shutdown_for("pass_vm")], POLICY) == []


def test_flags_a_gpu_vm_without_a_schedule() -> None:
    assert found([gpu_vm("fail_vm")], POLICY) == [("advisory", "fail_vm", no_schedule("fail_vm"))]


def test_flags_a_disabled_schedule() -> None:
    assert found([gpu_vm("fail_vm"), shutdown_for("fail_vm", status="Disabled")], POLICY) == [
        ("advisory", "fail_vm", no_schedule("fail_vm"))
    ]


def test_matches_a_schedule_by_target_id_without_dependencies() -> None:
    vm = Res(VM, "pass_vm", {"vmName": "T4-VM1234", "hardwareProfile": {"vmSize": GPU_SIZE}})

    assert found([vm, shutdown_for("pass_vm", depends=False)], POLICY) == []


def test_ignores_cpu_vms() -> None:
    cpu = Res(VM, "pass_cpu", {"hardwareProfile": {"vmSize": "Standard_D4s_v5"}})

    assert found([cpu], POLICY) == []


# --- a VM found by its name ----------------------------------------------------------------------
# require-gpu-vm-auto-shutdown finds a VM's schedule by the VM's name when the schedule does not depend on it:
# the `vmName` it was given, else the `name` Azure gave it (a VM auto-named by Pulumi, as the engine shows it after
# deployment). A schedule for it is named `shutdown-computevm-<vm name>` and targets the VM's id
# (https://learn.microsoft.com/azure/virtual-machines/auto-shutdown-vm, observed 2026-11-27). In-process.


def schedule(**identifies: str) -> Res:
    props = {"taskType": "ComputeVmShutdownTask", "status": "Enabled", "dailyRecurrence": {"time": "1900"}}
    return Res(SCHEDULE, "pass_shutdown", {**props, **identifies})


@pytest.mark.parametrize(
    "identifies",
    [{"targetResourceId": VM_ID}, {"name": "shutdown-computevm-t4-vm1234"}],
    ids=["by-target-id", "by-schedule-name"],
)
def test_an_auto_named_vm_is_matched_by_the_name_azure_gave_it(identifies: dict[str, Any]) -> None:
    vm = Res(VM, "pass_vm", {"name": "t4-vm1234", "hardwareProfile": {"vmSize": GPU_SIZE}})

    assert found([vm, schedule(**identifies)], POLICY) == []


def test_a_schedule_for_another_vm_name_does_not_cover_it() -> None:
    vm = Res(VM, "fail_vm", {"name": "t4-vm5678", "hardwareProfile": {"vmSize": GPU_SIZE}})

    assert [name for _, name, _ in found([vm, schedule(targetResourceId=VM_ID)], POLICY)] == ["fail_vm"]


# --- over a whole stack ----------------------------------------------------------------------------------
# require-gpu-vm-auto-shutdown over a whole stack: every GPU VM is judged whatever comes before it (another
# resource, a VM without a GPU, a VM that has its schedule), and a VM whose name is not in the program
# (Pulumi names it at deployment) is not matched to another VM's schedule by that schedule's target id or name.


def test_a_vm_without_a_name_does_not_take_another_vms_schedule() -> None:
    named = Res(VM, "pass_vm", {"vmName": "t4-vm1234", "hardwareProfile": {"vmSize": GPU_SIZE}})
    unnamed = gpu_vm("fail_vm")  # no vmName, no name: not matched by id or schedule name

    assert found([named, unnamed, shutdown_for("pass_vm", depends=False)], POLICY) == [
        ("advisory", "fail_vm", no_schedule("fail_vm"))
    ]


def test_every_gpu_vm_is_judged_after_other_resources_a_cpu_vm_and_a_vm_with_its_schedule() -> None:
    group = Res("azure-native:resources:ResourceGroup", "pass_rg", {"resourceGroupName": "rg", "location": "eastus"})
    cpu = Res(VM, "pass_cpu_vm", {"resourceGroupName": "rg", "hardwareProfile": {"vmSize": "Standard_D4s_v5"}})
    stack = [group, cpu, shutdown_for("pass_vm"), gpu_vm("pass_vm"), gpu_vm("fail_vm")]

    assert found(stack, POLICY) == [("advisory", "fail_vm", no_schedule("fail_vm"))]
