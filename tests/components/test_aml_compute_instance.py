"""AmlComputeInstance: each property the component promises, asserted on what the engine receives.

Expected values come from Learn, "Create an Azure Machine Learning compute instance"
(https://learn.microsoft.com/azure/machine-learning/how-to-create-compute-instance, observed 2026-11-26): idle
shutdown from 15 minutes to 3 days, start/stop schedules as cron expressions, the instance assigned to one user.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from azure_gpu_stacks.components.checks import ComponentInputError
from azure_gpu_stacks.fakeazure import FAKE_TENANT_ID

from tests.conftest import Recording, in_resource_group

COMPUTE = "azure-native:machinelearningservices:Compute"
USER = "6f1c2d3e-4a5b-4c6d-8e7f-0a1b2c3d4e5f"
OUTPUTS = ("compute_name", "vm_size", "idle_time_before_shutdown", "schedule", "principal_id")


def build_instance(**overrides: Any) -> Callable[[], None]:
    """A program: a new workspace (an AmlCluster's), then the instance in it."""

    def build(rg: Any) -> None:
        import pulumi
        from azure_gpu_stacks.components.aml_cluster import AmlCluster
        from azure_gpu_stacks.components.aml_compute_instance import AmlComputeInstance

        cluster = AmlCluster("aml", {"resource_group_name": rg.name, "location": "eastus"})
        args = {
            "resource_group_name": rg.name,
            "workspace_name": cluster.workspace_name,
            "location": "eastus",
            "compute_name": "ana-gpu-dev",
            "assigned_user_object_id": USER,
            **overrides,
        }
        instance = AmlComputeInstance("dev", {k: v for k, v in args.items() if v is not ...})  # type: ignore[typeddict-item]
        for name in OUTPUTS:
            pulumi.export(name, getattr(instance, name))

    return in_resource_group(build)


def instance_inputs(rec: Recording) -> dict[str, Any]:
    [instance] = [r for r in rec.of_type(COMPUTE) if r.plain_inputs()["properties"]["computeType"] == "ComputeInstance"]
    return instance.plain_inputs()


def test_instance_defaults_to_a_t4_for_one_user_that_stops_after_30_idle_minutes(
    record: Callable[..., Recording],
) -> None:
    rec = record(build_instance())
    inputs = instance_inputs(rec)
    props = inputs["properties"]["properties"]

    assert inputs["computeName"] == "ana-gpu-dev"
    assert props["vmSize"] == "Standard_NC4as_T4_v3"
    assert props["idleTimeBeforeShutdown"] == "PT30M"
    assert props["personalComputeInstanceSettings"] == {"assignedUser": {"objectId": USER, "tenantId": FAKE_TENANT_ID}}
    assert props["applicationSharingPolicy"] == "Personal"
    assert props["sshSettings"] == {"sshPublicAccess": "Disabled"}
    assert props["enableNodePublicIp"] is False
    assert "schedules" not in props
    assert rec.outputs["idle_time_before_shutdown"] == "PT30M"
    assert rec.outputs["schedule"] == ""
    assert rec.refusals == []


def test_instance_stop_and_start_schedules_are_cron_on_working_days(record: Callable[..., Recording]) -> None:
    rec = record(build_instance(stop_time="1930", start_time="0800", time_zone="W. Europe Standard Time"))
    schedules = instance_inputs(rec)["properties"]["properties"]["schedules"]["computeStartStop"]

    # cron: minute hour day-of-month month day-of-week, Sunday = 0 (Monday..Friday = 1..5)
    assert schedules == [
        {
            "action": "Stop",
            "triggerType": "Cron",
            "cron": {"expression": "30 19 * * 1,2,3,4,5", "timeZone": "W. Europe Standard Time"},
            "status": "Enabled",
        },
        {
            "action": "Start",
            "triggerType": "Cron",
            "cron": {"expression": "0 8 * * 1,2,3,4,5", "timeZone": "W. Europe Standard Time"},
            "status": "Enabled",
        },
    ]
    assert rec.outputs["schedule"] == (
        "start 0800, stop 1930 Monday, Tuesday, Wednesday, Thursday, Friday (W. Europe Standard Time)"
    )
    assert rec.refusals == []


def test_instance_with_a_stop_schedule_may_turn_idle_shutdown_off(record: Callable[..., Recording]) -> None:
    rec = record(build_instance(idle_shutdown=False, stop_time="2000", schedule_days=["Sunday"]))
    props = instance_inputs(rec)["properties"]["properties"]

    assert "idleTimeBeforeShutdown" not in props
    assert props["schedules"]["computeStartStop"][0]["cron"]["expression"] == "0 20 * * 0"
    assert rec.outputs["idle_time_before_shutdown"] == ""


def test_instance_opens_ssh_only_when_asked_with_a_key(record: Callable[..., Recording]) -> None:
    key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKeyForTestsOnly ana@laptop"
    rec = record(build_instance(enable_ssh=True, ssh_public_key=key))

    assert instance_inputs(rec)["properties"]["properties"]["sshSettings"] == {
        "sshPublicAccess": "Enabled",
        "adminPublicKey": key,
    }


@pytest.mark.parametrize("idle", ["PT15M", "P3D"], ids=["shortest", "longest"])
def test_instance_accepts_azures_idle_range_ends(record: Callable[..., Recording], idle: str) -> None:
    rec = record(build_instance(idle_time_before_shutdown=idle))

    assert instance_inputs(rec)["properties"]["properties"]["idleTimeBeforeShutdown"] == idle
    assert rec.refusals == []


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        (
            {"idle_time_before_shutdown": "PT10M"},
            "idle_time_before_shutdown: 'PT10M' (600 seconds) is out of range; allowed: PT15M to P3D",
        ),
        (
            {"idle_time_before_shutdown": "P4D"},
            "idle_time_before_shutdown: 'P4D' (345600 seconds) is out of range; allowed: PT15M to P3D",
        ),
        ({"idle_shutdown": False}, "idle_shutdown: false with no stop_time: the GPU instance would never stop itself"),
        ({"assigned_user_object_id": ...}, "assigned_user_object_id: required key is missing"),
        (
            {"assigned_user_object_id": "ana@contoso.com"},
            "assigned_user_object_id: 'ana@contoso.com' is not an object id",
        ),
        ({"enable_ssh": True}, "ssh_public_key: required when enable_ssh is true"),
        ({"ssh_public_key": "ssh-ed25519 AAAA"}, "ssh_public_key: only with enable_ssh: true"),
        ({"start_time": "0800"}, "start_time: needs stop_time"),
        ({"stop_time": "7pm"}, "stop_time: '7pm' is not a time of day as HHmm"),
        (
            {"stop_time": "1900", "schedule_days": ["Funday"]},
            "schedule_days: ['Funday']; allowed: one or more of Monday",
        ),
        ({"vm_size": "Standard_D4s_v5"}, "vm_size: 'Standard_D4s_v5' has no GPU; allowed: a GPU size"),
        ({"vm_size": "Standard_NC6"}, "vm_size: 'Standard_NC6' was retired on 2023-09-06"),
        ({"compute_name": "gpu_dev"}, "compute_name: 'gpu_dev' cannot name an Azure ML compute"),
        ({"size": "Standard_NC4as_T4_v3"}, "size: unknown key"),
    ],
)
def test_instance_refuses_bad_args_before_registering_anything(
    record: Callable[..., Recording], fake_arm: Any, overrides: dict[str, Any], expected: str
) -> None:
    with pytest.raises(ComponentInputError) as err:
        record(build_instance(**overrides))

    assert expected in str(err.value)
    assert "AmlComputeInstance 'dev': " in str(err.value)
    assert "ana-gpu-dev" not in [r.name for r in fake_arm.resources()]


def test_instance_reports_every_problem_at_once(record: Callable[..., Recording]) -> None:
    with pytest.raises(ComponentInputError) as err:
        record(build_instance(idle_time_before_shutdown="PT1M", enable_ssh=True, start_time="0800"))

    assert [path for path, _ in err.value.problems] == ["idle_time_before_shutdown", "start_time", "ssh_public_key"]


def test_a_cpu_instance_may_run_without_idle_shutdown_when_gpus_are_not_required(
    record: Callable[..., Recording],
) -> None:
    rec = record(build_instance(vm_size="Standard_D4s_v5", require_gpu=False, idle_shutdown=False))

    assert "idleTimeBeforeShutdown" not in instance_inputs(rec)["properties"]["properties"]
    assert rec.refusals == []
