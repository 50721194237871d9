"""What the fake's compute model checks of a scale set's `virtualMachineProfile`, as a program sees it: each
network interface configuration's subnet, SSH-only login, the size against its image, accelerated networking and
security type, and each driver extension against the machine's subnet and image; and a VM's network interfaces
and the id Azure gives it. In-process against `FakeArm.put`, one fake per test; each scale set changes one thing
from a profile the fake accepts.

The size facts come from catalog/vm_sizes.yaml as written (`catalog_size`), whose entries cite their Learn pages;
the refusals' words are ARM's, as fakeazure/models/compute_profile.py cites them."""

from __future__ import annotations

import copy
import uuid
from typing import Any

import pytest
from azure_gpu_stacks.fakeazure import FakeArm

from tests.conftest import TEST_SSH_KEY, arm_refusal, arm_with_group
from tests.policy_helpers import catalog_size

RG = "rg-vmss"
VMSS = "azure-native:compute:VirtualMachineScaleSet"
PPG = "azure-native:compute:ProximityPlacementGroup"
VM = "azure-native:compute:VirtualMachine"
T4 = "Standard_NC4as_T4_v3"
UBUNTU_2204_GEN1 = {
    "publisher": "Canonical",
    "offer": "0001-com-ubuntu-server-jammy",
    "sku": "22_04-lts",
    "version": "latest",
}
UBUNTU_2204_GEN2 = {**UBUNTU_2204_GEN1, "sku": "22_04-lts-gen2"}
NVIDIA_DRIVER = {
    "name": "nvidia",
    "publisher": "Microsoft.HpcCompute",
    "type": "NvidiaGpuDriverLinux",
    "typeHandlerVersion": "1.6",
}
INFINIBAND_DRIVER = {**NVIDIA_DRIVER, "name": "ib", "type": "InfiniBandDriverLinux", "typeHandlerVersion": "1.2"}
SSH_ONLY = {
    "disablePasswordAuthentication": True,
    "ssh": {"publicKeys": [{"path": "/home/azureuser/.ssh/authorized_keys", "keyData": TEST_SSH_KEY}]},
}


@pytest.fixture
def arm() -> FakeArm:
    return group_with_subnets()


def group_with_subnets() -> FakeArm:
    """A fake holding the group RG and the network `vn` with two subnets: `open`, with a way out (default outbound
    access), and `closed`, without."""
    arm = arm_with_group(RG)
    vnet = {"resourceGroupName": RG, "virtualNetworkName": "vn", "addressSpace": {"addressPrefixes": ["10.0.0.0/16"]}}
    arm.put("azure-native:network:VirtualNetwork", "vn", vnet, "vn")
    for name, prefix, outbound in (("open", "10.0.1.0/24", True), ("closed", "10.0.2.0/24", False)):
        subnet = {"resourceGroupName": RG, "virtualNetworkName": "vn", "subnetName": name, "addressPrefix": prefix}
        arm.put("azure-native:network:Subnet", name, {**subnet, "defaultOutboundAccess": outbound}, name)
    return arm


def group_id(arm: FakeArm) -> str:
    return f"/subscriptions/{arm.subscription_id}/resourceGroups/{RG}/providers"


def subnet_id(arm: FakeArm, name: str) -> str:
    return f"{group_id(arm)}/Microsoft.Network/virtualNetworks/vn/subnets/{name}"


def body(arm: FakeArm, subnet: str = "open", size: str = T4, **profile: Any) -> dict[str, Any]:
    """A one-VM scale set of `size` with one NIC on `subnet`, Ubuntu 22.04 Gen2 and SSH-only login; `profile` replaces
    keys of its virtualMachineProfile."""
    nic = {
        "name": "nic",
        "primary": True,
        "ipConfigurations": [{"name": "ip", "subnet": {"id": subnet_id(arm, subnet)}}],
    }
    return {
        "resourceGroupName": RG,
        "vmScaleSetName": "vmss",
        "sku": {"name": size, "capacity": 1},
        "virtualMachineProfile": {
            "osProfile": {"computerNamePrefix": "node", "adminUsername": "azureuser", "linuxConfiguration": SSH_ONLY},
            "storageProfile": {"imageReference": UBUNTU_2204_GEN2},
            "networkProfile": {"networkInterfaceConfigurations": [nic]},
            **profile,
        },
    }


