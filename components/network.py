"""The private network a component creates when it is not given a subnet: one VNet, one subnet.

Shared by the components that place VMs (GpuVm, TrainingCluster), so both create it the same way:
the subnet as its own resource (not inline in the VNet, where a later `pulumi up` would fight a
separately managed subnet), both children of the calling component.

The subnet's outbound path is explicit: the NVIDIA driver extension downloads the driver from the
internet, and a subnet's default outbound access is on with the network API pulumi-azure-native 3.29
uses (2024-05-01) but off by default from API 2025-07-01, so a provider upgrade would silently break
the extension on a private subnet
(https://learn.microsoft.com/azure/virtual-network/ip-services/default-outbound-access, observed
2026-11-22). A NAT gateway would cost about 32 USD a month plus its public IP for every stack; the
VMs here have no inbound path, so default outbound access is kept, written down.
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
        # Explicit, so a newer network API's private-by-default cannot cut the driver downloads (above).
        default_outbound_access=True,
        opts=opts,
    )
    return subnet.id
