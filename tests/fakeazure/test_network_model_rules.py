"""What the fake's network model (fakeazure/models/network.py) refuses and answers, as a program sees it: a
security group's rule priorities by direction, the ids and read-only values Azure gives, and which subnets give a
VM a way out to the internet for the NVIDIA driver. In-process against `FakeArm.put`, one fake per test.

Read-only properties are read from the saved REST spec (tests/data/azure-specs/network, Azure/bicep-types-az,
Microsoft.Network 2024-05-01: a property with flag 2 is ReadOnly, filled in by Azure)."""

from __future__ import annotations

import ipaddress
import re
import uuid
from typing import Any

import pytest
from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.fakeazure.errors import ArmError
from azure_gpu_stacks.fakeazure.existing import adopt, parse

from tests.conftest import REPO, TEST_SSH_KEY, arm_refusal, arm_with_group
from tests.fakeazure.test_compute_answers import read_only_in

RG = "rg-net"
SPEC = REPO / "tests" / "data" / "azure-specs" / "network" / "microsoft.network" / "2024-05-01" / "types.json"
NSG = "azure-native:network:NetworkSecurityGroup"
VNET = "azure-native:network:VirtualNetwork"
SUBNET = "azure-native:network:Subnet"
NIC = "azure-native:network:NetworkInterface"
VMSS = "azure-native:compute:VirtualMachineScaleSet"
VM = "azure-native:compute:VirtualMachine"
EXTENSION = "azure-native:compute:VirtualMachineExtension"
NVIDIA_DRIVER = {
    "name": "nvidia",
    "publisher": "Microsoft.HpcCompute",
    "type": "NvidiaGpuDriverLinux",
    "typeHandlerVersion": "1.6",
}
SSH_ONLY = {
    "disablePasswordAuthentication": True,
    "ssh": {"publicKeys": [{"path": "/home/azureuser/.ssh/authorized_keys", "keyData": TEST_SSH_KEY}]},
}
UBUNTU_2204_GEN2 = {
    "publisher": "Canonical",
    "offer": "0001-com-ubuntu-server-jammy",
    "sku": "22_04-lts-gen2",
    "version": "latest",
}


def read_only(object_type: str) -> frozenset[str]:
    """The read-only properties of one of the network spec's object types (`NetworkSecurityGroupPropertiesFormat`)."""
    return read_only_in(SPEC, object_type)


@pytest.fixture
def arm() -> FakeArm:
    return arm_with_group(RG)


def network_id(arm: FakeArm) -> str:
    return f"/subscriptions/{arm.subscription_id}/resourceGroups/{RG}/providers/Microsoft.Network"


# --- network security groups: priorities -------------------------------------------------------------


def rule(name: str, direction: str, priority: int | None) -> dict[str, Any]:
    body = {
        "name": name,
        "direction": direction,
        "access": "Allow",
        "protocol": "Tcp",
        "sourceAddressPrefix": "10.0.0.0/16",
        "sourcePortRange": "*",
        "destinationAddressPrefix": "*",
        "destinationPortRange": "443",
    }
    return body if priority is None else {**body, "priority": priority}


def nsg(arm: FakeArm, *rules: dict[str, Any], name: str = "nsg") -> dict[str, Any]:
    body = {"resourceGroupName": RG, "networkSecurityGroupName": name, "securityRules": list(rules)}
    return arm.put(NSG, name, body, name).outputs


def test_one_priority_may_hold_an_inbound_and_an_outbound_rule(arm: FakeArm) -> None:
    # Learn, "Network security groups" (security rules): rules of the same priority *and direction* cannot be
    # created; Azure's own default rules share 65000 inbound and outbound
    outputs = nsg(arm, rule("in", "Inbound", 100), rule("out", "Outbound", 100))

    assert [r["name"] for r in outputs["securityRules"]] == ["in", "out"]


