"""A cost alert: a monthly consumption budget whose notifications tell people before money runs out.

Builds one `Microsoft.Consumption/budgets` resource on a scope (the stack's resource group, or a
subscription) with notifications on actual spend (80 % and 100 % by default) and on forecast spend
(100 %), sent to contact emails, optionally to RBAC roles on the scope and an action group.

Azure docs: https://learn.microsoft.com/azure/cost-management-billing/costs/tutorial-acm-create-budgets
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any, Literal, NotRequired, TypedDict

import pulumi
from pulumi_azure_native import consumption

from ..catalog.limits import LIMITS
from .args import Checked, check_shape
from .checks import Problems, deployment_day, email, raise_problems

TYPE_TOKEN = "azure-gpu-stacks:index:CostAlert"

DEFAULT_ACTUAL_THRESHOLDS = (80.0, 100.0)
DEFAULT_FORECAST_THRESHOLDS = (100.0,)
MAX_NOTIFICATIONS = LIMITS.choices.budget_notifications_max
MAX_THRESHOLD_PERCENT = LIMITS.choices.budget_threshold_percent_max
CONTACT_ROLES = ("Owner", "Contributor", "Reader")


class CostAlertArgs(TypedDict):
    """Inputs of CostAlert."""

    scope: pulumi.Input[str]
    """ARM id the budget watches: a resource group id or /subscriptions/<id>."""
    amount: float
    """Budget per month, USD."""
    contact_emails: Sequence[str]
    """Who is told when a threshold is crossed (at least one)."""
    actual_thresholds: NotRequired[Sequence[float]]
    """Percent of the amount actually spent that notifies. Default: 80, 100."""
    forecast_thresholds: NotRequired[Sequence[float]]
    """Percent of the amount forecast to be spent that notifies. Default: 100."""
    contact_roles: NotRequired[Sequence[Literal["Owner", "Contributor", "Reader"]]]
    """RBAC roles on the scope that are told too: Owner, Contributor or Reader. Default: none."""
    action_group_id: NotRequired[pulumi.Input[str]]
    """Action group told too (pager, webhook). Default: none."""
    start_date: NotRequired[str]
    """First day of the first budget month, YYYY-MM-01. Default: the first day of this month (UTC)."""


class CostAlert(pulumi.ComponentResource):
    """A monthly budget with notifications on actual and forecast spend."""

    budget_id: pulumi.Output[str]
    """ARM id of the budget."""
    budget_name: pulumi.Output[str]
    """Name of the budget."""
    amount: pulumi.Output[float]
    """Budget per month, USD."""

    def __init__(self, name: str, args: CostAlertArgs, opts: pulumi.ResourceOptions | None = None):
        self._args = raise_problems("CostAlert", name, check_inputs(args))
        super().__init__(TYPE_TOKEN, name, None, opts)
        budget = self._create_budget(name)
        self.budget_id = budget.id
        self.budget_name = budget.name
        self.amount = pulumi.Output.from_input(self._args["amount"])
        self.register_outputs({"budget_id": self.budget_id, "budget_name": self.budget_name, "amount": self.amount})

    def _create_budget(self, name: str) -> consumption.Budget:
        a = self._args
        return consumption.Budget(
            f"{name}-budget",
            scope=a["scope"],
            amount=a["amount"],
            category="Cost",
            time_grain="Monthly",
            time_period=consumption.BudgetTimePeriodArgs(start_date=f"{a['start_date']}T00:00:00Z"),
            notifications=self._notifications(),
            # The default start date follows the calendar; without this every month's `pulumi up`
            # would try to move the start of an existing budget.
            opts=pulumi.ResourceOptions(parent=self, ignore_changes=["timePeriod"]),
        )

    def _notifications(self) -> dict[str, consumption.NotificationArgs]:
        a = self._args
        kinds = [("Actual", t) for t in a["actual_thresholds"]] + [("Forecasted", t) for t in a["forecast_thresholds"]]
        return {
            f"{kind}_GreaterThan_{threshold:g}_Percent".replace(".", "_"): consumption.NotificationArgs(
                enabled=True,
                operator="GreaterThan",
                threshold=threshold,
                threshold_type=kind,
                contact_emails=list(a["contact_emails"]),
                contact_roles=list(a["contact_roles"]) or None,
                contact_groups=[a["action_group_id"]] if a.get("action_group_id") else None,
            )
            for kind, threshold in kinds
        }


def first_of_month(today: dt.date | None = None) -> str:
    today = today or deployment_day()
    return today.replace(day=1).isoformat()


def check_inputs(args: Mapping[str, Any]) -> Checked:
    """The inputs with defaults filled in, and every problem found (pure: registers nothing)."""
    problems = Problems()
    given = check_shape(CostAlertArgs, args, problems)
    a: dict[str, Any] = {
        "actual_thresholds": list(DEFAULT_ACTUAL_THRESHOLDS),
        "forecast_thresholds": list(DEFAULT_FORECAST_THRESHOLDS),
        "contact_roles": [],
        "start_date": first_of_month(),
        **given,
    }
    if not a.get("scope"):
        problems.add("scope", "required and missing; allowed: a resource group id or /subscriptions/<id>")
    amount = a.get("amount")
    if args.get("amount") is None:
        problems.add("amount", "required key is missing")
    elif "amount" not in a:
        pass  # given, but not a number: check_shape said so
    elif not isinstance(amount, (int, float)) or isinstance(amount, bool) or amount <= 0:
        problems.add("amount", f"{amount!r}; allowed: a number of USD greater than 0")
    if args.get("contact_emails") is None:
        problems.add("contact_emails", "required key is missing")
    elif "contact_emails" not in a:
        pass  # given, but not a list: check_shape said so
    elif not a["contact_emails"]:
        problems.add("contact_emails", "none given; allowed: at least one email address")
    for i, address in enumerate(a.get("contact_emails") or []):
        problems.check(f"contact_emails[{i}]", email, address)
    for key in ("actual_thresholds", "forecast_thresholds"):
        for i, t in enumerate(a[key]):
            if not isinstance(t, (int, float)) or not 0 < t <= MAX_THRESHOLD_PERCENT:
                most = MAX_THRESHOLD_PERCENT
                problems.add(f"{key}[{i}]", f"{t!r}; allowed: a percent greater than 0 and at most {most:g}")
    count = len(a["actual_thresholds"]) + len(a["forecast_thresholds"])
    if not 1 <= count <= MAX_NOTIFICATIONS:
        problems.add(
            "actual_thresholds", f"{count} thresholds in all; allowed: 1 to {MAX_NOTIFICATIONS} (Azure's limit)"
        )
    for i, role in enumerate(a["contact_roles"]):
        if role not in CONTACT_ROLES:
            problems.add(f"contact_roles[{i}]", f"{role!r}; allowed: {', '.join(CONTACT_ROLES)}")
    try:
        start = dt.date.fromisoformat(str(a["start_date"]))
        if start.day != 1:
            problems.add("start_date", f"'{a['start_date']}' is not the first day of a month; Azure requires it")
    except ValueError:
        problems.add("start_date", f"{a['start_date']!r} is not a date; allowed: YYYY-MM-01")
    return problems.checked(a)
