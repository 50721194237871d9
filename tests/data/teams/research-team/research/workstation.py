"""The team's own component: a GPU VM and a budget of its own, under one resource."""

import pulumi
from azure_gpu_stacks.components import CostAlert, GpuVm


class GpuWorkstation(pulumi.ComponentResource):
    def __init__(self, name, *, rg_name, rg_id, location, vm_size, ssh_public_key, opts=None):
        super().__init__("research:index:GpuWorkstation", name, None, opts)
        child = pulumi.ResourceOptions(parent=self)
        vm = GpuVm(
            f"{name}-vm",
            {
                "resource_group_name": rg_name,
                "location": location,
                "vm_size": vm_size,
                "ssh_public_key": ssh_public_key,
                "shutdown_time": "2000",
            },
            opts=child,
        )
        CostAlert(
            f"{name}-budget", {"scope": rg_id, "amount": 500, "contact_emails": [f"{name}@example.com"]}, opts=child
        )
        self.ssh_command = vm.ssh_command
        self.register_outputs({"sshCommand": self.ssh_command})