def test_two_rules_of_one_priority_and_direction_are_refused_naming_both(arm: FakeArm) -> None:
    error = arm_refusal(lambda: nsg(arm, rule("https", "Inbound", 300), rule("again", "Inbound", 300)))

    assert (error.code, error.message) == (
        "SecurityRuleConflict",
        "Security rule again conflicts with rule https. Rules cannot have the same Priority and Direction "
        "(priority 300, direction Inbound).",
    )


def test_priorities_100_and_4096_are_the_ends_of_the_range(arm: FakeArm) -> None:
    # the spec's SecurityRulePropertiesFormat.priority (Azure/azure-rest-api-specs, networkSecurityGroup.json):
    # "The value can be between 100 and 4096"
    outputs = nsg(arm, rule("first", "Inbound", 100), rule("last", "Inbound", 4096))

    assert [r["priority"] for r in outputs["securityRules"]] == [100, 4096]


@pytest.mark.parametrize("priority", [99, 4097])
def test_a_priority_just_outside_the_range_is_refused_naming_it(arm: FakeArm, priority: int) -> None:
    error = arm_refusal(lambda: nsg(arm, rule("rule", "Outbound", priority)))

    assert (error.code, error.message) == (
        "SecurityRuleInvalidPriority",
        f"Security rule has invalid Priority. Value provided: {priority} Allowed range 100-4096.",
    )


def test_a_rule_without_a_priority_is_refused_as_priority_0(arm: FakeArm) -> None:
    # Azure's words for a rule sent without one (pulumi/pulumi-azure-native issue 2221, observed 2026-11-27):
    # 'Security rule has invalid Priority. Value provided: 0 Allowed range 100-4096.'
    error = arm_refusal(lambda: nsg(arm, rule("no-priority", "Inbound", None)))

    assert (error.code, error.message) == (
        "SecurityRuleInvalidPriority",
        "Security rule has invalid Priority. Value provided: 0 Allowed range 100-4096.",
    )


def test_each_security_group_answers_a_resource_guid_of_its_own(arm: FakeArm) -> None:
    assert {"resourceGuid", "provisioningState"} <= read_only("NetworkSecurityGroupPropertiesFormat")
    first, second = nsg(arm, name="nsg1"), nsg(arm, name="nsg2")

    assert uuid.UUID(first["resourceGuid"]) != uuid.UUID(second["resourceGuid"])
    assert first["provisioningState"] == second["provisioningState"] == "Succeeded"


# --- which subnets give a VM a way out for the NVIDIA driver ----------------------------------------


def subnet(arm: FakeArm, name: str, prefix: str, **props: Any) -> str:
    body = {"resourceGroupName": RG, "virtualNetworkName": "vn", "subnetName": name, "addressPrefix": prefix, **props}
    return arm.put(SUBNET, name, body, name).id


@pytest.fixture
def vnet(arm: FakeArm) -> FakeArm:
    body = {"resourceGroupName": RG, "virtualNetworkName": "vn", "addressSpace": {"addressPrefixes": ["10.0.0.0/16"]}}
    arm.put(VNET, "vn", body, "vn")
    return arm


def scale_set(arm: FakeArm, subnet_id: str) -> dict[str, Any]:
    """A one-VM T4 scale set with the NVIDIA driver extension, its one NIC on `subnet_id`, no public IP."""
    nic = {"name": "nic", "primary": True, "ipConfigurations": [{"name": "ip", "subnet": {"id": subnet_id}}]}
    body = {
        "resourceGroupName": RG,
        "vmScaleSetName": "vmss",
        "sku": {"name": "Standard_NC4as_T4_v3", "capacity": 1},
        "virtualMachineProfile": {
            "osProfile": {"computerNamePrefix": "node", "adminUsername": "azureuser", "linuxConfiguration": SSH_ONLY},
            "storageProfile": {"imageReference": UBUNTU_2204_GEN2},
            "networkProfile": {"networkInterfaceConfigurations": [nic]},
            "extensionProfile": {"extensions": [NVIDIA_DRIVER]},
        },
    }
    return arm.put(VMSS, "vmss", body, "vmss").outputs


