"""CostAlert: the budget Azure receives, and the args it refuses."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from azure_gpu_stacks.components.checks import ComponentInputError
from azure_gpu_stacks.components.cost_alert import first_of_month

from tests.conftest import Recording, in_resource_group

BUDGET = "azure-native:consumption:Budget"


def build_alert(**overrides: Any) -> Callable[[], None]:
    def build(rg: Any) -> None:
        from azure_gpu_stacks.components.cost_alert import CostAlert

        CostAlert("alert", {"scope": rg.id, "amount": 500, "contact_emails": ["ops@example.com"], **overrides})

    return in_resource_group(build)


def test_cost_alert_budget_on_the_resource_group_monthly(record: Callable[..., Recording]) -> None:
    rec = record(build_alert())
    budget = rec.inputs(BUDGET)
    rg_id = rec.arm.resources()[0].id

    assert (budget["scope"], budget["amount"], budget["timeGrain"], budget["category"]) == (
        rg_id,
        500,
        "Monthly",
        "Cost",
    )
    assert rec.refusals == []


def test_cost_alert_starts_on_the_first_of_this_month(record: Callable[..., Recording]) -> None:
    budget = record(build_alert()).inputs(BUDGET)

    today = dt.datetime.now(dt.timezone.utc).date()
    assert budget["timePeriod"]["startDate"] == f"{today.replace(day=1).isoformat()}T00:00:00Z"


def test_cost_alert_first_of_month_helper() -> None:
    assert first_of_month(dt.date(2026, 11, 22)) == "2026-11-01"


def test_cost_alert_ignores_start_date_drift(record: Callable[..., Recording]) -> None:
    assert record(build_alert()).one(BUDGET).ignore_changes == ("timePeriod",)


def test_cost_alert_default_notifications_actual_and_forecast(record: Callable[..., Recording]) -> None:
    notifications = record(build_alert()).inputs(BUDGET)["notifications"]

    assert {k: (n["thresholdType"], n["threshold"], n["operator"], n["enabled"]) for k, n in notifications.items()} == {
        "Actual_GreaterThan_80_Percent": ("Actual", 80, "GreaterThan", True),
        "Actual_GreaterThan_100_Percent": ("Actual", 100, "GreaterThan", True),
        "Forecasted_GreaterThan_100_Percent": ("Forecasted", 100, "GreaterThan", True),
    }
    assert all(n["contactEmails"] == ["ops@example.com"] for n in notifications.values())


def test_cost_alert_roles_and_action_group_are_told_too(record: Callable[..., Recording]) -> None:
    group = (
        "/subscriptions/11111111-1111-1111-1111-111111111111/resourceGroups/ops/providers/microsoft.insights/"
        "actionGroups/pager"
    )
    notifications = record(build_alert(contact_roles=["Owner"], action_group_id=group, forecast_thresholds=[])).inputs(
        BUDGET
    )["notifications"]

    assert all(n["contactRoles"] == ["Owner"] and n["contactGroups"] == [group] for n in notifications.values())


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"amount": 0}, "amount: 0; allowed: a number of USD greater than 0"),
        ({"contact_emails": []}, "contact_emails: none given; allowed: at least one email address"),
        ({"contact_emails": ["not-an-address"]}, "contact_emails[0]: 'not-an-address' is not an email address"),
        ({"actual_thresholds": [0]}, "actual_thresholds[0]: 0; allowed: a percent greater than 0 and at most 1000"),
        (
            {"actual_thresholds": [50, 60, 70, 80, 90], "forecast_thresholds": [100]},
            "6 thresholds in all; allowed: 1 to 5",
        ),
        ({"contact_roles": ["Admin"]}, "contact_roles[0]: 'Admin'; allowed: Owner, Contributor, Reader"),
        ({"start_date": "2026-11-15"}, "start_date: '2026-11-15' is not the first day of a month"),
    ],
)
def test_cost_alert_refuses_bad_args(
    record: Callable[..., Recording], overrides: dict[str, Any], expected: str
) -> None:
    with pytest.raises(ComponentInputError) as err:
        record(build_alert(**overrides))

    assert str(err.value).startswith("CostAlert 'alert': ") and expected in str(err.value)
