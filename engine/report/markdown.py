"""`gpu-stacks check --format markdown`: the verdict as a pull-request comment or job summary.

A table of stacks first (what a reviewer scans), then, per stack with findings, what Azure would
refuse and each policy violation with its level, resource and message.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from ...catalog.words import counted
from ..escapes import cell
from ..run.outcome import Outcome, StackFailure, plans_of
from ..run.plan import Plan
from .cost import cost_table
from .verdicts import counts, summary

LEVEL_ORDER = {"mandatory": 0, "advisory": 1}


def _days(plans: Sequence[Outcome]) -> str:
    return days_text({p.as_of.isoformat() for p in plans_of(list(plans))})


def days_text(days: set[str]) -> str:
    """The days the plans judged on, for the heading."""
    return ", ".join(sorted(days)) or "today"


def render_markdown(plans: Sequence[Outcome]) -> str:
    lines = heading(summary(plans), _days(plans))
    lines += [stack_row(plan) for plan in plans]
    for plan in plans:
        lines += stack_details(plan)
    lines += ["", "#### Cost", "", cost_table(plans, "markdown")]
    return "\n".join(lines) + "\n"


def heading(total: dict[str, Any], days: str) -> list[str]:
    """The verdict line, the totals and the head of the stack table, from `verdicts.summary`'s totals."""
    failed = total["failed"]
    head = (
        f"### gpu-stacks check: {len(failed)} of {counted(total['stacks'], 'stack')} "
        f"{'fails' if len(failed) == 1 else 'fail'}"
        if failed
        else f"### gpu-stacks check: {'the' if total['stacks'] == 1 else 'all'} {counted(total['stacks'], 'stack')} "
        f"{'passes' if total['stacks'] == 1 else 'pass'}"
    )
    return [
        head,
        "",
        (
            f"Offline plan and policy pack as of {days}; {counted(total['mandatory'], 'mandatory violation')}, "
            f"{total['advisory']} advisory, {counted(total['refusals'], 'Azure refusal')}."
        ),
        "",
        "| Stack | Verdict | Resources | Azure would refuse | Mandatory | Advisory |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
    ]


def stack_row(plan: Outcome) -> str:
    if isinstance(plan, StackFailure):
        return f"| `{cell(plan.stack)}` | **not planned** | – | – | – | – |"
    c = counts(plan)
    verdict = "**fail**" if plan.exit_code else "pass"
    numbers = f"{c['resources']} | {c['refusals']} | {c['mandatory']} | {c['advisory']}"
    return f"| `{cell(plan.stack)}` | {verdict} | {numbers} |"


def stack_details(plan: Outcome) -> list[str]:
    """What Azure would refuse, each violation and the resources not checked offline of one stack, and its
    resources drawn (`graph_details`); for a stack not planned, its one line."""
    if isinstance(plan, StackFailure):
        where = f" ({cell(plan.stack_file)})" if plan.stack_file else ""
        return ["", f"#### `{cell(plan.stack)}`{where}", "", f"Not planned: {cell(plan.message)}"]
    lines = ["", f"#### `{cell(plan.stack)}` ({cell(plan.stack_file)})", ""]
    if plan.refusals:
        lines += ["| Azure would refuse | Code | Message |", "| --- | --- | --- |"]
        lines += [f"| `{cell(r.resource)}` | {cell(r.code)} | {cell(r.message)} |" for r in plan.refusals]
        lines.append("")
    if plan.violations:
        lines += ["| Level | Policy | Resource | Message |", "| --- | --- | --- | --- |"]
        ordered = sorted(plan.violations, key=lambda v: LEVEL_ORDER.get(v.level, 2))
        lines += [
            f"| {cell(v.level)} | `{cell(v.policy)}` | `{cell(v.resource)}` | {cell(v.message)} |" for v in ordered
        ]
    if plan.not_checked:
        if plan.violations:
            lines.append("")
        lines += [f"Not checked offline ({len(plan.not_checked)}): the offline engine does not model their types.", ""]
        lines += [f"- `{cell(urn.split('::')[-1])}` `{cell(urn.split('::')[-2])}`" for urn in plan.not_checked]
    if lines[-1] != "":
        lines.append("")
    return lines + graph_details(plan)


def graph_details(plan: Plan) -> list[str]:
    """The plan drawn, folded under one line: a Mermaid flowchart of its resources, parents and dependencies with
    busy and idle cost per component (GitHub renders it in comments and job summaries), and the same as an
    indented tree for where Mermaid does not render."""
    from .graph import mermaid, tree

    summary = (
        f"<details><summary>{counted(len(plan.resources), 'resource')} of "
        f"<code>{html.escape(plan.stack, quote=False)}</code>: "
        "graph, with busy and idle cost a month per component</summary>"
    )
    plain = [html.escape(line, quote=False) for line in tree(plan)]
    return [summary, "", *mermaid(plan), "", "As text:", "", "<pre>", *plain, "</pre>", "", "</details>"]
