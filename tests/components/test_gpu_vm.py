"""GpuVm: each property the component promises, asserted on what the engine receives."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from azure_gpu_stacks.components.checks import ComponentInputError

from tests.conftest import TEST_SSH_KEY, Recording, in_resource_group, recorded

VM = "azure-native:compute:VirtualMachine"


def build_vm(**overrides: Any) -> Callable[[], None]:
    def build(rg: Any) -> None:
        import pulumi
        from azure_gpu_stacks.components.gpu_vm import GpuVm

        vm = GpuVm(
            "t4",
            {"resource_group_name": rg.name, "location": "eastus", "ssh_public_key": TEST_SSH_KEY, **overrides},
        )
        pulumi.export("sshCommand", vm.ssh_command)
        pulumi.export("privateIp", vm.private_ip_address)

    return in_resource_group(build)


@pytest.fixture(scope="module")
def default_vm() -> Iterator[Recording]:
    """`build_vm()` with every default, recorded once for the tests that only read it."""
    with recorded(build_vm()) as rec:
        yield rec


def test_gpu_vm_defaults_to_t4_with_ssh_key_only(default_vm: Recording) -> None:
    rec = default_vm
    vm = rec.inputs(VM)

    assert vm["hardwareProfile"]["vmSize"] == "Standard_NC4as_T4_v3"
    assert vm["osProfile"]["linuxConfiguration"]["disablePasswordAuthentication"] is True
    assert vm["osProfile"]["linuxConfiguration"]["ssh"]["publicKeys"] == [
        {"keyData": TEST_SSH_KEY, "path": "/home/azureuser/.ssh/authorized_keys"}
    ]
    assert rec.refusals == []


def test_gpu_vm_outputs_the_ssh_command_to_the_private_ip(default_vm: Recording) -> None:
    rec = default_vm

    assert rec.outputs["privateIp"] == "10.40.1.4"
    assert rec.outputs["sshCommand"] == "ssh azureuser@10.40.1.4"


def test_gpu_vm_uses_ubuntu_2204_gen2_and_trusted_launch_without_secure_boot(default_vm: Recording) -> None:
    vm = default_vm.inputs(VM)

    assert vm["storageProfile"]["imageReference"]["sku"] == "22_04-lts-gen2"
    assert vm["securityProfile"] == {
        "securityType": "TrustedLaunch",
        "uefiSettings": {"secureBootEnabled": False, "vTpmEnabled": True},
    }
    assert vm["identity"] == {"type": "SystemAssigned"}


def test_gpu_vm_installs_pinned_nvidia_driver_extension(default_vm: Recording) -> None:
    ext = default_vm.inputs("azure-native:compute:VirtualMachineExtension")

    assert (ext["publisher"], ext["type"], ext["typeHandlerVersion"]) == (
        "Microsoft.HpcCompute",
        "NvidiaGpuDriverLinux",
        "1.6",
    )
    assert ext["autoUpgradeMinorVersion"] is True


def test_gpu_vm_nic_has_accelerated_networking_and_no_public_ip(default_vm: Recording) -> None:
    rec = default_vm
    nic = rec.inputs("azure-native:network:NetworkInterface")

    assert nic["enableAcceleratedNetworking"] is True
    assert "publicIPAddress" not in nic["ipConfigurations"][0]
    assert rec.of_type("azure-native:network:PublicIPAddress") == []


def test_gpu_vm_nsg_allows_no_ssh_by_default(default_vm: Recording) -> None:
    nsg = default_vm.inputs("azure-native:network:NetworkSecurityGroup")

    assert nsg.get("securityRules", []) == []


def test_gpu_vm_nsg_allows_ssh_only_from_given_ranges(record: Callable[..., Recording]) -> None:
    nsg = record(build_vm(ssh_allowed_cidrs=["203.0.113.0/24"])).inputs("azure-native:network:NetworkSecurityGroup")

    [rule] = nsg["securityRules"]
    assert (rule["sourceAddressPrefix"], rule["destinationPortRange"], rule["access"], rule["direction"]) == (
        "203.0.113.0/24",
        "22",
        "Allow",
        "Inbound",
    )


def test_gpu_vm_public_ip_when_asked(record: Callable[..., Recording]) -> None:
    rec = record(build_vm(public_ip=True, ssh_allowed_cidrs=["203.0.113.7/32"]))

    assert rec.inputs("azure-native:network:PublicIPAddress")["sku"] == {"name": "Standard"}
    assert rec.outputs["sshCommand"].startswith("ssh azureuser@198.51.100.")


def test_gpu_vm_daily_shutdown_named_as_azure_requires(record: Callable[..., Recording]) -> None:
    rec = record(build_vm(shutdown_time="2030", shutdown_time_zone="W. Europe Standard Time"))
    schedule = rec.inputs("azure-native:devtestlab:GlobalSchedule")
    vm_name = next(r.name for r in rec.arm.resources() if r.type == "Microsoft.Compute/virtualMachines")

    assert schedule["name"] == f"shutdown-computevm-{vm_name}"
    assert (schedule["taskType"], schedule["dailyRecurrence"], schedule["timeZoneId"]) == (
        "ComputeVmShutdownTask",
        {"time": "2030"},
        "W. Europe Standard Time",
    )


def test_gpu_vm_without_auto_shutdown_has_no_schedule(record: Callable[..., Recording]) -> None:
    assert record(build_vm(auto_shutdown=False)).of_type("azure-native:devtestlab:GlobalSchedule") == []


def test_gpu_vm_spot_sets_priority_eviction_and_price_cap(record: Callable[..., Recording]) -> None:
    vm = record(build_vm(spot=True, eviction_policy="Delete")).inputs(VM)

    assert (vm["priority"], vm["evictionPolicy"], vm["billingProfile"]) == ("Spot", "Delete", {"maxPrice": -1})


def test_gpu_vm_joins_a_given_subnet_without_creating_a_vnet(record: Callable[..., Recording]) -> None:
    subnet = (
        "/subscriptions/11111111-2222-3333-4444-555555555555/resourceGroups/net/providers/Microsoft.Network/"
        "virtualNetworks/hub/subnets/gpu"
    )
    rec = record(build_vm(subnet_id=subnet))

    assert rec.of_type("azure-native:network:VirtualNetwork") == []
    assert rec.inputs("azure-native:network:NetworkInterface")["ipConfigurations"][0]["subnet"]["id"] == subnet


def test_gpu_vm_children_are_parented_to_the_component(default_vm: Recording) -> None:
    rec = default_vm
    component = rec.one("azure-gpu-stacks:index:GpuVm")

    children = [r for r in rec.resources if r.parent == component.urn]
    assert {r.type.split(":")[-1] for r in children} >= {"VirtualMachine", "NetworkInterface", "NetworkSecurityGroup"}


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"vm_size": "Standard_NC6"}, "vm_size: 'Standard_NC6' was retired on 2023-09-06"),
        ({"vm_size": "Standard_D4s_v5"}, "vm_size: 'Standard_D4s_v5' has no GPU"),
        ({"vm_size": "Standard_NC4as_T4"}, "did you mean Standard_NC4as_T4_v3"),
        ({"ssh_allowed_cidrs": ["0.0.0.0/33"]}, "ssh_allowed_cidrs[0]: '0.0.0.0/33' is not a CIDR range"),
        ({"subnet_prefix": "10.99.0.0/24"}, "subnet_prefix: '10.99.0.0/24' is not inside the VNet's address space"),
        ({"admin_username": "root"}, "admin_username: 'root' cannot be a Linux admin user"),
        ({"shutdown_time": "25:00"}, "shutdown_time: '25:00' is not a time of day"),
        ({"os_disk_size_gb": 10}, "os_disk_size_gb: 10; allowed: a whole number of GiB from 30 to 4095"),
        ({"os_disk_size_gb": 128.5}, "os_disk_size_gb: 128.5; allowed: a whole number of GiB from 30 to 4095"),
    ],
)
def test_gpu_vm_refuses_bad_args_before_registering_anything(
    record: Callable[..., Recording], overrides: dict[str, Any], expected: str
) -> None:
    with pytest.raises(ComponentInputError) as err:
        record(build_vm(**overrides))

    assert expected in str(err.value)
    assert str(err.value).startswith("GpuVm 't4': ")
