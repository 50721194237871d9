import pulumi
from azure_gpu_stacks.components import CostAlert, GpuVm
from pulumi_azure_native import network, resources

config = pulumi.Config()
hub = config.require_object("hub")
vnet = network.get_virtual_network(resource_group_name=hub["resourceGroup"], virtual_network_name=hub["vnet"])
subnet = network.get_subnet_output(
    resource_group_name=hub["resourceGroup"], virtual_network_name=hub["vnet"], subnet_name=hub["subnet"]
)

location = config.get("location") or vnet.location  # the hub's region unless the stack says otherwise
rg = resources.ResourceGroup("rg", location=location)
box = GpuVm(
    "gpu",
    {
        "resource_group_name": rg.name,
        "location": location,
        "ssh_public_key": config.require_secret("sshPublicKey"),
        "subnet_id": subnet.id,
    },
)
CostAlert("budget", {"scope": rg.id, "amount": 400, "contact_emails": ["platform@example.com"]})
pulumi.export("hubVnetId", vnet.id)
pulumi.export("sshCommand", box.ssh_command)
