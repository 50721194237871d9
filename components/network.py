"""The private network a component creates when it is not given a subnet: one VNet, one subnet.

Shared by the components that place VMs (GpuVm, TrainingCluster), so both create it the same way:
the subnet as its own resource (not inline in the VNet, where a later `pulumi up` would fight a
separately managed subnet), both children of the calling component.
"""

from __future__ import annotations

from collections.abc import Mapping

import pulumi
from pulumi_azure_native import network


def create_private_network(
    name: str,
    *,
    resource_group_name: pulumi.Input[str],
    location: str,
    address_space: str,
    subnet_prefix: str,
    tags: Mapping[str, str],
    parent: pulumi.Resource,
) -> pulumi.Output[str]:
    """Create `<name>-vnet` and `<name>-subnet` under `parent`; the subnet's id."""
    opts = pulumi.ResourceOptions(parent=parent)
    vnet = network.VirtualNetwork(
        f"{name}-vnet",
        resource_group_name=resource_group_name,
        location=location,
        tags=dict(tags),
        address_space=network.AddressSpaceArgs(address_prefixes=[address_space]),
        opts=opts,
    )
    subnet = network.Subnet(
        f"{name}-subnet",
        resource_group_name=resource_group_name,
        virtual_network_name=vnet.name,
        address_prefix=subnet_prefix,
        opts=opts,
    )
    return subnet.id
