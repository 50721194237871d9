"""Azure Batch autoscale formulas: the one written for scale to zero, and a reader of what a formula keeps.

Pure (imports nothing of ours), so the shape table can read a pool's node counts from its formula. Formula
language: https://learn.microsoft.com/azure/batch/batch-automatic-scaling (observed 2026-11-26): statements end with
';', `$TargetDedicatedNodes` and `$TargetLowPriorityNodes` are the targets, `$PendingTasks` is the active plus
running tasks. A formula is a program; this reader is a judgement of its common shapes (a constant, a
`max(N, ...)` floor, a `min(..., N)` cap, a dependence on a task count), and says None where it cannot tell.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

DEDICATED_TARGET = "$TargetDedicatedNodes"
LOW_PRIORITY_TARGET = "$TargetLowPriorityNodes"
# Variables that follow the work queued on the pool: a formula reading none of them cannot follow it to zero.
TASK_VARIABLES = ("$PendingTasks", "$ActiveTasks", "$RunningTasks")


def scale_to_zero_formula(max_nodes: int, target: str = DEDICATED_TARGET) -> str:
    """An autoscale formula that follows the pending tasks (active and running) up to `max_nodes` and returns to
    0 nodes when none is left, letting running tasks finish before a node goes (after Learn's
    batch-automatic-scaling "pending tasks" example)."""
    other = LOW_PRIORITY_TARGET if target == DEDICATED_TARGET else DEDICATED_TARGET
    return (
        "$samples = $PendingTasks.GetSamplePercent(TimeInterval_Minute * 5);\n"
        "$tasks = $samples < 70 ? max(0, $PendingTasks.GetSample(1)) : "
        "max($PendingTasks.GetSample(1), avg($PendingTasks.GetSample(TimeInterval_Minute * 5)));\n"
        f"{target} = max(0, min($tasks, {max_nodes}));\n"
        f"{other} = 0;\n"
        "$NodeDeallocationOption = taskcompletion;"
    )


_STATEMENT = re.compile(r"^\s*(\$?[A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)(.*)$", re.DOTALL)  # the expression: stripped
_VARIABLE = re.compile(r"\$?[A-Za-z_][A-Za-z0-9_]*")
_NUMBER = re.compile(r"^\s*\d+(\.\d+)?\s*$")
_FLOOR = re.compile(r"^\s*max\s*\(\s*(\d+(?:\.\d+)?)\s*,")
_CAP = re.compile(r",\s*(\d+(?:\.\d+)?)\s*\)\s*\)?\s*$")  # min(..., N): the last argument (linear: no backtracking)
_CAP_FIRST = re.compile(r"min\s*\(\s*(\d+(?:\.\d+)?)\s*,")  # min(N, ...)
_FUNCTIONS = frozenset(
    "max min avg sum count len std lg ln log norm percentile rand range val time TimeInterval_Minute "
    "TimeInterval_Second TimeInterval_Hour TimeInterval_Day TimeInterval_Week GetSample GetSamplePercent "
    "GetSamplePeriod Count HistoryBeginTime taskcompletion requeue terminate retaineddata".split()
)


@dataclass(frozen=True)
class FormulaReading:
    """What an autoscale formula says about one target variable, as far as reading it can tell."""

    assigned: bool  # the formula sets the target at all (unset: Batch keeps 0)
    follows_tasks: bool  # the target depends, directly or through variables, on a task count
    idle: int | None  # nodes it keeps with no task: a constant target, or a `max(N, ...)` floor; None: unknown
    cap: int | None  # the most nodes it asks for: a constant, or a `min(..., N)` bound; None: unknown


def read_formula(formula: str, target: str) -> FormulaReading:
    """How `target` (`$TargetDedicatedNodes` or `$TargetLowPriorityNodes`) behaves in `formula`, read statement by
    statement (statements end with ';'; '//' comments dropped). The last assignment wins, as in Batch."""
    definitions: dict[str, str] = {}
    for raw in re.sub(r"//[^\n]*", "", formula).split(";"):
        match = _STATEMENT.match(raw)
        if match and match[2].strip():
            definitions[match[1]] = match[2].strip()
    expression = definitions.get(target)
    if expression is None:
        return FormulaReading(assigned=False, follows_tasks=False, idle=0, cap=0)
    follows = _depends_on_tasks(expression, definitions)
    if _NUMBER.match(expression):
        constant = int(float(expression))
        return FormulaReading(True, False, constant, constant)
    floor = _FLOOR.match(expression)
    cap = (_CAP.search(expression) if "min" in expression else None) or _CAP_FIRST.search(expression)
    idle = int(float(floor[1])) if floor else (0 if follows else None)
    return FormulaReading(True, follows, idle, int(float(cap[1])) if cap else None)


def _depends_on_tasks(expression: str, definitions: dict[str, str]) -> bool:
    """Whether `expression` reads a task count, directly or through the variables it reads (each read once)."""
    pending, seen = [expression], set[str]()
    while pending:
        for name in _VARIABLE.findall(pending.pop()):
            if name in TASK_VARIABLES:
                return True
            if name in definitions and name not in seen and name not in _FUNCTIONS:
                seen.add(name)
                pending.append(definitions[name])
    return False
