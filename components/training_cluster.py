"""A multi-node InfiniBand GPU training cluster that works on the first `pulumi up`.

Builds: (a VNet and subnet outside 172.16.0.0/16, unless a subnet is given) -> a proximity
placement group whose intent names the VM size (or an existing one, by id) -> a Uniform VM scale
set of ND-series nodes in it, in a single placement group (InfiniBand links only nodes of one scale
set and one placement group), no overprovisioning, a manual upgrade policy, accelerated networking,
no public IPs, SSH-key login only, the Azure HPC Ubuntu 22.04 image (the one image that drives
InfiniBand on these sizes: `image: ubuntu` is refused, see IMAGE_REFUSALS), Gen2 only, one platform
fault domain, and a boot-time node health check
(`components/node_health.py`).

Costs nothing when idle: `node_count: 0` parks it (the network, the placement group and the scale
set's definition stay; no nodes run or bill), and `working_hours` scales it to 0 nodes outside
working hours through Azure Monitor autoscale (`components/working_hours.py`).

Azure docs (observed 2026-11-22):
https://learn.microsoft.com/azure/virtual-machines/setup-infiniband
https://learn.microsoft.com/azure/virtual-machine-scale-sets/virtual-machine-scale-sets-placement-groups
https://learn.microsoft.com/azure/virtual-machines/azure-hpc-vm-images
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal, NotRequired, TypedDict

import pulumi
from pulumi_azure_native import compute

from ..catalog import VmSize, catalog
from ..catalog.defaults import DEFAULT_IB_VM_SIZE
from ..catalog.limits import LIMITS
from . import encryption_at_host
from .args import Checked, check_shape
from .checks import (
    MAX_SINGLE_PLACEMENT_GROUP_NODES,
    Problems,
    admin_username,
    deployment_day,
    infiniband_gpu_size,
    outside_infiniband_range,
    raise_problems,
    single_zone,
    subnet_id,
    x64_size,
)
from .gpu_vm import spot_priority
from .network import create_private_network
from .node_health import NodeExpectations, custom_data
from .outputs import output_field
from .placement import placement
from .working_hours import WorkingHours, WorkingHoursArgs, create_autoscale
from .working_hours import validated as validated_working_hours

TYPE_TOKEN = "azure-gpu-stacks:index:TrainingCluster"

# The Azure HPC image carries Mellanox OFED, the NVIDIA driver, CUDA, NCCL and the node health checks;
# Microsoft strongly recommends it for ND A100 v4 (azure-hpc-vm-images.md, nda100-v4-series.md). Gen2 only.
UBUNTU_HPC_2204 = {"publisher": "microsoft-dsvm", "offer": "ubuntu-hpc", "sku": "2204"}
IMAGES: dict[str, dict[str, str]] = {"ubuntu-hpc": UBUNTU_HPC_2204}
# Images refused, with why. Plain Ubuntu 22.04 has no InfiniBand driver, and the InfiniBand driver
# extension that would install it lists Ubuntu 16.04, 18.04 and 20.04 only (Azure/azhpc-extensions,
# last changed 2022-02; hpc-compute-infiniband-linux.md, observed 2026-11-22), so the nodes would
# boot without InfiniBand; Ubuntu 20.04 is out of standard support.
IMAGE_REFUSALS = {
    "ubuntu": "plain Ubuntu 22.04 cannot drive InfiniBand: the InfiniBand driver extension supports Ubuntu "
    "16.04, 18.04 and 20.04 only (Azure/azhpc-extensions); allowed: ubuntu-hpc (Azure's HPC image, which "
    "carries the InfiniBand and NVIDIA drivers)",
}
# One fault domain: Azure may then place every node on any rack with capacity, which scarce GPU
# sizes need; the count cannot be changed after creation. Common HPC practice, not stated as a rule
# in Microsoft's docs
# (https://learn.microsoft.com/azure/virtual-machine-scale-sets/virtual-machine-scale-sets-manage-fault-domains,
# observed 2026-11-22).
PLATFORM_FAULT_DOMAIN_COUNT = 1

# InfiniBand ports per node: one HDR/NDR port per GPU on the ND A100/H100/H200 sizes ("Each GPU ...
# dedicated ... InfiniBand connection", nda100-v4-series.md); NDv2 has one EDR port per VM.
IB_PORTS_EXCEPTIONS = {"Standard_ND40rs_v2": 1}

DEFAULT_NODE_COUNT = 2
DEFAULT_ADMIN_USERNAME = "azureuser"
# Clear of 172.16.0.0/16, which the InfiniBand network reserves.
DEFAULT_VNET_RANGE = "10.50.0.0/16"
DEFAULT_SUBNET_RANGE = "10.50.0.0/24"
DEFAULT_OS_DISK_GB = 256  # the HPC image is about 64 GB; room for containers and environments
DEFAULT_HEALTH_CHECK_WAIT_MINUTES = 30  # InfiniBand links can take minutes to come up after boot
MAX_HEALTH_CHECK_WAIT_MINUTES = 240
PPG_ID_PATTERN = re.compile(
    r"(?i)^/subscriptions/[^/]+/resourceGroups/[^/]+/providers/Microsoft\.Compute/proximityPlacementGroups/[^/]+$"
)
# Uniform scale sets name each node <computerNamePrefix><instance id in base 36, six characters>;
# the first node is instance 0 (overprovisioning is off, so no extra instances take ids).
FIRST_NODE_SUFFIX = "000000"
MAX_COMPUTER_NAME_PREFIX = 58  # hostnames stay under 64 characters with the 6-character suffix
SPOT_WARNING = (
    "Spot nodes can be evicted with 30 seconds' notice, and losing one node stops a tightly-coupled "
    "(MPI/NCCL) job on every node; checkpoint often and expect restarts"
)


class TrainingClusterArgs(TypedDict):
    """Inputs of TrainingCluster."""

    resource_group_name: pulumi.Input[str]
    """Resource group the cluster and its network go in."""
    location: str
    """Azure region, e.g. eastus."""
    ssh_public_key: pulumi.Input[str]
    """OpenSSH public key of the admin user; pass it as a secret."""
    vm_size: NotRequired[str]
    """NVIDIA GPU size with InfiniBand from the catalog. Default: Standard_ND96asr_v4 (8x A100 40 GB)."""
    node_count: NotRequired[int]
    """Nodes in the scale set, 0 to 100 (one placement group); 0 parks the cluster. Default: 2."""
    admin_username: NotRequired[str]
    """Linux admin user. Default: azureuser."""
    subnet_id: NotRequired[pulumi.Input[str]]
    """Existing subnet to join; its VNet must not overlap 172.16.0.0/16. Default: a new VNet and subnet."""
    vnet_address_space: NotRequired[str]
    """Address space of the new VNet (CIDR), outside 172.16.0.0/16. Default: 10.50.0.0/16."""
    subnet_prefix: NotRequired[str]
    """Range of the new subnet (CIDR), inside the address space. Default: 10.50.0.0/24."""
    proximity_placement_group_id: NotRequired[str]
    """Existing proximity placement group to join. Default: a new one."""
    zones: NotRequired[Sequence[str]]
    """At most one availability zone for the nodes and the placement group. Default: none (regional)."""
    image: NotRequired[Literal["ubuntu-hpc", "ubuntu"]]
    """ubuntu-hpc: Azure HPC Ubuntu 22.04 (InfiniBand and NVIDIA drivers, NCCL, CUDA inside); ubuntu is refused (no
    InfiniBand driver for Ubuntu 22.04). Default: ubuntu-hpc."""
    os_disk_size_gb: NotRequired[int]
    """OS disk size in GiB (64 to 4095). Default: 256."""
    encryption_at_host: NotRequired[bool]
    """Encrypt every node's temporary disk and OS and data disk caches on the host (the scale set's
    securityProfile.encryptionAtHost). Needs the subscription feature Microsoft.Compute/EncryptionAtHost registered
    (`az feature register --namespace Microsoft.Compute --name EncryptionAtHost`); refused on a size the catalog
    records as not supporting it. Default: false."""
    spot: NotRequired[bool]
    """Run every node as Spot (evictable, much cheaper). Default: false."""
    eviction_policy: NotRequired[Literal["Deallocate", "Delete"]]
    """What eviction does to a Spot node: Deallocate or Delete. Default: Deallocate."""
    health_check: NotRequired[bool]
    """Check GPUs and InfiniBand on every boot (verdict in /var/log/node-health-check/verdict). Default: true."""
    health_check_wait_minutes: NotRequired[int]
    """How long the check waits for drivers and links to come up, minutes (0 to 240). Default: 30."""
    working_hours: NotRequired[WorkingHoursArgs]
    """Scale to 0 nodes outside these hours (Azure Monitor autoscale); stops jobs still running at the end. Default:
    none (always on)."""
    tags: NotRequired[Mapping[str, str]]
    """Tags on every resource. Default: none."""


class TrainingCluster(pulumi.ComponentResource):
    """A Uniform scale set of InfiniBand GPU nodes in one proximity and one single placement group."""

    scale_set_id: pulumi.Output[str]
    """ARM id of the scale set."""
    scale_set_name: pulumi.Output[str]
    """Name of the scale set in Azure."""
    placement_group_id: pulumi.Output[str]
    """ARM id of the proximity placement group the nodes are in."""
    node_count: pulumi.Output[int]
    """Nodes in the scale set."""
    gpus_total: pulumi.Output[int]
    """GPUs across all nodes."""
    principal_id: pulumi.Output[str]
    """Object id of the scale set's system-assigned identity, for role assignments (storage, registries, Key Vault)."""
    ssh_command: pulumi.Output[str]
    """Logs in to the first node from inside the VNet (nodes have no public IP), e.g. `ssh azureuser@train000000`."""

    def __init__(self, name: str, args: TrainingClusterArgs, opts: pulumi.ResourceOptions | None = None):
        # Validated before anything is registered, so a bad input leaves nothing behind.
        self._args = raise_problems("TrainingCluster", name, check_inputs(args))
        self._args["computer_name_prefix"] = _computer_name_prefix(name)
        super().__init__(TYPE_TOKEN, name, None, opts)
        self._name = name
        self._size = catalog().get(self._args["vm_size"])
        self._child = pulumi.ResourceOptions(parent=self)
        if self._args["spot"]:
            pulumi.log.warn(f"TrainingCluster '{name}': spot: {SPOT_WARNING}", resource=self)
        subnet_id = self._args.get("subnet_id") or self._create_network()
        placement_group_id = self._args.get("proximity_placement_group_id") or self._create_placement_group().id
        scale_set = self._create_scale_set(subnet_id, placement_group_id)
        if (given := self._args["working_hours"]) is not None:
            hours = WorkingHours(**{**given, "days": tuple(given["days"])})
            pulumi.log.warn(f"TrainingCluster '{name}': working_hours: {hours.warning()}", resource=self)
            create_autoscale(name, scale_set.id, self._args["node_count"], hours, self._args, self)

        a = self._args
        self.scale_set_id = scale_set.id
        self.scale_set_name = scale_set.name
        self.placement_group_id = pulumi.Output.from_input(placement_group_id)
        self.node_count = pulumi.Output.from_input(a["node_count"])
        self.gpus_total = pulumi.Output.from_input(int(self._size.gpus) * a["node_count"])
        self.principal_id = scale_set.identity.apply(lambda identity: output_field(identity, "principal_id") or "")
        self.ssh_command = pulumi.Output.from_input(
            f"ssh {a['admin_username']}@{a['computer_name_prefix']}{FIRST_NODE_SUFFIX}"
        )
        self.register_outputs(
            {
                "scale_set_id": self.scale_set_id,
                "scale_set_name": self.scale_set_name,
                "placement_group_id": self.placement_group_id,
                "node_count": self.node_count,
                "gpus_total": self.gpus_total,
                "principal_id": self.principal_id,
                "ssh_command": self.ssh_command,
            }
        )

    def _create_network(self) -> pulumi.Output[str]:
        return create_private_network(
            self._name,
            resource_group_name=self._args["resource_group_name"],
            location=self._args["location"],
            address_space=self._args["vnet_address_space"],
            subnet_prefix=self._args["subnet_prefix"],
            tags=self._args["tags"],
            parent=self,
        )

    def _create_placement_group(self) -> compute.ProximityPlacementGroup:
        return compute.ProximityPlacementGroup(
            f"{self._name}-ppg",
            proximity_placement_group_type="Standard",
            # The intent lets Azure pick a datacenter that has this size before the nodes arrive.
            intent=compute.ProximityPlacementGroupPropertiesIntentArgs(vm_sizes=[self._size.name]),
            zones=self._args["zones"] or None,
            **placement(self._args),
            opts=self._child,
        )

    def _create_scale_set(
        self, subnet_id: pulumi.Input[str], placement_group_id: pulumi.Input[str]
    ) -> compute.VirtualMachineScaleSet:
        a = self._args
        return compute.VirtualMachineScaleSet(
            f"{self._name}-vmss",
            sku=compute.SkuArgs(name=self._size.name, tier="Standard", capacity=a["node_count"]),
            # CLI and PowerShell default to Flexible since November 2023, which has no InfiniBand.
            orchestration_mode="Uniform",
            # InfiniBand only links VMs of one placement group (placement-groups doc: "Large scale
            # (SPG=false) does not support InfiniBand networking").
            single_placement_group=True,
            platform_fault_domain_count=PLATFORM_FAULT_DOMAIN_COUNT,
            # Extra VMs would join the fabric and the job's host list, then vanish.
            overprovision=False,
            # A rolling or automatic upgrade would restart nodes in the middle of a training job.
            upgrade_policy=compute.UpgradePolicyArgs(mode=compute.UpgradeMode.MANUAL),
            proximity_placement_group=compute.SubResourceArgs(id=placement_group_id),
            zones=a["zones"] or None,
            # Jobs reach storage, registries and Key Vault with Entra ID tokens, not keys copied onto the nodes.
            identity=compute.VirtualMachineScaleSetIdentityArgs(type=compute.ResourceIdentityType.SYSTEM_ASSIGNED),
            virtual_machine_profile=compute.VirtualMachineScaleSetVMProfileArgs(
                os_profile=self._os_profile(),
                storage_profile=compute.VirtualMachineScaleSetStorageProfileArgs(
                    image_reference=compute.ImageReferenceArgs(**IMAGES[a["image"]], version="latest"),
                    os_disk=compute.VirtualMachineScaleSetOSDiskArgs(
                        create_option="FromImage",
                        caching=compute.CachingTypes.READ_WRITE,
                        disk_size_gb=a["os_disk_size_gb"],
                        managed_disk=compute.VirtualMachineScaleSetManagedDiskParametersArgs(
                            storage_account_type="Premium_LRS"
                        ),
                    ),
                ),
                network_profile=compute.VirtualMachineScaleSetNetworkProfileArgs(
                    network_interface_configurations=[
                        compute.VirtualMachineScaleSetNetworkConfigurationArgs(
                            name="primary",
                            primary=True,
                            enable_accelerated_networking=True,
                            # No public_ip_address_configuration: nodes are reached through the VNet.
                            ip_configurations=[
                                compute.VirtualMachineScaleSetIPConfigurationArgs(
                                    name="primary",
                                    primary=True,
                                    subnet=compute.ApiEntityReferenceArgs(id=subnet_id),
                                )
                            ],
                        )
                    ]
                ),
                diagnostics_profile=compute.DiagnosticsProfileArgs(
                    # Managed boot diagnostics keep the serial log, where the health check's verdict lands.
                    boot_diagnostics=compute.BootDiagnosticsArgs(enabled=True)
                ),
                # Only when asked (components/encryption_at_host.py says why).
                security_profile=compute.SecurityProfileArgs(encryption_at_host=True)
                if a["encryption_at_host"]
                else None,
                **(spot_priority(a["eviction_policy"]) if a["spot"] else {}),
            ),
            **placement(self._args),
            # With working hours, autoscale owns the capacity (its working-hours profile holds node_count).
            opts=pulumi.ResourceOptions(parent=self, ignore_changes=["sku.capacity"] if a["working_hours"] else None),
        )

    def _os_profile(self) -> compute.VirtualMachineScaleSetOSProfileArgs:
        a = self._args
        return compute.VirtualMachineScaleSetOSProfileArgs(
            computer_name_prefix=a["computer_name_prefix"],
            admin_username=a["admin_username"],
            custom_data=custom_data(self._expectations()) if a["health_check"] else None,
            linux_configuration=compute.LinuxConfigurationArgs(
                disable_password_authentication=True,
                provision_vm_agent=True,  # extensions and the InfiniBand setup need the VM agent
                ssh=compute.SshConfigurationArgs(
                    public_keys=[
                        compute.SshPublicKeyArgs(
                            path=f"/home/{a['admin_username']}/.ssh/authorized_keys", key_data=a["ssh_public_key"]
                        )
                    ]
                ),
            ),
        )

    def _expectations(self) -> NodeExpectations:
        return node_expectations(self._size, self._args["health_check_wait_minutes"] * 60)


