"""What the fake's compute profile checks (fakeazure/models/compute_profile.py) refuse and let through, as a program
sees them on a scale set: the image's Hyper-V generation against the size, Trusted Launch and accelerated networking
by size, and the driver extensions against the machine's way out and its Ubuntu release. In-process against
`FakeArm.put`, one fake per test; each scale set changes one thing from one the fake accepts.

The size facts come from catalog/vm_sizes.yaml as written (`catalog_size`), whose entries cite their Learn pages;
image names are Canonical's and Microsoft's marketplace names (Learn, "Support for generation 2 VMs on Azure": Gen2
images are SKUs of their own; Ubuntu 24.04's Gen1 SKU is `Canonical:ubuntu-24_04-lts:server-gen1`, as public
deployment scripts name it when a size refuses the Gen2 `server`, code corpus, observed 2026-11-27)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from azure_gpu_stacks.fakeazure import FakeArm

from tests.conftest import arm_refusal
from tests.fakeazure.test_compute_scale_set_profile import (  # the group, network and extensions both files build on
    INFINIBAND_DRIVER,
    NVIDIA_DRIVER,
    RG,
    SSH_ONLY,
    T4,
    UBUNTU_2204_GEN2,
    VMSS,
    group_with_subnets,
    subnet_id,
)
from tests.policy_helpers import catalog_size

A100 = "Standard_NC24ads_A100_v4"  # boots Gen2 only
FPGA = "Standard_NP10s"  # boots Gen1 only
UBUNTU_2404_GEN1 = {"publisher": "Canonical", "offer": "ubuntu-24_04-lts", "sku": "server-gen1", "version": "latest"}
UBUNTU_2404_GEN2 = {**UBUNTU_2404_GEN1, "sku": "server"}
# The Azure HPC image: Gen2 only (Azure/azhpc-images, and Learn's "Azure HPC VM images")
HPC_IMAGE = {"publisher": "microsoft-dsvm", "offer": "ubuntu-hpc", "sku": "2204", "version": "latest"}


@pytest.fixture
def arm() -> FakeArm:
    return group_with_subnets()


def nic(arm: FakeArm, subnet: str, index: int = 0) -> dict[str, Any]:
    return {"name": f"nic{index}", "ipConfigurations": [{"name": "ip", "subnet": {"id": subnet_id(arm, subnet)}}]}


def scale_set(
    arm: FakeArm,
    size: str = T4,
    image: dict[str, Any] = UBUNTU_2204_GEN2,
    subnets: tuple[str, ...] = ("open",),
    name: str = "vmss",
    **profile: Any,
) -> dict[str, Any]:
    """A one-VM scale set of `size` on `image`, a NIC on each of `subnets`; `profile` adds to its VM profile."""
    body = {
        "resourceGroupName": RG,
        "vmScaleSetName": name,
        "sku": {"name": size, "capacity": 1},
        "virtualMachineProfile": {
            "osProfile": {"computerNamePrefix": "node", "adminUsername": "azureuser", "linuxConfiguration": SSH_ONLY},
            "storageProfile": {"imageReference": image},
            "networkProfile": {"networkInterfaceConfigurations": [nic(arm, s, i) for i, s in enumerate(subnets)]},
            **profile,
        },
    }
    return arm.put(VMSS, name, copy.deepcopy(body), name).outputs


def refusal(put: Any) -> tuple[str, str]:
    error = arm_refusal(put)
    return error.code, error.message


# --- the image's Hyper-V generation -------------------------------------------------------------------


def test_a_gen2_image_on_a_size_that_boots_gen1_only_is_refused_naming_the_generations(arm: FakeArm) -> None:
    assert catalog_size(FPGA)["hypervGenerations"] == ["V1"]

    assert refusal(lambda: scale_set(arm, FPGA, UBUNTU_2204_GEN2)) == (
        "BadRequest",
        f"Scale set 'vmss': the selected VM size '{FPGA}' cannot boot Hypervisor Generation '2'. Please check that "
        "the Hypervisor Generation of the Image matches the Hypervisor Generation of the selected VM Size (Gen1).",
    )


def test_the_azure_hpc_image_is_gen2_whatever_its_sku_says(arm: FakeArm) -> None:
    code, message = refusal(lambda: scale_set(arm, FPGA, HPC_IMAGE))

    assert code == "BadRequest" and "cannot boot Hypervisor Generation '2'" in message
    assert scale_set(arm, A100, HPC_IMAGE, name="vmss2")["provisioningState"] == "Succeeded"


def test_ubuntu_24_04s_gen1_sku_on_a_size_that_boots_gen2_only_is_refused(arm: FakeArm) -> None:
    assert catalog_size(A100)["hypervGenerations"] == ["V2"]

    assert refusal(lambda: scale_set(arm, A100, UBUNTU_2404_GEN1)) == (
        "BadRequest",
        f"Scale set 'vmss': the selected VM size '{A100}' cannot boot Hypervisor Generation '1'. Please check that "
        "the Hypervisor Generation of the Image matches the Hypervisor Generation of the selected VM Size (Gen2).",
    )


def test_canonicals_images_without_gen1_in_their_sku_are_not_taken_for_gen1(arm: FakeArm) -> None:
    # only Canonical's `NN_NN-lts` SKUs (22_04-lts, 20_04-lts) are Gen1 without saying so; 24.04's `server` is Gen2
    assert scale_set(arm, A100, UBUNTU_2404_GEN2)["provisioningState"] == "Succeeded"


def test_an_image_whose_generation_its_name_does_not_tell_is_not_judged(arm: FakeArm) -> None:
    gallery = {
        "id": f"/subscriptions/{arm.subscription_id}/resourceGroups/{RG}/providers/Microsoft.Compute/galleries/g/"
        "images/gpu/versions/1.0.0"
    }
    other = {"publisher": "Contoso", "offer": "gpu-base", "sku": "22_04-lts", "version": "latest"}

    assert scale_set(arm, FPGA, gallery)["provisioningState"] == "Succeeded"
    assert scale_set(arm, A100, other, name="vmss2")["provisioningState"] == "Succeeded"


# --- Trusted Launch and accelerated networking by size -------------------------------------------------


def test_trusted_launch_spelled_in_any_case_on_a_size_without_it_is_refused_in_arms_words(arm: FakeArm) -> None:
    size = "Standard_ND96asr_v4"
    assert catalog_size(size)["trustedLaunch"] is False

    assert refusal(lambda: scale_set(arm, size, securityProfile={"securityType": "trustedlaunch"})) == (
        "BadRequest",
        f"Scale set 'vmss': The VM size '{size}' is not supported for creation of VMs and Virtual Machine Scale Set "
        "with 'TrustedLaunch' security type. For more information, see https://aka.ms/TrustedLaunch-FAQ",
    )


def test_trusted_launch_on_a_size_with_it_or_not_known_to_lack_it_is_accepted(arm: FakeArm) -> None:
    # T4 supports it; the catalog does not record it for Standard_B2s, and an unknown is never a refusal
    assert catalog_size(T4)["trustedLaunch"] is True and catalog_size("Standard_B2s").get("trustedLaunch") is None
    trusted = {"securityProfile": {"securityType": "TrustedLaunch"}}

    assert scale_set(arm, T4, **trusted)["provisioningState"] == "Succeeded"
    assert scale_set(arm, "Standard_B2s", name="vmss2", **trusted)["provisioningState"] == "Succeeded"


def test_accelerated_networking_on_a_size_with_it_is_accepted(arm: FakeArm) -> None:
    assert catalog_size(T4)["acceleratedNetworking"] is True
    accelerated = {**nic(arm, "open"), "enableAcceleratedNetworking": True}

    outputs = scale_set(arm, T4, networkProfile={"networkInterfaceConfigurations": [accelerated]})

    assert outputs["provisioningState"] == "Succeeded"


# --- the driver extensions -----------------------------------------------------------------------------


def test_the_windows_nvidia_driver_needs_a_way_out_too(arm: FakeArm) -> None:
    # Learn, hpccompute-gpu-windows: the extension downloads the driver from the internet, as the Linux one does
    windows = {**NVIDIA_DRIVER, "type": "NvidiaGpuDriverWindows"}

    assert refusal(lambda: scale_set(arm, subnets=("closed",), extensionProfile={"extensions": [windows]})) == (
        "VMExtensionProvisioningError",
        "Scale set 'vmss': VM has reported a failure when processing extension 'NvidiaGpuDriverWindows': the NVIDIA "
        "driver is downloaded from the internet, and the machine's subnet has no outbound path (no NAT gateway, "
        "defaultOutboundAccess false, no public IP). Give the subnet a NAT gateway.",
    )


def test_the_nvidia_driver_fails_only_when_no_network_interface_has_a_way_out(arm: FakeArm) -> None:
    driver = {"extensionProfile": {"extensions": [NVIDIA_DRIVER]}}

    assert scale_set(arm, subnets=("closed", "open"), **driver)["provisioningState"] == "Succeeded"
    code, _ = refusal(lambda: scale_set(arm, subnets=("closed", "closed"), name="vmss2", **driver))
    assert code == "VMExtensionProvisioningError"


@pytest.mark.parametrize(
    "image",
    [
        {"publisher": "Canonical", "offer": "0001-com-ubuntu-server-focal", "sku": "20_04-lts-gen2"},
        {"publisher": "Canonical", "offer": "UbuntuServer", "sku": "18.04-LTS"},
        {"publisher": "Canonical", "offer": "UbuntuServer", "sku": "16.04-LTS"},
    ],
    ids=["20.04", "18.04", "16.04"],
)
def test_the_infiniband_driver_installs_on_the_ubuntu_releases_it_supports(arm: FakeArm, image: dict[str, Any]) -> None:
    # Learn, "InfiniBand Driver Extension for Linux": Ubuntu 16.04, 18.04 and 20.04 LTS
    ib = {"extensionProfile": {"extensions": [INFINIBAND_DRIVER]}}

    assert scale_set(arm, T4, {**image, "version": "latest"}, **ib)["provisioningState"] == "Succeeded"


def test_the_infiniband_driver_on_ubuntu_22_04_fails_pointing_at_the_hpc_image(arm: FakeArm) -> None:
    ib = {"extensionProfile": {"extensions": [INFINIBAND_DRIVER]}}

    assert refusal(lambda: scale_set(arm, T4, UBUNTU_2204_GEN2, **ib)) == (
        "VMExtensionProvisioningError",
        "Scale set 'vmss': VM has reported a failure when processing extension 'InfiniBandDriverLinux': the "
        "InfiniBand driver extension supports Ubuntu 16.04, 18.04 and 20.04, not 22.04 (22_04-lts-gen2). Use the "
        "Azure HPC image (microsoft-dsvm:ubuntu-hpc), which carries the InfiniBand driver.",
    )
