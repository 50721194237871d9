import pulumi
from pulumi_azure_native import resources
from research.workstation import GpuWorkstation

config = pulumi.Config()
location = pulumi.Config("azure-native").require("location")
rg = resources.ResourceGroup("rg", location=location)
for person in config.require_object("researchers"):
    station = GpuWorkstation(
        person,
        rg_name=rg.name,
        rg_id=rg.id,
        location=location,
        vm_size=config.require("vmSize"),
        ssh_public_key=config.require_secret("sshPublicKey"),
    )
    pulumi.export(f"{person}Ssh", station.ssh_command)
pulumi.export("stack", f"{pulumi.get_organization()}/{pulumi.get_project()}/{pulumi.get_stack()}")
