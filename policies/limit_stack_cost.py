"""limit-stack-cost: a cost guardrail: a stack's full-scale monthly cost stays under a limit the team sets.

Rule: the stack's VMs, scale sets, AKS pools and Azure ML clusters are priced with the catalog exactly
as `gpu-stacks cost` prices them (`azure_gpu_stacks.catalog.pricing`, each resource in its own region,
at full scale: every pool and cluster at its largest node count). Above `maxMonthlyUsd` USD a month
(0: no limit) the stack violates the policy. A total that is a lower bound (a size or region without a
price) is judged as it stands: it is at least that much.
`gpu-stacks diff` also reads this policy's `maxIncreaseUsd` and `maxIncreasePercent`: a change that
raises a stack's full-scale monthly cost by more than either fails the diff when the policy is
mandatory, and is noted (advisory) otherwise; 0 turns a limit off, and a stack that cost nothing
before has no percentage.
With `withinBudgetThresholds: true` (off by default), the full-scale monthly cost reaching a notification
of the stack's own budgets (amount x its threshold %, Actual or Forecasted; a budget without notifications:
its amount) also violates the policy, naming each notification it reaches. `gpu-stacks cost` judges this
policy's violations at `--fail-level` as `check` does, and shows each budget's amount and thresholds beside
the totals.
Advisory; set `enforcementLevel: mandatory` in the policy config to block deployments and pull requests.
Why: the same three guardrails as Infracost's ("Total monthly cost exceeds the budget", "Increases
monthly cost by a fixed amount", "Increases monthly cost by percentage": https://www.infracost.io/docs/infracost_cloud/guardrails/,
observed 2026-11-26), for a toolkit Infracost does not cover (Pulumi, Azure GPU sizes).
The defaults pass every shipped stack: the dearest, training-a100, costs 39,707.62 USD a month at full scale.
"""

from __future__ import annotations

from typing import Any

from pulumi_policy import EnforcementLevel, ReportViolation, Severity, StackValidationArgs, StackValidationPolicy

from ..catalog.pricing import CostEstimate, estimate_resources
from . import config
from .stack_resources import resource_inputs

NAME = "limit-stack-cost"
MAX_MONTHLY_USD = "maxMonthlyUsd"
MAX_INCREASE_USD = "maxIncreaseUsd"
MAX_INCREASE_PERCENT = "maxIncreasePercent"
WITHIN_BUDGET_THRESHOLDS = "withinBudgetThresholds"

CONFIG = config.schema(
    {
        MAX_MONTHLY_USD: {
            "type": "number",
            "minimum": 0,
            "default": 50_000,
            "description": "The most a stack may cost a month at full scale, in USD (0: no limit).",
        },
        MAX_INCREASE_USD: {
            "type": "number",
            "minimum": 0,
            "default": 10_000,
            "description": (
                "`gpu-stacks diff`: the most a change may raise a stack's full-scale monthly cost, in USD "
                "(0: no limit)."
            ),
        },
        MAX_INCREASE_PERCENT: {
            "type": "number",
            "minimum": 0,
            "default": 100,
            "description": (
                "`gpu-stacks diff`: the most a change may raise a stack's full-scale monthly cost, in percent of what "
                "it cost before (0: no limit)."
            ),
        },
        WITHIN_BUDGET_THRESHOLDS: {
            "type": "boolean",
            "default": False,
            "description": (
                "The stack's full-scale monthly cost stays below every notification threshold of its own budgets "
                "(amount x threshold %; a budget without notifications: its amount). Off by default: a budget "
                "usually sits below full scale, to catch a pool left scaled up."
            ),
        },
    }
)


def validate(args: StackValidationArgs, report_violation: ReportViolation) -> None:
    values = config.values(args, CONFIG)
    cost = estimate_resources([resource_inputs(r) for r in args.resources])
    problems = [total_problem(cost, float(values[MAX_MONTHLY_USD]))]
    if values[WITHIN_BUDGET_THRESHOLDS]:
        problems.append(budget_problem(cost))
    for problem in problems:
        if problem:
            report_violation(problem, None)


def budget_problem(cost: CostEstimate) -> str | None:
    """Which of the stack's budget notifications its full-scale monthly cost reaches, each named, or None."""
    crossed = cost.crossed()
    if not crossed:
        return None
    fires = "; ".join(
        f"budget '{b.resource}' notification '{n.name}' fires at {n.firing_monthly(b.monthly_usd):,.2f} "
        f"({n.threshold_type}, {n.threshold_percent:g} % of {b.monthly_usd:,.2f})"
        for b, n in crossed
    )
    least = "at least " if cost.lower_bound else ""
    return (
        f"the stack costs {least}{cost.monthly:,.2f} USD a month at full scale, reaching its own budget's thresholds "
        f"({WITHIN_BUDGET_THRESHOLDS}): {fires}; lower the largest node counts or sizes, or raise the budget"
    )


def total_problem(cost: CostEstimate, limit_usd: float) -> str | None:
    """Why the stack's full-scale monthly cost breaks the limit, or None."""
    if not limit_usd or cost.monthly <= limit_usd:
        return None
    counted = ", ".join(r.demand.resource for r in cost.resources)
    bound = "" if cost.complete else f"; at least: a lower bound, no price for {', '.join(cost.unpriced)}"
    return (
        f"the stack costs {cost.monthly:,.2f} USD a month at full scale, above the limit of {limit_usd:,.2f} "
        f"({MAX_MONTHLY_USD}) (resources counted: {counted}{bound}); lower the largest node counts or sizes, or raise "
        "the limit in the policy config"
    )


def increase_problems(before_usd: float, after_usd: float, properties: dict[str, Any]) -> list[str]:
    """Why a change from `before_usd` to `after_usd` a month (full scale) breaks the increase limits in
    `properties` (this policy's config, defaults where not set)."""
    limits = {key: float(properties.get(key, CONFIG.properties[key]["default"])) for key in CONFIG.properties}
    increase = round(after_usd - before_usd, 2)
    out = []
    if limits[MAX_INCREASE_USD] and increase > limits[MAX_INCREASE_USD]:
        out.append(
            f"full-scale cost up {increase:,.2f} USD a month ({before_usd:,.2f} -> {after_usd:,.2f}), more than "
            f"{limits[MAX_INCREASE_USD]:,.2f} ({NAME}.{MAX_INCREASE_USD})"
        )
    if limits[MAX_INCREASE_PERCENT] and before_usd > 0 and increase > 0:
        percent = 100 * increase / before_usd
        if percent > limits[MAX_INCREASE_PERCENT]:
            out.append(
                f"full-scale cost up {percent:,.1f} % ({before_usd:,.2f} -> {after_usd:,.2f} USD a month), more than "
                f"{limits[MAX_INCREASE_PERCENT]:g} % ({NAME}.{MAX_INCREASE_PERCENT})"
            )
    return out


POLICY = StackValidationPolicy(
    name=NAME,
    description="A stack's full-scale monthly cost stays under the team's limit (a cost guardrail).",
    validate=validate,
    enforcement_level=EnforcementLevel.ADVISORY,
    severity=Severity.MEDIUM,
    config_schema=CONFIG,
    remediation_steps=(
        "Lower the stack's largest node counts (maxCount, maxNodeCount, nodeCount) or its sizes, or raise "
        f"{MAX_MONTHLY_USD} in the policy config when the cost is intended."
    ),
    url="https://learn.microsoft.com/azure/cost-management-billing/costs/tutorial-acm-create-budgets",
)