def test_the_nvidia_driver_reaches_the_internet_through_the_subnets_nat_gateway(vnet: FakeArm) -> None:
    # Learn, "Default outbound access in Azure" (observed 2026-11-22): with default outbound access off, a NAT
    # gateway on the subnet is an explicit way out
    nat = {"natGateway": {"id": f"{network_id(vnet)}/natGateways/ng"}}
    closed = subnet(vnet, "closed", "10.0.1.0/24", defaultOutboundAccess=False)
    behind_nat = subnet(vnet, "nat", "10.0.2.0/24", defaultOutboundAccess=False, **nat)

    assert arm_refusal(lambda: scale_set(vnet, closed)).code == "VMExtensionProvisioningError"
    assert scale_set(vnet, behind_nat)["provisioningState"] == "Succeeded"


def test_the_nvidia_driver_on_a_vm_whose_ip_configuration_names_no_subnet_is_not_judged(vnet: FakeArm) -> None:
    # a NIC's IP configuration without a subnet (the spec's `subnet` is optional): the fake cannot tell its way out
    nic = {"resourceGroupName": RG, "networkInterfaceName": "nic", "ipConfigurations": [{"name": "ip"}]}
    nic_id = vnet.put(NIC, "nic", nic, "nic").id
    machine = {
        "resourceGroupName": RG,
        "vmName": "vm",
        "hardwareProfile": {"vmSize": "Standard_NC4as_T4_v3"},
        "networkProfile": {"networkInterfaces": [{"id": nic_id}]},
        "storageProfile": {"imageReference": UBUNTU_2204_GEN2},
        "osProfile": {"computerName": "vm", "adminUsername": "azureuser", "linuxConfiguration": SSH_ONLY},
    }
    vnet.put(VM, "vm", machine, "vm")
    driver = {"resourceGroupName": RG, "vmName": "vm", "vmExtensionName": "nvidia", **NVIDIA_DRIVER}
    driver.pop("name")

    assert vnet.put(EXTENSION, "nvidia", driver, "nvidia").outputs["provisioningState"] == "Succeeded"


# --- public IP addresses ------------------------------------------------------------------------------


def test_each_public_ip_answers_an_address_of_its_own_that_is_no_real_azure_address(arm: FakeArm) -> None:
    # a Standard SKU address is static, allocated at creation (Learn, "Public IP addresses"); offline the fake hands out
    # TEST-NET-2 (198.51.100.0/24, RFC 5737: reserved for documentation), so no real address appears in a plan
    body = {"resourceGroupName": RG, "sku": {"name": "Standard"}, "publicIPAllocationMethod": "Static"}
    first, second = (
        arm.put("azure-native:network:PublicIPAddress", n, {**body, "publicIpAddressName": n}, n).outputs
        for n in ("pip1", "pip2")
    )

    addresses = [ipaddress.ip_address(p["ipAddress"]) for p in (first, second)]
    assert all(a in ipaddress.ip_network("198.51.100.0/24") for a in addresses) and addresses[0] != addresses[1]
    assert first["provisioningState"] == "Succeeded"


# --- virtual networks and their subnets ---------------------------------------------------------------


def virtual_network(
    arm: FakeArm, *subnets: dict[str, Any], spaces: tuple[str, ...] = ("10.0.0.0/16",), name: str = "vnet1"
) -> Any:
    body = {
        "resourceGroupName": RG,
        "virtualNetworkName": name,
        "addressSpace": {"addressPrefixes": list(spaces)},
        "subnets": list(subnets),
    }
    return arm.put(VNET, name, body, name)


