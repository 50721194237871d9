import pulumi
from azure_gpu_stacks.components import CostAlert, GpuVm
from pulumi_azure_native import resources

config = pulumi.Config()
location = pulumi.Config("azure-native").require("location")
network = pulumi.StackReference(config.require("networkStack"))

rg = resources.ResourceGroup("rg", location=location)
box = GpuVm(
    "infer",
    {
        "resource_group_name": rg.name,
        "location": location,
        "ssh_public_key": config.require_secret("sshPublicKey"),
        "subnet_id": network.require_output("gpuSubnetId"),
    },
)
CostAlert("budget", {"scope": rg.id, "amount": 400, "contact_emails": ["inference@example.com"]})
pulumi.export("sshCommand", box.ssh_command)
pulumi.export("workspaceKey", network.get_output("logAnalyticsKey"))
pulumi.export("hubVnet", network.get_output("hubVnetName"))
