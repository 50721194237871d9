"""What the fake's compute models answer and refuse, as a program sees it: the read-only properties ARM
fills in, a scale set's placement-group limit by orchestration mode, its instances' names, an extension's
advisories and its driver checks. In-process against `FakeArm.put`, one fake per test.

Read-only properties are read from the saved REST spec (tests/data/azure-specs/compute_1, Azure/bicep-types-az
commit 1f896de2, Microsoft.Compute 2024-11-01: a property with flag 2 is ReadOnly, filled in by Azure)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.fakeazure import FakeArm

from tests.conftest import REPO, TEST_SSH_KEY, arm_refusal, arm_with_group

RG = "rg-compute"
SPEC = REPO / "tests" / "data" / "azure-specs" / "compute_1" / "microsoft.compute" / "2024-11-01" / "types.json"
READ_ONLY = 2  # bicep-types' ObjectTypePropertyFlags.ReadOnly
PPG = "azure-native:compute:ProximityPlacementGroup"
VMSS = "azure-native:compute:VirtualMachineScaleSet"
VM = "azure-native:compute:VirtualMachine"
EXTENSION = "azure-native:compute:VirtualMachineExtension"
UBUNTU_2404 = {"publisher": "Canonical", "offer": "ubuntu-24_04-lts", "sku": "server", "version": "latest"}
LINUX = {
    "disablePasswordAuthentication": True,
    "ssh": {"publicKeys": [{"path": "/home/azureuser/.ssh/authorized_keys", "keyData": TEST_SSH_KEY}]},
}


@cache
def read_only_in(spec: Path, object_type: str) -> frozenset[str]:
    """The read-only properties of one of a bicep-types `types.json`'s object types."""
    types = json.loads(spec.read_text(encoding="utf-8"))["types"]
    (found,) = [t for t in types if t.get("name") == object_type]
    return frozenset(name for name, p in found["properties"].items() if p["flags"] & READ_ONLY)


def read_only(object_type: str) -> frozenset[str]:
    """The read-only properties of one of the compute spec's object types (`ProximityPlacementGroupProperties`...)."""
    return read_only_in(SPEC, object_type)


@pytest.fixture
def arm() -> FakeArm:
    return arm_with_group(RG)


def scale_set(arm: FakeArm, name: str = "vmss", capacity: int | None = 2, **props: Any) -> dict[str, Any]:
    sku = {"name": "Standard_NC4as_T4_v3", **({"capacity": capacity} if capacity is not None else {})}
    profile = {
        "osProfile": {"computerNamePrefix": "node", "adminUsername": "azureuser", "linuxConfiguration": LINUX},
        "storageProfile": {"imageReference": UBUNTU_2404},
    }
    body = {"resourceGroupName": RG, "vmScaleSetName": name, "sku": sku, "virtualMachineProfile": profile, **props}
    return arm.put(VMSS, name, body, name).outputs


def machine(arm: FakeArm, image: dict[str, Any] = UBUNTU_2404, nic_id: str | None = None) -> None:
    """A T4 VM (its subnet has Azure's default outbound access) named `vm`."""
    network = f"/subscriptions/{arm.subscription_id}/resourceGroups/{RG}/providers/Microsoft.Network"
    if nic_id is None:
        vnet = {
            "resourceGroupName": RG,
            "virtualNetworkName": "vn",
            "addressSpace": {"addressPrefixes": ["10.0.0.0/16"]},
        }
        arm.put("azure-native:network:VirtualNetwork", "vn", vnet, "vn")
        subnet = {
            "resourceGroupName": RG,
            "virtualNetworkName": "vn",
            "subnetName": "sn",
            "addressPrefix": "10.0.1.0/24",
        }
        arm.put("azure-native:network:Subnet", "sn", subnet, "sn")
        ip = {"name": "ip", "subnet": {"id": f"{network}/virtualNetworks/vn/subnets/sn"}}
        nic = {"resourceGroupName": RG, "networkInterfaceName": "nic", "ipConfigurations": [ip]}
        nic_id = arm.put("azure-native:network:NetworkInterface", "nic", nic, "nic").id
    vm = {
        "resourceGroupName": RG,
        "vmName": "vm",
        "hardwareProfile": {"vmSize": "Standard_NC4as_T4_v3"},
        "networkProfile": {"networkInterfaces": [{"id": nic_id}]},
        "storageProfile": {"imageReference": image},
        "osProfile": {"computerName": "vm", "adminUsername": "azureuser", "linuxConfiguration": LINUX},
    }
    arm.put(VM, "vm", vm, "vm")


