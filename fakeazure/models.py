"""One class per ARM resource type the fake knows, with ARM's property names.

Each class says how ARM names and places the resource (its type, the input that carries its name,
the inputs naming its parents), what ARM checks before accepting a PUT, and what it returns
(`provisioningState` and the computed properties programs read).

Not faked: long-running operations (every PUT succeeds at once), updates and deletes (each run
starts from an empty subscription), API-version differences, RBAC, and any property this module
does not read. Resource types without a class here are accepted as they are, with a real-shaped id.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import ipaddress
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from azure_gpu_stacks.fakeazure.errors import Conflict, InvalidParameter

if TYPE_CHECKING:
    from azure_gpu_stacks.fakeazure.backend import FakeArm


def stable_uuid(*parts: str) -> str:
    """A UUID derived from `parts`, so repeated runs give the same ids."""
    return str(uuid.UUID(hashlib.sha256("/".join(parts).encode()).hexdigest()[:32]))


def dig(props: Any, *path: str | int) -> Any:
    """props[path[0]][path[1]]..., or None where the path breaks."""
    for key in path:
        if isinstance(key, int):
            props = props[key] if isinstance(props, list) and -len(props) <= key < len(props) else None
        else:
            props = props.get(key) if isinstance(props, dict) else None
        if props is None:
            return None
    return props


@dataclass(frozen=True)
class VcpuDemand:
    """vCPUs a resource allocates at deployment, for quota."""

    vm_size: str
    count: int
    spot: bool


@dataclass
class Resource:
    """A resource as the fake subscription holds it."""

    id: str
    type: str  # ARM type, e.g. Microsoft.Compute/virtualMachines
    name: str
    resource_group: str | None
    location: str | None
    properties: dict[str, Any]
    failed: bool = False
    outputs: dict[str, Any] = field(default_factory=dict)


class ArmResourceType:
    """An ARM resource type. Subclasses set the class variables and override the hooks."""

    token: ClassVar[str] = ""  # pulumi-azure-native type token
    arm_type: ClassVar[str] = ""  # Namespace/type[/childType]
    name_input: ClassVar[str] = ""  # input holding the resource's own name
    parent_inputs: ClassVar[tuple[str, ...]] = ()  # inputs naming each parent, outermost first
    scoped: ClassVar[bool] = False  # an extension resource placed under the `scope` input
    located: ClassVar[bool] = True  # takes a `location`
    autoname_max: ClassVar[int] = 64

    def vm_sizes(self, props: dict[str, Any]) -> list[tuple[str, str]]:
        """(property path, size) for each VM size the resource asks for."""
        return []

    def vcpu_demand(self, arm: FakeArm, props: dict[str, Any]) -> list[VcpuDemand]:
        return []

    def check(self, arm: FakeArm, name: str, props: dict[str, Any]) -> None:
        """Raise the ArmError ARM would return for this PUT."""

    def computed(self, arm: FakeArm, res: Resource) -> dict[str, Any]:
        """Read-only properties ARM returns."""
        return {}


def _size_at(props: dict[str, Any], *path: str | int) -> list[tuple[str, str]]:
    size = dig(props, *path)
    return [(".".join(str(p) for p in path), size)] if isinstance(size, str) else []


class ResourceGroup(ArmResourceType):
    token = "azure-native:resources:ResourceGroup"
    arm_type = "Microsoft.Resources/resourceGroups"
    name_input = "resourceGroupName"
    autoname_max = 90

    def computed(self, arm: FakeArm, res: Resource) -> dict[str, Any]:
        return {"properties": {"provisioningState": "Succeeded"}}


class VirtualNetwork(ArmResourceType):
    token = "azure-native:network:VirtualNetwork"
    arm_type = "Microsoft.Network/virtualNetworks"
    name_input = "virtualNetworkName"

    def check(self, arm: FakeArm, name: str, props: dict[str, Any]) -> None:
        for prefix in dig(props, "addressSpace", "addressPrefixes") or []:
            _network(prefix, "addressSpace.addressPrefixes")

    def computed(self, arm: FakeArm, res: Resource) -> dict[str, Any]:
        return {"resourceGuid": stable_uuid(res.id, "guid"), "provisioningState": "Succeeded"}


class Subnet(ArmResourceType):
    token = "azure-native:network:Subnet"
    arm_type = "Microsoft.Network/virtualNetworks/subnets"
    name_input = "subnetName"
    parent_inputs = ("virtualNetworkName",)
    located = False

    def check(self, arm: FakeArm, name: str, props: dict[str, Any]) -> None:
        prefix = props.get("addressPrefix")
        if prefix is None:
            raise InvalidParameter(f"Subnet '{name}' needs addressPrefix.")
        subnet = _network(prefix, "addressPrefix")
        vnet = arm.parent_of(self, props)
        spaces = [_network(p, "addressSpace") for p in dig(vnet.properties, "addressSpace", "addressPrefixes") or []]
        if spaces and not any(subnet.subnet_of(space) for space in spaces):  # type: ignore[arg-type]
            raise InvalidParameter(
                f"Subnet '{name}' is not valid because its IP address range {prefix} is outside the "
                f"IP address range of virtual network '{vnet.name}'."
            )

    def computed(self, arm: FakeArm, res: Resource) -> dict[str, Any]:
        return {"provisioningState": "Succeeded"}


class NetworkSecurityGroup(ArmResourceType):
    token = "azure-native:network:NetworkSecurityGroup"
    arm_type = "Microsoft.Network/networkSecurityGroups"
    name_input = "networkSecurityGroupName"

    def check(self, arm: FakeArm, name: str, props: dict[str, Any]) -> None:
        seen: dict[tuple[str, float], str] = {}
        for rule in props.get("securityRules") or []:
            key = (str(rule.get("direction")), float(rule.get("priority") or 0))
            if not 100 <= key[1] <= 4096:
                raise InvalidParameter(f"Security rule '{rule.get('name')}' has priority {key[1]:g}; allowed: 100 to 4096.")
            if key in seen:
                raise InvalidParameter(
                    f"Security rules '{seen[key]}' and '{rule.get('name')}' have the same priority and direction."
                )
            seen[key] = str(rule.get("name"))

    def computed(self, arm: FakeArm, res: Resource) -> dict[str, Any]:
        return {"resourceGuid": stable_uuid(res.id, "guid"), "provisioningState": "Succeeded"}


class PublicIPAddress(ArmResourceType):
    token = "azure-native:network:PublicIPAddress"
    arm_type = "Microsoft.Network/publicIPAddresses"
    name_input = "publicIpAddressName"

    def computed(self, arm: FakeArm, res: Resource) -> dict[str, Any]:
        # TEST-NET-2 (RFC 5737): never a real Azure address.
        return {"ipAddress": arm.next_address("198.51.100.0/24"), "provisioningState": "Succeeded"}


class NetworkInterface(ArmResourceType):
    token = "azure-native:network:NetworkInterface"
    arm_type = "Microsoft.Network/networkInterfaces"
    name_input = "networkInterfaceName"

    def check(self, arm: FakeArm, name: str, props: dict[str, Any]) -> None:
        if not props.get("ipConfigurations"):
            raise InvalidParameter(f"Network interface '{name}' needs at least one IP configuration.")
        if props.get("enableAcceleratedNetworking"):
            arm.accelerated_networking_nics.add(name)

    def computed(self, arm: FakeArm, res: Resource) -> dict[str, Any]:
        configs = []
        for cfg in res.properties.get("ipConfigurations") or []:
            subnet = arm.find(dig(cfg, "subnet", "id") or "")
            prefix = dig(subnet.properties, "addressPrefix") if subnet else None
            address = cfg.get("privateIPAddress") or (arm.next_address(prefix) if prefix else None)
            configs.append({**cfg, "privateIPAddress": address, "provisioningState": "Succeeded"})
        mac = hashlib.sha256(res.id.encode()).hexdigest()[:12].upper()
        return {
            "ipConfigurations": configs,
            "macAddress": "-".join(mac[i : i + 2] for i in range(0, 12, 2)),
            "provisioningState": "Succeeded",
        }


class VirtualMachine(ArmResourceType):
    token = "azure-native:compute:VirtualMachine"
    arm_type = "Microsoft.Compute/virtualMachines"
    name_input = "vmName"

    def vm_sizes(self, props: dict[str, Any]) -> list[tuple[str, str]]:
        return _size_at(props, "hardwareProfile", "vmSize")

    def vcpu_demand(self, arm: FakeArm, props: dict[str, Any]) -> list[VcpuDemand]:
        return [VcpuDemand(size, 1, props.get("priority") in ("Spot", "Low")) for _, size in self.vm_sizes(props)]

    def check(self, arm: FakeArm, name: str, props: dict[str, Any]) -> None:
        for nic in dig(props, "networkProfile", "networkInterfaces") or []:
            arm.require(dig(nic, "id"), "networkProfile.networkInterfaces[].id")
        linux = dig(props, "osProfile", "linuxConfiguration") or {}
        if linux.get("disablePasswordAuthentication") and not dig(linux, "ssh", "publicKeys"):
            raise InvalidParameter(
                "Linux VMs with password authentication disabled need at least one SSH public key "
                "(osProfile.linuxConfiguration.ssh.publicKeys)."
            )
        if props.get("priority") == "Spot" and props.get("evictionPolicy") not in (None, "Deallocate", "Delete"):
            raise InvalidParameter(f"evictionPolicy {props.get('evictionPolicy')!r}; allowed: Deallocate, Delete.")

    def computed(self, arm: FakeArm, res: Resource) -> dict[str, Any]:
        out: dict[str, Any] = {"vmId": stable_uuid(res.id, "vmId"), "provisioningState": "Succeeded"}
        identity = res.properties.get("identity")
        if isinstance(identity, dict) and "SystemAssigned" in str(identity.get("type", "")):
            out["identity"] = {
                **identity,
                "principalId": stable_uuid(res.id, "principal"),
                "tenantId": arm.tenant_id,
            }
        return out


def _location_of(arm: FakeArm, props: dict[str, Any]) -> str | None:
    """Where a resource lands: its `location`, else its resource group's (as azure-native defaults it)."""
    location = props.get("location")
    if location is None and props.get("resourceGroupName") is not None:
        group = arm.find(f"/subscriptions/{arm.subscription_id}/resourceGroups/{props['resourceGroupName']}")
        location = group.location if group is not None else None
    return str(location).replace(" ", "").lower() if location is not None else None


