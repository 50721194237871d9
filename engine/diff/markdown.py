"""`gpu-stacks diff --format markdown`: the pull-request comment (and job summary).

Read top to bottom: a verdict line; a warning block for each GPU pool or cluster the change
replaces, with what it interrupts and how to acknowledge it; one table row per changed stack
(`+2 ~1 -0, replaces 1`, cost deltas, problems); unchanged stacks on one line; then each changed
stack's details collapsed in `<details>` (with the stack as it will be drawn: resources, parents,
dependencies and busy/idle cost per component, folded once more), so that a change to 50 stacks stays one
screen until a reviewer opens a stack. The first line is a hidden marker the workflow finds the comment by, to
update it in place.
"""

from __future__ import annotations

from ...catalog.words import counted
from ..report.markdown import cell, graph_details
from .compare import StackDiff
from .report import (
    ALIAS_HINT,
    HOW,
    amount_text,
    money,
    old_name,
    summary_line,
    title,
    value,
)
from .run import DiffReport

MARKER = "<!-- gpu-stacks diff -->"


def render_markdown(report: DiffReport) -> str:
    changed = [s for s in report.stacks if s.status != "unchanged"]
    unchanged = [s for s in report.stacks if s.status == "unchanged"]
    failing = [s for s in report.stacks if s.problems]
    head = (
        f"### gpu-stacks diff: {len(failing)} of {counted(len(report.stacks), 'stack')} "
        f"{'introduces' if len(failing) == 1 else 'introduce'} problems"
        if failing
        else f"### gpu-stacks diff: {len(changed)} of {counted(len(report.stacks), 'stack')} "
        f"{'changes' if len(changed) == 1 else 'change'}, no problem introduced"
    )
    busy, idle = report.busy, report.idle
    lines = [
        MARKER,
        head,
        "",
        f"Against `{cell(report.base.name)}` ({report.base.short}), offline. "
        f"Cost: **{money(busy)} USD/month busy**, {money(idle)} USD/month idle ({report.prices}, 730 h a month).",
    ]
    gpu = [(s, c) for s in report.stacks for c in s.gpu_replacements]
    if gpu:
        lines += ["", "> [!WARNING]", "> **GPU pools and clusters replaced** (deleted, then created):"]
        for s, c in gpu:
            state = (
                "acknowledged"
                if c.acknowledged
                else f"**not acknowledged**: `--allow-replace '{c.urn}'` or `# gpu-stacks: allow-replace {c.urn}` "
                "in the stack file"
            )
            lines.append(
                f"> - `{cell(s.stack)}`: `{cell(c.name)}` ({cell(c.type)}): {cell(c.interrupts or '')}; {state}"
            )
    if changed:
        lines += [
            "",
            "| Stack | Change | Busy USD/month | Idle USD/month | Problems |",
            "| --- | --- | ---: | ---: | --- |",
        ]
        for s in changed:
            counts = summary_line(s).split(", ")[0] + (f", replaces {len(s.replaced)}" if s.replaced else "")
            problems = "; ".join(s.problems) or "none"
            lines.append(
                f"| `{cell(title(s))}` | {counts} | {money(s.cost.busy)} | {money(s.cost.idle)} | {cell(problems)} |"
            )
    if unchanged:
        lines += ["", f"Unchanged ({len(unchanged)}): " + ", ".join(f"`{cell(s.stack)}`" for s in unchanged)]
    for s in changed:
        lines += [
            "",
            f"<details><summary><code>{_html(title(s))}</code>: {_html(summary_line(s))}</summary>",
            "",
            *_details(s),
            *(["", *graph_details(s.head_plan)] if s.head_plan is not None else []),
            "",
            "</details>",
        ]
    return "\n".join(lines) + "\n"


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _details(s: StackDiff) -> list[str]:
    lines: list[str] = []
    rows = [("create", r.name, r.type, "", "", "") for r in s.added]
    for c in [*s.replaced, *s.updated]:
        action = "**replace**" if c.replaces else "update"
        if c.renamed_from:
            old = old_name(c.renamed_from)
            rows.append((action, c.name, c.type, "(URN)", f"renamed from {old}", ALIAS_HINT.format(old=old)))
        for p in c.changes:
            why = f"forces replacement: {HOW[p.forces.how]} ({p.forces.source})" if p.forces else ""
            rows.append((action, c.name, c.type, p.path, f"{value(p.old)} → {value(p.new)}", why))
    rows += [("delete", r.name, r.type, "", "", "") for r in s.removed]
    if rows:
        lines += ["| Action | Resource | Type | Property | Old → new | Note |", "| --- | --- | --- | --- | --- | --- |"]
        lines += [f"| {a} | `{cell(n)}` | {cell(t)} | {cell(p)} | {cell(v)} | {cell(w)} |" for a, n, t, p, v, w in rows]
    if s.unchanged:
        lines += ["", f"{counted(s.unchanged, 'resource')} unchanged."]
    delta = s.cost
    cost = (
        f"Cost: busy {delta.busy_before:,.2f} → {delta.busy_after:,.2f} USD/month ({money(delta.busy)}); "
        f"idle {delta.idle_before:,.2f} → {delta.idle_after:,.2f} ({money(delta.idle)})"
    )
    if delta.budget_before != delta.budget_after:
        cost += f"; budget {amount_text(delta.budget_before)} → {amount_text(delta.budget_after)}"
    lines += ["", cost + "."]
    lines += [f"- Cost guardrail ({cell(s.guardrail.level)}): {cell(e)}." for e in s.guardrail.exceeded]
    findings = [("new", v) for v in s.new_violations] + [("resolved", v) for v in s.resolved_violations]
    if findings:
        lines += ["", "| Policy | Level | Resource | Message |", "| --- | --- | --- | --- |"]
        lines += [
            f"| {state}: `{cell(v.policy)}` | {cell(v.level)} | `{cell(v.resource)}` | {cell(v.message)} |"
            for state, v in findings
        ]
    refusals = [("new", r) for r in s.new_refusals] + [("resolved", r) for r in s.resolved_refusals]
    if refusals:
        lines += ["", "| Azure would refuse | Resource | Code | Message |", "| --- | --- | --- | --- |"]
        lines += [f"| {state} | `{cell(r.resource)}` | {cell(r.code)} | {cell(r.message)} |" for state, r in refusals]
    if s.quota and all(q.usage is None for q in s.quota):
        lines += ["", "| Quota family | Region | vCPUs before | after |", "| --- | --- | ---: | ---: |"]
        lines += [f"| {cell(q.family)} | {cell(q.region)} | {q.before} | {q.after} |" for q in s.quota]
    elif s.quota:
        lines += ["", "| Quota family | Region | vCPUs before | after | free |", "| --- | --- | ---: | ---: | ---: |"]
        for q in s.quota:
            free = "not listed" if q.usage is None else f"{q.usage.free}" + ("" if q.fits else " **short**")
            lines.append(f"| {cell(q.family)} | {cell(q.region)} | {q.before} | {q.after} | {free} |")
    return lines
