"""A VM's auto-shutdown schedule (a DevTest Labs global schedule) as the fake ARM judges and answers it
(fakeazure/models/devtestlab.py), in-process (`FakeArm().put`), no plan.

Sources, observed 2026-11-27: the REST spec's example GlobalSchedules_CreateOrUpdate (Azure/azure-rest-api-specs,
specification/devtestlabs/resource-manager/Microsoft.DevTestLab/stable/2018-09-15, in tests/data/azure-specs: a
LabVmsStartupTask with no targetResourceId, `timeZoneId` "Hawaiian Standard Time", a recurrence `time` "0700");
the spec's timeZoneId ("The possible values for this property can be found in TimeZoneConverter.TZConvert.
KnownWindowsTimeZoneIds": Windows ids); Azure's answer to a VM shutdown schedule not named
`shutdown-computevm-<vm>` in the VM's resource group (InvalidScheduleId, "The schedule should be created in
subscription ..., resource group ... and with name shutdown-computevm-<vm>", quoted in public issue threads).
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from azure_gpu_stacks.catalog.arm.bodies import from_arm_body
from azure_gpu_stacks.fakeazure import FakeArm

from tests.conftest import REPO, arm_refusal

SCHEDULE = "azure-native:devtestlab:GlobalSchedule"
SPECS = REPO / "tests" / "data" / "azure-specs" / "devtestlabs" / "microsoft.devtestlab" / "2018-09-15"
RG = "rg-shutdown"
NOW = dt.datetime(2026, 11, 27, 9, 30, tzinfo=dt.timezone.utc)
UBUNTU = {"publisher": "Canonical", "offer": "ubuntu-24_04-lts", "sku": "server", "version": "latest"}
SSH = {"path": "/home/azureuser/.ssh/authorized_keys", "keyData": "ssh-rsa AAAA"}


def _example() -> dict[str, Any]:
    examples = json.loads((SPECS / "examples.json").read_text(encoding="utf-8"))["examples"]
    [body] = [e["body"] for e in examples if e["title"] == "GlobalSchedules_CreateOrUpdate"]
    return from_arm_body(SCHEDULE, body)


@pytest.fixture
def vm_arm() -> FakeArm:
    """A subscription holding a T4 VM `gpu-vm` in RG, fresh for each test (a schedule of the same name would be a
    Conflict)."""
    arm = FakeArm(default_location="eastus", now=NOW)
    arm.put("azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": RG, "location": "eastus"}, "rg")
    vnet = {"resourceGroupName": RG, "virtualNetworkName": "vn", "addressSpace": {"addressPrefixes": ["10.0.0.0/16"]}}
    arm.put("azure-native:network:VirtualNetwork", "vn", vnet, "vn")
    subnet = {"resourceGroupName": RG, "virtualNetworkName": "vn", "subnetName": "sn", "addressPrefix": "10.0.1.0/24"}
    subnet_id = arm.put("azure-native:network:Subnet", "sn", subnet, "sn").id
    nic = {
        "resourceGroupName": RG,
        "networkInterfaceName": "nic",
        "ipConfigurations": [{"name": "ip", "subnet": {"id": subnet_id}}],
    }
    nic_id = arm.put("azure-native:network:NetworkInterface", "nic", nic, "nic").id
    linux = {"disablePasswordAuthentication": True, "ssh": {"publicKeys": [SSH]}}
    vm = {
        "resourceGroupName": RG,
        "vmName": "gpu-vm",
        "hardwareProfile": {"vmSize": "Standard_NC4as_T4_v3"},
        "networkProfile": {"networkInterfaces": [{"id": nic_id}]},
        "storageProfile": {"imageReference": UBUNTU},
        "osProfile": {"computerName": "gpu-vm", "adminUsername": "azureuser", "linuxConfiguration": linux},
    }
    arm.put("azure-native:compute:VirtualMachine", "vm", vm, "vm")
    return arm


def vm_id(arm: FakeArm) -> str:
    return (
        f"/subscriptions/{arm.subscription_id}/resourceGroups/{RG}/providers/Microsoft.Compute/virtualMachines/gpu-vm"
    )


def shutdown(arm: FakeArm, **changes: Any) -> dict[str, Any]:
    """The portal's auto-shutdown of `gpu-vm` at 19:00 W. Europe time, as Azure wants it named."""
    return {
        "resourceGroupName": RG,
        "name": "shutdown-computevm-gpu-vm",
        "location": "eastus",
        "status": "Enabled",
        "taskType": "ComputeVmShutdownTask",
        "dailyRecurrence": {"time": "1900"},
        "timeZoneId": "W. Europe Standard Time",
        "targetResourceId": vm_id(arm),
        **changes,
    }


