"""Microsoft.Network: virtual networks, subnets, security groups, public IPs and network interfaces."""

from __future__ import annotations

import hashlib
import ipaddress
from typing import TYPE_CHECKING, Any

from ...sdk.values import dig, stable_uuid
from ..core import ArmResourceType, Invoke, Resource, location_of
from ..errors import (
    InvalidParameter,
    InvalidResourceReference,
    NetcfgSubnetRangeOutsideVnet,
    NetcfgSubnetRangesOverlap,
    SecurityRuleConflict,
    SecurityRuleInvalidPriority,
    coded,
)
from ..lookups import lookup
from ..prose import host_bits_message, prefix_format_message, subnet_network

if TYPE_CHECKING:
    from ..core import Arm


def subnet_prefixes(props: dict[str, Any]) -> list[tuple[str, Any]]:
    """(path, prefix) of a subnet's `addressPrefix` and each of its `addressPrefixes`."""
    found = [("addressPrefix", props["addressPrefix"])] if props.get("addressPrefix") is not None else []
    found += [(f"addressPrefixes[{i}]", p) for i, p in enumerate(props.get("addressPrefixes") or [])]
    return found


class VirtualNetwork(ArmResourceType):
    token = "azure-native:network:VirtualNetwork"
    arm_type = "Microsoft.Network/virtualNetworks"
    name_input = "virtualNetworkName"

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        spaces = [
            _network(p, "addressSpace.addressPrefixes") for p in dig(props, "addressSpace", "addressPrefixes") or []
        ]
        claimed: list[tuple[str, ipaddress.IPv4Network | ipaddress.IPv6Network]] = []
        for i, subnet in enumerate(props.get("subnets") or []):
            subnet_name, body = inline_subnet(subnet)
            # A subnet may take its range from an IPAM pool instead (ipamPoolPrefixAllocations): only given
            # prefixes are checked.
            for path, prefix in subnet_prefixes(body):
                network = _network(prefix, f"subnets[{i}].{path}")
                refuse_outside(network, spaces, subnet_name, prefix, name)
                for other_name, other in claimed:
                    if network.overlaps(other):  # type: ignore[arg-type]
                        raise NetcfgSubnetRangesOverlap(
                            f"Subnet '{subnet_name}' is not valid because its IP address range {prefix} overlaps "
                            f"with that of an existing subnet '{other_name}' in virtual network '{name}'."
                        )
                claimed.append((subnet_name, network))

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        subnets = [
            {**body, "name": n, "id": f"{res.id}/subnets/{n}", "provisioningState": "Succeeded"}
            for n, body in map(inline_subnet, res.properties.get("subnets") or [])
        ]
        found = {"subnets": subnets} if subnets else {}
        return {**found, "resourceGuid": stable_uuid(res.id, "guid"), "provisioningState": "Succeeded"}

    def children(self, arm: Arm, res: Resource) -> list[Resource]:
        # Azure creates each subnet of the VNet's `subnets` as a child resource `.../subnets/NAME`
        # (Azure's quickstart templates declare them so and reference them by that id; virtualNetwork.json:
        # `subnets` is "A list of subnets in a Virtual Network", 2024-05-01).
        out = []
        for subnet_name, body in map(inline_subnet, res.properties.get("subnets") or []):
            props = {**body, "resourceGroupName": res.resource_group, "virtualNetworkName": res.name}
            child = Resource(
                f"{res.id}/subnets/{subnet_name}", Subnet.arm_type, subnet_name, res.resource_group, None, props
            )
            child.outputs = {
                **props,
                "name": subnet_name,
                "type": Subnet.arm_type,
                "id": child.id,
                "provisioningState": "Succeeded",
            }
            out.append(child)
        return out