def node_expectations(size: VmSize, wait_seconds: int) -> NodeExpectations:
    """What a healthy node of `size` shows: its GPUs, its InfiniBand bandwidth split over its ports, and
    the single-node NCCL all-reduce floor the catalog gives the size (Azure's own, with its source)."""
    ports = IB_PORTS_EXCEPTIONS.get(size.name, int(size.gpus))
    nccl = size.nccl_all_reduce
    return NodeExpectations(
        gpus=int(size.gpus),
        infiniband_ports=ports,
        infiniband_rate_gbps=(size.infiniband_gbps or 0) // ports,
        wait_seconds=wait_seconds,
        nccl_busbw_floor_gbps=nccl.bus_bandwidth_gbps if nccl else None,
        nccl_message_size=nccl.message_size if nccl else "8G",
    )


def check_inputs(args: Mapping[str, Any], day: dt.date | None = None) -> Checked:
    """The inputs with defaults filled in, and every problem found (pure: registers nothing); sizes are judged
    on `day` (default: `deployment_day()`, the program's `gpu-stacks:asOf` or today in UTC)."""
    day = day or deployment_day()
    problems = Problems()
    given = check_shape(TrainingClusterArgs, args, problems)
    a: dict[str, Any] = {
        "vm_size": DEFAULT_IB_VM_SIZE,
        "node_count": DEFAULT_NODE_COUNT,
        "admin_username": DEFAULT_ADMIN_USERNAME,
        "vnet_address_space": DEFAULT_VNET_RANGE,
        "subnet_prefix": DEFAULT_SUBNET_RANGE,
        "zones": [],
        "image": "ubuntu-hpc",
        "os_disk_size_gb": DEFAULT_OS_DISK_GB,
        "encryption_at_host": False,
        "spot": False,
        "eviction_policy": "Deallocate",
        "health_check": True,
        "health_check_wait_minutes": DEFAULT_HEALTH_CHECK_WAIT_MINUTES,
        "tags": {},
        **given,
    }
    for key in ("resource_group_name", "location", "ssh_public_key"):
        if not a.get(key):
            problems.add(key, "required key is missing")
    a["vm_size"] = problems.check("vm_size", lambda n: infiniband_gpu_size(n, day), a["vm_size"]) or a["vm_size"]
    encryption_at_host.check(problems, a["encryption_at_host"], a["vm_size"])
    problems.check("node_count", cluster_node_count, a["node_count"])
    hours = (
        validated_working_hours(problems, "working_hours", a["working_hours"])
        if a.get("working_hours") is not None
        else None
    )
    # A parked cluster stays parked: autoscale would start its nodes at the next working hour.
    a["working_hours"] = hours.as_args() if hours is not None and a["node_count"] != 0 else None
    problems.check("admin_username", admin_username, a["admin_username"])
    a["zones"] = problems.check("zones", single_zone, a["zones"]) or []
    if a.get("subnet_id") is not None:
        problems.check("subnet_id", subnet_id, a["subnet_id"])
    if "subnet_id" not in args:
        space = problems.check("vnet_address_space", outside_infiniband_range, a["vnet_address_space"])
        subnet = problems.check("subnet_prefix", outside_infiniband_range, a["subnet_prefix"])
        if space and subnet and not ipaddress.ip_network(subnet).subnet_of(ipaddress.ip_network(space)):  # type: ignore[arg-type]
            problems.add("subnet_prefix", f"'{subnet}' is not inside the VNet's address space {space}")
    ppg = a.get("proximity_placement_group_id")
    if ppg is not None and not PPG_ID_PATTERN.match(str(ppg)):
        problems.add(
            "proximity_placement_group_id",
            f"'{ppg}' is not a proximity placement group id; allowed: /subscriptions/<id>/resourceGroups/<rg>/"
            "providers/Microsoft.Compute/proximityPlacementGroups/<name>",
        )
    if a["image"] in IMAGE_REFUSALS:
        problems.add("image", f"{a['image']!r}: {IMAGE_REFUSALS[a['image']]}")
    elif a["image"] not in IMAGES:
        problems.add("image", f"{a['image']!r}; allowed: {', '.join(IMAGES)}")
    elif catalog().find(a["vm_size"]) is not None:  # the image is x64: GB200/GB300's Arm CPUs cannot boot them
        image = ":".join(IMAGES[a["image"]][k] for k in ("publisher", "offer", "sku"))
        problems.check("vm_size", lambda n: x64_size(n, image), a["vm_size"])
    most = LIMITS.choices.os_disk_gib_max
    if not isinstance(a["os_disk_size_gb"], int) or not 64 <= a["os_disk_size_gb"] <= most:
        problems.add("os_disk_size_gb", f"{a['os_disk_size_gb']!r}; allowed: a whole number of GiB from 64 to {most}")
    if a["eviction_policy"] not in (policies := LIMITS.choices.eviction_policies):
        problems.add("eviction_policy", f"{a['eviction_policy']!r}; allowed: {', '.join(policies)}")
    wait = a["health_check_wait_minutes"]
    if isinstance(wait, bool) or not isinstance(wait, int) or not 0 <= wait <= MAX_HEALTH_CHECK_WAIT_MINUTES:
        problems.add("health_check_wait_minutes", f"{wait!r}; allowed: a whole number of minutes from 0 to 240")
    return problems.checked(a)


def cluster_node_count(value: int) -> int:
    """Nodes of the cluster's scale set: one placement group, or 0 (parked)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SINGLE_PLACEMENT_GROUP_NODES:
        raise ValueError(
            f"{value!r} nodes; allowed: 0 (parked: no nodes run) to {MAX_SINGLE_PLACEMENT_GROUP_NODES} (InfiniBand "
            "needs a single placement group, which holds at most 100 VMs unless Azure support raises the limit)"
        )
    return value


def _computer_name_prefix(name: str) -> str:
    """Linux host names: letters, digits and '-', short enough for the instance suffix."""
    cleaned = "".join(c if c.isalnum() or c == "-" else "-" for c in name.lower()).strip("-")
    return cleaned[:MAX_COMPUTER_NAME_PREFIX] or "node"
