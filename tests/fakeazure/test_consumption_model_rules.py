"""A consumption budget as the fake ARM judges and answers it (fakeazure/models/consumption.py), at the edges of
Azure's published rules, in-process (`FakeArm().put`), no plan.

Sources, observed 2026-11-27:
- the REST spec's example CreateOrUpdateBudget (Azure/azure-rest-api-specs, specification/consumption/
  resource-manager/Microsoft.Consumption/stable/2024-08-01/examples/CreateOrUpdateBudget.json): the request
  body (tests/data/azure-specs), and its answer: `eTag` and `currentSpend: {amount, unit: "USD"}`;
- the spec's descriptions, as Azure/bicep-types-az's generated reference of Microsoft.Consumption/budgets carries
  them: "Dictionary of notifications associated with the budget. Budget can have up to five notifications." and
  the time period's "Budget start date must be on or after June 1, 2017";
- Learn's .NET reference, BudgetAssociatedNotification (azure.resourcemanager.consumption.models): the
  threshold "is always percent and has to be between 0 and 1000"; Microsoft's budget quickstart templates
  (Azure/azure-quickstart-templates, microsoft.consumption/create-budget) say "between 0.01 and 1000".
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from azure_gpu_stacks.catalog.arm.bodies import from_arm_body
from azure_gpu_stacks.fakeazure import FakeArm

from tests.conftest import REPO, arm_refusal

BUDGET = "azure-native:consumption:Budget"
EXAMPLE = REPO / "tests" / "data" / "azure-specs" / "consumption" / "microsoft.consumption" / "2024-08-01"


def _example() -> dict[str, Any]:
    examples = json.loads((EXAMPLE / "examples.json").read_text(encoding="utf-8"))["examples"]
    [body] = [e["body"] for e in examples if e["title"] == "CreateOrUpdateBudget"]
    return from_arm_body(BUDGET, body)


def budget(arm: FakeArm, **changes: Any) -> dict[str, Any]:
    """The spec's example budget on the fake's subscription, starting this month (Azure refuses a Monthly budget
    that starts in an earlier month: the example's 2017 start is older than today's rules)."""
    props = {
        **_example(),
        "scope": f"/subscriptions/{arm.subscription_id}",
        "timePeriod": {"startDate": f"{arm.now.date().replace(day=1)}T00:00:00Z"},
    }
    return {**props, **changes}


def notification(threshold: Any, **changes: Any) -> dict[str, Any]:
    return {
        "enabled": True,
        "operator": "GreaterThan",
        "threshold": threshold,
        "contactEmails": ["johndoe@contoso.com"],
        "thresholdType": "Actual",
        **changes,
    }


def test_the_spec_example_budget_is_accepted_with_no_advisory() -> None:
    arm = FakeArm()

    arm.put(BUDGET, "b", budget(arm), "b")

    assert arm.refusals == [] and arm.advisories == []


def test_a_budget_of_nothing_is_accepted_with_an_advisory_naming_it_and_its_amount() -> None:
    arm = FakeArm()

    arm.put(BUDGET, "zero", budget(arm, budgetName="zero", amount=0.0), "zero")

    [advisory] = arm.advisories
    assert advisory.startswith("Budget 'zero': amount 0.0 ")


@pytest.mark.parametrize("amount", [0.5, 100.65], ids=["half-a-dollar", "the-spec-example"])
def test_a_budget_of_any_positive_amount_gets_no_advisory(amount: float) -> None:
    arm = FakeArm()

    arm.put(BUDGET, "b", budget(arm, amount=amount), "b")

    assert arm.advisories == []


def test_a_budget_without_a_start_date_is_refused_naming_the_missing_date() -> None:
    arm = FakeArm()

    error = arm_refusal(lambda: arm.put(BUDGET, "b", budget(arm, timePeriod={}), "b"))

    assert error.code == "InvalidParameter"
    assert "timePeriod.startDate '' is not a date" in error.message


def test_a_budget_may_start_on_june_1_2017_the_first_day_azure_allows() -> None:
    # a billing-period grain: the time-grain rule (a Monthly budget starts in this month) does not judge it
    arm = FakeArm()

    arm.put(BUDGET, "b", budget(arm, timeGrain="BillingMonth", timePeriod={"startDate": "2017-06-01T00:00:00Z"}), "b")

    assert arm.refusals == []


def test_a_budget_may_have_five_notifications_and_not_six() -> None:
    arm = FakeArm()
    five = {f"Actual_GreaterThan_{p}_Percent": notification(p) for p in (50, 80, 90, 100, 110)}

    arm.put(BUDGET, "five", budget(arm, budgetName="five", notifications=five), "five")
    six = {**five, "Actual_GreaterThan_120_Percent": notification(120)}
    error = arm_refusal(lambda: arm.put(BUDGET, "six", budget(arm, budgetName="six", notifications=six), "six"))

    assert error.code == "InvalidParameter" and "6 notifications; at most 5" in error.message


@pytest.mark.parametrize("threshold", [0.01, 1000], ids=["a-hundredth-of-a-percent", "a-thousand-percent"])
def test_a_notification_threshold_within_azures_range_is_accepted(threshold: float) -> None:
    arm = FakeArm()

    arm.put(BUDGET, "b", budget(arm, notifications={"edge": notification(threshold)}), "b")

    assert arm.refusals == []


@pytest.mark.parametrize("threshold", [0, 1000.5], ids=["zero", "past-a-thousand"])
def test_a_notification_threshold_outside_azures_range_is_refused(threshold: float) -> None:
    arm = FakeArm()

    error = arm_refusal(lambda: arm.put(BUDGET, "b", budget(arm, notifications={"edge": notification(threshold)}), "b"))

    assert error.code == "InvalidParameter"
    assert error.message.startswith("Budget notification 'edge': threshold") and "0 to 1000 percent" in error.message


def test_a_new_budget_answers_an_etag_and_its_spend_so_far_in_usd() -> None:
    arm = FakeArm()

    first = arm.put(BUDGET, "one", budget(arm, budgetName="one"), "one").outputs
    second = arm.put(BUDGET, "two", budget(arm, budgetName="two"), "two").outputs
    again = FakeArm().put(BUDGET, "one", budget(arm, budgetName="one"), "one").outputs

    assert first["currentSpend"] == {"amount": 0.0, "unit": "USD"}  # nothing spent yet, in the example's shape
    assert first["eTag"] and first["eTag"] != second["eTag"]  # each budget its own
    assert again["eTag"] == first["eTag"]  # the same every offline run
