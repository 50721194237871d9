"""require-gpu-vm-auto-shutdown finds a VM's schedule by the VM's name when the schedule does not depend on it:
the `vmName` it was given, else the `name` Azure gave it (a VM auto-named by Pulumi, as the engine shows it after
deployment). A schedule for it is named `shutdown-computevm-<vm name>` and targets the VM's id
(https://learn.microsoft.com/azure/virtual-machines/auto-shutdown-vm, observed 2026-11-27). In-process."""

from __future__ import annotations

from typing import Any

import pytest

from tests.policy_helpers import Res, found

POLICY = "require-gpu-vm-auto-shutdown"
VM = "azure-native:compute:VirtualMachine"
SCHEDULE = "azure-native:devtestlab:GlobalSchedule"
GPU_SIZE = "Standard_NC4as_T4_v3"
VM_ID = "/subscriptions/x/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/t4-vm1234"


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
