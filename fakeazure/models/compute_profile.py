"""What Compute checks of a machine's profile against its size, shared by VMs and scale sets: the
image's Hyper-V generation, accelerated networking, and the driver extensions' needs.

Sources (observed 2026-11-22): https://learn.microsoft.com/azure/virtual-machines/generation-2
(Gen2 marketplace images are separate SKUs, `-gen2` in Canonical's names; a Gen2-only size refuses
a Gen1 image), https://learn.microsoft.com/azure/virtual-network/accelerated-networking-overview
(`VMSizeIsNotPermittedToEnableAcceleratedNetworking`),
https://learn.microsoft.com/azure/virtual-machines/extensions/hpccompute-gpu-linux (the NVIDIA
driver extension downloads the driver from the internet), and Azure/azhpc-extensions
(`InfiniBandDriverLinux` lists Ubuntu 16.04, 18.04 and 20.04 only).

https://learn.microsoft.com/azure/virtual-machines/trusted-launch (Trusted Launch per size, as the
catalog records it; ARM's words for a size without it are in Azure/azure-cli issue 28005, and its code
`BadRequest` in the same refusal for another security type, "The VM size 'standard_dc2eds_v5' is not
supported for creation of VMs and Virtual Machine Scale Set with '<NULL>' security type").

Not faked: Windows images, images that refuse Trusted Launch, and images by id (their generation is the
gallery image's, which the fake does not hold).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..errors import (
    BadRequest,
    VMExtensionProvisioningError,
    VMSizeIsNotPermittedToEnableAcceleratedNetworking,
)
from .network import outbound_path

if TYPE_CHECKING:
    from ..core import Arm

NVIDIA_DRIVER_TYPES = frozenset({"nvidiagpudriverlinux", "nvidiagpudriverwindows"})
INFINIBAND_DRIVER_TYPE = "infinibanddriverlinux"
# Ubuntu releases the InfiniBand driver extension installs on, as image SKUs spell them.
INFINIBAND_DRIVER_UBUNTU = re.compile(r"^(16[._]04|18[._]04|20[._]04|1604|1804|2004)")
UBUNTU_RELEASE = re.compile(r"^(\d\d)[._]?(\d\d)")


def image_generation(image: Any) -> str | None:
    """V1 or V2 for a marketplace image whose SKU name tells; None when it does not."""
    if not isinstance(image, dict):
        return None
    sku = str(image.get("sku") or "").lower()
    if sku.endswith("gen2") or str(image.get("offer") or "").lower() == "ubuntu-hpc":
        return "V2"  # Azure's HPC images are Gen2 only (azure-hpc-vm-images.md)
    if sku.endswith("gen1") or (
        str(image.get("publisher") or "").lower() == "canonical" and re.fullmatch(r"\d\d_\d\d-lts", sku)
    ):
        return "V1"
    return None


def check_machine(
    arm: Arm, what: str, size_name: Any, image: Any, accelerated: bool, security_type: Any = None
) -> None:
    """The checks of a VM or scale-set profile that depend on its size."""
    size = arm.catalog.find(str(size_name)) if isinstance(size_name, str) else None
    if size is None:
        return
    if str(security_type).lower() == "trustedlaunch" and size.supports_trusted_launch is False:
        raise BadRequest(
            f"{what}: The VM size '{size.name}' is not supported for creation of VMs and Virtual Machine Scale "
            "Set with "
            "'TrustedLaunch' security type. For more information, see https://aka.ms/TrustedLaunch-FAQ"
        )
    generation = image_generation(image)
    if generation is not None and generation not in size.hyperv_generations:
        raise BadRequest(
            f"{what}: the selected VM size '{size.name}' cannot boot Hypervisor Generation '{generation[1]}'. "
            "Please check "
            f"that the Hypervisor Generation of the Image matches the Hypervisor Generation of the selected VM Size "
            f"({', '.join(g.replace('V', 'Gen') for g in size.hyperv_generations)})."
        )
    if accelerated and not size.accelerated_networking:
        raise VMSizeIsNotPermittedToEnableAcceleratedNetworking(
            f"{what}: virtual machine size {size.name} is not in the allowed list of VM sizes for accelerated "
            "networking to be enabled on the network interface."
        )


def check_extension(arm: Arm, what: str, ext_type: Any, image: Any, subnets: list[tuple[Any, Any]]) -> None:
    """A driver extension that would fail on the machine: no way out to its downloads, an OS it does not support.

    `subnets`: (subnet id, public IP or None) of each network interface of the machine.
    """
    kind = str(ext_type or "").lower()
    if kind in NVIDIA_DRIVER_TYPES:
        paths = [outbound_path(arm, subnet, public_ip) for subnet, public_ip in subnets]
        if paths and all(p is False for p in paths):
            raise VMExtensionProvisioningError(
                f"{what}: VM has reported a failure when processing extension '{ext_type}': the NVIDIA driver is "
                "downloaded from the internet, and the machine's subnet has no outbound path (no NAT gateway, "
                "defaultOutboundAccess false, no public IP). Give the subnet a NAT gateway."
            )
    if kind == INFINIBAND_DRIVER_TYPE and isinstance(image, dict):
        sku = str(image.get("sku") or "").lower()
        release = UBUNTU_RELEASE.match(sku)
        if "ubuntu" in str(image.get("offer") or "").lower() and release and not INFINIBAND_DRIVER_UBUNTU.match(sku):
            raise VMExtensionProvisioningError(
                f"{what}: VM has reported a failure when processing extension '{ext_type}': the InfiniBand driver "
                f"extension supports Ubuntu 16.04, 18.04 and 20.04, not {release[1]}.{release[2]} "
                f"({image.get('sku')}). "
                "Use the Azure HPC image (microsoft-dsvm:ubuntu-hpc), which carries the InfiniBand driver."
            )
