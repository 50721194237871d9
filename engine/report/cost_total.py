"""The total of several stacks' cost, as the `cost` table's last row and its JSON's `total`.

The total is the sum of the figures each stack's row shows (per hour to 4 places, per month to the cent), so a
reader adding up a column gets the total row; it is a lower bound ("at least") when any stack's is, or when a
stack could not be planned.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..run.outcome import Outcome, StackFailure, plans_of


@dataclass(frozen=True)
class CostTotal:
    stacks: int  # stacks summed: those planned
    not_planned: int
    hourly_usd: float
    monthly_usd: float
    idle_hourly_usd: float
    idle_monthly_usd: float
    lower_bound: bool

    @classmethod
    def of(cls, outcomes: Sequence[Outcome]) -> CostTotal:
        costs = [p.cost for p in plans_of(list(outcomes))]
        not_planned = sum(isinstance(o, StackFailure) for o in outcomes)
        return cls(
            stacks=len(costs),
            not_planned=not_planned,
            hourly_usd=round(sum(c.hourly_usd for c in costs), 4),
            monthly_usd=round(sum(c.monthly_usd for c in costs), 2),
            idle_hourly_usd=round(sum(c.idle_hourly_usd for c in costs), 4),
            idle_monthly_usd=round(sum(c.idle_monthly_usd for c in costs), 2),
            lower_bound=bool(not_planned) or any(c.lower_bound for c in costs),
        )

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