def inline_subnet(subnet: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """(name, properties) of a subnet in a VNet's `subnets`: Pulumi's flattened inputs or ARM's `properties`."""
    inner = subnet.get("properties")
    body: dict[str, Any] = inner if isinstance(inner, dict) else subnet
    return str(subnet.get("name")), {k: v for k, v in body.items() if k not in ("name", "id")}


def refuse_outside(network: Any, spaces: list[Any], subnet: str, prefix: Any, vnet: str) -> None:
    if spaces and not any(network.version == s.version and network.subnet_of(s) for s in spaces):
        raise NetcfgSubnetRangeOutsideVnet(
            f"Subnet '{subnet}' is not valid because its IP address range {prefix} is outside the "
            f"IP address range of virtual network '{vnet}'."
        )


class Subnet(ArmResourceType):
    token = "azure-native:network:Subnet"
    arm_type = "Microsoft.Network/virtualNetworks/subnets"
    name_input = "subnetName"
    parent_inputs = ("virtualNetworkName",)
    located = False

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        # `addressPrefix` or `addressPrefixes`: both are in the spec's SubnetPropertiesFormat and in
        # azure-native's inputs (virtualNetwork.json, 2024-05-01; catalog/arm/constraints.json)
        prefixes = subnet_prefixes(props)
        if not prefixes:
            raise InvalidParameter(f"Subnet '{name}' needs addressPrefix or addressPrefixes.")
        vnet = arm.parent_of(self, props)
        spaces = [_network(p, "addressSpace") for p in dig(vnet.properties, "addressSpace", "addressPrefixes") or []]
        for path, prefix in prefixes:
            refuse_outside(_network(prefix, path), spaces, name, prefix, vnet.name)

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        return {"provisioningState": "Succeeded"}


class NetworkSecurityGroup(ArmResourceType):
    token = "azure-native:network:NetworkSecurityGroup"
    arm_type = "Microsoft.Network/networkSecurityGroups"
    name_input = "networkSecurityGroupName"

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        seen: dict[tuple[str, float], str] = {}
        for rule in props.get("securityRules") or []:
            key = (str(rule.get("direction")), float(rule.get("priority") or 0))
            if not 100 <= key[1] <= 4096:
                raise SecurityRuleInvalidPriority(
                    f"Security rule has invalid Priority. Value provided: {key[1]:g} Allowed range 100-4096."
                )
            if key in seen:
                raise SecurityRuleConflict(
                    f"Security rule {rule.get('name')} conflicts with rule {seen[key]}. Rules cannot have the same "
                    f"Priority and Direction (priority {key[1]:g}, direction {key[0]})."
                )
            seen[key] = str(rule.get("name"))

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        return {"resourceGuid": stable_uuid(res.id, "guid"), "provisioningState": "Succeeded"}


class PublicIPAddress(ArmResourceType):
    token = "azure-native:network:PublicIPAddress"
    arm_type = "Microsoft.Network/publicIPAddresses"
    name_input = "publicIpAddressName"

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        # TEST-NET-2 (RFC 5737): never a real Azure address.
        return {"ipAddress": arm.next_address("198.51.100.0/24"), "provisioningState": "Succeeded"}


class NetworkInterface(ArmResourceType):
    token = "azure-native:network:NetworkInterface"
    arm_type = "Microsoft.Network/networkInterfaces"
    name_input = "networkInterfaceName"

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        if not props.get("ipConfigurations"):
            raise InvalidParameter(f"Network interface '{name}' needs at least one IP configuration.")
        location = location_of(arm, props)
        for cfg in props.get("ipConfigurations") or []:
            subnet_id = str(dig(cfg, "subnet", "id") or "")
            # a reference that is no subnet's id was refused before this check (the prose rule subnet-reference)
            network_id = subnet_network(subnet_id)
            vnet = arm.find(network_id) if network_id else None
            if vnet is not None and vnet.location and location and vnet.location != location:
                # A NIC joins only a VNet of its own region (an existing hub VNet elsewhere, say).
                raise InvalidResourceReference(
                    f"Resource {subnet_id} referenced by resource {name} was not found. Please make sure that the "
                    f"referenced resource exists, and that both resources are in the same region ({vnet.location}, "
                    f"not {location})."
                )

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        configs = []
        for cfg in res.properties.get("ipConfigurations") or []:
            subnet = arm.find(dig(cfg, "subnet", "id") or "")
            prefixes = subnet_prefixes(subnet.properties) if subnet else []
            prefix = prefixes[0][1] if prefixes else None
            address = cfg.get("privateIPAddress") or (arm.next_address(prefix) if prefix else None)
            configs.append({**cfg, "privateIPAddress": address, "provisioningState": "Succeeded"})
        mac = hashlib.sha256(res.id.encode()).hexdigest()[:12].upper()
        return {
            "ipConfigurations": configs,
            "macAddress": "-".join(mac[i : i + 2] for i in range(0, 12, 2)),
            "provisioningState": "Succeeded",
        }


def _network(prefix: Any, path: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    """A prefix as a network; Azure's codes for one that is not CIDR or has host bits set (the prose rules,
    which run first on the body's own prefixes; this answers the same for a stored one)."""
    text = str(prefix)
    message = prefix_format_message(text, path)
    if message is not None:
        raise coded("InvalidAddressPrefixFormat", message)
    message = host_bits_message(text, path)
    if message is not None:
        raise coded("InvalidCIDRNotation", message)
    return ipaddress.ip_network(text)


def outbound_path(arm: Arm, subnet_id: Any, public_ip: Any = None) -> bool | None:
    """Whether a VM on the subnet reaches the internet: a public IP, the subnet's NAT gateway, or the
    subnet's default outbound access (on unless switched off with network API 2024-05-01, the one
    pulumi-azure-native 3.29 uses; private by default from 2025-07-01:
    https://learn.microsoft.com/azure/virtual-network/ip-services/default-outbound-access,
    observed 2026-11-22). None when the subnet is managed elsewhere and cannot be judged."""
    if public_ip:
        return True
    subnet = arm.find(subnet_id) if isinstance(subnet_id, str) else None
    if subnet is None:
        return None
    if dig(subnet.properties, "natGateway", "id"):
        return True
    return subnet.properties.get("defaultOutboundAccess") is not False


TYPES: tuple[ArmResourceType, ...] = (
    VirtualNetwork(),
    Subnet(),
    NetworkSecurityGroup(),
    PublicIPAddress(),
    NetworkInterface(),
)
INVOKES: dict[str, Invoke] = {
    "azure-native:network:getVirtualNetwork": lookup("Microsoft.Network/virtualNetworks", "virtualNetworkName"),
    "azure-native:network:getSubnet": lookup(
        "Microsoft.Network/virtualNetworks/subnets", "virtualNetworkName", "subnetName"
    ),
}