def test_an_inline_subnet_is_answered_with_its_id_name_and_body(arm: FakeArm) -> None:
    assert "resourceGuid" in read_only("VirtualNetworkPropertiesFormat")
    made = virtual_network(arm, {"name": "gpu", "addressPrefix": "10.0.1.0/24", "defaultOutboundAccess": False})

    assert made.outputs["subnets"] == [
        {
            "addressPrefix": "10.0.1.0/24",
            "defaultOutboundAccess": False,
            "name": "gpu",
            "id": f"{network_id(arm)}/virtualNetworks/vnet1/subnets/gpu",
            "provisioningState": "Succeeded",
        }
    ]
    assert uuid.UUID(made.outputs["resourceGuid"]) and made.outputs["provisioningState"] == "Succeeded"


def test_a_network_made_without_subnets_answers_empty_subnet_and_peering_lists(arm: FakeArm) -> None:
    """The REST spec's create example (VirtualNetworkCreate.json, network 2023-09-01, Azure/azure-rest-api-specs, read
    2026-11-27) puts a network with only an address space, and Azure answers `"subnets": []` and
    `"virtualNetworkPeerings": []`: a program reading `vnet.subnets` gets an empty list, not nothing."""
    body = {
        "resourceGroupName": RG,
        "virtualNetworkName": "test-vnet",
        "addressSpace": {"addressPrefixes": ["10.0.0.0/16"]},
    }
    answer = arm.put(VNET, "test-vnet", body, "test-vnet").outputs

    assert (answer["subnets"], answer["virtualNetworkPeerings"]) == ([], [])


def test_each_virtual_network_answers_a_resource_guid_of_its_own(arm: FakeArm) -> None:
    first = virtual_network(arm).outputs["resourceGuid"]
    body = {
        "resourceGroupName": RG,
        "virtualNetworkName": "vnet2",
        "addressSpace": {"addressPrefixes": ["10.1.0.0/16"]},
    }
    second = arm.put(VNET, "vnet2", body, "vnet2").outputs["resourceGuid"]

    assert uuid.UUID(first) != uuid.UUID(second)


def test_an_inline_subnet_is_a_child_resource_answered_as_azure_answers_a_subnet(arm: FakeArm) -> None:
    # Azure creates each of a VNet's `subnets` as a child resource `.../subnets/NAME`
    virtual_network(arm, {"name": "gpu", "addressPrefix": "10.0.1.0/24"})
    subnet_id = f"{network_id(arm)}/virtualNetworks/vnet1/subnets/gpu"

    child = arm.find(subnet_id)

    assert child is not None and (child.name, child.resource_group) == ("gpu", RG)
    args = {"resourceGroupName": RG, "virtualNetworkName": "vnet1", "subnetName": "gpu"}
    assert arm.invoke("azure-native:network:getSubnet", args)["type"] == "Microsoft.Network/virtualNetworks/subnets"
    assert child.outputs == {
        "addressPrefix": "10.0.1.0/24",
        "resourceGroupName": RG,
        "virtualNetworkName": "vnet1",
        "name": "gpu",
        "type": "Microsoft.Network/virtualNetworks/subnets",
        "id": subnet_id,
        "provisioningState": "Succeeded",
    }


def test_an_inline_subnet_without_a_way_out_fails_the_nvidia_driver(arm: FakeArm) -> None:
    # the inline subnet's own properties reach what reads the child (its defaultOutboundAccess here)
    virtual_network(
        arm, {"name": "closed", "properties": {"addressPrefix": "10.0.1.0/24", "defaultOutboundAccess": False}}
    )

    error = arm_refusal(lambda: scale_set(arm, f"{network_id(arm)}/virtualNetworks/vnet1/subnets/closed"))
    assert error.code == "VMExtensionProvisioningError"