def _check_ssh_only(linux: dict[str, Any], path: str) -> None:
    if linux.get("disablePasswordAuthentication") and not dig(linux, "ssh", "publicKeys"):
        raise InvalidParameter(
            f"Linux VMs with password authentication disabled need at least one SSH public key ({path}.ssh.publicKeys)."
        )


class ProximityPlacementGroup(ArmResourceType):
    """A proximity placement group: VMs and scale sets in it are placed close together (one zone at most)."""

    token = "azure-native:compute:ProximityPlacementGroup"
    arm_type = "Microsoft.Compute/proximityPlacementGroups"
    name_input = "proximityPlacementGroupName"

    def vm_sizes(self, props: dict[str, Any]) -> list[tuple[str, str]]:
        sizes = dig(props, "intent", "vmSizes") or []
        return [(f"intent.vmSizes[{i}]", s) for i, s in enumerate(sizes) if isinstance(s, str)]

    def check(self, arm: FakeArm, name: str, props: dict[str, Any]) -> None:
        zones = props.get("zones") or []
        if len(zones) > 1:
            raise InvalidParameter(
                f"Proximity placement group '{name}' lists zones {zones}; a proximity placement group can be "
                "pinned to at most one zone."
            )

    def computed(self, arm: FakeArm, res: Resource) -> dict[str, Any]:
        return {
            "proximityPlacementGroupType": res.properties.get("proximityPlacementGroupType") or "Standard",
            "virtualMachines": [],
            "virtualMachineScaleSets": [],
            "availabilitySets": [],
        }


