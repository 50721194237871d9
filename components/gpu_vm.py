"""A single GPU VM for development and inference, safe and cheap by default.

Builds: (a VNet and subnet, unless a subnet is given) -> an NSG that admits SSH only from the
ranges given (none by default) -> (a public IP, only when asked) -> a NIC with accelerated
networking -> an Ubuntu 22.04 Gen2 VM with SSH-key login only and a system-assigned identity ->
the NVIDIA GPU driver extension -> a daily auto-shutdown schedule.

Azure docs: https://learn.microsoft.com/azure/virtual-machines/sizes/gpu-accelerated/ncast4v3-series
and https://learn.microsoft.com/azure/virtual-machines/extensions/hpccompute-gpu-linux
"""

from __future__ import annotations

import datetime as dt
import ipaddress
from collections.abc import Mapping, Sequence
from typing import Any, Literal, NotRequired, TypedDict

import pulumi
from pulumi_azure_native import compute, devtestlab, network

from ..catalog import catalog
from ..catalog.defaults import DEFAULT_GPU_VM_SIZE
from ..catalog.limits import LIMITS
from ..catalog.spot import SPOT_NO_PRICE_CAP
from ..catalog.time_zones import windows_time_zone
from . import encryption_at_host
from .args import Checked, check_shape
from .checks import (
    Problems,
    admin_username,
    cidr,
    deployment_day,
    email,
    gpu_size,
    raise_problems,
    subnet_id,
    time_of_day,
    x64_size,
)
from .network import create_private_network
from .outputs import output_field
from .placement import placement

TYPE_TOKEN = "azure-gpu-stacks:index:GpuVm"

# The NVIDIA driver extension; the major version is pinned and minor versions upgrade themselves
# (hpccompute-gpu-linux.md, observed 2026-11-22: schema example "1.6", autoUpgradeMinorVersion true).
GPU_DRIVER_PUBLISHER = "Microsoft.HpcCompute"
GPU_DRIVER_TYPE = "NvidiaGpuDriverLinux"
GPU_DRIVER_VERSION = "1.6"

# Ubuntu 22.04 LTS, Gen2: the N-series sizes this component allows boot Gen2, and Trusted Launch needs it.
UBUNTU_2204_GEN2 = {"publisher": "Canonical", "offer": "0001-com-ubuntu-server-jammy", "sku": "22_04-lts-gen2"}
IMAGE_LABEL = "Canonical:0001-com-ubuntu-server-jammy:22_04-lts-gen2"

DEFAULT_VM_SIZE = DEFAULT_GPU_VM_SIZE
DEFAULT_ADMIN_USERNAME = "azureuser"
DEFAULT_VNET_RANGE = "10.40.0.0/16"
DEFAULT_SUBNET_RANGE = "10.40.1.0/24"
DEFAULT_OS_DISK_GB = 128  # room for CUDA, a container runtime and a model or two
DEFAULT_SHUTDOWN_TIME = "1900"
DEFAULT_TIME_ZONE = "UTC"
SHUTDOWN_WARNING_MINUTES = 30
SSH_RULE_BASE_PRIORITY = 100