def extension(arm: FakeArm, **props: Any) -> dict[str, Any]:
    body = {"resourceGroupName": RG, "vmName": "vm", "vmExtensionName": "ext", **props}
    return arm.put(EXTENSION, "ext", body, "ext").outputs


# --- proximity placement groups ---------------------------------------------------------------------


def test_a_new_proximity_placement_group_answers_its_read_only_member_lists_empty(arm: FakeArm) -> None:
    group = arm.put(PPG, "ppg", {"resourceGroupName": RG, "proximityPlacementGroupName": "ppg"}, "ppg").outputs

    members = read_only("ProximityPlacementGroupProperties")
    assert members == {"availabilitySets", "virtualMachineScaleSets", "virtualMachines"}
    assert {name: group.get(name) for name in members} == {name: [] for name in members}


@pytest.mark.parametrize(("given", "answered"), [(None, "Standard"), ("Ultra", "Ultra")])
def test_a_proximity_placement_groups_type_is_standard_unless_given(
    arm: FakeArm, given: str | None, answered: str
) -> None:
    # the spec's ProximityPlacementGroupType: Standard (co-locate within a region or zone) or Ultra ("for future use")
    body = {"resourceGroupName": RG, "proximityPlacementGroupName": "ppg"}
    if given is not None:
        body["proximityPlacementGroupType"] = given

    assert arm.put(PPG, "ppg", body, "ppg").outputs["proximityPlacementGroupType"] == answered


def test_a_proximity_placement_group_in_one_zone_gets_no_advisory(arm: FakeArm) -> None:
    one = {"resourceGroupName": RG, "proximityPlacementGroupName": "one", "zones": ["1"]}
    arm.put(PPG, "one", one, "one")
    assert arm.advisories == []

    arm.put(PPG, "two", {**one, "proximityPlacementGroupName": "two", "zones": ["1", "2"]}, "two")
    assert len(arm.advisories) == 1 and "Proximity placement group 'two'" in arm.advisories[0]


# --- scale sets ---------------------------------------------------------------------------------------

# Learn, "Placement groups" (virtual-machine-scale-sets-placement-groups, observed 2026-11-27): a scale set in
# one placement group holds at most 100 VMs; a large scale set (singlePlacementGroup false) up to 1,000.
SINGLE_GROUP_MOST = 100


def test_a_uniform_scale_set_in_one_placement_group_holds_exactly_100_vms(arm: FakeArm) -> None:
    scale_set(arm, "full", capacity=SINGLE_GROUP_MOST)

    error = arm_refusal(lambda: scale_set(arm, "over", capacity=SINGLE_GROUP_MOST + 1))
    assert error.code == "InvalidParameter"
    assert error.message == (
        "Scale set 'over' asks for 101 VMs, but a scale set with singlePlacementGroup true holds at most 100."
    )


@pytest.mark.parametrize(
    "props",
    [{"orchestrationMode": "Uniform", "singlePlacementGroup": False}, {"orchestrationMode": "Flexible"}],
    ids=["uniform-large", "flexible"],
)
def test_a_scale_set_outside_one_placement_group_holds_more_than_100_vms(arm: FakeArm, props: dict[str, Any]) -> None:
    # Flexible orchestration spreads VMs over fault domains, not one placement group (Learn, "Orchestration
    # modes for Virtual Machine Scale Sets", virtual-machine-scale-sets-orchestration-modes, observed 2026-11-27)
    outputs = scale_set(arm, capacity=300, **props)
    assert len(outputs["instances"]) == 300


def test_an_image_given_as_a_urn_string_is_refused_naming_what_is_allowed(arm: FakeArm) -> None:
    # `az vm create --image` takes publisher:offer:sku:version; ARM's imageReference is an object of those names
    urn = "Canonical:0001-com-ubuntu-server-jammy:22_04-lts-gen2:latest"
    body = {
        "resourceGroupName": RG,
        "vmScaleSetName": "vmss",
        "sku": {"name": "Standard_NC4as_T4_v3", "capacity": 1},
        "virtualMachineProfile": {
            "osProfile": {"computerNamePrefix": "node", "adminUsername": "azureuser", "linuxConfiguration": LINUX},
            "storageProfile": {"imageReference": urn},
        },
    }

    error = arm_refusal(lambda: arm.put(VMSS, "vmss", body, "vmss"))

    assert (error.code, error.message) == (
        "InvalidParameter",
        "Scale set 'vmss': the value of parameter imageReference is invalid ([]); allowed: publisher, offer, sku and "
        "version of a marketplace image, or exactly one of id, sharedGalleryImageId, communityGalleryImageId.",
    )


def test_a_scale_set_created_without_a_capacity_lists_no_instances(arm: FakeArm) -> None:
    assert scale_set(arm, capacity=None, orchestrationMode="Flexible")["instances"] == []