def test_an_arm_shaped_inline_subnet_is_read_from_its_properties(arm: FakeArm) -> None:
    made = virtual_network(arm, {"name": "snet", "properties": {"addressPrefix": "10.0.2.0/24"}})
    nic = {
        "resourceGroupName": RG,
        "networkInterfaceName": "nic",
        "ipConfigurations": [{"name": "ip", "subnet": {"id": made.outputs["subnets"][0]["id"]}}],
    }

    assert made.outputs["subnets"][0]["addressPrefix"] == "10.0.2.0/24"
    assert arm.put(NIC, "nic", nic, "nic").outputs["ipConfigurations"][0]["privateIPAddress"] == "10.0.2.4"
    outside = arm_refusal(
        lambda: virtual_network(arm, {"name": "s", "properties": {"addressPrefix": "10.9.0.0/24"}}, name="v2")
    )
    assert outside.code == "NetcfgSubnetRangeOutsideVnet"


def test_an_inline_subnet_outside_the_address_space_is_refused_naming_both(arm: FakeArm) -> None:
    # Azure's words, as `az network vnet subnet create` prints them (fakeazure/model_rules.py's source)
    error = arm_refusal(lambda: virtual_network(arm, {"name": "far", "addressPrefix": "10.1.0.0/24"}))

    assert (error.code, error.message) == (
        "NetcfgSubnetRangeOutsideVnet",
        "Subnet 'far' is not valid because its IP address range 10.1.0.0/24 is outside the IP address range of "
        "virtual network 'vnet1'.",
    )


def test_overlapping_inline_subnets_are_refused_naming_both_and_the_network(arm: FakeArm) -> None:
    subnets = (
        {"name": "a", "addressPrefix": "10.0.0.0/24"},
        {"name": "b", "addressPrefix": "10.0.1.0/24"},
        {"name": "c", "addressPrefixes": ["10.0.2.0/24", "10.0.1.128/25"]},
    )

    error = arm_refusal(lambda: virtual_network(arm, *subnets))

    assert (error.code, error.message) == (
        "NetcfgSubnetRangesOverlap",
        "Subnet 'c' is not valid because its IP address range 10.0.1.128/25 overlaps with that of an existing subnet "
        "'b' in virtual network 'vnet1'.",
    )


def test_subnets_side_by_side_in_a_dual_stack_network_are_accepted(arm: FakeArm) -> None:
    # an IPv6 range is held against the IPv6 address space, an IPv4 one against the IPv4 space
    spaces = ("10.0.0.0/16", "fd00:db8::/48")
    subnets = (
        {"name": "a", "addressPrefixes": ["10.0.0.0/24", "fd00:db8::/64"]},
        {"name": "b", "addressPrefixes": ["10.0.1.0/24", "fd00:db8:0:1::/64"]},
        {"name": "c", "addressPrefix": "10.0.2.0/24"},
    )

    made = virtual_network(arm, *subnets, spaces=spaces)

    assert [s["name"] for s in made.outputs["subnets"]] == ["a", "b", "c"]
    outside = arm_refusal(
        lambda: virtual_network(arm, {"name": "d", "addressPrefix": "fd00:db9::/64"}, spaces=spaces, name="v2")
    )
    assert outside.code == "NetcfgSubnetRangeOutsideVnet" and "fd00:db9::/64" in outside.message


def test_a_subnet_without_an_address_prefix_is_refused(arm: FakeArm) -> None:
    virtual_network(arm)
    body = {"resourceGroupName": RG, "virtualNetworkName": "vnet1", "subnetName": "bare"}

    error = arm_refusal(lambda: arm.put(SUBNET, "bare", body, "bare"))

    assert (error.code, error.message) == ("InvalidParameter", "Subnet 'bare' needs addressPrefix or addressPrefixes.")