# Image references ARM accepts: a marketplace image by all four names, or an image by one id.
MARKETPLACE_IMAGE_KEYS = frozenset({"publisher", "offer", "sku", "version"})
IMAGE_ID_KEYS = ("id", "sharedGalleryImageId", "communityGalleryImageId")
# osProfile.customData: at most 65535 bytes once decoded (Azure's limit for custom data).
MAX_CUSTOM_DATA_BYTES = 65535


class VirtualMachineScaleSet(ArmResourceType):
    """A VM scale set; the fake knows Uniform orchestration, placement groups and capacity."""

    token = "azure-native:compute:VirtualMachineScaleSet"
    arm_type = "Microsoft.Compute/virtualMachineScaleSets"
    name_input = "vmScaleSetName"
    autoname_max = 64
    # A single placement group holds at most 100 VMs unless Azure support raises it
    # (https://learn.microsoft.com/azure/virtual-machines/setup-infiniband, observed 2026-11-22).
    single_placement_group_limit: ClassVar[int] = 100

    def vm_sizes(self, props: dict[str, Any]) -> list[tuple[str, str]]:
        return _size_at(props, "sku", "name")

    @staticmethod
    def capacity(props: dict[str, Any]) -> int:
        return int(dig(props, "sku", "capacity") or 0)

    def vcpu_demand(self, arm: FakeArm, props: dict[str, Any]) -> list[VcpuDemand]:
        spot = dig(props, "virtualMachineProfile", "priority") in ("Spot", "Low")
        return [VcpuDemand(size, self.capacity(props), spot) for _, size in self.vm_sizes(props)]

    def check(self, arm: FakeArm, name: str, props: dict[str, Any]) -> None:
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
            here = _location_of(arm, props)
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
        _check_ssh_only(dig(profile, "osProfile", "linuxConfiguration") or {}, "virtualMachineProfile.osProfile.linuxConfiguration")
        self._check_custom_data(name, dig(profile, "osProfile", "customData"))
        if profile.get("priority") == "Spot" and profile.get("evictionPolicy") not in (None, "Deallocate", "Delete"):
            raise InvalidParameter(f"evictionPolicy {profile.get('evictionPolicy')!r}; allowed: Deallocate, Delete.")

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

    @staticmethod
    def _check_custom_data(name: str, data: Any) -> None:
        if data is None:
            return
        try:
            decoded = base64.b64decode(str(data), validate=True)
        except ValueError:
            raise InvalidParameter(f"Scale set '{name}': osProfile.customData is not base64.") from None
        if len(decoded) > MAX_CUSTOM_DATA_BYTES:
            raise InvalidParameter(
                f"Scale set '{name}': osProfile.customData is {len(decoded)} bytes; at most {MAX_CUSTOM_DATA_BYTES}."
            )

    def computed(self, arm: FakeArm, res: Resource) -> dict[str, Any]:
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
        }


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
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

    def check(self, arm: FakeArm, name: str, props: dict[str, Any]) -> None:
        for key in ("publisher", "type", "typeHandlerVersion"):
            if not props.get(key):
                raise InvalidParameter(f"Extension '{name}' needs {key}.")

    def computed(self, arm: FakeArm, res: Resource) -> dict[str, Any]:
        return {"provisioningState": "Succeeded"}


