"""require-gpu-vm-auto-shutdown over a whole stack: every GPU VM is judged whatever comes before it (another
resource, a VM without a GPU, a VM that has its schedule), and a VM whose name is not in the program (Pulumi names it at
deployment) is not matched to another VM's schedule by that schedule's target id or name."""

from __future__ import annotations

from tests.policies.test_require_gpu_vm_auto_shutdown import GPU_SIZE, POLICY, VM, gpu_vm, no_schedule, shutdown_for
from tests.policy_helpers import Res, found


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
