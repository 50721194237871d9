"""The fake ARM, driven through Pulumi's mocks as a program drives it: each ARM error code, and the
outputs programs read."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pulumi
import pytest
from azure_gpu_stacks.catalog.az_files import AzFileError, read_skus, read_usage
from azure_gpu_stacks.engine.run.runtime import run_program
from azure_gpu_stacks.fakeazure import FAKE_SUBSCRIPTION_ID, FAKE_TENANT_ID, FakeArm

from tests.conftest import TEST_RG, Recording, in_resource_group


def vm(rg: Any, name: str = "vm", size: str = "Standard_NC4as_T4_v3", nic_id: Any = None, **extra: Any) -> Any:
    from pulumi_azure_native import compute

    return compute.VirtualMachine(
        name,
        resource_group_name=rg.name,
        location="eastus",
        hardware_profile=compute.HardwareProfileArgs(vm_size=size),
        network_profile=compute.NetworkProfileArgs(
            network_interfaces=[compute.NetworkInterfaceReferenceArgs(id=nic_id or _nic_id("nic"))]
        ),
        **extra,
    )


def _nic_id(name: str) -> str:
    return (
        f"/subscriptions/{FAKE_SUBSCRIPTION_ID}/resourceGroups/{TEST_RG}"
        f"/providers/Microsoft.Network/networkInterfaces/{name}"
    )


def nic(rg: Any, name: str = "nic") -> Any:
    from pulumi_azure_native import network

    vnet = network.VirtualNetwork(
        f"{name}-vnet",
        resource_group_name=rg.name,
        location="eastus",
        address_space=network.AddressSpaceArgs(address_prefixes=["10.0.0.0/16"]),
    )
    subnet = network.Subnet(
        f"{name}-snet", resource_group_name=rg.name, virtual_network_name=vnet.name, address_prefix="10.0.1.0/24"
    )
    return network.NetworkInterface(
        name,
        network_interface_name=name,
        resource_group_name=rg.name,
        location="eastus",
        ip_configurations=[
            network.NetworkInterfaceIPConfigurationArgs(name="ip", subnet=network.SubnetArgs(id=subnet.id))
        ],
    )


def codes(rec: Recording) -> list[tuple[str, str]]:
    return [(r.resource, r.code) for r in rec.refusals]


def test_fakeazure_accepts_a_vm_with_real_arm_id_and_outputs(record: Callable[..., Recording]) -> None:
    def build(rg: Any) -> None:
        machine = vm(rg, nic_id=nic(rg).id, vm_name="train0", identity={"type": "SystemAssigned"})
        pulumi.export("id", machine.id)
        pulumi.export("state", machine.provisioning_state)

    rec = record(in_resource_group(build))

    assert rec.refusals == []
    assert rec.outputs["id"] == (
        f"/subscriptions/{FAKE_SUBSCRIPTION_ID}/resourceGroups/{TEST_RG}/providers/Microsoft.Compute/virtualMachines/train0"
    )
    assert rec.outputs["state"] == "Succeeded"


def test_fakeazure_auto_names_like_azure_native_and_repeats_itself(record: Callable[..., Recording]) -> None:
    def build(rg: Any) -> None:
        pulumi.export("name", vm(rg, nic_id=nic(rg).id).name)

    first = record(in_resource_group(build)).outputs["name"]
    again = run_program(
        in_resource_group(build), project="p", stack="s", config={}, secret_keys=[], arm=FakeArm()
    ).outputs["name"]

    assert first.startswith("vm") and len(first) == len("vm") + 8
    assert again == first


def test_fakeazure_nic_gets_the_first_free_address_of_its_subnet(record: Callable[..., Recording]) -> None:
    def build(rg: Any) -> None:
        pulumi.export("configs", nic(rg).ip_configurations)

    [config] = record(in_resource_group(build)).outputs["configs"]

    # An export reaches the engine with the wire's (camelCase) names, as `pulumi stack output` shows it.
    assert config["privateIPAddress"] == "10.0.1.4"  # Azure keeps .0 to .3


def test_fakeazure_retired_size_is_sku_not_available(record: Callable[..., Recording]) -> None:
    rec = record(in_resource_group(lambda rg: vm(rg, nic_id=nic(rg).id, size="Standard_NC6s_v3")))

    [refusal] = rec.refusals
    assert (refusal.resource, refusal.code) == ("vm", "SkuNotAvailable")
    assert "retired since 2025-09-30" in refusal.message


def test_fakeazure_unknown_size_is_invalid_parameter_with_close_matches(record: Callable[..., Recording]) -> None:
    [refusal] = record(in_resource_group(lambda rg: vm(rg, nic_id=nic(rg).id, size="Standard_NC4as_T4"))).refusals

    assert refusal.code == "InvalidParameter"
    assert refusal.message.startswith(
        "The value 'Standard_NC4as_T4' provided for the VM size is not valid (hardwareProfile.vmSize). "
        "Did you mean Standard_NC4as_T4_v3"
    )


def test_fakeazure_missing_resource_group(record: Callable[..., Recording]) -> None:
    def program() -> None:
        from pulumi_azure_native import network

        network.NetworkSecurityGroup("nsg", resource_group_name="rg-nowhere", location="eastus")

    rec = record(program)

    assert codes(rec) == [("nsg", "ResourceGroupNotFound")]
    assert rec.refusals[0].message == "Resource group 'rg-nowhere' could not be found."


def test_fakeazure_reference_to_missing_resource(record: Callable[..., Recording]) -> None:
    rec = record(in_resource_group(lambda rg: vm(rg, nic_id=_nic_id("ghost"))))

    assert codes(rec) == [("vm", "ResourceNotFound")]
    assert "networkInterfaces/ghost' was not found" in rec.refusals[0].message


def test_fakeazure_references_into_other_subscriptions_are_taken_as_existing(record: Callable[..., Recording]) -> None:
    elsewhere = (
        "/subscriptions/11111111-1111-1111-1111-111111111111/resourceGroups/hub/providers/"
        "Microsoft.Network/networkInterfaces/n"
    )

    assert record(in_resource_group(lambda rg: vm(rg, nic_id=elsewhere))).refusals == []


def test_fakeazure_duplicate_name_is_a_conflict(record: Callable[..., Recording]) -> None:
    def build(rg: Any) -> None:
        nic_id = nic(rg).id
        vm(rg, "first", nic_id=nic_id, vm_name="same")
        vm(rg, "second", nic_id=nic_id, vm_name="same")

    rec = record(in_resource_group(build))

    [(name, code)] = codes(rec)  # registration order decides which of the two is second
    assert name in {"first", "second"} and code == "Conflict"
    assert "virtualMachines/same' already exists" in rec.refusals[0].message


def test_fakeazure_missing_parent(record: Callable[..., Recording]) -> None:
    def build(rg: Any) -> None:
        from pulumi_azure_native import network

        network.Subnet(
            "snet", resource_group_name=rg.name, virtual_network_name="no-such-vnet", address_prefix="10.0.0.0/24"
        )

    assert codes(record(in_resource_group(build))) == [("snet", "ParentResourceNotFound")]


def test_fakeazure_unknown_region(record: Callable[..., Recording]) -> None:
    def program() -> None:
        from pulumi_azure_native import resources

        resources.ResourceGroup("rg", location="mars-north")

    rec = record(program)

    assert codes(rec) == [("rg", "LocationNotAvailableForResourceType")]


def test_fakeazure_dependents_of_a_refused_resource_are_skipped_not_refused(record: Callable[..., Recording]) -> None:
    def build(rg: Any) -> None:
        from pulumi_azure_native import compute

        machine = vm(rg, nic_id=nic(rg).id, size="Standard_NC6")
        compute.VirtualMachineExtension(
            "ext",
            resource_group_name=rg.name,
            vm_name=machine.name,
            publisher="Microsoft.HpcCompute",
            type="NvidiaGpuDriverLinux",
            type_handler_version="1.6",
        )

    rec = record(in_resource_group(build))

    assert codes(rec) == [("vm", "SkuNotAvailable")]
    assert [name for name, _ in rec.arm.skipped] == ["ext"]


# this month, not its first day (the fake judges budgets on today's date, as Azure does)
MID_MONTH = dt.datetime.now(dt.timezone.utc).date().replace(day=15)


def test_fakeazure_budget_start_must_be_first_of_month(record: Callable[..., Recording]) -> None:
    def build(rg: Any) -> None:
        from pulumi_azure_native import consumption

        consumption.Budget(
            "budget",
            scope=rg.id,
            amount=100,
            category="Cost",
            time_grain="Monthly",
            time_period=consumption.BudgetTimePeriodArgs(start_date=f"{MID_MONTH}T00:00:00Z"),
        )

    rec = record(in_resource_group(build))

    assert codes(rec) == [("budget", "InvalidParameter")]
    assert "first day of a month" in rec.refusals[0].message


def test_fakeazure_client_config_invoke(record: Callable[..., Recording]) -> None:
    def program() -> None:
        from pulumi_azure_native import authorization

        config = authorization.get_client_config_output()
        pulumi.export("subscription", config.subscription_id)
        pulumi.export("tenant", config.tenant_id)

    rec = record(program)

    assert (rec.outputs["subscription"], rec.outputs["tenant"]) == (FAKE_SUBSCRIPTION_ID, FAKE_TENANT_ID)


def test_fakeazure_quota_shortfall_is_operation_not_allowed(tmp_path: Path, record: Callable[..., Recording]) -> None:
    usage = tmp_path / "usage.json"
    usage.write_text(
        json.dumps(
            [
                {
                    "currentValue": "0",
                    "limit": "100",
                    "name": {"value": "cores", "localizedValue": "Total Regional vCPUs"},
                },
                {
                    "currentValue": "0",
                    "limit": "0",
                    "name": {"value": "standardNCASv3_T4Family", "localizedValue": "Standard NCASv3_T4 Family vCPUs"},
                },
            ]
        )
    )

    arm = FakeArm(default_location="eastus", usage=read_usage(usage))

    run_program(
        in_resource_group(lambda rg: vm(rg, nic_id=nic(rg).id)),
        project="p",
        stack="s",
        config={},
        secret_keys=[],
        arm=arm,
    )

    [refusal] = arm.refusals
    assert refusal.code == "OperationNotAllowed"
    assert refusal.message == (
        "Operation could not be completed as it results in exceeding approved standardNCASv3_T4Family Cores quota. "
        "Additional details - Deployment Model: Resource Manager, Location: eastus, Current Limit: 0, Current "
        "Usage: 0, "
        "Additional Required: 4, (Minimum) New Limit Required: 4. Submit a request for Quota increase by specifying "
        "parameters listed in the 'Details' section for deployment to succeed."
    )


def test_fakeazure_size_not_offered_in_region_is_sku_not_available(tmp_path: Path) -> None:
    skus = tmp_path / "skus.json"
    skus.write_text(
        json.dumps(
            [
                {
                    "resourceType": "virtualMachines",
                    "name": "Standard_NC4as_T4_v3",
                    "locations": ["westeurope"],
                    "restrictions": [],
                },
            ]
        )
    )
    arm = FakeArm(default_location="eastus", skus=read_skus(skus))

    run_program(
        in_resource_group(lambda rg: vm(rg, nic_id=nic(rg).id)),
        project="p",
        stack="s",
        config={},
        secret_keys=[],
        arm=arm,
    )

    [refusal] = arm.refusals
    assert refusal.code == "SkuNotAvailable"
    assert "not available in location 'eastus': not offered in eastus" in refusal.message


def test_fakeazure_usage_file_accepts_cli_strings_and_rest_numbers(tmp_path: Path) -> None:
    path = tmp_path / "usage.json"
    path.write_text(
        json.dumps(
            [
                {"currentValue": "3", "limit": "8", "name": {"value": "standardNCASv3_T4Family"}},
                {"currentValue": 0, "limit": 96, "name": {"value": "Standard NDASv4_A100 Family"}},
            ]
        )
    )

    usage = read_usage(path)

    assert usage["standardncasv3_t4family"].free == 5
    assert usage["standardndasv4_a100family"].limit == 96


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("not json", "not JSON (line 1, column 1"),
        ('{"value": []}', "expected the JSON list that `az vm list-usage -l REGION -o json` writes"),
        (
            '[{"limit": "x", "currentValue": "0", "name": {"value": "cores"}}]',
            "entry [0].limit: 'x' is not a whole number",
        ),
    ],
)
def test_fakeazure_bad_usage_file_names_file_and_entry(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "usage.json"
    path.write_text(text)

    with pytest.raises(AzFileError) as err:
        read_usage(path)

    assert str(err.value).startswith(str(path)) and expected in str(err.value)
