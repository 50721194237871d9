"""A team's own program: a T4 dev box and a budget on its resource group, built from
azure-gpu-stacks' components (`pip install azure-gpu-stacks`, then `from azure_gpu_stacks.components import ...`).

Each component checks its args before registering anything: a bad value stops `pulumi up` with
one message naming the arg, the value and what is allowed.
"""

from __future__ import annotations

import pulumi
from azure_gpu_stacks.components import CostAlert, GpuVm
from pulumi_azure_native import resources

config = pulumi.Config()
location = pulumi.Config("azure-native").require("location")
tags = {"team": "python-team", "stack": pulumi.get_stack()}

rg = resources.ResourceGroup(
    "rg", resource_group_name=f"rg-python-team-{pulumi.get_stack()}", location=location, tags=tags
)

dev_box = GpuVm(
    "dev-box",
    {
        "resource_group_name": rg.name,
        "location": location,
        "ssh_public_key": config.require_secret("sshPublicKey"),
        "vm_size": config.get("vmSize") or "Standard_NC4as_T4_v3",
        "tags": tags,
    },
)

budget = CostAlert(
    "budget",
    {
        "scope": rg.id,
        "amount": config.require_float("budgetUsd"),
        "contact_emails": config.require_object("contactEmails"),
    },
)

pulumi.export("sshCommand", dev_box.ssh_command)
pulumi.export("vmId", dev_box.vm_id)
pulumi.export("budgetId", budget.budget_id)
