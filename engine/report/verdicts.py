"""The verdict over several plans: counts per stack and in all, shared by the check formats."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..run.outcome import NOT_PLANNED_EXIT_CODE, Outcome, StackFailure

COUNTED = ("resources", "refusals", "mandatory", "advisory")


def counts(plan: Outcome) -> dict[str, int]:
    if isinstance(plan, StackFailure):
        return dict.fromkeys(COUNTED, 0)
    return {
        "resources": len(plan.resources),
        "refusals": len(plan.refusals),
        "mandatory": plan.mandatory,
        "advisory": plan.advisory,
    }


def summary(plans: Sequence[Outcome]) -> dict[str, Any]:
    """`{"stacks": 2, "failed": ["aks-gpu"], "refusals": 0, "mandatory": 1, "advisory": 3, "exitCode": 1}`, and
    `"notPlanned": [...]` when a stack could not be planned."""
    return total((p.stack, p.exit_code, counts(p)) for p in plans)


def total(entries: Iterable[tuple[str, int, dict[str, int]]]) -> dict[str, Any]:
    """The summary over `(stack, exit code, counts)` entries, read once in order (a fleet's merge streams them)."""
    result: dict[str, Any] = {"stacks": 0, "failed": [], "refusals": 0, "mandatory": 0, "advisory": 0, "exitCode": 0}
    for stack, exit_code, per_stack in entries:
        result["stacks"] += 1
        if exit_code != 0:
            result["failed"].append(stack)
        if exit_code == NOT_PLANNED_EXIT_CODE:
            result.setdefault("notPlanned", []).append(stack)
        for key in ("refusals", "mandatory", "advisory"):
            result[key] += per_stack[key]
        result["exitCode"] = max(result["exitCode"], exit_code)
    return result