class GlobalSchedule(ArmResourceType):
    """A DevTest Labs schedule outside a lab: the VM auto-shutdown of the portal."""

    token = "azure-native:devtestlab:GlobalSchedule"
    arm_type = "Microsoft.DevTestLab/schedules"
    name_input = "name"

    def check(self, arm: FakeArm, name: str, props: dict[str, Any]) -> None:
        target = arm.require(props.get("targetResourceId"), "targetResourceId")
        if props.get("taskType") == "ComputeVmShutdownTask" and target is not None:
            expected = f"shutdown-computevm-{target.name}"
            if name != expected:
                raise InvalidParameter(f"The schedule for VM '{target.name}' must be named '{expected}', not '{name}'.")
        time = dig(props, "dailyRecurrence", "time")
        if time is not None and not (len(time) == 4 and time.isdigit() and int(time[:2]) < 24 and int(time[2:]) < 60):
            raise InvalidParameter(f"dailyRecurrence.time {time!r} is not a time of day as HHmm (e.g. 1900).")

    def computed(self, arm: FakeArm, res: Resource) -> dict[str, Any]:
        return {"provisioningState": "Succeeded", "createdDate": arm.now.isoformat()}


class ActionGroup(ArmResourceType):
    token = "azure-native:monitor:ActionGroup"
    arm_type = "Microsoft.Insights/actionGroups"
    name_input = "actionGroupName"

    def check(self, arm: FakeArm, name: str, props: dict[str, Any]) -> None:
        short = props.get("groupShortName") or ""
        if not 1 <= len(short) <= 12:
            raise InvalidParameter(f"groupShortName {short!r} must be 1 to 12 characters.")