class GpuVmArgs(TypedDict):
    """Inputs of GpuVm."""

    resource_group_name: pulumi.Input[str]
    """Resource group the VM and its network go in."""
    location: str
    """Azure region, e.g. eastus."""
    ssh_public_key: pulumi.Input[str]
    """OpenSSH public key of the admin user; pass it as a secret."""
    vm_size: NotRequired[str]
    """GPU VM size from the catalog. Default: Standard_NC4as_T4_v3 (1x T4)."""
    admin_username: NotRequired[str]
    """Linux admin user. Default: azureuser."""
    subnet_id: NotRequired[pulumi.Input[str]]
    """Existing subnet to join. Default: a new VNet and subnet."""
    vnet_address_space: NotRequired[str]
    """Address space of the new VNet (CIDR). Default: 10.40.0.0/16."""
    subnet_prefix: NotRequired[str]
    """Range of the new subnet (CIDR), inside the address space. Default: 10.40.1.0/24."""
    ssh_allowed_cidrs: NotRequired[Sequence[str]]
    """Ranges allowed to reach port 22. Default: none (reach it through the VNet)."""
    public_ip: NotRequired[bool]
    """Give the VM a static public IP. Default: false."""
    os_disk_size_gb: NotRequired[int]
    """OS disk size in GiB (30 to 4095). Default: 128."""
    spot: NotRequired[bool]
    """Run as a Spot VM (evictable, much cheaper). Default: false."""
    eviction_policy: NotRequired[Literal["Deallocate", "Delete"]]
    """What eviction does to a Spot VM: Deallocate or Delete. Default: Deallocate."""
    encryption_at_host: NotRequired[bool]
    """Encrypt the temporary disk and the OS and data disk caches on the host (securityProfile.encryptionAtHost).
    Needs the subscription feature Microsoft.Compute/EncryptionAtHost registered (`az feature register --namespace
    Microsoft.Compute --name EncryptionAtHost`); refused on a size the catalog records as not supporting it.
    Default: false."""
    install_gpu_driver: NotRequired[bool]
    """Install the NVIDIA driver extension. Default: true."""
    auto_shutdown: NotRequired[bool]
    """Shut the VM down every day. Default: true."""
    shutdown_time: NotRequired[str]
    """Daily shutdown time, HHmm. Default: 1900."""
    shutdown_time_zone: NotRequired[str]
    """Windows time zone id of the shutdown time, e.g. W. Europe Standard Time (not Europe/Berlin). Default: UTC."""
    shutdown_notify_email: NotRequired[str]
    """Warned 30 minutes before the shutdown. Default: nobody."""
    tags: NotRequired[Mapping[str, str]]
    """Tags on every resource. Default: none."""


