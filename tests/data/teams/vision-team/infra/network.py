"""The team's own VNet and subnet."""

from pulumi_azure_native import network


def team_network(rg, location):
    vnet = network.VirtualNetwork(
        "vnet",
        resource_group_name=rg.name,
        location=location,
        address_space=network.AddressSpaceArgs(address_prefixes=["10.60.0.0/16"]),
    )
    return network.Subnet(
        "gpu", resource_group_name=rg.name, virtual_network_name=vnet.name, address_prefix="10.60.1.0/24"
    )