class Budget(ArmResourceType):
    """A consumption budget, an extension resource under `scope`."""

    token = "azure-native:consumption:Budget"
    arm_type = "Microsoft.Consumption/budgets"
    name_input = "budgetName"
    scoped = True
    located = False
    max_notifications: ClassVar[int] = 5

    def check(self, arm: FakeArm, name: str, props: dict[str, Any]) -> None:
        arm.require(props.get("scope"), "scope")
        if not (props.get("amount") or 0) > 0:
            raise InvalidParameter(f"Budget '{name}': amount must be greater than 0, got {props.get('amount')!r}.")
        start = dig(props, "timePeriod", "startDate") or ""
        try:
            day = dt.date.fromisoformat(str(start)[:10])
        except ValueError:
            raise InvalidParameter(f"Budget '{name}': timePeriod.startDate {start!r} is not a date.") from None
        if day.day != 1:
            raise InvalidParameter(f"Budget '{name}': the start date must be the first day of a month, got {day}.")
        notifications = props.get("notifications") or {}
        if len(notifications) > self.max_notifications:
            raise InvalidParameter(f"Budget '{name}' has {len(notifications)} notifications; at most 5 are allowed.")
        for key, n in notifications.items():
            threshold = n.get("threshold")
            if not isinstance(threshold, (int, float)) or not 0 < threshold <= 1000:
                raise InvalidParameter(f"Budget notification '{key}': threshold {threshold!r}; allowed: 0 to 1000 percent.")
            if not (n.get("contactEmails") or n.get("contactGroups")):
                raise InvalidParameter(
                    f"Budget notification '{key}' needs at least one contact email or contact group."
                )

    def computed(self, arm: FakeArm, res: Resource) -> dict[str, Any]:
        return {"currentSpend": {"amount": 0.0, "unit": "USD"}, "eTag": stable_uuid(res.id, "etag")}


# --- AKS ------------------------------------------------------------------------------------

AKS_MAX_NODES = 1000  # ARM's bound on count, minCount and maxCount
AKS_POOL_NAME_MAX = 12  # Linux pools
AKS_MIG_PROFILES = ("MIG1g", "MIG2g", "MIG3g", "MIG4g", "MIG7g")


def _check_agent_pool(arm: FakeArm, name: str, pool: dict[str, Any], where: str) -> None:
    """What AKS checks on one agent pool, inline in a cluster or on its own."""
    if not (name[:1].isalpha() and name.isalnum() and name == name.lower() and len(name) <= AKS_POOL_NAME_MAX):
        raise InvalidParameter(
            f"{where}: agent pool name '{name}' must be 1 to {AKS_POOL_NAME_MAX} lower-case letters and digits, "
            "starting with a letter."
        )
    system = pool.get("mode") == "System"
    if system and pool.get("scaleSetPriority") == "Spot":
        raise InvalidParameter(
            f"{where}: agent pool '{name}' is a System pool on Spot; System pools must use Regular priority "
            "(only User pools can be Spot)."
        )
    low = 1 if system else 0
    counts: dict[str, float] = {key: pool[key] for key in ("count", "minCount", "maxCount") if pool.get(key) is not None}
    for key, value in counts.items():
        if not low <= value <= AKS_MAX_NODES:
            kind = "System" if system else "User"
            raise InvalidParameter(f"{where}: {key} {value:g} of agent pool '{name}'; allowed for {kind} pools: {low} to {AKS_MAX_NODES}.")
    if pool.get("enableAutoScaling"):
        if "minCount" not in counts or "maxCount" not in counts:
            raise InvalidParameter(f"{where}: agent pool '{name}' enables the autoscaler without minCount and maxCount.")
        if counts["minCount"] > counts["maxCount"]:
            raise InvalidParameter(
                f"{where}: minCount {counts['minCount']:g} of agent pool '{name}' is greater than maxCount {counts['maxCount']:g}."
            )
        if "count" in counts and not counts["minCount"] <= counts["count"] <= counts["maxCount"]:
            raise InvalidParameter(f"{where}: count {counts['count']:g} of agent pool '{name}' is outside minCount..maxCount.")
    profile = pool.get("gpuInstanceProfile")
    if profile is not None:
        size = arm.catalog.find(str(pool.get("vmSize")))
        if profile not in AKS_MIG_PROFILES:
            raise InvalidParameter(f"{where}: gpuInstanceProfile {profile!r}; allowed: {', '.join(AKS_MIG_PROFILES)}.")
        if size is not None and not size.supports_mig:
            raise InvalidParameter(
                f"{where}: gpuInstanceProfile {profile} is not supported on VM size '{size.name}'; MIG needs an A100 or H100 size."
            )
    driver = dig(pool, "gpuProfile", "driver")
    if driver is not None and driver not in ("Install", "None"):
        raise InvalidParameter(f"{where}: gpuProfile.driver {driver!r}; allowed: Install, None.")


