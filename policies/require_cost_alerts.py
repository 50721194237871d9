"""require-cost-alerts: whatever a stack bills by GPU is watched by a budget that tells someone.

Rule: for each resource billed by a GPU VM size (any resource type of `azure_gpu_stacks.catalog.shapes`
whose billed size the catalog lists with GPUs), the stack must also hold a consumption budget
(`consumption:Budget` or `costmanagement:Budget`) that
  - has at least one notification that is enabled and has a contact (an email, a role or an action
    group), and
  - covers the resource: its scope is the resource's resource group or the subscription (or a
    management group or billing account above it).
A budget managed outside the stack counts when its scope is listed in `externalBudgetScopes`.
Why: a GPU left running costs hundreds to thousands of USD a day, and Azure does not stop spending
at a budget: a notification to a person is the only alarm.
Azure doc: https://learn.microsoft.com/azure/cost-management-billing/costs/tutorial-acm-create-budgets
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pulumi_policy import EnforcementLevel, ReportViolation, Severity, StackValidationArgs, StackValidationPolicy

from ..catalog.shapes import canonical_type
from . import config
from .resource_groups import Coverage, resource_group_of, scope_coverage
from .values import UNKNOWN, elements, entries, flag, get, text
from .vm_size_lifecycle import SizeAtPath, classify

NAME = "require-cost-alerts"
BUDGET_TYPES = frozenset({"azure-native:consumption:Budget", "azure-native:costmanagement:Budget"})
CONTACT_KEYS = ("contactEmails", "contactRoles", "contactGroups")

CONFIG = config.schema(
    {
        "externalBudgetScopes": {
            "type": "array",
            "items": {"type": "string"},
            "default": [],
            "description": (
                "Scopes of budgets managed outside the stack that notify someone, e.g. /subscriptions/<id> or "
                "/subscriptions/<id>/resourceGroups/<rg>."
            ),
        }
    }
)


@dataclass(frozen=True)
class _Budget:
    label: str
    coverage: Coverage | None
    alerts: bool  # has an enabled notification with a contact


def validate(args: StackValidationArgs, report_violation: ReportViolation) -> None:
    budgets = [_budget(r) for r in args.resources if canonical_type(r.resource_type) in BUDGET_TYPES]
    for scope in config.values(args, CONFIG)["externalBudgetScopes"]:
        budgets.append(_Budget(f"external budget on {scope}", scope_coverage(scope), True))
    for resource in args.resources:
        gpus = [
            v for v in classify(resource.resource_type, resource.props, billed_only=True) if v.entry and v.entry.is_gpu
        ]
        if not gpus:
            continue
        group = resource_group_of(resource)
        if any(b.alerts and b.coverage is not None and b.coverage.covers(group) for b in budgets):
            continue
        report_violation(_message(resource, gpus[0], group, budgets), resource.urn)


def _budget(resource: Any) -> _Budget:
    name = resource.name
    return _Budget(f"budget '{name}'", scope_coverage(get(resource.props, "scope"), resource), _alerts(resource.props))


def _alerts(props: Any) -> bool:
    notifications = get(props, "notifications")
    if notifications is UNKNOWN:
        return True  # filled in at deployment; nothing to hold against it yet
    for _, notification in entries(notifications):
        enabled = get(notification, "enabled")
        if enabled is not UNKNOWN and flag(enabled) is not True:
            continue
        if any(_has_contact(get(notification, key)) for key in CONTACT_KEYS):
            return True
    return False


def _has_contact(value: Any) -> bool:
    if value is UNKNOWN:
        return True
    return any(item is UNKNOWN or text(item) is not None for item in elements(value))


def _message(resource: Any, gpu: SizeAtPath, group: str | None, budgets: list[_Budget]) -> str:
    assert gpu.entry is not None
    where = f"resource group '{group}'" if group else "its resource group"
    text_ = (
        f"'{resource.name}' ({gpu.path} '{gpu.size}', {gpu.entry.gpu_model}) is billed by GPU in {where}, but no "
        "budget with an enabled notification to a contact covers it."
    )
    reasons = []
    for b in budgets:
        if b.coverage is None:
            reasons.append(f"{b.label} has no subscription or resource group scope")
        elif not b.alerts:
            reasons.append(f"{b.label} has no enabled notification with an email, role or action group")
        else:
            reasons.append(f"{b.label} covers {b.coverage.described} only")
    if reasons:
        text_ += " Found: " + "; ".join(reasons) + "."
    return (
        text_ + " Add a budget on the resource group or the subscription "
        "(azure_gpu_stacks.components.cost_alert.CostAlert), or list a central budget's scope in this policy's "
        "externalBudgetScopes."
    )


POLICY = StackValidationPolicy(
    name=NAME,
    description="GPU spending must be watched by a budget that notifies someone.",
    validate=validate,
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.HIGH,
    config_schema=CONFIG,
    remediation_steps=(
        "Add the stack's costAlert section (a monthly budget on the stack's resource group with notifications "
        "to contactEmails), or create a consumption budget whose scope is the resource group or the "
        "subscription, with an enabled notification to an email, an RBAC role or an action group. If a central "
        "team owns the budget, declare its scope in externalBudgetScopes."
    ),
    url="https://learn.microsoft.com/azure/cost-management-billing/costs/tutorial-acm-create-budgets",
)