def put(arm: FakeArm, props: dict[str, Any]) -> Any:
    return arm.put(SCHEDULE, props["name"], props, f"urn:{props['name']}:{len(arm.resources())}")


def test_the_spec_example_without_a_target_is_accepted_and_answers_when_it_was_created() -> None:
    arm = FakeArm(default_location="eastus", now=NOW)
    arm.put("azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": RG, "location": "eastus"}, "rg")

    outputs = put(arm, {**_example(), "resourceGroupName": RG, "location": "eastus"}).outputs

    assert arm.refusals == []
    assert outputs["provisioningState"] == "Succeeded" and dt.datetime.fromisoformat(outputs["createdDate"]) == NOW


def test_a_vm_shutdown_named_as_azure_wants_is_accepted_in_any_letter_case(vm_arm: FakeArm) -> None:
    put(vm_arm, shutdown(vm_arm, name="Shutdown-ComputeVM-GPU-VM", resourceGroupName=RG.upper()))

    assert vm_arm.refusals == []


@pytest.mark.parametrize(
    "changes",
    [{"name": "shutdown-gpu-vm"}, {"resourceGroupName": "rg-other"}],
    ids=["another-name", "another-group"],
)
def test_a_vm_shutdown_named_otherwise_or_elsewhere_is_refused_saying_where_and_what(
    vm_arm: FakeArm, changes: dict[str, Any]
) -> None:
    vm_arm.put(
        "azure-native:resources:ResourceGroup", "rg2", {"resourceGroupName": "rg-other", "location": "eastus"}, "rg2"
    )
    props = shutdown(vm_arm, **changes)

    error = arm_refusal(lambda: put(vm_arm, props))

    assert error.code == "InvalidScheduleId"
    assert error.message.startswith(
        f"The schedule should be created in subscription {vm_arm.subscription_id}, resource group {RG} and with name "
        "shutdown-computevm-gpu-vm;"
    )
    assert f"got '{props['name']}' in resource group '{props['resourceGroupName']}'" in error.message


def test_another_task_type_may_be_named_freely(vm_arm: FakeArm) -> None:
    put(vm_arm, shutdown(vm_arm, name="start-gpu-vm", taskType="LabVmsStartupTask"))

    assert vm_arm.refusals == []


def test_a_schedule_for_a_vm_that_does_not_exist_is_refused_naming_the_target(vm_arm: FakeArm) -> None:
    missing = vm_id(vm_arm).replace("gpu-vm", "gone")

    error = arm_refusal(lambda: put(vm_arm, shutdown(vm_arm, name="shutdown-computevm-gone", targetResourceId=missing)))

    assert error.code == "ResourceNotFound" and "(targetResourceId)" in error.message


@pytest.mark.parametrize("time", ["0000", "2359", "0700"])
def test_a_time_of_day_as_hhmm_is_accepted(vm_arm: FakeArm, time: str) -> None:
    put(vm_arm, shutdown(vm_arm, dailyRecurrence={"time": time}))

    assert vm_arm.refusals == []


@pytest.mark.parametrize("time", ["2400", "1960", "190", "19000", "19:0", "7 pm"])
def test_a_time_that_is_not_hhmm_is_refused_naming_it(vm_arm: FakeArm, time: str) -> None:
    error = arm_refusal(lambda: put(vm_arm, shutdown(vm_arm, dailyRecurrence={"time": time})))

    assert error.code == "InvalidParameter"
    assert error.message == f"dailyRecurrence.time {time!r} is not a time of day as HHmm (e.g. 1900)."


def test_a_schedule_without_a_daily_time_or_time_zone_is_accepted(vm_arm: FakeArm) -> None:
    props = shutdown(vm_arm)
    del props["dailyRecurrence"], props["timeZoneId"]

    put(vm_arm, props)

    assert vm_arm.refusals == []


@pytest.mark.parametrize(
    ("zone", "says"),
    [
        ("Europe/Berlin", "'Europe/Berlin' is an IANA time zone name"),
        ("Mars Standard Time", "'Mars Standard Time' is not a Windows time zone id"),
    ],
)
def test_a_time_zone_that_is_no_windows_id_is_refused_naming_it(vm_arm: FakeArm, zone: str, says: str) -> None:
    error = arm_refusal(lambda: put(vm_arm, shutdown(vm_arm, timeZoneId=zone)))

    assert error.code == "InvalidParameter" and error.message.startswith(f"timeZoneId {says}")