def test_a_standalone_subnet_outside_its_network_is_refused_for_the_prefix_outside(arm: FakeArm) -> None:
    virtual_network(arm)
    body = {
        "resourceGroupName": RG,
        "virtualNetworkName": "vnet1",
        "subnetName": "two",
        "addressPrefixes": ["10.0.5.0/24", "10.2.0.0/24"],
    }

    error = arm_refusal(lambda: arm.put(SUBNET, "two", body, "two"))

    assert (error.code, error.message) == (
        "NetcfgSubnetRangeOutsideVnet",
        "Subnet 'two' is not valid because its IP address range 10.2.0.0/24 is outside the IP address range of "
        "virtual network 'vnet1'.",
    )
    one = {**body, "subnetName": "one", "addressPrefix": "10.0.6.0/24", "addressPrefixes": None}
    assert arm.put(SUBNET, "one", one, "one").outputs["provisioningState"] == "Succeeded"


# --- network interfaces ------------------------------------------------------------------------------


def interface(arm: FakeArm, name: str, *configs: dict[str, Any], **props: Any) -> dict[str, Any]:
    body = {"resourceGroupName": RG, "networkInterfaceName": name, "ipConfigurations": list(configs), **props}
    return arm.put(NIC, name, body, name).outputs


def on(arm: FakeArm, subnet_name: str, **config: Any) -> dict[str, Any]:
    return {"name": "ip", "subnet": {"id": f"{network_id(arm)}/virtualNetworks/vnet1/subnets/{subnet_name}"}, **config}


def westus_network(arm: FakeArm) -> Any:
    """A network `vnet1` in westus with one subnet, `s`, for a NIC of the fake's default region (eastus): the fake's
    resource."""
    body = {
        "resourceGroupName": RG,
        "virtualNetworkName": "vnet1",
        "location": "westus",
        "addressSpace": {"addressPrefixes": ["10.0.0.0/16"]},
        "subnets": [{"name": "s", "addressPrefix": "10.0.1.0/24"}],
    }
    return arm.put(VNET, "vnet1", body, "vnet1")


def test_a_network_interface_without_an_ip_configuration_is_refused(arm: FakeArm) -> None:
    error = arm_refusal(lambda: interface(arm, "nic"))

    assert (error.code, error.message) == (
        "InvalidParameter",
        "Network interface 'nic' needs at least one IP configuration.",
    )


def test_a_network_interface_on_another_regions_network_is_refused_naming_both_regions(arm: FakeArm) -> None:
    westus_network(arm)
    subnet_id = f"{network_id(arm)}/virtualNetworks/vnet1/subnets/s"

    error = arm_refusal(lambda: interface(arm, "nic", on(arm, "s")))

    assert (error.code, error.message) == (
        "InvalidResourceReference",
        f"Resource {subnet_id} referenced by resource nic was not found. Please make sure that the referenced "
        "resource exists, and that both resources are in the same region (westus, not eastus).",
    )
    assert interface(arm, "west", on(arm, "s"), location="westus")["provisioningState"] == "Succeeded"


def test_network_interfaces_take_the_next_free_addresses_and_keep_a_static_one(arm: FakeArm) -> None:
    # Azure keeps a subnet's first four addresses: the first it hands out is .4, the next .5 (Learn, Virtual
    # network FAQ and the "Create a virtual network" quickstart's second VM, 10.0.0.5)
    virtual_network(arm, {"name": "s", "addressPrefixes": ["10.0.3.0/24"]})

    first = interface(arm, "nic1", on(arm, "s"))
    second = interface(arm, "nic2", on(arm, "s"))
    static = interface(arm, "nic3", on(arm, "s", privateIPAllocationMethod="Static", privateIPAddress="10.0.3.200"))

    assert [n["ipConfigurations"][0]["privateIPAddress"] for n in (first, second, static)] == [
        "10.0.3.4",
        "10.0.3.5",
        "10.0.3.200",
    ]
    assert first["ipConfigurations"][0]["provisioningState"] == first["provisioningState"] == "Succeeded"
    assert first["ipConfigurations"][0]["name"] == "ip"


