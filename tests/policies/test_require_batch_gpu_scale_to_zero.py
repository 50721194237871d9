"""require-batch-gpu-scale-to-zero: from a Batch GPU pool whose formula follows the queue to 0, one change per test."""

from __future__ import annotations

import pytest

from tests.policy_helpers import UNKNOWN, Res, catalog_size, changed, found

POLICY = "require-batch-gpu-scale-to-zero"
ACCOUNT = "azure-native:batch:BatchAccount"
POOL = "azure-native:batch:Pool"
GPU_SIZE = "Standard_NC4as_T4_v3"
# Learn's batch-automatic-scaling variables: the target follows $PendingTasks, capped at 4, no floor.
FOLLOWS_QUEUE = "$tasks = max(0, $PendingTasks.GetSample(1));\n$TargetDedicatedNodes = min($tasks, 4);"
ACCOUNT_PROPS = {"resourceGroupName": "rg", "accountName": "teambatch", "location": "eastus"}
COMPLIANT = {
    "resourceGroupName": "rg",
    "accountName": "teambatch",
    "poolName": "gpu-pool",
    "vmSize": GPU_SIZE,
    "scaleSettings": {"autoScale": {"formula": FOLLOWS_QUEUE, "evaluationInterval": "PT5M"}},
}
FIX = (
    "use an autoscale formula that follows $PendingTasks down to 0 (BatchGpuPool's default, scale: autoscale), or a "
    "fixed scale of 0 nodes between runs."
)
EASTUS = catalog_size(GPU_SIZE)["prices"]["eastus"]["payg"]


def stack(pool_props: dict) -> list[Res]:
    return [Res(ACCOUNT, "account", ACCOUNT_PROPS), Res(POOL, "fail_pool", pool_props)]


def test_passes_a_pool_whose_formula_returns_to_zero() -> None:
    assert found([Res(ACCOUNT, "account", ACCOUNT_PROPS), Res(POOL, "pass_pool", COMPLIANT)], POLICY) == []


def test_passes_a_fixed_pool_of_zero_nodes_and_a_pool_without_scale_settings() -> None:
    fixed_zero = changed(COMPLIANT, ("scaleSettings",), {"fixedScale": {"targetDedicatedNodes": 0.0}})
    unset = changed(COMPLIANT, ("scaleSettings",), ...)
    assert found([Res(POOL, "pass_fixed", fixed_zero), Res(POOL, "pass_unset", unset)], POLICY) == []


def test_flags_a_fixed_pool_of_two_gpu_nodes_with_its_daily_cost() -> None:
    pool = changed(COMPLIANT, ("scaleSettings",), {"fixedScale": {"targetDedicatedNodes": 2.0}})

    daily = 2 * EASTUS * 24
    assert found(stack(pool), POLICY) == [
        (
            "advisory",
            "fail_pool",
            f"'fail_pool': scaleSettings.fixedScale.targetDedicatedNodes is 2: 2 x {GPU_SIZE} bill around the clock: "
            f"about {daily:,.2f} USD for every day no task runs (the catalog's approximate price in eastus), whether "
            f"or not a task runs; {FIX}",
        )
    ]


@pytest.mark.parametrize(
    ("formula", "kept"),
    [
        ("$TargetDedicatedNodes = 1;", "$TargetDedicatedNodes never goes below 1"),
        (
            "$TargetDedicatedNodes = max(2, min($PendingTasks.GetSample(1), 8));",
            "$TargetDedicatedNodes never goes below 2",
        ),
    ],
)
def test_flags_a_formula_that_keeps_nodes_with_no_task(formula: str, kept: str) -> None:
    pool = changed(COMPLIANT, ("scaleSettings", "autoScale", "formula"), formula)

    [(level, name, message)] = found(stack(pool), POLICY)
    assert (level, name) == ("advisory", "fail_pool")
    assert message.startswith(f"'fail_pool': the autoscale formula keeps GPU nodes with no task ({kept}): ")


def test_flags_a_formula_that_does_not_follow_the_queue() -> None:
    pool = changed(
        COMPLIANT, ("scaleSettings", "autoScale", "formula"), "$TargetDedicatedNodes = $CurrentDedicatedNodes;"
    )

    assert found(stack(pool), POLICY) == [
        (
            "advisory",
            "fail_pool",
            "'fail_pool': the autoscale formula sets $TargetDedicatedNodes without following the task queue "
            f"($PendingTasks, $ActiveTasks, $RunningTasks) to 0, so its GPU nodes may stay up with no task; {FIX}",
        )
    ]