def _pool_demand(pool: dict[str, Any]) -> list[VcpuDemand]:
    size, count = pool.get("vmSize"), int(pool.get("count") or 0)
    return [VcpuDemand(size, count, pool.get("scaleSetPriority") == "Spot")] if isinstance(size, str) and count else []


class ManagedCluster(ArmResourceType):
    """An AKS cluster; its inline `agentPoolProfiles` are checked like agent pools."""

    token = "azure-native:containerservice:ManagedCluster"
    arm_type = "Microsoft.ContainerService/managedClusters"
    name_input = "resourceName"
    autoname_max = 63

    def vm_sizes(self, props: dict[str, Any]) -> list[tuple[str, str]]:
        return [p for i in range(len(props.get("agentPoolProfiles") or [])) for p in _size_at(props, "agentPoolProfiles", i, "vmSize")]

    def vcpu_demand(self, arm: FakeArm, props: dict[str, Any]) -> list[VcpuDemand]:
        return [d for pool in props.get("agentPoolProfiles") or [] for d in _pool_demand(pool)]

    def check(self, arm: FakeArm, name: str, props: dict[str, Any]) -> None:
        where = f"Managed cluster '{name}'"
        if not (props.get("dnsPrefix") or props.get("fqdnSubdomain")):
            raise InvalidParameter(f"{where}: dnsPrefix or fqdnSubdomain is required.")
        pools = props.get("agentPoolProfiles") or []
        if not any(p.get("mode") == "System" for p in pools):
            raise InvalidParameter(f"{where}: there has to be at least one System agent pool (agentPoolProfiles[].mode).")
        seen: set[str] = set()
        for pool in pools:
            pool_name = str(pool.get("name") or "")
            if pool_name.lower() in seen:
                raise InvalidParameter(f"{where}: two agent pools are named '{pool_name}'.")
            seen.add(pool_name.lower())
            _check_agent_pool(arm, pool_name, pool, where)
        aad = props.get("aadProfile") or {}
        if (props.get("disableLocalAccounts") or aad.get("enableAzureRBAC")) and not aad.get("managed"):
            raise InvalidParameter(
                f"{where}: disableLocalAccounts and aadProfile.enableAzureRBAC need AKS-managed Entra ID (aadProfile.managed)."
            )

    def computed(self, arm: FakeArm, res: Resource) -> dict[str, Any]:
        prefix = res.properties.get("dnsPrefix") or res.properties.get("fqdnSubdomain")
        suffix = hashlib.sha256(res.id.lower().encode()).hexdigest()[:8]
        out: dict[str, Any] = {
            "fqdn": f"{prefix}-{suffix}.hcp.{res.location}.azmk8s.io",
            "azurePortalFQDN": f"{prefix}-{suffix}.portal.hcp.{res.location}.azmk8s.io",
            "nodeResourceGroup": res.properties.get("nodeResourceGroup") or f"MC_{res.resource_group}_{res.name}_{res.location}",
            "provisioningState": "Succeeded",
            "powerState": {"code": "Running"},
            "maxAgentPools": 100,
            "agentPoolProfiles": [
                {**p, "provisioningState": "Succeeded", "powerState": {"code": "Running"}}
                for p in res.properties.get("agentPoolProfiles") or []
            ],
        }
        if res.properties.get("kubernetesVersion"):
            out["currentKubernetesVersion"] = res.properties["kubernetesVersion"]
        identity = res.properties.get("identity")
        if isinstance(identity, dict) and identity.get("type") == "SystemAssigned":
            out["identity"] = {**identity, "principalId": stable_uuid(res.id, "principal"), "tenantId": arm.tenant_id}
        return out