def test_a_network_interface_on_a_subnet_the_fake_does_not_hold_has_no_address_yet(arm: FakeArm) -> None:
    elsewhere = (
        "/subscriptions/11111111-1111-1111-1111-111111111111/resourceGroups/hub/providers/Microsoft.Network/"
        "virtualNetworks/hub/subnets/shared"
    )

    outputs = interface(arm, "nic", {"name": "ip", "subnet": {"id": elsewhere}})

    assert outputs["ipConfigurations"][0]["privateIPAddress"] is None


def test_each_network_interface_answers_a_mac_address_of_its_own_as_azure_writes_them(arm: FakeArm) -> None:
    # macAddress is read-only (the spec); Azure writes six upper-case hex pairs joined by dashes
    # ("macAddress": "00-0D-3A-23-9A-49" in Learn's `az vm create` quickstart output)
    assert "macAddress" in read_only("NetworkInterfacePropertiesFormat")
    virtual_network(arm, {"name": "s", "addressPrefix": "10.0.1.0/24"})

    macs = [interface(arm, n, on(arm, "s"))["macAddress"] for n in ("nic1", "nic2")]

    assert all(re.fullmatch(r"[0-9A-F]{2}(-[0-9A-F]{2}){5}", m) for m in macs) and macs[0] != macs[1]


def test_a_subnets_network_is_found_whatever_its_group_and_network_are_named(arm: FakeArm) -> None:
    # "subnets" is a valid name for a resource group and for a VNet (Learn's resource-name-rules); the subnet's
    # network is what comes before the last `/subnets/` of its id
    arm.put("azure-native:resources:ResourceGroup", "g", {"resourceGroupName": "subnets", "location": "eastus"}, "g")
    body = {
        "resourceGroupName": "subnets",
        "virtualNetworkName": "subnets",
        "location": "westus",
        "addressSpace": {"addressPrefixes": ["10.0.0.0/16"]},
        "subnets": [{"name": "s", "addressPrefix": "10.0.1.0/24"}],
    }
    vnet_id = arm.put(VNET, "subnets", body, "subnets").id
    config = {"name": "ip", "subnet": {"id": f"{vnet_id}/subnets/s"}}

    error = arm_refusal(
        lambda: arm.put(
            NIC,
            "nic",
            {"resourceGroupName": "subnets", "networkInterfaceName": "nic", "ipConfigurations": [config]},
            "nic",
        )
    )

    assert "/resourceGroups/subnets/" in vnet_id and vnet_id.endswith("/virtualNetworks/subnets")
    assert error.code == "InvalidResourceReference" and "(westus, not eastus)" in error.message


# Azure parses an IP configuration's subnet reference as a subnet's id and refuses any other, before it looks anything
# up, in these words (public deployment logs: Azure/azure-quickstart-templates issue 2080, Azure/azure-cli issue 1458,
# Azure/azure-cli-extensions issue 7855, observed 2026-11-27)
NOT_A_SUBNET = (
    "Cannot parse the request. (InvalidJsonReferenceFormat) Reference Id {id} is not formatted correctly. The Id is "
    "expected to reference resources of type virtualNetworks/subnets. Path properties.ipConfigurations[{i}]"
    ".properties.subnet."
)


def test_a_network_interface_on_a_virtual_networks_own_id_is_refused_naming_the_reference_and_its_path(
    arm: FakeArm,
) -> None:
    # a network of another region: before this rule the fake accepted it (its region check looks up subnets only)
    vnet_id = westus_network(arm).id
    on_subnet = on(arm, "s")

    error = arm_refusal(
        lambda: interface(arm, "nic", on_subnet, {"name": "second", "subnet": {"id": vnet_id}}, location="westus")
    )

    assert (error.code, error.message) == ("InvalidRequestFormat", NOT_A_SUBNET.format(id=vnet_id, i=1))
    assert interface(arm, "nic", on_subnet, location="westus")["provisioningState"] == "Succeeded"


