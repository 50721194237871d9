"""require-batch-gpu-scale-to-zero: Azure Batch GPU pools return to zero nodes when no task is pending.

Rule: a `batch:Pool` of a GPU VM size either scales with an autoscale formula that follows the task queue
(`$PendingTasks`, `$ActiveTasks` or `$RunningTasks`) and keeps no node without a task (no constant target above 0,
no `max(N, ...)` floor of 1 or more), or has a fixed scale of 0 nodes (`targetDedicatedNodes` and
`targetLowPriorityNodes` 0; ARM's default when `scaleSettings` is left out). A formula whose targets this reading
cannot place is reported too, saying so. The violation names what the kept nodes cost each day idle (the
catalog's approximate price; Spot where the nodes are low-priority/Spot).
Why: a Batch pool bills its nodes' VM hours whether or not a task runs; a fixed pool of GPU nodes, or a formula
with a floor, is an always-on cluster.
Azure doc: https://learn.microsoft.com/azure/batch/batch-automatic-scaling (the formula's variables; observed
2026-11-26). The formula reader: `azure_gpu_stacks.catalog.batch_formula`.
"""

from __future__ import annotations

from typing import Any

from pulumi_policy import EnforcementLevel, ReportViolation, Severity, StackValidationArgs, StackValidationPolicy

from ..catalog import VmSize
from ..catalog.batch_formula import DEDICATED_TARGET, LOW_PRIORITY_TARGET, read_formula
from ..catalog.limits import normalize_region
from ..catalog.shapes import BATCH_POOL, canonical_type
from . import config
from .batch_accounts import account_of
from .values import UNKNOWN, get, number, text
from .vm_size_lifecycle import catalog_entry

NAME = "require-batch-gpu-scale-to-zero"
HOURS_PER_DAY = 24
CONFIG = config.schema({})
FIX = (
    "use an autoscale formula that follows $PendingTasks down to 0 (BatchGpuPool's default, scale: autoscale), or a "
    "fixed scale of 0 nodes between runs"
)
TARGETS = (("targetDedicatedNodes", DEDICATED_TARGET, False), ("targetLowPriorityNodes", LOW_PRIORITY_TARGET, True))


def validate(args: StackValidationArgs, report_violation: ReportViolation) -> None:
    for pool in args.resources:
        if canonical_type(pool.resource_type) != BATCH_POOL:
            continue
        entry = catalog_entry(get(pool.props, "vmSize"))
        scale = get(pool.props, "scaleSettings")
        if entry is None or not entry.is_gpu or scale is UNKNOWN:
            continue
        formula = get(scale, "autoScale", "formula")
        if formula is UNKNOWN:
            continue
        account = account_of(pool, args.resources)
        region = text(get(account.props, "location")) if account is not None else None
        pricing = (entry, normalize_region(region) if region else None)
        found = _formula_problem(text(formula), pricing) if text(formula) else _fixed_problem(scale, pricing)
        if found:
            report_violation(f"'{pool.name}': {found}; {FIX}.", pool.urn)


Pricing = tuple[VmSize, str | None]  # the size, and the region of the pool's account when the stack has it


def _fixed_problem(scale: Any, pricing: Pricing) -> str | None:
    kept = []
    for key, _, spot in TARGETS:
        value = get(scale, "fixedScale", key)
        if value is UNKNOWN:
            return None
        count = number(value) or 0
        if count > 0:
            kept.append((f"scaleSettings.fixedScale.{key} is {count:g}", int(count), spot))
    if not kept:
        return None
    return f"{' and '.join(k[0] for k in kept)}: {_idle_cost(pricing, kept)}, whether or not a task runs"


def _formula_problem(formula: str | None, pricing: Pricing) -> str | None:
    assert formula is not None
    kept: list[tuple[str, int, bool]] = []
    unclear: list[str] = []
    for _, variable, spot in TARGETS:
        reading = read_formula(formula, variable)
        if not reading.assigned:
            continue
        if reading.idle is None or (not reading.follows_tasks and reading.idle == 0 and reading.cap != 0):
            unclear.append(variable)
        elif reading.idle > 0:
            kept.append((f"{variable} never goes below {reading.idle}", reading.idle, spot))
    if kept:
        held = "; ".join(k[0] for k in kept)
        return f"the autoscale formula keeps GPU nodes with no task ({held}): {_idle_cost(pricing, kept)}"
    if unclear:
        return (
            f"the autoscale formula sets {' and '.join(unclear)} without following the task queue ($PendingTasks, "
            "$ActiveTasks, $RunningTasks) to 0, so its GPU nodes may stay up with no task"
        )
    return None


def _idle_cost(pricing: Pricing, kept: list[tuple[str, int, bool]]) -> str:
    entry, region = pricing
    nodes = sum(k[1] for k in kept)
    prices = [None if region is None else entry.usd_per_hour(region, spot) for _, _, spot in kept]
    runs = f"{nodes} x {entry.name} bill around the clock"
    if any(p is None for p in prices):
        return f"{runs}, at full price on every day no task runs"
    daily = sum(p * count for p, (_, count, _) in zip(prices, kept, strict=True) if p is not None) * HOURS_PER_DAY
    return f"{runs}: about {daily:,.2f} USD for every day no task runs (the catalog's approximate price in {region})"


POLICY = StackValidationPolicy(
    name=NAME,
    description="Azure Batch GPU pools must return to zero nodes when no task is pending.",
    validate=validate,
    enforcement_level=EnforcementLevel.ADVISORY,
    severity=Severity.MEDIUM,
    config_schema=CONFIG,
    remediation_steps=(
        "Scale the pool with an autoscale formula that follows $PendingTasks and returns to 0 (the batch-gpu stack's "
        "pool does), or keep a fixed scale at 0 nodes between runs."
    ),
    url="https://learn.microsoft.com/azure/batch/batch-automatic-scaling",
)
