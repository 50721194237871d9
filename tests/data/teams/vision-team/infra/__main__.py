"""The vision team's dev box: network and budget in their own modules next to this file."""

import pulumi
from azure_gpu_stacks.components import GpuVm
from budget import monthly_budget
from network import team_network
from pulumi_azure_native import resources

config = pulumi.Config()
location = pulumi.Config("azure-native").require("location")
# Read relative to the program's directory, which is where Pulumi runs it (main: infra/).
with open("vm-size.txt", encoding="utf-8") as fh:
    vm_size = fh.read().strip()

rg = resources.ResourceGroup("rg", location=location)
subnet = team_network(rg, location)
box = GpuVm(
    "box",
    {
        "resource_group_name": rg.name,
        "location": location,
        "ssh_public_key": config.require_secret("sshPublicKey"),
        "vm_size": vm_size,
        "subnet_id": subnet.id,
    },
)
monthly_budget(rg, config.require_int("budgetUsd"), config.require_object("contactEmails"))
pulumi.export("sshCommand", box.ssh_command)
