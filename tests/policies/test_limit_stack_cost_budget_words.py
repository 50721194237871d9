"""limit-stack-cost with withinBudgetThresholds, in its words: every notification the full-scale cost reaches
is named, one after another; a total with an unpriced size is said to be "at least" that much."""

from __future__ import annotations

from tests.policies.test_limit_stack_cost import (
    NO_PRICE_ANYWHERE,
    POLICY,
    WITHIN,
    budget,
    cluster,
    full_month,
    named_cluster,
    rg,
)
from tests.policy_helpers import found


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
