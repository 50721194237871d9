"""The cost of plans as people read it: a section of the plan report, and a table across stacks.

Both read the plan's `cost` document (see `azure_gpu_stacks.preflight.cost`), so JSON, text and markdown agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from azure_gpu_stacks.components.catalog.prices import UNKNOWN
from azure_gpu_stacks.preflight.cost import HOURS_PER_MONTH
from azure_gpu_stacks.preflight.plan import Plan
from azure_gpu_stacks.preflight.tables import Format, table


LOW_PRIORITY_NOTE = "AML low-priority nodes are priced at the Spot rate, an assumption: the catalog has no low-priority price"
# What the idle hours of each kind of schedule assume (see azure_gpu_stacks.preflight.demand).
SCHEDULE_NOTES = {
    "auto-shutdown": "a VM with a daily auto-shutdown is taken to be started at 09:00 and to run until the shutdown",
    "autoscale": "a scale set on an autoscale schedule runs each profile's minimum from its start until the next profile starts",
}


def usd(value: float | None, places: int = 2) -> str:
    return "unpriced" if value is None else f"{value:,.{places}f}"


def _nodes(resource: dict[str, Any]) -> str:
    idle = f"{resource['idleCount']}"
    if "idleHoursPerDay" in resource:
        idle += f" for {round(resource['idleHoursPerDay'], 2):g} h/day"
    return f"{resource['count']} (idle {idle})"


def provenance(cost: dict[str, Any]) -> str:
    """Where the prices come from: the oldest price used, its date and source."""
    if not cost.get("pricesSource"):
        return "no price used"
    observed = cost.get("pricesObserved")
    when = "date unknown" if observed == UNKNOWN else f"observed {observed}"
    return f"oldest price used: {when}, {cost.get('pricesSourceDescription')} ({cost['pricesSource']})"


def prices_note(costs: Sequence[dict[str, Any]]) -> str:
    """`catalog list prices (REGION Linux; oldest price used: ...)` over several stacks' costs."""
    regions = sorted({str(c.get("pricesRegion")) for c in costs if c})
    priced = [c for c in costs if c.get("pricesSource")]
    first: dict[str, Any] = min(priced, key=lambda c: (c["pricesObserved"] != UNKNOWN, str(c["pricesObserved"])), default={})
    return f"catalog list prices ({', '.join(regions) or 'unknown'} Linux; {provenance(first)})"


def unpriced_sizes(costs: Sequence[dict[str, Any]]) -> list[str]:
    """Sizes the costs could not price: their totals are lower bounds."""
    return sorted({size for c in costs for size in c.get("unpricedSizes") or []})


def _low_priority(costs: Sequence[dict[str, Any]]) -> bool:
    return any(r.get("priority") == "LowPriority" for c in costs for r in c.get("resources") or [])


def cost_section(cost: dict[str, Any]) -> list[str]:
    """Lines for the text plan report; none when the stack runs no VMs."""
    if not cost.get("resources"):
        return []
    rows = [
        [r["resource"], r["size"], r["priority"], _nodes(r), usd(r["hourlyUsd"], 4), usd(r["idleHourlyUsd"], 4)]
        for r in cost["resources"]
    ]
    lines = [
        "",
        f"Cost (catalog list prices for {cost['pricesRegion']}, Linux; {provenance(cost)}; {HOURS_PER_MONTH} h a month):",
    ]
    body = table(["resource", "size", "priority", "nodes", "USD/h", "idle USD/h"], rows, right=(4, 5))
    lines += ["  " + line for line in body.splitlines()]
    least = "at least " if cost.get("lowerBound") else ""
    lines.append(
        f"  full scale {least}{usd(cost['hourlyUsd'], 4)} USD/h = {least}{usd(cost['monthlyUsd'])} USD/month; "
        f"idle {least}{usd(cost['idleHourlyUsd'], 4)} USD/h = {least}{usd(cost['idleMonthlyUsd'])} USD/month"
    )
    if cost.get("budgetMonthlyUsd") is not None:
        lines.append(f"  budget {usd(cost['budgetMonthlyUsd'])} USD/month")
    unpriced = [f"{r['resource']} ({r['unpriced']})" for r in cost["resources"] if r.get("unpriced")]
    if unpriced:
        lines.append("  lower bound: not in the totals, no price known: " + "; ".join(unpriced))
    if _low_priority([cost]):
        lines.append(f"  ({LOW_PRIORITY_NOTE})")
    schedules = {r.get("idleSchedule") for r in cost["resources"] if "idleHoursPerDay" in r}
    lines += [f"  ({note})" for kind, note in SCHEDULE_NOTES.items() if kind in schedules]
    return lines


def cost_table(plans: Sequence[Plan], fmt: Format = "text") -> str:
    """One row per stack: full-scale and idle cost per hour and month, and its budget."""
    rows = []
    for p in plans:
        c = p.cost
        least = ">= " if c.get("lowerBound") else ""
        rows.append(
            [
                p.stack,
                least + usd(c.get("hourlyUsd"), 4),
                least + usd(c.get("monthlyUsd")),
                least + usd(c.get("idleHourlyUsd"), 4),
                least + usd(c.get("idleMonthlyUsd")),
                "none" if c.get("budgetMonthlyUsd") is None else usd(c["budgetMonthlyUsd"]),
            ]
        )
    headers = ["stack", "USD/h", "USD/month", "idle USD/h", "idle USD/month", "budget USD/month"]
    out = table(headers, rows, fmt, right=(1, 2, 3, 4, 5))
    costs = [p.cost for p in plans]
    note = prices_note(costs)
    notes = [f"{note[:1].upper()}{note[1:]}; {HOURS_PER_MONTH} h a month; VMs only (no disks, network or service fees)."]
    unpriced = unpriced_sizes(costs)
    if unpriced:
        notes.append(f">= a lower bound: no price is known for {', '.join(unpriced)} (see `gpu-stacks plan`).")
    if _low_priority([p.cost for p in plans]):
        notes.append(LOW_PRIORITY_NOTE + ".")
    separator = "\n\n" if fmt == "markdown" else "\n"
    return out + separator + separator.join(notes)
