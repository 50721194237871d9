"""The refusals Azure gives for inputs like ours, with Azure's codes, each driven through Pulumi's mocks
as a program drives the fake ARM (issue: Azure fidelity)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from azure_gpu_stacks.engine.run.runtime import run_program
from azure_gpu_stacks.fakeazure import FAKE_SUBSCRIPTION_ID, FakeArm, errors

from tests.conftest import TEST_RG, TEST_SSH_KEY, Recording, in_resource_group

OTHER_RG = "rg-other"


def refusals(rec: Recording) -> list[tuple[str, str]]:
    return [(r.resource, r.code) for r in rec.refusals]


def message_of(rec: Recording, resource: str) -> str:
    [found] = [r for r in rec.refusals if r.resource == resource]
    return found.message


def _vnet(rg: Any, name: str = "net", *, default_outbound: bool | None = None) -> Any:
    from pulumi_azure_native import network

    vnet = network.VirtualNetwork(
        f"{name}-vnet",
        resource_group_name=rg.name,
        location="eastus",
        address_space=network.AddressSpaceArgs(address_prefixes=["10.0.0.0/16"]),
    )
    return network.Subnet(
        f"{name}-snet",
        resource_group_name=rg.name,
        virtual_network_name=vnet.name,
        address_prefix="10.0.1.0/24",
        default_outbound_access=default_outbound,
    )


def _vm(
    rg: Any,
    name: str,
    size: str,
    *,
    image_sku: str = "22_04-lts-gen2",
    accelerated: bool = False,
    default_outbound: bool | None = None,
    public_ip: bool = False,
    security_type: str | None = None,
) -> Any:
    from pulumi_azure_native import compute, network

    subnet = _vnet(rg, name, default_outbound=default_outbound)
    pip = network.PublicIPAddress(f"{name}-pip", resource_group_name=rg.name, location="eastus") if public_ip else None
    nic = network.NetworkInterface(
        f"{name}-nic",
        resource_group_name=rg.name,
        location="eastus",
        enable_accelerated_networking=accelerated,
        ip_configurations=[
            network.NetworkInterfaceIPConfigurationArgs(
                name="ip",
                subnet=network.SubnetArgs(id=subnet.id),
                public_ip_address=network.PublicIPAddressArgs(id=pip.id) if pip else None,
            )
        ],
    )
    return compute.VirtualMachine(
        name,
        vm_name=name,
        resource_group_name=rg.name,
        location="eastus",
        hardware_profile=compute.HardwareProfileArgs(vm_size=size),
        storage_profile=compute.StorageProfileArgs(
            image_reference=compute.ImageReferenceArgs(
                publisher="Canonical", offer="0001-com-ubuntu-server-jammy", sku=image_sku, version="latest"
            )
        ),
        os_profile=compute.OSProfileArgs(
            computer_name=name,
            admin_username="azureuser",
            linux_configuration=compute.LinuxConfigurationArgs(
                disable_password_authentication=True,
                ssh=compute.SshConfigurationArgs(
                    public_keys=[
                        compute.SshPublicKeyArgs(path="/home/azureuser/.ssh/authorized_keys", key_data=TEST_SSH_KEY)
                    ]
                ),
            ),
        ),
        network_profile=compute.NetworkProfileArgs(
            network_interfaces=[compute.NetworkInterfaceReferenceArgs(id=nic.id)]
        ),
        security_profile=compute.SecurityProfileArgs(security_type=security_type) if security_type else None,
    )


def test_subnet_outside_its_vnet_is_netcfg_subnet_range_outside_vnet(record: Callable[..., Recording]) -> None:
    def build(rg: Any) -> None:
        from pulumi_azure_native import network

        vnet = network.VirtualNetwork(
            "vnet",
            virtual_network_name="vnet",
            resource_group_name=rg.name,
            location="eastus",
            address_space=network.AddressSpaceArgs(address_prefixes=["10.0.0.0/16"]),
        )
        network.Subnet(
            "snet",
            subnet_name="snet",
            resource_group_name=rg.name,
            virtual_network_name=vnet.name,
            address_prefix="10.9.0.0/24",
        )

    rec = record(in_resource_group(build))

    assert refusals(rec) == [("snet", "NetcfgSubnetRangeOutsideVnet")]
    assert message_of(rec, "snet") == (
        "Subnet 'snet' is not valid because its IP address range 10.9.0.0/24 is outside the IP address range of "
        "virtual network 'vnet'."
    )


def test_two_nsg_rules_with_one_priority_and_direction_are_a_security_rule_conflict(
    record: Callable[..., Recording],
) -> None:
    def build(rg: Any) -> None:
        from pulumi_azure_native import network

        rule = {
            "protocol": "Tcp",
            "access": "Allow",
            "direction": "Inbound",
            "priority": 300,
            "source_address_prefix": "*",
            "source_port_range": "*",
            "destination_address_prefix": "*",
        }
        network.NetworkSecurityGroup(
            "nsg",
            resource_group_name=rg.name,
            location="eastus",
            security_rules=[
                network.SecurityRuleArgs(name="ssh", destination_port_range="22", **rule),
                network.SecurityRuleArgs(name="https", destination_port_range="443", **rule),
            ],
        )

    rec = record(in_resource_group(build))

    assert refusals(rec) == [("nsg", "SecurityRuleConflict")]
    assert message_of(rec, "nsg").startswith(
        "Security rule https conflicts with rule ssh. Rules cannot have the same Priority and Direction"
    )


def _vault(rg: Any, name: str, **properties: Any) -> None:
    from pulumi_azure_native import keyvault

    keyvault.Vault(
        "kv",
        vault_name=name,
        resource_group_name=rg.name,
        properties=keyvault.VaultPropertiesArgs(
            tenant_id="00000000-0000-0000-0000-0000000000bb",
            sku=keyvault.SkuArgs(family="A", name="standard"),
            **properties,
        ),
    )


def test_bad_key_vault_name_is_vault_name_not_valid(record: Callable[..., Recording]) -> None:
    rec = record(in_resource_group(lambda rg: _vault(rg, "kv--gpu")))

    assert refusals(rec) == [("kv", "VaultNameNotValid")]
    assert message_of(rec, "kv").startswith("The vault name 'kv--gpu' is invalid. A vault's name must be between 3-24")


def test_purge_protection_switched_off_is_bad_request(record: Callable[..., Recording]) -> None:
    rec = record(in_resource_group(lambda rg: _vault(rg, "kv-gpu", enable_purge_protection=False)))

    assert refusals(rec) == [("kv", "BadRequest")]
    assert 'The property "enablePurgeProtection" cannot be set to false.' in message_of(rec, "kv")


def _schedule(rg: Any, vm: Any, name: str, group: Any, time_zone: str = "UTC") -> None:
    from pulumi_azure_native import devtestlab

    devtestlab.GlobalSchedule(
        "shutdown",
        name=name,
        resource_group_name=group,
        location="eastus",
        status="Enabled",
        task_type="ComputeVmShutdownTask",
        daily_recurrence=devtestlab.DayDetailsArgs(time="1900"),
        time_zone_id=time_zone,
        target_resource_id=vm.id,
    )


def test_shutdown_schedule_in_an_iana_time_zone_is_invalid_parameter(record: Callable[..., Recording]) -> None:
    def build(rg: Any) -> None:
        _schedule(rg, _vm(rg, "gpu", "Standard_NC4as_T4_v3"), "shutdown-computevm-gpu", rg.name, "Europe/Berlin")

    rec = record(in_resource_group(build))

    assert refusals(rec) == [("shutdown", "InvalidParameter")]
    assert message_of(rec, "shutdown") == (
        "timeZoneId 'Europe/Berlin' is an IANA time zone name (did you mean W. Europe Standard Time?); allowed: a "
        "Windows time zone id, e.g. UTC, W. Europe Standard Time, Eastern Standard Time (all of them: `tzutil /l` on "
        "Windows, or `Get-TimeZone -ListAvailable` in PowerShell)."
    )


@pytest.mark.parametrize(
    ("schedule_name", "other_group", "got"),
    [
        ("shutdown-vm-gpu", False, "got 'shutdown-vm-gpu' in resource group 'rg-test'"),
        ("shutdown-computevm-gpu", True, "got 'shutdown-computevm-gpu' in resource group 'rg-other'"),
    ],
)
def test_misnamed_or_misplaced_shutdown_schedule_is_invalid_schedule_id(
    record: Callable[..., Recording], schedule_name: str, other_group: bool, got: str
) -> None:
    def build(rg: Any) -> None:
        from pulumi_azure_native import resources

        other = resources.ResourceGroup("other", resource_group_name=OTHER_RG, location="eastus")
        vm = _vm(rg, "gpu", "Standard_NC4as_T4_v3")
        _schedule(rg, vm, schedule_name, other.name if other_group else rg.name)

    rec = record(in_resource_group(build))

    assert refusals(rec) == [("shutdown", "InvalidScheduleId")]
    assert message_of(rec, "shutdown") == (
        f"The schedule should be created in subscription {FAKE_SUBSCRIPTION_ID}, resource group {TEST_RG} and with "
        f"name shutdown-computevm-gpu; {got}."
    )


def test_accelerated_networking_on_a_size_without_it_is_refused(record: Callable[..., Recording]) -> None:
    rec = record(in_resource_group(lambda rg: _vm(rg, "cc", "Standard_NCC40ads_H100_v5", accelerated=True)))

    assert refusals(rec) == [("cc", "VMSizeIsNotPermittedToEnableAcceleratedNetworking")]
    assert "Standard_NCC40ads_H100_v5 is not in the allowed list of VM sizes for accelerated networking" in message_of(
        rec, "cc"
    )


def test_gen1_image_on_a_gen2_only_size_is_bad_request(record: Callable[..., Recording]) -> None:
    rec = record(in_resource_group(lambda rg: _vm(rg, "a100", "Standard_NC24ads_A100_v4", image_sku="22_04-lts")))

    assert refusals(rec) == [("a100", "BadRequest")]
    assert "the selected VM size 'Standard_NC24ads_A100_v4' cannot boot Hypervisor Generation '1'" in message_of(
        rec, "a100"
    )


def test_gen1_image_on_a_size_with_both_generations_is_accepted(record: Callable[..., Recording]) -> None:
    assert (
        record(in_resource_group(lambda rg: _vm(rg, "t4", "Standard_NC4as_T4_v3", image_sku="22_04-lts"))).refusals
        == []
    )


def _driver(vm: Any, rg: Any) -> None:
    from pulumi_azure_native import compute

    compute.VirtualMachineExtension(
        "driver",
        vm_extension_name="NvidiaGpuDriverLinux",
        vm_name=vm.name,
        resource_group_name=rg.name,
        location="eastus",
        publisher="Microsoft.HpcCompute",
        type="NvidiaGpuDriverLinux",
        type_handler_version="1.6",
    )


@pytest.mark.parametrize(
    ("default_outbound", "public_ip", "refused"),
    [(False, False, True), (False, True, False), (None, False, False), (True, False, False)],
)
def test_nvidia_driver_extension_needs_an_outbound_path(
    record: Callable[..., Recording], default_outbound: bool | None, public_ip: bool, refused: bool
) -> None:
    def build(rg: Any) -> None:
        _driver(_vm(rg, "gpu", "Standard_NC4as_T4_v3", default_outbound=default_outbound, public_ip=public_ip), rg)

    rec = record(in_resource_group(build))

    assert refusals(rec) == ([("driver", "VMExtensionProvisioningError")] if refused else [])
    if refused:
        assert "the machine's subnet has no outbound path" in message_of(rec, "driver")


def test_admin_kubeconfig_of_a_cluster_without_local_accounts_is_refused(record: Callable[..., Recording]) -> None:
    def build(rg: Any) -> None:
        from pulumi_azure_native import containerservice

        cluster = containerservice.ManagedCluster(
            "aks",
            resource_name_="aks1",
            resource_group_name=rg.name,
            location="eastus",
            dns_prefix="aks1",
            disable_local_accounts=True,
            aad_profile=containerservice.ManagedClusterAADProfileArgs(managed=True, enable_azure_rbac=True),
            agent_pool_profiles=[
                containerservice.ManagedClusterAgentPoolProfileArgs(
                    name="system", mode="System", count=1, vm_size="Standard_D4s_v5"
                )
            ],
        )
        containerservice.list_managed_cluster_admin_credentials_output(
            resource_group_name=rg.name, resource_name=cluster.name
        )

    with pytest.raises(
        Exception,
        match="BadRequest: Getting static credential is not allowed because this cluster is set to disable local "
        "accounts",
    ):
        record(in_resource_group(build))


@pytest.mark.parametrize(
    ("deployer", "principal_type", "refused"),
    [
        ("ServicePrincipal", "User", True),
        ("User", "ServicePrincipal", True),
        ("ServicePrincipal", "ServicePrincipal", False),
    ],
)
def test_role_assignment_for_the_deployer_with_the_wrong_principal_type_is_refused(
    deployer: str, principal_type: str, refused: bool
) -> None:
    def build(rg: Any) -> None:
        from pulumi_azure_native import authorization

        client = authorization.get_client_config_output()
        authorization.RoleAssignment(
            "deployer-admin",
            scope=rg.id,
            principal_id=client.object_id,
            principal_type=principal_type,
            role_definition_id=f"/subscriptions/{FAKE_SUBSCRIPTION_ID}/providers/Microsoft.Authorization/roleDefinitions/b1ff04bb-8a4e-4dc4-8eb5-8693973ce19b",
        )

    arm = FakeArm(default_location="eastus", deployer_principal_type=deployer)
    run_program(in_resource_group(build), project="p", stack="s", config={}, secret_keys=[], arm=arm)

    assert [(r.resource, r.code) for r in arm.refusals] == (
        [("deployer-admin", "UnmatchedPrincipalType")] if refused else []
    )
    if refused:
        assert arm.refusals[0].message.endswith(
            f"has type '{deployer}' , which is different from specified PrincipalType '{principal_type}'."
        )


@pytest.mark.parametrize(
    ("error", "code", "status"),
    [
        (errors.OperationNotAllowed, "OperationNotAllowed", 409),
        (errors.QuotaExceeded, "QuotaExceeded", 400),
        (errors.InvalidParameter, "InvalidParameter", 400),
        (errors.SkuNotAvailable, "SkuNotAvailable", 409),
        (errors.BadRequest, "BadRequest", 400),
        (errors.ResourceNotFound, "ResourceNotFound", 404),
        (errors.Conflict, "Conflict", 409),
        (errors.NetcfgSubnetRangeOutsideVnet, "NetcfgSubnetRangeOutsideVnet", 400),
        (errors.UnmatchedPrincipalType, "UnmatchedPrincipalType", 400),
    ],
)
def test_each_code_carries_azures_http_status(error: type[errors.ArmError], code: str, status: int) -> None:
    assert (error.code, error.status) == (code, status)


@pytest.mark.parametrize(
    ("day", "version", "refused"),
    [
        ("2026-11-22", "1.35", False),
        ("2026-11-22", "1.35.1", False),
        ("2026-11-22", "1.31", True),
        ("2026-11-22", "1.40", True),
        ("2026-11-22", "1.33", True),
        ("2026-07-15", "1.33", False),
    ],
)
def test_kubernetes_version_outside_aks_supported_list_on_the_day_is_refused(
    day: str, version: str, refused: bool
) -> None:
    def build(rg: Any) -> None:
        from pulumi_azure_native import containerservice

        containerservice.ManagedCluster(
            "aks",
            resource_name_="aks1",
            resource_group_name=rg.name,
            location="eastus",
            dns_prefix="aks1",
            kubernetes_version=version,
            agent_pool_profiles=[
                containerservice.ManagedClusterAgentPoolProfileArgs(
                    name="system", mode="System", count=1, vm_size="Standard_D4s_v5"
                )
            ],
        )

    arm = FakeArm(default_location="eastus", now=dt.datetime.fromisoformat(f"{day}T12:00:00+00:00"))
    run_program(in_resource_group(build), project="p", stack="s", config={}, secret_keys=[], arm=arm)

    assert [(r.resource, r.code) for r in arm.refusals] == (
        [("aks", "AgentPoolK8sVersionNotSupported")] if refused else []
    )
    if refused:
        assert arm.refusals[0].message.startswith(
            f"Managed cluster 'aks1': version {version} is not supported in this region. "
            "Please use [az aks get-versions]"
        )
        assert arm.refusals[0].message.endswith(f"(supported on {day}: 1.34, 1.35, 1.36, 1.37).")
