"""require-aml-gpu-instance-shutdown: from a GPU compute instance that stops after idling, one change per test.

The compliant instance is shaped as Learn's "Create an Azure Machine Learning compute instance" sets one up
(https://learn.microsoft.com/azure/machine-learning/how-to-create-compute-instance, observed 2026-11-26): idle shutdown
PT30M (Azure accepts PT15M to P3D), or a cron Stop schedule.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.policy_helpers import UNKNOWN, Res, changed, found

POLICY = "require-aml-gpu-instance-shutdown"
COMPUTE = "azure-native:machinelearningservices:Compute"
GPU_SIZE = "Standard_NC4as_T4_v3"
SETTINGS = ("properties", "properties")
COMPLIANT = {
    "resourceGroupName": "rg",
    "workspaceName": "ws",
    "computeName": "ana-gpu-dev",
    "properties": {
        "computeType": "ComputeInstance",
        "properties": {
            "vmSize": GPU_SIZE,
            "idleTimeBeforeShutdown": "PT30M",
            "personalComputeInstanceSettings": {
                "assignedUser": {
                    "objectId": "6f1c2d3e-4a5b-4c6d-8e7f-0a1b2c3d4e5f",
                    "tenantId": "72f988bf-86f1-41af-91ab-2d7cd011db47",
                }
            },
        },
    },
}
STOP_AT_SEVEN = {
    "action": "Stop",
    "triggerType": "Cron",
    "cron": {"expression": "0 19 * * 1-5", "timeZone": "UTC"},
    "status": "Enabled",
}
NEVER_STOPS = (
    f"GPU compute instance ({GPU_SIZE}) never stops itself: properties.properties.idleTimeBeforeShutdown is not set "
    "and properties.properties.schedules has no enabled Stop schedule; it bills every hour it is left running. Set "
    "idleTimeBeforeShutdown (from PT15M to P3D, e.g. PT30M) or a Stop schedule."
)


def without_idle_shutdown(**schedules: Any) -> dict[str, Any]:
    props = changed(COMPLIANT, (*SETTINGS, "idleTimeBeforeShutdown"), ...)
    return changed(props, (*SETTINGS, "schedules"), schedules) if schedules else props


def test_passes_an_instance_that_stops_after_idling() -> None:
    assert found([Res(COMPUTE, "pass_instance", COMPLIANT)], POLICY) == []


def test_refuses_an_instance_with_neither_idle_shutdown_nor_a_schedule() -> None:
    instance = Res(COMPUTE, "fail_instance", without_idle_shutdown())

    assert found([instance], POLICY) == [("mandatory", "fail_instance", NEVER_STOPS)]


def test_passes_an_instance_that_stops_on_a_schedule_instead() -> None:
    instance = Res(COMPUTE, "pass_instance", without_idle_shutdown(computeStartStop=[STOP_AT_SEVEN]))

    assert found([instance], POLICY) == []


@pytest.mark.parametrize(
    "schedule",
    [
        {**STOP_AT_SEVEN, "action": "Start"},
        {**STOP_AT_SEVEN, "status": "Disabled"},
    ],
    ids=["only-starts", "stop-disabled"],
)
def test_refuses_schedules_that_never_stop_it(schedule: dict[str, Any]) -> None:
    instance = Res(COMPUTE, "fail_instance", without_idle_shutdown(computeStartStop=[schedule]))

    assert found([instance], POLICY) == [("mandatory", "fail_instance", NEVER_STOPS)]


def test_a_disabled_stop_schedule_beside_an_enabled_one_passes() -> None:
    schedules = [{**STOP_AT_SEVEN, "status": "Disabled"}, STOP_AT_SEVEN]
    instance = Res(COMPUTE, "pass_instance", without_idle_shutdown(computeStartStop=schedules))

    assert found([instance], POLICY) == []


def test_ignores_cpu_instances_clusters_and_unknowns() -> None:
    cpu = Res(COMPUTE, "pass_cpu", changed(without_idle_shutdown(), (*SETTINGS, "vmSize"), "Standard_D4s_v5"))
    cluster = Res(
        COMPUTE, "pass_cluster", changed(without_idle_shutdown(), ("properties", "computeType"), "AmlCompute")
    )
    idle_unknown = Res(COMPUTE, "pass_unknown_idle", changed(COMPLIANT, (*SETTINGS, "idleTimeBeforeShutdown"), UNKNOWN))
    schedule_unknown = Res(COMPUTE, "pass_unknown_schedule", without_idle_shutdown(computeStartStop=UNKNOWN))

    assert found([cpu, cluster, idle_unknown, schedule_unknown], POLICY) == []


def test_the_level_can_be_lowered_to_advisory() -> None:
    instance = Res(COMPUTE, "fail_instance", without_idle_shutdown())

    assert found([instance], POLICY, {POLICY: "advisory"}) == [("advisory", "fail_instance", NEVER_STOPS)]


@pytest.mark.parametrize("unknown", ["action", "status"])
def test_a_schedule_known_only_after_deployment_is_given_the_benefit_of_the_doubt(unknown: str) -> None:
    instance = Res(
        COMPUTE, "pass_instance", without_idle_shutdown(computeStartStop=[{**STOP_AT_SEVEN, unknown: UNKNOWN}])
    )

    assert found([instance], POLICY) == []