def test_ignores_a_cpu_pool() -> None:
    pool = changed(COMPLIANT, ("scaleSettings",), {"fixedScale": {"targetDedicatedNodes": 2.0}})
    assert found([Res(POOL, "pass_cpu", changed(pool, ("vmSize",), "Standard_D4s_v5"))], POLICY) == []


SPOT = catalog_size(GPU_SIZE)["prices"]["eastus"]["spot"]


def with_formula(formula: str) -> dict:
    return changed(COMPLIANT, ("scaleSettings", "autoScale", "formula"), formula)


def test_every_gpu_pool_is_judged_whatever_comes_before_it() -> None:
    fixed_two = changed(COMPLIANT, ("scaleSettings",), {"fixedScale": {"targetDedicatedNodes": 2.0}})
    resources = [
        Res(ACCOUNT, "account", ACCOUNT_PROPS),
        Res(POOL, "pass_cpu", changed(fixed_two, ("vmSize",), "Standard_D4s_v5")),
        Res(POOL, "pass_unknown_scale", changed(COMPLIANT, ("scaleSettings",), UNKNOWN)),
        Res(POOL, "pass_unknown_formula", with_formula(UNKNOWN)),
        Res(POOL, "fail_pool", fixed_two),
    ]

    assert [name for _, name, _ in found(resources, POLICY)] == ["fail_pool"]


def test_a_fixed_pool_of_one_dedicated_and_two_spot_nodes_names_both_at_their_prices() -> None:
    fixed = {"fixedScale": {"targetDedicatedNodes": 1.0, "targetLowPriorityNodes": 2.0}}

    daily = (EASTUS + 2 * SPOT) * 24
    assert found(stack(changed(COMPLIANT, ("scaleSettings",), fixed)), POLICY) == [
        (
            "advisory",
            "fail_pool",
            "'fail_pool': scaleSettings.fixedScale.targetDedicatedNodes is 1 and "
            f"scaleSettings.fixedScale.targetLowPriorityNodes is 2: 3 x {GPU_SIZE} bill around the clock: about "
            f"{daily:,.2f} USD for every day no task runs (the catalog's approximate price in eastus), whether or not "
            f"a task runs; {FIX}",
        )
    ]


def test_a_formula_keeping_spot_nodes_only_is_costed_at_the_spot_price() -> None:
    pool = with_formula("$TargetLowPriorityNodes = 2;")

    daily = 2 * SPOT * 24
    assert found(stack(pool), POLICY) == [
        (
            "advisory",
            "fail_pool",
            "'fail_pool': the autoscale formula keeps GPU nodes with no task ($TargetLowPriorityNodes never goes "
            f"below 2): 2 x {GPU_SIZE} bill around the clock: about {daily:,.2f} USD for every day no task runs (the "
            f"catalog's approximate price in eastus); {FIX}",
        )
    ]


def test_a_formula_keeping_both_kinds_of_node_names_both() -> None:
    pool = with_formula("$TargetDedicatedNodes = 1;\n$TargetLowPriorityNodes = 2;")

    [(_, _, message)] = found(stack(pool), POLICY)
    assert message.startswith(
        "'fail_pool': the autoscale formula keeps GPU nodes with no task ($TargetDedicatedNodes never goes below 1; "
        f"$TargetLowPriorityNodes never goes below 2): 3 x {GPU_SIZE} bill around the clock"
    )


def test_a_formula_that_sets_zero_nodes_passes() -> None:
    assert found(stack(with_formula("$TargetDedicatedNodes = 0;")), POLICY) == []


def test_a_formula_following_neither_target_to_the_queue_names_both() -> None:
    pool = with_formula(
        "$TargetDedicatedNodes = $CurrentDedicatedNodes;\n$TargetLowPriorityNodes = $CurrentLowPriorityNodes;"
    )

    [(_, _, message)] = found(stack(pool), POLICY)
    assert message.startswith(
        "'fail_pool': the autoscale formula sets $TargetDedicatedNodes and $TargetLowPriorityNodes without following "
        "the task queue"
    )
