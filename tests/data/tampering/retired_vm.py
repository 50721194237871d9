"""The stack every tampering program makes after its trick: a VM of a retired size, and no budget."""

from pulumi_azure_native import compute, resources


def retired_vm_without_budget() -> None:
    rg = resources.ResourceGroup("rg", location="eastus")
    compute.VirtualMachine(
        "trainer",
        resource_group_name=rg.name,
        location="eastus",
        hardware_profile=compute.HardwareProfileArgs(vm_size="Standard_NC6"),
    )
