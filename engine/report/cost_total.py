"""The total of several stacks' cost, as the last row of every cost table (`cost`, check's and a fleet's
markdown) and the `total` of `cost --json`.

The total is the sum of the figures each stack's row shows (per hour to 4 places, per month to the cent), so a
reader adding up a column gets the total row; it is a lower bound ("at least") when any stack's is, or when a
stack could not be planned. It is reduced stack by stack (`then`), so a fleet's report, streamed from its
records, adds it up as it goes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..run.outcome import Outcome, StackFailure


@dataclass(frozen=True)
class CostTotal:
    stacks: int = 0  # stacks summed: those planned
    not_planned: int = 0
    hourly_usd: float = 0.0
    monthly_usd: float = 0.0
    idle_hourly_usd: float = 0.0
    idle_monthly_usd: float = 0.0
    lower_bound: bool = False

    @classmethod
    def of_stack(cls, cost: Mapping[str, Any] | None) -> CostTotal:
        """One stack's figures, from its cost as JSON (`CostEstimate.to_json`, also a fleet record's); None for a
        stack not planned. A figure a record lacks counts as 0 and makes the total a lower bound."""
        if cost is None:
            return cls(not_planned=1, lower_bound=True)
        keys = ("hourlyUsd", "monthlyUsd", "idleHourlyUsd", "idleMonthlyUsd")
        figures = [cost.get(key) for key in keys]
        numbers = [float(f) if isinstance(f, (int, float)) and not isinstance(f, bool) else None for f in figures]
        lacking = None in numbers
        hourly, monthly, idle_hourly, idle_monthly = (n or 0.0 for n in numbers)
        return cls(1, 0, hourly, monthly, idle_hourly, idle_monthly, lacking or cost.get("lowerBound") is not False)

    @classmethod
    def of(cls, outcomes: Sequence[Outcome]) -> CostTotal:
        total = cls()
        for o in outcomes:
            total = total.then(cls.of_stack(None if isinstance(o, StackFailure) else o.cost.to_json()))
        return total

    def then(self, later: CostTotal) -> CostTotal:
        """This total with a later stack's (or total's) figures added."""
        return CostTotal(
            self.stacks + later.stacks,
            self.not_planned + later.not_planned,
            round(self.hourly_usd + later.hourly_usd, 4),
            round(self.monthly_usd + later.monthly_usd, 2),
            round(self.idle_hourly_usd + later.idle_hourly_usd, 4),
            round(self.idle_monthly_usd + later.idle_monthly_usd, 2),
            self.lower_bound or later.lower_bound,
        )

    @property
    def rows(self) -> int:
        """The stacks of the table it totals, planned or not."""
        return self.stacks + self.not_planned

    def to_json(self) -> dict[str, Any]:
        return {
            "stacks": self.stacks,
            "notPlanned": self.not_planned,
            "hourlyUsd": self.hourly_usd,
            "monthlyUsd": self.monthly_usd,
            "idleHourlyUsd": self.idle_hourly_usd,
            "idleMonthlyUsd": self.idle_monthly_usd,
            "lowerBound": self.lower_bound,
        }
