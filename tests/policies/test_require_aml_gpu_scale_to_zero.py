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


def test_a_cpu_cluster_or_one_of_a_size_the_catalog_does_not_know_is_left_alone() -> None:
    kept_up = changed(
        changed(COMPLIANT, (*SCALE, "minNodeCount"), 2.0), (*SCALE, "nodeIdleTimeBeforeScaleDown"), "PT2H"
    )
    cpu = Res(COMPUTE, "pass_cpu", changed(kept_up, ("properties", "properties", "vmSize"), "Standard_D4s_v5"))
    unknown = Res(COMPUTE, "pass_unknown", changed(kept_up, ("properties", "properties", "vmSize"), UNKNOWN))

    assert found([cpu, unknown], POLICY) == []


def test_flags_a_minimum_of_two_nodes_in_the_plural() -> None:
    cluster = Res(COMPUTE, "fail_cluster", changed(COMPLIANT, (*SCALE, "minNodeCount"), 2.0))

    assert found([cluster], POLICY) == [
        (
            "advisory",
            "fail_cluster",
            f"{'.'.join(SCALE)}.minNodeCount is 2, so 2 {GPU_SIZE} nodes bill while idle; set it to 0.",
        )
    ]


@pytest.mark.parametrize(("idle", "flagged"), [("PT30M", False), ("PT30M1S", True), ("PT1801S", True)])
def test_the_idle_limit_is_exact_to_the_second(idle: str, flagged: bool) -> None:
    cluster = Res(COMPUTE, "cluster", changed(COMPLIANT, (*SCALE, "nodeIdleTimeBeforeScaleDown"), idle))

    assert bool(found([cluster], POLICY)) is flagged