class AgentPool(ArmResourceType):
    """A node pool added to an AKS cluster: refused on a cluster that does not exist or under a taken name."""

    token = "azure-native:containerservice:AgentPool"
    arm_type = "Microsoft.ContainerService/managedClusters/agentPools"
    name_input = "agentPoolName"
    parent_inputs = ("resourceName",)
    located = False

    def vm_sizes(self, props: dict[str, Any]) -> list[tuple[str, str]]:
        return _size_at(props, "vmSize")

    def vcpu_demand(self, arm: FakeArm, props: dict[str, Any]) -> list[VcpuDemand]:
        return _pool_demand(props)

    def check(self, arm: FakeArm, name: str, props: dict[str, Any]) -> None:
        cluster = arm.parent_of(self, props)
        inline = {str(p.get("name", "")).lower() for p in cluster.properties.get("agentPoolProfiles") or []}
        if name.lower() in inline:
            raise Conflict(f"Managed cluster '{cluster.name}' already has an agent pool named '{name}'.")
        _check_agent_pool(arm, name, props, f"Managed cluster '{cluster.name}'")

    def computed(self, arm: FakeArm, res: Resource) -> dict[str, Any]:
        return {"provisioningState": "Succeeded", "powerState": {"code": "Running"}}


class RoleAssignment(ArmResourceType):
    """An Azure RBAC role assignment, an extension resource under `scope`."""

    token = "azure-native:authorization:RoleAssignment"
    arm_type = "Microsoft.Authorization/roleAssignments"
    name_input = "roleAssignmentName"
    scoped = True
    located = False

    def check(self, arm: FakeArm, name: str, props: dict[str, Any]) -> None:
        arm.require(props.get("scope"), "scope")
        role = str(props.get("roleDefinitionId") or "")
        if "/providers/Microsoft.Authorization/roleDefinitions/" not in role:
            raise InvalidParameter(f"Role assignment '{name}': roleDefinitionId {role!r} is not a role definition id.")
        try:
            uuid.UUID(str(props.get("principalId")))
        except ValueError:
            raise InvalidParameter(f"Role assignment '{name}': principalId {props.get('principalId')!r} is not an object id.") from None

    def computed(self, arm: FakeArm, res: Resource) -> dict[str, Any]:
        return {"principalType": res.properties.get("principalType") or "User", "createdOn": arm.now.isoformat()}


def _network(prefix: Any, path: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    try:
        return ipaddress.ip_network(str(prefix), strict=True)
    except ValueError:
        raise InvalidParameter(f"{path}: {prefix!r} is not a valid CIDR range.") from None


def kubeconfig(cluster_name: str, fqdn: str) -> str:
    """A realistic, credential-free kubeconfig, base64-encoded as ARM returns it."""
    text = (
        "apiVersion: v1\nkind: Config\n"
        f"clusters:\n- cluster:\n    server: https://{fqdn}:443\n  name: {cluster_name}\n"
        f"contexts:\n- context:\n    cluster: {cluster_name}\n    user: clusterUser_{cluster_name}\n  name: {cluster_name}\n"
        f"current-context: {cluster_name}\n"
        f"users:\n- name: clusterUser_{cluster_name}\n  user:\n    token: fake-offline-token\n"
    )
    return base64.b64encode(text.encode()).decode()


RESOURCE_TYPES: dict[str, ArmResourceType] = {
    t.token: t
    for t in (
        ResourceGroup(),
        VirtualNetwork(),
        Subnet(),
        NetworkSecurityGroup(),
        PublicIPAddress(),
        NetworkInterface(),
        VirtualMachine(),
        VirtualMachineExtension(),
        ProximityPlacementGroup(),
        VirtualMachineScaleSet(),
        GlobalSchedule(),
        ActionGroup(),
        Budget(),
        ManagedCluster(),
        AgentPool(),
        RoleAssignment(),
    )
}

# The Azure ML workspace and its dependencies live in their own module; registered here so that
# RESOURCE_TYPES stays the one registry.
from azure_gpu_stacks.fakeazure.models_aml import AML_TYPES  # noqa: E402 - imported last: it builds on the classes above

RESOURCE_TYPES.update({t.token: t for t in AML_TYPES})