def put(arm: FakeArm, scale_set: dict[str, Any]) -> dict[str, Any]:
    return arm.put(VMSS, "vmss", scale_set, "vmss").outputs


def refusal(arm: FakeArm, scale_set: dict[str, Any]) -> tuple[str, str]:
    error = arm_refusal(lambda: put(arm, scale_set))
    return error.code, error.message


def with_nic(scale_set: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """`scale_set` with its network interface configuration's keys changed."""
    changed = copy.deepcopy(scale_set)
    changed["virtualMachineProfile"]["networkProfile"]["networkInterfaceConfigurations"][0].update(changes)
    return changed


def test_a_scale_set_with_a_network_interface_on_an_existing_subnet_is_accepted(arm: FakeArm) -> None:
    assert put(arm, body(arm))["provisioningState"] == "Succeeded"


def test_a_network_interface_on_a_subnet_that_does_not_exist_is_refused_naming_where(arm: FakeArm) -> None:
    missing = subnet_id(arm, "gone")

    assert refusal(arm, body(arm, subnet="gone")) == (
        "ResourceNotFound",
        f"The Resource '{missing}' was not found (networkInterfaceConfigurations[].ipConfigurations[].subnet.id).",
    )


def test_a_scale_set_with_password_login_off_and_no_ssh_key_is_refused(arm: FakeArm) -> None:
    os_profile = {"computerNamePrefix": "node", "adminUsername": "azureuser"}
    no_key = body(arm, osProfile={**os_profile, "linuxConfiguration": {"disablePasswordAuthentication": True}})

    assert refusal(arm, no_key) == (
        "InvalidParameter",
        "Linux VMs with password authentication disabled need at least one SSH public key "
        "(virtualMachineProfile.osProfile.linuxConfiguration.ssh.publicKeys).",
    )


def test_a_gen1_image_on_a_size_that_boots_gen2_only_is_refused(arm: FakeArm) -> None:
    size = "Standard_NC24ads_A100_v4"
    assert catalog_size(size)["hypervGenerations"] == ["V2"]

    code, message = refusal(arm, body(arm, size=size, storageProfile={"imageReference": UBUNTU_2204_GEN1}))
    assert code == "BadRequest"
    assert message.startswith(f"Scale set 'vmss': the selected VM size '{size}' cannot boot Hypervisor Generation '1'.")
    assert put(arm, body(arm, size=size))["provisioningState"] == "Succeeded"  # its Gen2 image boots


def test_accelerated_networking_on_a_size_without_it_is_refused(arm: FakeArm) -> None:
    size = "Standard_NCC40ads_H100_v5"
    assert catalog_size(size)["acceleratedNetworking"] is False

    accelerated = with_nic(body(arm, size=size), enableAcceleratedNetworking=True)
    assert refusal(arm, accelerated) == (
        "VMSizeIsNotPermittedToEnableAcceleratedNetworking",
        f"Scale set 'vmss': virtual machine size {size} is not in the allowed list of VM sizes for accelerated "
        "networking to be enabled on the network interface.",
    )


def test_trusted_launch_on_a_size_without_it_is_refused(arm: FakeArm) -> None:
    size = "Standard_ND96asr_v4"
    assert catalog_size(size)["trustedLaunch"] is False

    code, message = refusal(arm, body(arm, size=size, securityProfile={"securityType": "TrustedLaunch"}))
    assert code == "BadRequest"
    assert message.startswith(
        f"Scale set 'vmss': The VM size '{size}' is not supported for creation of VMs and Virtual Machine Scale Set "
        "with 'TrustedLaunch' security type."
    )


NO_WAY_OUT = (
    "Scale set 'vmss': VM has reported a failure when processing extension 'NvidiaGpuDriverLinux': the NVIDIA driver "
    "is downloaded from the internet, and the machine's subnet has no outbound path (no NAT gateway, "
    "defaultOutboundAccess false, no public IP). Give the subnet a NAT gateway."
)


def test_the_nvidia_driver_on_a_scale_set_whose_subnet_has_no_way_out_fails_naming_the_scale_set(arm: FakeArm) -> None:
    # Learn, hpccompute-gpu-linux: the extension downloads the driver from the internet
    driver = {"extensionProfile": {"extensions": [NVIDIA_DRIVER]}}

    assert refusal(arm, body(arm, subnet="closed", **driver)) == ("VMExtensionProvisioningError", NO_WAY_OUT)
    assert put(arm, body(arm, subnet="open", **driver))["provisioningState"] == "Succeeded"


def test_the_nvidia_driver_on_a_scale_set_with_a_public_ip_per_vm_has_a_way_out(arm: FakeArm) -> None:
    closed = body(arm, subnet="closed", extensionProfile={"extensions": [NVIDIA_DRIVER]})
    ip = closed["virtualMachineProfile"]["networkProfile"]["networkInterfaceConfigurations"][0]["ipConfigurations"][0]
    ip["publicIPAddressConfiguration"] = {"name": "pip"}

    assert put(arm, closed)["provisioningState"] == "Succeeded"


def test_the_infiniband_driver_on_a_scale_set_of_ubuntu_22_04_fails_naming_the_scale_set(arm: FakeArm) -> None:
    # Azure/azhpc-extensions: InfiniBandDriverLinux installs on Ubuntu 16.04, 18.04 and 20.04 only
    code, message = refusal(arm, body(arm, extensionProfile={"extensions": [INFINIBAND_DRIVER]}))

    assert code == "VMExtensionProvisioningError"
    assert message.startswith(
        "Scale set 'vmss': VM has reported a failure when processing extension 'InfiniBandDriverLinux': the "
        "InfiniBand driver extension supports Ubuntu 16.04, 18.04 and 20.04, not 22.04 (22_04-lts-gen2)."
    )


def test_a_proximity_placement_group_that_does_not_exist_is_refused_naming_where(arm: FakeArm) -> None:
    group = f"{group_id(arm)}/Microsoft.Compute/proximityPlacementGroups/gone"

    assert refusal(arm, {**body(arm), "proximityPlacementGroup": {"id": group}}) == (
        "ResourceNotFound",
        f"The Resource '{group}' was not found (proximityPlacementGroup.id).",
    )


def test_a_scale_set_without_a_location_is_in_its_groups_region_for_its_proximity_placement_group(arm: FakeArm) -> None:
    # azure-native gives a resource without `location` its resource group's; the group must be in the same region
    ppg = arm.put(
        PPG, "ppg", {"resourceGroupName": RG, "proximityPlacementGroupName": "ppg", "location": "westus"}, "ppg"
    )

    code, message = refusal(arm, {**body(arm), "proximityPlacementGroup": {"id": ppg.id}})
    assert code == "InvalidParameter"
    assert message.startswith(
        "Scale set 'vmss' in 'eastus' cannot use proximity placement group 'ppg', which is in 'westus'"
    )


# --- a virtual machine's network interfaces and the id Azure gives it --------------------------------


def vm_body(arm: FakeArm, name: str, nic_id: str) -> dict[str, Any]:
    return {
        "resourceGroupName": RG,
        "vmName": name,
        "hardwareProfile": {"vmSize": T4},
        "networkProfile": {"networkInterfaces": [{"id": nic_id}]},
        "storageProfile": {"imageReference": UBUNTU_2204_GEN2},
        "osProfile": {"computerName": name, "adminUsername": "azureuser", "linuxConfiguration": SSH_ONLY},
    }


def vm(arm: FakeArm, name: str) -> dict[str, Any]:
    ip = {"name": "ip", "subnet": {"id": subnet_id(arm, "open")}}
    nic = {"resourceGroupName": RG, "networkInterfaceName": f"{name}-nic", "ipConfigurations": [ip]}
    nic_id = arm.put("azure-native:network:NetworkInterface", f"{name}-nic", nic, f"{name}-nic").id
    return arm.put(VM, name, vm_body(arm, name, nic_id), name).outputs


def test_a_vm_on_a_network_interface_that_does_not_exist_is_refused_naming_where(arm: FakeArm) -> None:
    missing = f"{group_id(arm)}/Microsoft.Network/networkInterfaces/gone"

    error = arm_refusal(lambda: arm.put(VM, "vm", vm_body(arm, "vm", missing), "vm"))
    assert (error.code, error.message) == (
        "ResourceNotFound",
        f"The Resource '{missing}' was not found (networkProfile.networkInterfaces[].id).",
    )


def test_each_vm_answers_a_vm_id_of_its_own(arm: FakeArm) -> None:
    # vmId is read-only in the REST spec (VirtualMachineProperties, flag 2 in tests/data/azure-specs/compute_1):
    # Azure gives each VM its own
    first, second = vm(arm, "vm1"), vm(arm, "vm2")

    assert uuid.UUID(first["vmId"]) != uuid.UUID(second["vmId"])
    assert first["provisioningState"] == "Succeeded"


def nic(arm: FakeArm, name: str, accelerated: bool = False) -> str:
    ip = {"name": "ip", "subnet": {"id": subnet_id(arm, "open")}}
    body = {"resourceGroupName": RG, "networkInterfaceName": name, "ipConfigurations": [ip]}
    if accelerated:
        body["enableAcceleratedNetworking"] = True
    return arm.put("azure-native:network:NetworkInterface", name, body, name).id


def test_a_vm_with_password_login_off_and_no_ssh_key_is_refused(arm: FakeArm) -> None:
    no_key = vm_body(arm, "vm", nic(arm, "vm-nic"))  # on a NIC that exists: the refusal is about its login only
    no_key["osProfile"]["linuxConfiguration"] = {"disablePasswordAuthentication": True}

    error = arm_refusal(lambda: arm.put(VM, "vm", no_key, "vm"))
    assert (error.code, error.message) == (
        "InvalidParameter",
        "Linux VMs with password authentication disabled need at least one SSH public key "
        "(osProfile.linuxConfiguration.ssh.publicKeys).",
    )


def test_a_vms_size_is_held_against_its_image_network_interface_and_security_type(arm: FakeArm) -> None:
    a100, confidential, nd = "Standard_NC24ads_A100_v4", "Standard_NCC40ads_H100_v5", "Standard_ND96asr_v4"
    gen1 = {**vm_body(arm, "gen1", nic(arm, "n1")), "hardwareProfile": {"vmSize": a100}}
    gen1["storageProfile"] = {"imageReference": UBUNTU_2204_GEN1}
    accelerated = {**vm_body(arm, "acc", nic(arm, "n2", accelerated=True)), "hardwareProfile": {"vmSize": confidential}}
    trusted = {**vm_body(arm, "tl", nic(arm, "n3")), "hardwareProfile": {"vmSize": nd}}
    trusted["securityProfile"] = {"securityType": "TrustedLaunch"}

    codes = [
        arm_refusal(lambda body=body: arm.put(VM, body["vmName"], body, body["vmName"]))
        for body in (gen1, accelerated, trusted)
    ]
    assert [(e.code, e.message.split(":")[0]) for e in codes] == [
        ("BadRequest", "Virtual machine 'gen1'"),
        ("VMSizeIsNotPermittedToEnableAcceleratedNetworking", "Virtual machine 'acc'"),
        ("BadRequest", "Virtual machine 'tl'"),
    ]
    assert "cannot boot Hypervisor Generation '1'" in codes[0].message
    assert "accelerated networking" in codes[1].message
    assert "'TrustedLaunch' security type" in codes[2].message
