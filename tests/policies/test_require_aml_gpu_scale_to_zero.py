"""require-aml-gpu-scale-to-zero: from a GPU cluster that scales to zero quickly, one change per test."""

from __future__ import annotations

from typing import Any

import pytest

from tests.policy_helpers import UNKNOWN, Res, changed, found

POLICY = "require-aml-gpu-scale-to-zero"
COMPUTE = "azure-native:machinelearningservices:Compute"
GPU_SIZE = "Standard_NC24ads_A100_v4"
MAX_IDLE = "PT30M"  # the pack's default limit (docs/policies.md)
COMPLIANT = {
    "resourceGroupName": "rg",
    "workspaceName": "ws",
    "properties": {
        "computeType": "AmlCompute",
        "properties": {
            "vmSize": GPU_SIZE,
            "vmPriority": "LowPriority",
            "scaleSettings": {"minNodeCount": 0.0, "maxNodeCount": 4.0, "nodeIdleTimeBeforeScaleDown": "PT15M"},
        },
    },
}
SCALE = ("properties", "properties", "scaleSettings")
IDLE = "properties.properties.scaleSettings.nodeIdleTimeBeforeScaleDown"
# what the policy says of each idle time, by what is wrong with it
MESSAGES = {
    "unset": f"{IDLE} is not set; set an idle time of at most {MAX_IDLE}, e.g. PT15M.",
    "too-long": f"{IDLE} is 'PT2H', longer than {MAX_IDLE}; idle GPU nodes bill until then.",
    "not-iso": f"{IDLE} is '30 minutes', not an ISO 8601 duration; use e.g. PT15M (at most {MAX_IDLE}).",
    "minimum": (
        f"properties.properties.scaleSettings.minNodeCount is 1, so 1 {GPU_SIZE} node bills while idle; set it to 0."
    ),
}


def test_passes_a_cluster_that_scales_to_zero_quickly() -> None:
    assert found([Res(COMPUTE, "pass_cluster", COMPLIANT)], POLICY) == []


def test_flags_a_minimum_above_zero() -> None:
    cluster = Res(COMPUTE, "fail_cluster", changed(COMPLIANT, (*SCALE, "minNodeCount"), 1.0))

    assert found([cluster], POLICY) == [("advisory", "fail_cluster", MESSAGES["minimum"])]


@pytest.mark.parametrize(
    ("idle", "wrong"),
    [(..., "unset"), ("PT2H", "too-long"), (1800.0, "unset"), ("30 minutes", "not-iso")],
    ids=["missing", "too-long", "a-number", "not-iso"],
)
def test_flags_an_unbounded_idle_time(idle: Any, wrong: str) -> None:
    cluster = Res(COMPUTE, "fail_cluster", changed(COMPLIANT, (*SCALE, "nodeIdleTimeBeforeScaleDown"), idle))

    assert found([cluster], POLICY) == [("advisory", "fail_cluster", MESSAGES[wrong])]


def test_idle_limit_is_configurable() -> None:
    cluster = Res(COMPUTE, "pass_cluster", changed(COMPLIANT, (*SCALE, "nodeIdleTimeBeforeScaleDown"), "PT1H"))

    assert found([cluster], POLICY, {POLICY: {"maxIdleMinutes": 60}}) == []


@pytest.mark.parametrize("idle", ["pt1h", "PT0.5H", "P1W"])
def test_reads_durations_as_azure_does(idle: str) -> None:
    # XML Schema's duration (what ARM's `format: duration` is): upper-case designators, fractions of seconds
    # only, no weeks; one parser for the components and this policy (catalog/durations.py).
    cluster = Res(COMPUTE, "fail_cluster", changed(COMPLIANT, (*SCALE, "nodeIdleTimeBeforeScaleDown"), idle))

    assert found([cluster], POLICY, {POLICY: {"maxIdleMinutes": 60}}) == [
        ("advisory", "fail_cluster", f"{IDLE} is '{idle}', not an ISO 8601 duration; use e.g. PT15M (at most PT60M).")
    ]


def test_ignores_cpu_clusters_other_compute_types_and_unknowns() -> None:
    cpu = Res(COMPUTE, "pass_cpu", changed(COMPLIANT, ("properties", "properties", "vmSize"), "Standard_D4s_v5"))
    instance = Res(COMPUTE, "pass_instance", changed(COMPLIANT, ("properties", "computeType"), "ComputeInstance"))
    preview = Res(COMPUTE, "pass_preview", changed(COMPLIANT, SCALE, UNKNOWN))

    assert found([cpu, instance, preview], POLICY) == []
