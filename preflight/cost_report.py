"""The cost of plans as people read it: a section of the plan report, and a table across stacks.

Both read the plan's `cost` document (see `azure_gpu_stacks.preflight.cost`), so JSON, text and markdown agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from azure_gpu_stacks.preflight.cost import HOURS_PER_MONTH
from azure_gpu_stacks.preflight.plan import Plan
from azure_gpu_stacks.preflight.tables import Format, table


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
        f"Cost (catalog list prices for {cost['pricesRegion']}, observed {cost['pricesObserved']}; "
        f"{HOURS_PER_MONTH} h a month):",
    ]
    body = table(["resource", "size", "priority", "nodes", "USD/h", "idle USD/h"], rows, right=(4, 5))
    lines += ["  " + line for line in body.splitlines()]
    lines.append(
        f"  full scale {usd(cost['hourlyUsd'], 4)} USD/h = {usd(cost['monthlyUsd'])} USD/month; "
        f"idle {usd(cost['idleHourlyUsd'], 4)} USD/h = {usd(cost['idleMonthlyUsd'])} USD/month"
    )
    if cost.get("budgetMonthlyUsd") is not None:
        lines.append(f"  budget {usd(cost['budgetMonthlyUsd'])} USD/month")
    unpriced = [f"{r['resource']} ({r['unpriced']})" for r in cost["resources"] if r.get("unpriced")]
    if unpriced:
        lines.append("  not in the totals, no price known: " + "; ".join(unpriced))
    schedules = {r.get("idleSchedule") for r in cost["resources"] if "idleHoursPerDay" in r}
    lines += [f"  ({note})" for kind, note in SCHEDULE_NOTES.items() if kind in schedules]
    return lines


def cost_table(plans: Sequence[Plan], fmt: Format = "text") -> str:
    """One row per stack: full-scale and idle cost per hour and month, and its budget."""
    rows = []
    for p in plans:
        c = p.cost
        total = "" if c.get("complete", True) else " *"
        rows.append(
            [
                p.stack,
                usd(c.get("hourlyUsd"), 4) + total,
                usd(c.get("monthlyUsd")) + total,
                usd(c.get("idleHourlyUsd"), 4) + total,
                usd(c.get("idleMonthlyUsd")) + total,
                "none" if c.get("budgetMonthlyUsd") is None else usd(c["budgetMonthlyUsd"]),
            ]
        )
    headers = ["stack", "USD/h", "USD/month", "idle USD/h", "idle USD/month", "budget USD/month"]
    out = table(headers, rows, fmt, right=(1, 2, 3, 4, 5))
    observed = sorted({str(p.cost.get("pricesObserved")) for p in plans if p.cost})
    regions = sorted({str(p.cost.get("pricesRegion")) for p in plans if p.cost})
    notes = [
        f"Catalog list prices ({', '.join(regions) or 'unknown'} Linux, observed {', '.join(observed) or 'unknown'}); "
        f"{HOURS_PER_MONTH} h a month; VMs only (no disks, network or service fees)."
    ]
    if any(not p.cost.get("complete", True) for p in plans):
        notes.append("* some resources have no known price and are left out of the total (see `gpu-stacks plan`).")
    separator = "\n\n" if fmt == "markdown" else "\n"
    return out + separator + separator.join(notes)
