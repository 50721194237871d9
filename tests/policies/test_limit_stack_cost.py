"""limit-stack-cost: a stack's full-scale monthly cost above `maxMonthlyUsd` is a violation; at or under it, or
with the limit off (0), none. Prices come from the catalog's data file as written, in the cluster's region."""

from __future__ import annotations

from azure_gpu_stacks.catalog import catalog
from azure_gpu_stacks.policies.limit_stack_cost import increase_problems

from tests.policy_helpers import Res, catalog_size, found

POLICY = "limit-stack-cost"
T4 = "Standard_NC4as_T4_v3"
MONTH = 730  # hours, as Azure's pricing calculator counts a month


def full_month(nodes: int) -> float:
    return nodes * float(catalog_size(T4)["prices"]["eastus"]["payg"]) * MONTH


def rg(location: str = "eastus") -> Res:
    return Res("azure-native:resources:ResourceGroup", "pass_rg", {"resourceGroupName": "rg-gpu", "location": location})


def cluster(max_nodes: int) -> Res:
    scale = {"minNodeCount": 0, "maxNodeCount": max_nodes}
    props = {"computeType": "AmlCompute", "properties": {"vmSize": T4, "scaleSettings": scale}}
    return Res(
        "azure-native:machinelearningservices:Compute", "gpu", {"resourceGroupName": "rg-gpu", "properties": props}
    )


def test_a_stack_under_the_default_limit_passes() -> None:
    assert found([rg(), cluster(10)], POLICY) == []  # 10 T4 nodes: about 3,840 USD a month


def test_a_stack_above_the_limit_is_named_with_its_cost() -> None:
    limit = round(full_month(10) - 1)

    [(level, name, message)] = found([rg(), cluster(10)], POLICY, {POLICY: {"maxMonthlyUsd": limit}})

    assert (level, name) == ("advisory", "(stack)")
    assert message.startswith(
        f"the stack costs {full_month(10):,.2f} USD a month at full scale, above the limit of {limit:,.2f} "
        "(maxMonthlyUsd) (resources counted: gpu)"
    )


def test_at_the_limit_passes_and_zero_turns_it_off() -> None:
    at = round(full_month(10), 2) + 0.01

    assert found([rg(), cluster(10)], POLICY, {POLICY: {"maxMonthlyUsd": at}}) == []
    assert found([rg(), cluster(10)], POLICY, {POLICY: {"maxMonthlyUsd": 0}}) == []


def test_mandatory_blocks() -> None:
    config = {POLICY: {"enforcementLevel": "mandatory", "maxMonthlyUsd": 1}}

    [(level, _, _)] = found([rg(), cluster(1)], POLICY, config)

    assert level == "mandatory"


def test_a_lower_bound_under_the_limit_passes_the_unknown_is_not_guessed() -> None:
    uncovered = next(r for r in catalog().regions if r not in catalog_size(T4)["prices"])

    assert found([rg(uncovered), cluster(10)], POLICY, {POLICY: {"maxMonthlyUsd": 1}}) == []


# --- withinBudgetThresholds: the stack's own budget notifications as the limit ---------------------------------


def budget(amount: float, notifications: dict[str, tuple[str, float]] | None) -> Res:
    props: dict[str, object] = {"amount": amount, "timeGrain": "Monthly", "category": "Cost"}
    if notifications is not None:
        props["notifications"] = {
            name: {"enabled": True, "operator": "GreaterThan", "threshold": threshold, "thresholdType": kind}
            for name, (kind, threshold) in notifications.items()
        }
    return Res("azure-native:consumption:Budget", "budget", props)


WITHIN = {POLICY: {"withinBudgetThresholds": True}}


def test_full_scale_reaching_a_notification_names_each_one_it_reaches() -> None:
    # 2 T4 nodes: about 768 USD a month; 50 % of 1,000 fires at 500, 100 % at 1,000
    notifications = {"actual_50": ("Actual", 50), "actual_100": ("Actual", 100)}

    [(level, name, message)] = found([rg(), cluster(2), budget(1000, notifications)], POLICY, WITHIN)

    assert (level, name) == ("advisory", "(stack)")
    assert f"the stack costs {full_month(2):,.2f} USD a month at full scale" in message
    assert "budget 'budget' notification 'actual_50' fires at 500.00 (Actual, 50 % of 1,000.00)" in message
    assert "actual_100" not in message


def test_full_scale_below_every_notification_passes_and_the_setting_is_off_by_default() -> None:
    notifications = {"forecast_100": ("Forecasted", 100)}
    over = [rg(), cluster(2), budget(1000, notifications)]

    assert found(over, POLICY, WITHIN) == []  # 768 < 1,000
    assert found([rg(), cluster(3), budget(1000, notifications)], POLICY) == []  # 1,152 >= 1,000, but off


def test_a_budget_without_notifications_is_its_amount() -> None:
    [(_, _, message)] = found([rg(), cluster(2), budget(700, None)], POLICY, WITHIN)

    assert "notification 'amount' fires at 700.00 (Actual, 100 % of 700.00)" in message


# --- at the edge and in its words ---------------------------------------------------------------------
# limit-stack-cost at its edge and in its words: a stack that costs exactly its limit passes; a refusal counts every
# resource, says when the total is a lower bound and names each size without a price, and ends with what to do.
# Prices come from the catalog's data file as written (`catalog_size`); a month is 730 hours. In-process.

