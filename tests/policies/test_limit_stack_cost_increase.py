"""limit-stack-cost's increase limits, as `gpu-stacks diff` reads them (`increase_problems`, called directly): a
change may raise a stack's full-scale monthly cost by at most `maxIncreaseUsd` USD and `maxIncreasePercent` %
of what it cost before; exactly the limit passes; 0 turns a limit off; a stack that cost nothing before has no
percentage; amounts are compared in cents, as they are shown."""

from __future__ import annotations

from azure_gpu_stacks.policies.limit_stack_cost import increase_problems

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
