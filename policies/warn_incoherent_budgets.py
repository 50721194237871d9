"""warn-incoherent-budgets: a budget's notifications can work: none fires every month, none can never fire.

Rule: for each consumption budget of the stack (`consumption:Budget`, its `amount` per `timeGrain`
as a monthly amount), and each central budget declared in this policy's `centralBudgets`, the VMs it
covers (the resources in the resource groups its scope covers; a subscription scope covers them all)
are priced with the catalog exactly as `gpu-stacks cost` prices them (`azure_gpu_stacks.catalog.pricing`,
each resource in its own region). What fires is a notification, at amount x its threshold % (Actual or
Forecasted; a disabled one is not judged); a budget without notifications is judged at its amount. Each
notification's firing amount:
  - below their idle monthly cost, fires every month, even when nothing runs;
  - above their full-scale monthly cost by more than `aboveFullScaleMargin` (a fraction: 2.0 allows up
    to 3x), can never fire. A lower bound (a size or region without a price) is never called too high.
Each message names the notification, the amounts, the resources counted and the date of the oldest
price used.
Advisory; set `enforcementLevel: mandatory` in the policy config to block deployments.
Why: a budget that fires every month teaches people to ignore it, and one that can never fire watches
nothing; both pass require-cost-alerts.
Azure doc: https://learn.microsoft.com/azure/cost-management-billing/costs/tutorial-acm-create-budgets
(budget amount and time grain). A `costmanagement:Budget` is not judged: its amount is not read here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pulumi_policy import EnforcementLevel, ReportViolation, Severity, StackValidationArgs, StackValidationPolicy

from ..catalog.pricing import (
    BUDGET,
    DEFAULT_ABOVE_FULL_SCALE_MARGIN,
    MONTHS_PER_GRAIN,
    BudgetNotification,
    budget_notifications,
    budget_problems,
    estimate_resources,
)
from ..catalog.shapes import canonical_type
from . import config
from .resource_groups import (
    RESOURCE_GROUP_TYPE,
    Coverage,
    resource_group_of,
    scope_coverage,
)
from .stack_resources import plain_copy, resource_inputs
from .values import (
    get,
    number,
    text,
)

NAME = "warn-incoherent-budgets"

CONFIG = config.schema(
    {
        "aboveFullScaleMargin": {
            "type": "number",
            "minimum": 0,
            "default": DEFAULT_ABOVE_FULL_SCALE_MARGIN,
            "description": (
                "How far above the covered resources' full-scale monthly cost a budget may be, as a fraction "
                "(2.0: up to 3x), before it can never fire."
            ),
        },
        "centralBudgets": {
            "type": "array",
            "items": {"type": "object"},
            "default": [],
            "description": (
                "Budgets managed outside the stack, judged the same way: objects with `scope` "
                "(/subscriptions/<id> or /subscriptions/<id>/resourceGroups/<rg>), `amount` (USD) and "
                "`timeGrain` (Monthly, Quarterly, Annually, BillingMonth, BillingQuarter, BillingAnnual; "
                "default Monthly), optionally `notifications` as on a budget (name -> `threshold` in percent, "
                "`thresholdType` Actual or Forecasted, `enabled`)."
            ),
        },
    }
)


def validate(args: StackValidationArgs, report_violation: ReportViolation) -> None:
    settings = config.values(args, CONFIG)
    margin = float(settings["aboveFullScaleMargin"])
    for budget in args.resources:
        if canonical_type(budget.resource_type) != BUDGET:
            continue
        monthly = _monthly(get(budget.props, "amount"), get(budget.props, "timeGrain"))
        coverage = scope_coverage(get(budget.props, "scope"), budget)
        if monthly is None or coverage is None:
            continue  # unknown before deployment, or not a budget scope (require-cost-alerts says so)
        notifications = _notifications(plain_copy(get(budget.props, "notifications")))
        for problem in _problems(f"budget '{budget.name}'", monthly, notifications, coverage, args.resources, margin):
            report_violation(problem, budget.urn)
    for central in settings["centralBudgets"]:
        scope = text(central.get("scope")) if isinstance(central, dict) else None
        monthly = _monthly(central.get("amount"), central.get("timeGrain")) if isinstance(central, dict) else None
        coverage = scope_coverage(scope) if scope else None
        if monthly is None or coverage is None:
            continue
        notifications = _notifications(central.get("notifications"))
        label = f"central budget on {scope}"
        for problem in _problems(label, monthly, notifications, coverage, args.resources, margin):
            report_violation(problem, None)


def _monthly(amount: Any, grain: Any) -> float | None:
    value = number(amount)
    months = MONTHS_PER_GRAIN.get(text(grain) or "Monthly")
    return None if value is None or not months else value / months


def _notifications(raw: Any) -> list[BudgetNotification] | None:
    """The notifications judged, or None to judge the amount itself (a budget that declares none)."""
    return budget_notifications(raw) if raw else None


def _problems(
    label: str,
    monthly: float,
    notifications: list[BudgetNotification] | None,
    coverage: Coverage,
    resources: Sequence[Any],
    margin: float,
) -> list[str]:
    covered = [
        r
        for r in resources
        if canonical_type(r.resource_type) == RESOURCE_GROUP_TYPE or coverage.covers(resource_group_of(r))
    ]
    cost = estimate_resources([resource_inputs(r) for r in covered])
    if not cost.resources:
        return []  # no VM under the budget: require-cost-alerts and the plan say what it watches
    return budget_problems(label, monthly, cost, margin, notifications)


POLICY = StackValidationPolicy(
    name=NAME,
    description=(
        "Each budget notification should be able to fire: amount x threshold above the covered resources' idle "
        "cost, near their full-scale cost."
    ),
    validate=validate,
    enforcement_level=EnforcementLevel.ADVISORY,
    severity=Severity.MEDIUM,
    config_schema=CONFIG,
    remediation_steps=(
        "Set each notification's firing amount (costAlert.amount x each of costAlert.actualThresholds and "
        "forecastThresholds, in percent) between the idle and the full-scale monthly cost that `gpu-stacks cost` "
        "prints for the stack, or cut what runs idle (scale to zero, auto-shutdown)."
    ),
    url="https://learn.microsoft.com/azure/cost-management-billing/costs/tutorial-acm-create-budgets",
)