def test_a_scale_sets_read_only_properties_are_answered(arm: FakeArm) -> None:
    outputs = scale_set(arm)

    assert read_only("VirtualMachineScaleSetProperties") == {"provisioningState", "timeCreated", "uniqueId"}
    assert outputs["provisioningState"] == "Succeeded"
    assert outputs["timeCreated"] == arm.now.isoformat()
    assert outputs["uniqueId"]


def test_a_scale_set_with_a_system_assigned_identity_answers_its_principal(arm: FakeArm) -> None:
    identity = scale_set(arm, identity={"type": "SystemAssigned"})["identity"]

    assert identity["type"] == "SystemAssigned"
    assert identity["tenantId"] == arm.tenant_id and identity["principalId"]


# Learn, "Understand names and instance IDs for Azure Virtual Machine Scale Set VMs"
# (virtual-machine-scale-sets-instance-ids, observed 2026-11-27): a Uniform scale set's VM is named
# {scale-set-name}_{instance-id}; its computer name is {computer-name-prefix}{base-36-instance-id}, six digits
# padded with zeros ("nsgvmss" and instance ID 85: "nsgvmss00002D").


def test_a_uniform_scale_sets_instances_are_named_after_the_scale_set(arm: FakeArm) -> None:
    instances = scale_set(arm, "gpu", capacity=3)["instances"]

    assert [(i["instanceId"], i["name"]) for i in instances] == [("0", "gpu_0"), ("1", "gpu_1"), ("2", "gpu_2")]


def test_a_scale_sets_computer_names_count_in_base_36(arm: FakeArm) -> None:
    names = [i["computerName"] for i in scale_set(arm, capacity=37)["instances"]]

    assert names[:2] == ["node000000", "node000001"]
    assert names[36] == "node000010"  # instance 36 is "10" in base 36


def test_a_scale_sets_computer_names_use_upper_case_base_36_letters(arm: FakeArm) -> None:
    names = [i["computerName"] for i in scale_set(arm, capacity=86)["instances"]]

    assert names[85] == "node00002D"


# --- extensions ---------------------------------------------------------------------------------------

NVIDIA = {"publisher": "Microsoft.HpcCompute", "type": "NvidiaGpuDriverLinux", "typeHandlerVersion": "1.6"}


def test_an_extension_is_answered_succeeded_without_an_advisory(arm: FakeArm) -> None:
    machine(arm)
    outputs = extension(arm, **NVIDIA)

    assert read_only("VirtualMachineExtensionProperties") == {"provisioningState"}
    assert outputs["provisioningState"] == "Succeeded"
    assert arm.advisories == []


@pytest.mark.parametrize("missing", ["publisher", "type", "typeHandlerVersion"])
def test_an_extension_without_a_publisher_type_or_version_is_an_advisory(arm: FakeArm, missing: str) -> None:
    machine(arm)
    extension(arm, **{k: v for k, v in NVIDIA.items() if k != missing})

    assert arm.advisories == [
        f"Extension 'ext': has no {missing}, which the spec marks optional (no public source for Azure's refusal: "
        "an advisory)"
    ]


def test_the_infiniband_driver_on_ubuntu_22_04_fails_naming_the_machine(arm: FakeArm) -> None:
    # Azure/azhpc-extensions: InfiniBandDriverLinux installs on Ubuntu 16.04, 18.04 and 20.04 only
    machine(
        arm,
        {
            "publisher": "Canonical",
            "offer": "0001-com-ubuntu-server-jammy",
            "sku": "22_04-lts-gen2",
            "version": "latest",
        },
    )
    error = arm_refusal(
        lambda: extension(arm, publisher="Microsoft.HpcCompute", type="InfiniBandDriverLinux", typeHandlerVersion="1.2")
    )

    assert error.code == "VMExtensionProvisioningError"
    assert error.message.startswith(
        "Virtual machine 'vm': VM has reported a failure when processing extension 'InfiniBandDriverLinux': the "
        "InfiniBand driver extension supports Ubuntu 16.04, 18.04 and 20.04, not 22.04 (22_04-lts-gen2)."
    )


def test_a_driver_extension_on_a_vm_whose_network_interface_is_in_another_subscription_is_accepted(
    arm: FakeArm,
) -> None:
    # the fake takes a reference into another subscription as an existing resource it cannot see
    elsewhere = (
        "/subscriptions/11111111-1111-1111-1111-111111111111/resourceGroups/hub/providers/Microsoft.Network/"
        "networkInterfaces/nic"
    )
    machine(arm, nic_id=elsewhere)

    assert extension(arm, **NVIDIA)["provisioningState"] == "Succeeded"
