"""`gpu-stacks diff` as people and programs read it: text, JSON, and markdown for a pull request.

Every form puts the replacements of GPU pools and clusters first (what they interrupt, and whether
they are acknowledged), then one summary line per stack (`+2 ~1 -0, replaces 1, +412.00 USD/month
busy`), then the details. The markdown keeps a 50-stack change readable: one table row per changed
stack, unchanged stacks on one line, and each stack's details in a collapsed `<details>` section.
"""

from __future__ import annotations

import json
from typing import Any

from ...catalog.words import counted
from .compare import ABSENT, PropertyChange, ResourceChange, StackDiff
from .run import DiffReport

ALIAS_HINT = "an alias keeps it: opts=pulumi.ResourceOptions(aliases=[pulumi.Alias(name={old!r})])"
HOW = {"provider": "the provider replaces it", "refused": "Azure refuses the update in place"}


def money(delta: float) -> str:
    return f"{'+' if delta >= 0 else '-'}{abs(delta):,.2f}"


def summary_line(s: StackDiff) -> str:
    """`+2 ~1 -0, replaces 1, +412.00 USD/month busy, +0.00 idle`."""
    counts = f"+{len(s.added)} ~{len(s.updated)} -{len(s.removed)}"
    replaces = f", replaces {len(s.replaced)}" if s.replaced else ""
    return f"{counts}{replaces}, {money(s.cost.busy)} USD/month busy, {money(s.cost.idle)} idle"


def title(s: StackDiff) -> str:
    notes = {"added": " (new stack)", "removed": " (stack removed)", "renamed": f" (renamed from {s.base_stack})"}
    return f"{s.stack}{notes.get(s.status, '')}"


def value(v: Any) -> str:
    return "(not set)" if v is ABSENT else json.dumps(_whole(v), sort_keys=True)


def _whole(v: Any) -> Any:
    """Numbers as written: the engine carries every number as a float (3.0 for 3)."""
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, dict):
        return {k: _whole(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_whole(x) for x in v]
    return v


def change_line(c: PropertyChange) -> str:
    line = f"{c.path}: {value(c.old)} -> {value(c.new)}"
    if c.forces:
        line += f"  [forces replacement: {HOW[c.forces.how]}; {c.forces.source}]"
    return line


def old_name(urn: str) -> str:
    return urn.rsplit("::", 1)[-1]


def gpu_line(s: StackDiff, c: ResourceChange) -> str:
    state = "acknowledged" if c.acknowledged else f"NOT acknowledged (--allow-replace '{c.urn}')"
    return f"{s.stack}: {c.name} [{c.type}]: {c.interrupts}; {state}"


def total_line(report: DiffReport) -> str:
    return (
        f"total: {money(report.busy)} USD/month busy, {money(report.idle)} USD/month idle ({report.prices}, "
        "730 h a month)"
    )


def verdict_line(report: DiffReport) -> str:
    failing = [f"{s.stack} ({'; '.join(s.problems)})" for s in report.stacks if s.problems]
    if failing:
        return "FAILED: the change introduces problems: " + "; ".join(failing) + "."
    return "OK: the change introduces no policy violation, refusal or unacknowledged GPU replacement."


def render_text(report: DiffReport) -> str:
    lines = [f"gpu-stacks diff: {report.base.name} ({report.base.short}) -> working tree"]
    gpu = [(s, c) for s in report.stacks for c in s.gpu_replacements]
    if gpu:
        lines += ["", "GPU pools and clusters replaced (deleted, then created):"]
        lines += [f"  ! {gpu_line(s, c)}" for s, c in gpu]
    for s in report.stacks:
        lines += ["", *stack_text(s)]
    lines += ["", total_line(report), verdict_line(report)]
    return "\n".join(lines)


def stack_text(s: StackDiff) -> list[str]:
    """One stack's part of the text report: its summary line, then each change."""
    if s.status == "unchanged":
        return [f"{title(s)}: no change"]
    lines = [f"{title(s)}: {summary_line(s)}"]
    lines += [f"  + {r.name} [{r.type}]" for r in s.added]
    for c in s.replaced:
        lines.append(f"  +- {c.name} [{c.type}] replace")
        if c.renamed_from:
            lines.append(
                f"       renamed from {old_name(c.renamed_from)} without an alias; "
                f"{ALIAS_HINT.format(old=old_name(c.renamed_from))}"
            )
        lines += [f"       {change_line(p)}" for p in c.changes]
    for c in s.updated:
        lines.append(f"  ~ {c.name} [{c.type}] update")
        lines += [f"       {change_line(p)}" for p in c.changes]
    lines += [f"  - {r.name} [{r.type}]" for r in s.removed]
    if s.unchanged:
        lines.append(f"  {counted(s.unchanged, 'resource')} unchanged")
    delta = s.cost
    lines.append(
        f"  cost: busy {delta.busy_before:,.2f} -> {delta.busy_after:,.2f} USD/month ({money(delta.busy)}); "
        f"idle {delta.idle_before:,.2f} -> {delta.idle_after:,.2f} ({money(delta.idle)})"
    )
    if delta.budget_before != delta.budget_after:
        lines.append(f"  budget: {amount_text(delta.budget_before)} -> {amount_text(delta.budget_after)} USD/month")
    lines += [f"  cost guardrail [{s.guardrail.level}] {e}" for e in s.guardrail.exceeded]
    lines += [f"  new [{v.level}] {v.policy}: {v.resource}: {v.message}" for v in s.new_violations]
    lines += [f"  resolved [{v.level}] {v.policy}: {v.resource}: {v.message}" for v in s.resolved_violations]
    lines += [f"  new refusal: {r.resource} [{r.type}]: {r.code}: {r.message}" for r in s.new_refusals]
    lines += [f"  resolved refusal: {r.resource} [{r.type}]: {r.code}: {r.message}" for r in s.resolved_refusals]
    for q in s.quota:
        fits = "" if q.fits is None else f" (free {q.usage.free if q.usage else 0}: {'fits' if q.fits else 'SHORT'})"
        lines.append(f"  quota {q.family} in {q.region}: {q.before} -> {q.after} vCPUs{fits}")
    return lines


def amount_text(amount: float | None) -> str:
    return "none" if amount is None else f"{amount:,.2f}"


def render_json(report: DiffReport) -> dict[str, Any]:
    return {
        "base": {"revision": report.base.name, "commit": report.base.commit},
        "stacks": [s.to_json() for s in report.stacks],
        "gpuReplacements": [{"stack": s.stack, **c.to_json()} for s in report.stacks for c in s.gpu_replacements],
        "total": {
            "busyMonthlyUsdDelta": round(report.busy, 2),
            "idleMonthlyUsdDelta": round(report.idle, 2),
            "prices": report.prices,
        },
        "usageFile": report.usage_file,
        "exitCode": report.exit_code,
    }