@pytest.mark.parametrize(
    "reference",
    [
        "GatewaySubnet",  # a subnet's name (azure-cli issue 1458)
        "{network}/virtualNetworks/vnet1/default",  # a subnet's name right after its network's id (quickstart 2080)
        "{network}/virtualNetworks/vnet1/subnests/s",  # a misspelt segment
        "{network}/virtualNetworks/{network}/virtualNetworks/vnet1/subnets/s",  # an id inside another (extensions 7855)
    ],
    ids=["name", "no-subnets-segment", "misspelt", "id-inside-an-id"],
)
def test_a_subnet_reference_that_is_no_subnet_id_is_refused(arm: FakeArm, reference: str) -> None:
    subnet_id = reference.format(network=network_id(arm))

    error = arm_refusal(lambda: interface(arm, "nic", {"name": "ip", "subnet": {"id": subnet_id}}))

    assert (error.code, error.message) == ("InvalidRequestFormat", NOT_A_SUBNET.format(id=subnet_id, i=0))


def test_a_subnet_id_is_read_whatever_its_letter_case(arm: FakeArm) -> None:
    # names in ARM are case-insensitive unless noted (Learn, resource-name-rules), and so are the ids made of them
    westus_network(arm)
    lowered = {"name": "ip", "subnet": {"id": on(arm, "s")["subnet"]["id"].lower()}}

    error = arm_refusal(lambda: interface(arm, "nic", lowered))

    assert error.code == "InvalidResourceReference" and "(westus, not eastus)" in error.message


# --- an existing network's address space, as a `--existing` file gives it -----------------------------

SHARED = "/subscriptions/3f2c8a41-6b7d-4e15-9c0a-2d5e7f1b9a64/resourceGroups/rg-shared"


def existing_network(space: str) -> FakeArm:
    """A fake holding only the VNet `hub` of address space `space`, as `az network vnet show` printed it."""
    arm = FakeArm(default_location="eastus")
    hub = {
        "id": f"{SHARED}/providers/Microsoft.Network/virtualNetworks/hub",
        "location": "eastus",
        "name": "hub",
        "type": "Microsoft.Network/virtualNetworks",
        "properties": {"addressSpace": {"addressPrefixes": [space]}},
    }
    group = {"id": SHARED, "location": "eastus", "name": "rg-shared", "type": "Microsoft.Resources/resourceGroups"}
    adopt(arm, parse([group, hub], "existing.json"))
    return arm


def subnet_of_hub(arm: FakeArm) -> ArmError:
    body = {"resourceGroupName": "rg-shared", "virtualNetworkName": "hub", "subnetName": "gpu"}
    return arm_refusal(lambda: arm.put(SUBNET, "gpu", {**body, "addressPrefix": "10.9.1.0/24"}, "gpu"))


def test_a_subnet_of_an_existing_network_whose_space_is_not_cidr_is_refused_naming_it() -> None:
    # Azure's words for a prefix without a length, as the prose rule prefix-format quotes them (fakeazure/prose.py)
    error = subnet_of_hub(existing_network("10.9.0.0"))

    assert (error.code, error.message) == (
        "InvalidAddressPrefixFormat",
        "Address prefix 10.9.0.0 of resource addressSpace is not formatted correctly. It should follow CIDR "
        "notation, for example 10.0.0.0/24.",
    )


def test_a_subnet_of_an_existing_network_whose_space_has_host_bits_is_refused_naming_it() -> None:
    # Azure's words for host bits set, as the prose rule prefix-host-bits quotes them (fakeazure/prose.py)
    error = subnet_of_hub(existing_network("10.9.0.1/16"))

    assert (error.code, error.message) == (
        "InvalidCIDRNotation",
        "The address prefix 10.9.0.1/16 in resource addressSpace has an invalid CIDR notation. For the given prefix "
        "length, the address prefix should be 10.9.0.0/16.",
    )
