"""Microsoft.Compute: virtual machines, their extensions, proximity placement groups and scale sets."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ...catalog.limits import LIMITS
from ...catalog.shapes import VMSS
from ...sdk.values import dig, stable_uuid
from ..core import (
    ArmResourceType,
    Resource,
    advise,
    check_ssh_only,
    location_of,
    system_identity,
)
from ..errors import InvalidParameter
from .compute_profile import check_extension, check_machine

if TYPE_CHECKING:
    from ..core import Arm


class VirtualMachine(ArmResourceType):
    token = "azure-native:compute:VirtualMachine"
    arm_type = "Microsoft.Compute/virtualMachines"
    name_input = "vmName"

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        for nic in dig(props, "networkProfile", "networkInterfaces") or []:
            arm.require(dig(nic, "id"), "networkProfile.networkInterfaces[].id")
        check_ssh_only(dig(props, "osProfile", "linuxConfiguration") or {}, "osProfile.linuxConfiguration")
        nics = [arm.find(str(dig(n, "id") or "")) for n in dig(props, "networkProfile", "networkInterfaces") or []]
        accelerated = any(n is not None and n.properties.get("enableAcceleratedNetworking") for n in nics)
        image = dig(props, "storageProfile", "imageReference")
        check_machine(
            arm,
            f"Virtual machine '{name}'",
            dig(props, "hardwareProfile", "vmSize"),
            image,
            accelerated,
            dig(props, "securityProfile", "securityType"),
        )

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        return {"vmId": stable_uuid(res.id, "vmId"), "provisioningState": "Succeeded", **system_identity(arm, res)}


class ProximityPlacementGroup(ArmResourceType):
    """A proximity placement group: VMs and scale sets in it are placed close together (one zone at most)."""

    token = "azure-native:compute:ProximityPlacementGroup"
    arm_type = "Microsoft.Compute/proximityPlacementGroups"
    name_input = "proximityPlacementGroupName"

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        zones = props.get("zones") or []
        if len(zones) > 1:
            advise(arm, f"Proximity placement group '{name}'", f"lists zones {zones}; a group is meant for one zone")

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        return {
            "proximityPlacementGroupType": res.properties.get("proximityPlacementGroupType") or "Standard",
            "virtualMachines": [],
            "virtualMachineScaleSets": [],
            "availabilitySets": [],
        }


# Image references ARM accepts: a marketplace image by all four names, or an image by one id.
MARKETPLACE_IMAGE_KEYS = frozenset({"publisher", "offer", "sku", "version"})
IMAGE_ID_KEYS = ("id", "sharedGalleryImageId", "communityGalleryImageId")


class VirtualMachineScaleSet(ArmResourceType):
    """A VM scale set; the fake knows Uniform orchestration, placement groups and capacity."""

    token = VMSS
    arm_type = "Microsoft.Compute/virtualMachineScaleSets"
    name_input = "vmScaleSetName"
    autoname_max = 64
    single_placement_group_limit: ClassVar[int] = LIMITS.node_counts.single_placement_group_max

    @staticmethod
    def capacity(props: dict[str, Any]) -> int:
        return int(dig(props, "sku", "capacity") or 0)

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        capacity = self.capacity(props)
        uniform = props.get("orchestrationMode") in (None, "Uniform")
        # Uniform scale sets default to a single placement group.
        single = props.get("singlePlacementGroup") is not False and uniform
        if single and capacity > self.single_placement_group_limit:
            raise InvalidParameter(
                f"Scale set '{name}' asks for {capacity} VMs, but a scale set with singlePlacementGroup true "
                f"holds at most {self.single_placement_group_limit}."
            )
        ppg_id = dig(props, "proximityPlacementGroup", "id")
        if ppg_id is not None:
            ppg = arm.require(ppg_id, "proximityPlacementGroup.id")
            here = location_of(arm, props)
            if ppg is not None and ppg.location and here and ppg.location != here:
                raise InvalidParameter(
                    f"Scale set '{name}' in '{here}' cannot use proximity placement group '{ppg.name}', which is "
                    f"in '{ppg.location}'; a proximity placement group must be in the same region."
                )
        profile = props.get("virtualMachineProfile") or {}
        self._check_image(name, dig(profile, "storageProfile", "imageReference"))
        for nic in dig(profile, "networkProfile", "networkInterfaceConfigurations") or []:
            for ip in nic.get("ipConfigurations") or []:
                arm.require(dig(ip, "subnet", "id"), "networkInterfaceConfigurations[].ipConfigurations[].subnet.id")
        check_ssh_only(
            dig(profile, "osProfile", "linuxConfiguration") or {}, "virtualMachineProfile.osProfile.linuxConfiguration"
        )
        # osProfile.customData (base64, at most 65535 bytes): a rule of `fakeazure.prose`, for VMs and scale sets
        nic_configs = dig(profile, "networkProfile", "networkInterfaceConfigurations") or []
        image = dig(profile, "storageProfile", "imageReference")
        accelerated = any(c.get("enableAcceleratedNetworking") for c in nic_configs)
        check_machine(
            arm,
            f"Scale set '{name}'",
            dig(props, "sku", "name"),
            image,
            accelerated,
            dig(profile, "securityProfile", "securityType"),
        )
        subnets = [
            (dig(ip, "subnet", "id"), ip.get("publicIPAddressConfiguration"))
            for c in nic_configs
            for ip in c.get("ipConfigurations") or []
        ]
        for extension in dig(profile, "extensionProfile", "extensions") or []:
            check_extension(arm, f"Scale set '{name}'", extension.get("type"), image, subnets)

    @staticmethod
    def _check_image(name: str, image: Any) -> None:
        if image is None:
            return
        keys = set(image) if isinstance(image, dict) else set()
        by_id = [k for k in IMAGE_ID_KEYS if k in keys]
        marketplace = keys & MARKETPLACE_IMAGE_KEYS
        if (len(by_id) == 1 and not marketplace) or (not by_id and marketplace == MARKETPLACE_IMAGE_KEYS):
            return
        raise InvalidParameter(
            f"Scale set '{name}': the value of parameter imageReference is invalid ({sorted(keys)}); allowed: "
            "publisher, offer, sku and version of a marketplace image, or exactly one of id, "
            "sharedGalleryImageId, communityGalleryImageId."
        )

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        prefix = dig(res.properties, "virtualMachineProfile", "osProfile", "computerNamePrefix") or res.name
        instances = [
            {
                "instanceId": str(i),
                "name": f"{res.name}_{i}",
                "id": f"{res.id}/virtualMachines/{i}",
                "computerName": f"{prefix}{_base36(i).rjust(6, '0')}",
            }
            for i in range(self.capacity(res.properties))
        ]
        return {
            "uniqueId": stable_uuid(res.id, "uniqueId"),
            "provisioningState": "Succeeded",
            "timeCreated": arm.now.isoformat(),
            "instances": instances,  # not on the ARM resource: what `az vmss list-instances` would list
            **system_identity(arm, res),
        }


def _base36(number: int) -> str:
    """Azure's base-36 instance number in a computer name, letters in upper case ("nsgvmss" and instance 85:
    "nsgvmss00002D", learn.microsoft.com virtual-machine-scale-sets-instance-ids, observed 2026-11-27)."""
    digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if number == 0:
            return out


class VirtualMachineExtension(ArmResourceType):
    token = "azure-native:compute:VirtualMachineExtension"
    arm_type = "Microsoft.Compute/virtualMachines/extensions"
    name_input = "vmExtensionName"
    parent_inputs = ("vmName",)

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        for key in ("publisher", "type", "typeHandlerVersion"):
            if not props.get(key):
                advise(arm, f"Extension '{name}'", f"has no {key}, which the spec marks optional")
        vm = arm.parent_of(self, props)
        subnets = []
        for ref in dig(vm.properties, "networkProfile", "networkInterfaces") or []:
            nic = arm.find(str(dig(ref, "id") or ""))
            for ip in (nic.properties.get("ipConfigurations") or []) if nic is not None else []:
                subnets.append((dig(ip, "subnet", "id"), dig(ip, "publicIPAddress", "id")))
        image = dig(vm.properties, "storageProfile", "imageReference")
        check_extension(arm, f"Virtual machine '{vm.name}'", props.get("type"), image, subnets)

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        return {"provisioningState": "Succeeded"}


TYPES: tuple[ArmResourceType, ...] = (
    VirtualMachine(),
    VirtualMachineExtension(),
    ProximityPlacementGroup(),
    VirtualMachineScaleSet(),
)