NO_EASTUS_PRICE = "Standard_NCC40ads_H100_v5"  # priced, but not in eastus
NO_PRICE_ANYWHERE = "Standard_ND128isr_GB300_v6"  # catalog/vm_sizes.yaml lists no price for it


def named_cluster(name: str, size: str, max_nodes: int) -> Res:
    props = {"computeType": "AmlCompute", "properties": {"vmSize": size, "scaleSettings": {"maxNodeCount": max_nodes}}}
    return Res(
        "azure-native:machinelearningservices:Compute", name, {"resourceGroupName": "rg-gpu", "properties": props}
    )


def test_a_stack_that_costs_exactly_its_limit_passes() -> None:
    exactly = float(catalog_size(T4)["prices"]["eastus"]["payg"]) * 2 * MONTH

    assert found([rg(), named_cluster("gpu", T4, 2)], POLICY, {POLICY: {"maxMonthlyUsd": exactly}}) == []


def test_a_refusal_counts_every_resource_and_names_what_has_no_price() -> None:
    resources = [
        rg(),
        named_cluster("gpu", T4, 2),
        named_cluster("h100", NO_EASTUS_PRICE, 1),
        named_cluster("gb300", NO_PRICE_ANYWHERE, 1),
    ]

    [(_, _, message)] = found(resources, POLICY, {POLICY: {"maxMonthlyUsd": 1}})

    assert (
        f"(resources counted: gpu, h100, gb300; at least: a lower bound, no price for {NO_EASTUS_PRICE} in eastus, "
        f"{NO_PRICE_ANYWHERE} in eastus); "
        "lower the largest node counts or sizes, or raise the limit in the policy config"
    ) in message
    assert message.endswith("the limit in the policy config")


# --- withinBudgetThresholds in its words ---------------------------------------------------------------
# limit-stack-cost with withinBudgetThresholds, in its words: every notification the full-scale cost reaches
# is named, one after another; a total with an unpriced size is said to be "at least" that much.


def test_each_notification_reached_is_named_in_turn() -> None:
    # 2 T4 nodes: about 768 USD a month; 50 % of 1,000 fires at 500, a forecast at 60 % at 600
    notifications = {"actual_50": ("Actual", 50), "forecast_60": ("Forecasted", 60)}

    [(_, _, message)] = found([rg(), cluster(2), budget(1000, notifications)], POLICY, WITHIN)

    assert (
        "(withinBudgetThresholds): budget 'budget' notification 'actual_50' fires at 500.00 (Actual, 50 % of "
        "1,000.00); budget 'budget' notification 'forecast_60' fires at 600.00 (Forecasted, 60 % of 1,000.00); "
        "lower the largest node counts or sizes, or raise the budget"
    ) in message


def test_a_total_with_an_unpriced_size_reaches_a_budget_at_least() -> None:
    resources = [rg(), cluster(2), named_cluster("gb300", NO_PRICE_ANYWHERE, 1), budget(700, None)]

    [(_, _, message)] = found(resources, POLICY, WITHIN)

    assert message.startswith(
        f"the stack costs at least {full_month(2):,.2f} USD a month at full scale, reaching its own budget's "
        "thresholds (withinBudgetThresholds)"
    )


# --- the increase limits, as `gpu-stacks diff` reads them ----------------------------------------------
# limit-stack-cost's increase limits, as `gpu-stacks diff` reads them (`increase_problems`, called directly): a
# change may raise a stack's full-scale monthly cost by at most `maxIncreaseUsd` USD and `maxIncreasePercent` %
# of what it cost before; exactly the limit passes; 0 turns a limit off; a stack that cost nothing before has no
# percentage; amounts are compared in cents, as they are shown.

USD_ONLY = {"maxIncreasePercent": 0}
PERCENT_ONLY = {"maxIncreaseUsd": 0}


def test_an_increase_of_exactly_the_usd_limit_passes_and_a_cent_more_does_not() -> None:
    # the default maxIncreaseUsd is 10,000 (the policy's config schema, docs/policies.md)
    assert increase_problems(1000.0, 11000.0, USD_ONLY) == []
    assert increase_problems(1000.0, 11000.01, USD_ONLY) == [
        "full-scale cost up 10,000.01 USD a month (1,000.00 -> 11,000.01), more than 10,000.00 "
        "(limit-stack-cost.maxIncreaseUsd)"
    ]


def test_an_increase_under_a_cent_past_the_limit_is_the_limit() -> None:
    # shown as "up 10,000.00, more than 10,000.00" it would contradict itself
    assert increase_problems(1000.0, 11000.004, USD_ONLY) == []


def test_an_increase_of_exactly_the_percent_limit_passes() -> None:
    # the default maxIncreasePercent is 100: doubling is the most
    assert increase_problems(1000.0, 2000.0, PERCENT_ONLY) == []
    assert increase_problems(1000.0, 2000.01, PERCENT_ONLY) != []


def test_a_percentage_is_judged_on_a_stack_that_cost_under_a_dollar() -> None:
    assert increase_problems(0.5, 1.25, PERCENT_ONLY) == [
        "full-scale cost up 150.0 % (0.50 -> 1.25 USD a month), more than 100 % (limit-stack-cost.maxIncreasePercent)"
    ]


def test_a_stack_that_cost_nothing_before_has_no_percentage() -> None:
    assert increase_problems(0.0, 500.0, PERCENT_ONLY) == []


def test_zero_turns_both_limits_off() -> None:
    assert increase_problems(1000.0, 30000.0, {"maxIncreaseUsd": 0, "maxIncreasePercent": 0}) == []