class GpuVm(pulumi.ComponentResource):
    """A single GPU VM with its network, NVIDIA driver and daily auto-shutdown."""

    vm_id: pulumi.Output[str]
    """ARM id of the VM."""
    vm_name: pulumi.Output[str]
    """Name of the VM in Azure."""
    private_ip_address: pulumi.Output[str]
    """Private IP address of the VM's NIC."""
    public_ip_address: pulumi.Output[str]
    """Public IP address; empty without a public IP."""
    ssh_command: pulumi.Output[str]
    """The command that logs in, e.g. `ssh azureuser@10.40.1.4`."""
    principal_id: pulumi.Output[str]
    """Object id of the VM's system-assigned identity, for role assignments."""

    def __init__(self, name: str, args: GpuVmArgs, opts: pulumi.ResourceOptions | None = None):
        # Validated before anything is registered, so a bad input leaves nothing behind.
        self._args = raise_problems("GpuVm", name, check_inputs(args))
        super().__init__(TYPE_TOKEN, name, None, opts)
        self._name = name
        self._child = pulumi.ResourceOptions(parent=self)
        subnet_id = args.get("subnet_id") or self._create_network()
        nsg = self._create_security_group()
        public_ip = self._create_public_ip() if self._args["public_ip"] else None
        nic = self._create_nic(subnet_id, nsg, public_ip)
        vm = self._create_vm(nic)
        if self._args["install_gpu_driver"]:
            self._create_driver_extension(vm)
        if self._args["auto_shutdown"]:
            self._create_shutdown_schedule(vm)

        self.vm_id = vm.id
        self.vm_name = vm.name
        self.private_ip_address = nic.ip_configurations.apply(_first_private_ip)
        self.public_ip_address = (
            public_ip.ip_address.apply(lambda ip: ip or "") if public_ip else pulumi.Output.from_input("")
        )
        login_ip = self.public_ip_address if public_ip else self.private_ip_address
        self.ssh_command = login_ip.apply(lambda ip: f"ssh {self._args['admin_username']}@{ip}")
        self.principal_id = vm.identity.apply(lambda identity: output_field(identity, "principal_id") or "")
        self.register_outputs(
            {
                "vm_id": self.vm_id,
                "vm_name": self.vm_name,
                "private_ip_address": self.private_ip_address,
                "public_ip_address": self.public_ip_address,
                "ssh_command": self.ssh_command,
                "principal_id": self.principal_id,
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

    def _create_security_group(self) -> network.NetworkSecurityGroup:
        rules = [
            network.SecurityRuleArgs(
                name=f"allow-ssh-{index}",
                priority=SSH_RULE_BASE_PRIORITY + index,
                direction="Inbound",
                access="Allow",
                protocol="Tcp",
                source_address_prefix=source,
                source_port_range="*",
                destination_address_prefix="*",
                destination_port_range="22",
            )
            for index, source in enumerate(self._args["ssh_allowed_cidrs"])
        ]
        return network.NetworkSecurityGroup(
            f"{self._name}-nsg", security_rules=rules, **placement(self._args), opts=self._child
        )

    def _create_public_ip(self) -> network.PublicIPAddress:
        return network.PublicIPAddress(
            f"{self._name}-pip",
            public_ip_allocation_method="Static",
            sku=network.PublicIPAddressSkuArgs(name="Standard"),
            **placement(self._args),
            opts=self._child,
        )

    def _create_nic(
        self, subnet_id: pulumi.Input[str], nsg: network.NetworkSecurityGroup, public_ip: network.PublicIPAddress | None
    ) -> network.NetworkInterface:
        size = catalog().get(self._args["vm_size"])
        return network.NetworkInterface(
            f"{self._name}-nic",
            enable_accelerated_networking=size.accelerated_networking,
            network_security_group=network.NetworkSecurityGroupArgs(id=nsg.id),
            ip_configurations=[
                network.NetworkInterfaceIPConfigurationArgs(
                    name="primary",
                    primary=True,
                    subnet=network.SubnetArgs(id=subnet_id),
                    private_ip_allocation_method="Dynamic",
                    public_ip_address=network.PublicIPAddressArgs(id=public_ip.id) if public_ip else None,
                )
            ],
            **placement(self._args),
            opts=self._child,
        )

    def _create_vm(self, nic: network.NetworkInterface) -> compute.VirtualMachine:
        a = self._args
        return compute.VirtualMachine(
            f"{self._name}-vm",
            hardware_profile=compute.HardwareProfileArgs(vm_size=a["vm_size"]),
            storage_profile=compute.StorageProfileArgs(
                image_reference=compute.ImageReferenceArgs(**UBUNTU_2204_GEN2, version="latest"),
                os_disk=compute.OSDiskArgs(
                    create_option="FromImage",
                    caching=compute.CachingTypes.READ_WRITE,
                    disk_size_gb=a["os_disk_size_gb"],
                    delete_option="Delete",  # a deleted VM leaves no billed disk behind
                    managed_disk=compute.ManagedDiskParametersArgs(storage_account_type="Premium_LRS"),
                ),
            ),
            os_profile=compute.OSProfileArgs(
                computer_name=_computer_name(self._name),
                admin_username=a["admin_username"],
                linux_configuration=compute.LinuxConfigurationArgs(
                    disable_password_authentication=True,
                    provision_vm_agent=True,  # extensions need the VM agent
                    ssh=compute.SshConfigurationArgs(
                        public_keys=[
                            compute.SshPublicKeyArgs(
                                path=f"/home/{a['admin_username']}/.ssh/authorized_keys",
                                key_data=a["ssh_public_key"],
                            )
                        ]
                    ),
                ),
            ),
            network_profile=compute.NetworkProfileArgs(
                network_interfaces=[
                    compute.NetworkInterfaceReferenceArgs(id=nic.id, primary=True, delete_option="Delete")
                ]
            ),
            identity=compute.VirtualMachineIdentityArgs(type=compute.ResourceIdentityType.SYSTEM_ASSIGNED),
            security_profile=self._security_profile(),
            diagnostics_profile=compute.DiagnosticsProfileArgs(
                boot_diagnostics=compute.BootDiagnosticsArgs(
                    enabled=True
                )  # managed storage: serial log for driver issues
            ),
            **(spot_priority(a["eviction_policy"]) if a["spot"] else {}),
            **placement(self._args),
            opts=pulumi.ResourceOptions(parent=self, depends_on=[nic]),
        )

    def _security_profile(self) -> compute.SecurityProfileArgs | None:
        # Trusted Launch keeps vTPM and measured boot, but Secure Boot stays off: with it on, the
        # unsigned NVIDIA kernel module the driver extension builds silently fails to load
        # (hpccompute-gpu-linux.md: "Secure Boot is not supported"). Only on sizes that have it
        # (the catalog's trustedLaunch): ARM refuses it on the others, e.g. ND A100 v4.
        # Encryption at host only when asked (components/encryption_at_host.py says why).
        a = self._args
        trusted_launch = {
            "security_type": "TrustedLaunch",
            "uefi_settings": compute.UefiSettingsArgs(secure_boot_enabled=False, v_tpm_enabled=True),
        }
        settings = {
            **(trusted_launch if catalog().get(a["vm_size"]).supports_trusted_launch else {}),
            **({"encryption_at_host": True} if a["encryption_at_host"] else {}),
        }
        return compute.SecurityProfileArgs(**settings) if settings else None

    def _create_driver_extension(self, vm: compute.VirtualMachine) -> compute.VirtualMachineExtension:
        return compute.VirtualMachineExtension(
            f"{self._name}-gpu-driver",
            resource_group_name=self._args["resource_group_name"],
            location=self._args["location"],
            vm_name=vm.name,
            vm_extension_name=GPU_DRIVER_TYPE,
            publisher=GPU_DRIVER_PUBLISHER,
            type=GPU_DRIVER_TYPE,
            type_handler_version=GPU_DRIVER_VERSION,
            auto_upgrade_minor_version=True,
            settings={},
            tags=self._args["tags"],
            opts=self._child,
        )

    def _create_shutdown_schedule(self, vm: compute.VirtualMachine) -> devtestlab.GlobalSchedule:
        a = self._args
        notify = a["shutdown_notify_email"]
        return devtestlab.GlobalSchedule(
            f"{self._name}-shutdown",
            # Azure only honours the schedule under this exact name.
            name=vm.name.apply(lambda vm_name: f"shutdown-computevm-{vm_name}"),
            status="Enabled",
            task_type="ComputeVmShutdownTask",
            daily_recurrence=devtestlab.DayDetailsArgs(time=a["shutdown_time"]),
            time_zone_id=a["shutdown_time_zone"],
            target_resource_id=vm.id,
            notification_settings=devtestlab.NotificationSettingsArgs(
                status="Enabled" if notify else "Disabled",
                time_in_minutes=SHUTDOWN_WARNING_MINUTES if notify else None,
                email_recipient=notify,
            ),
            **placement(self._args),
            opts=self._child,
        )


def spot_priority(eviction_policy: str) -> dict[str, Any]:
    """The Spot arguments of a VM or a scale set's VM profile: evictable, never evicted for price."""
    return {
        "priority": "Spot",
        "eviction_policy": eviction_policy,
        "billing_profile": compute.BillingProfileArgs(max_price=SPOT_NO_PRICE_CAP),
    }


def check_inputs(args: Mapping[str, Any], day: dt.date | None = None) -> Checked:
    """The inputs with defaults filled in, and every problem found (pure: registers nothing); sizes are judged
    on `day` (default: `deployment_day()`, the program's `gpu-stacks:asOf` or today in UTC)."""
    day = day or deployment_day()
    problems = Problems()
    given = check_shape(GpuVmArgs, args, problems)
    a: dict[str, Any] = {
        "vm_size": DEFAULT_VM_SIZE,
        "admin_username": DEFAULT_ADMIN_USERNAME,
        "vnet_address_space": DEFAULT_VNET_RANGE,
        "subnet_prefix": DEFAULT_SUBNET_RANGE,
        "ssh_allowed_cidrs": [],
        "public_ip": False,
        "os_disk_size_gb": DEFAULT_OS_DISK_GB,
        "spot": False,
        "eviction_policy": "Deallocate",
        "encryption_at_host": False,
        "install_gpu_driver": True,
        "auto_shutdown": True,
        "shutdown_time": DEFAULT_SHUTDOWN_TIME,
        "shutdown_time_zone": DEFAULT_TIME_ZONE,
        "shutdown_notify_email": None,
        "tags": {},
        **given,
    }
    for key in ("resource_group_name", "location", "ssh_public_key"):
        if not a.get(key):
            problems.add(key, "required key is missing")
    size_name = problems.check("vm_size", lambda n: gpu_size(n, day), a["vm_size"])
    if size_name is not None:
        a["vm_size"] = size_name
        problems.check("vm_size", lambda n: x64_size(n, IMAGE_LABEL), size_name)
        encryption_at_host.check(problems, a["encryption_at_host"], size_name)
        gpu_model = catalog().get(size_name).gpu_model or ""
        if a["install_gpu_driver"] and not gpu_model.startswith("NVIDIA"):
            problems.add(
                "install_gpu_driver",
                f"true, but '{size_name}' has {gpu_model} GPUs, which the NVIDIA driver extension cannot drive; "
                "allowed: false (install the vendor's driver yourself), or an NVIDIA size",
            )
    problems.check("admin_username", admin_username, a["admin_username"])
    if a.get("subnet_id") is not None:
        problems.check("subnet_id", subnet_id, a["subnet_id"])
    a["ssh_allowed_cidrs"] = [
        problems.check(f"ssh_allowed_cidrs[{i}]", cidr, c) or c for i, c in enumerate(a["ssh_allowed_cidrs"])
    ]
    if "subnet_id" not in args:
        space = problems.check("vnet_address_space", cidr, a["vnet_address_space"])
        subnet = problems.check("subnet_prefix", cidr, a["subnet_prefix"])
        if space and subnet and not _inside(subnet, space):
            problems.add("subnet_prefix", f"'{subnet}' is not inside the VNet's address space {space}")
    most = LIMITS.choices.os_disk_gib_max
    if not isinstance(a["os_disk_size_gb"], int) or not 30 <= a["os_disk_size_gb"] <= most:
        problems.add("os_disk_size_gb", f"{a['os_disk_size_gb']!r}; allowed: a whole number of GiB from 30 to {most}")
    if a["eviction_policy"] not in (policies := LIMITS.choices.eviction_policies):
        problems.add("eviction_policy", f"{a['eviction_policy']!r}; allowed: {', '.join(policies)}")
    problems.check("shutdown_time", time_of_day, a["shutdown_time"])
    a["shutdown_time_zone"] = (
        problems.check("shutdown_time_zone", windows_time_zone, a["shutdown_time_zone"]) or a["shutdown_time_zone"]
    )
    if a["shutdown_notify_email"] is not None:
        problems.check("shutdown_notify_email", email, a["shutdown_notify_email"])
    return problems.checked(a)


def _inside(inner: str, outer: str) -> bool:
    return ipaddress.ip_network(inner).subnet_of(ipaddress.ip_network(outer))  # type: ignore[arg-type]


def _computer_name(name: str) -> str:
    """Linux host names: at most 64 characters, letters, digits and '-'."""
    cleaned = "".join(c if c.isalnum() or c == "-" else "-" for c in name).strip("-")
    return cleaned[:64] or "gpu-vm"


def _first_private_ip(configs: Any) -> str:
    for cfg in configs or []:
        address = output_field(cfg, "private_ip_address")
        if address:
            return str(address)
    return ""
