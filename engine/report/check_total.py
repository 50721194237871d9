"""What `gpu-stacks check` (one project or a fleet, and `merge`) says of several stacks' cost together: the same
total `cost` shows as its last row (`cost_total.CostTotal`, `cost.total_row`), as one text line and in JSON."""

from __future__ import annotations

from typing import Any

from .cost import total_row, usd
from .cost_total import CostTotal


def total_lines(total: CostTotal) -> list[str]:
    """The lines under check's text report: the cost of all its stacks, after a blank line; none for one stack."""
    if total.rows < 2:
        return []
    least = "at least " if total.lower_bound else ""  # as one plan's cost line says it
    return [
        "",
        f"Cost {total_row(total)[0]}: full scale {least}{usd(total.hourly_usd, 4)} USD/h = "
        f"{least}{usd(total.monthly_usd)} USD/month; idle {least}{usd(total.idle_hourly_usd, 4)} USD/h = "
        f"{least}{usd(total.idle_monthly_usd)} USD/month.",
    ]


def total_json(total: CostTotal) -> dict[str, Any]:
    """check's `costTotal`: the shape of `cost --json`'s `total`, for any number of stacks."""
    return total.to_json()
