"""The cost of a stack from the catalog's prices: per VM-billed resource and in total, at full scale
and when idle, per hour and per month; and whether the stack's budget fits that cost.

- Full scale: every resource at its largest node count (AKS `maxCount`, AML `maxNodeCount`).
- Idle: what still runs when nothing is scheduled (AML at `minNodeCount`, an autoscaled AKS pool at
  `minCount`, a scale set at its capacity or only in the hours its autoscale schedule runs it (0
  when parked), a VM only for the hours before its daily auto-shutdown),
  as an average hourly rate. See `azure_gpu_stacks.engine.estimate.demand` for how each resource type is read and the
  auto-shutdown assumption.
- Spot VMs, Spot scale sets and AKS pools, and AML `LowPriority` clusters are priced at the
  catalog's Spot price. AML low-priority nodes are taken to cost the Spot rate: an ASSUMPTION the
  reports label (`priceBasis`), since the catalog holds one discounted price per size, from the
  Retail Prices API's Spot meters.
- A month is 730 hours (8,760 / 12), as Azure's pricing calculator counts it.
- A size the catalog has no price for (or no Spot price, when it runs as Spot) is reported as
  unpriced, never guessed; the totals are then a lower bound (`lowerBound: true`) and the reports
  name the sizes without a price (`unpricedSizes`).
- Every price has its own observed date and source; the cost names the oldest price it used and
  its source (`pricesObserved`, `pricesSource`): an old snapshot's price says its date is unknown.

The catalog's prices are approximate East US Linux list prices (`catalog/vm_sizes.yaml`);
resources in other regions are priced at those rates too, and the report says so.

What this does not count: disks, networking, AKS/AML management fees, storage and reservations.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from azure_gpu_stacks.catalog import Catalog, catalog
from azure_gpu_stacks.catalog.prices import Price, PriceSource, oldest
from azure_gpu_stacks.engine.estimate.demand import HOURS_PER_DAY, Demand, collect
from azure_gpu_stacks.engine.run.runtime import RecordedResource

HOURS_PER_MONTH = 730
FAR_ABOVE_FACTOR = 3.0  # a budget above this many times the full-scale cost would never alert
BUDGET = "azure-native:consumption:Budget"
# Budget periods as months, to compare any time grain with a monthly cost.
MONTHS_PER_GRAIN = {
    "Monthly": 1,
    "BillingMonth": 1,
    "Quarterly": 3,
    "BillingQuarter": 3,
    "Annually": 12,
    "BillingAnnual": 12,
}


# What a resource's unit price is, by priority; low priority at the Spot rate is an assumption.
PRICE_BASIS = {"Regular": "pay-as-you-go", "Spot": "spot", "LowPriority": "spot rate (assumed for low priority)"}


@dataclass(frozen=True)
class ResourceCost:
    """One VM-billed resource's line of the cost: its demand, its unit price and the figures from them."""

    demand: Demand
    price: Price | None  # one node, at its priority's price
    why_unpriced: str | None = None

    @cached_property
    def unit_usd_per_hour(self) -> float | None:
        return None if self.price is None else self.price.usd_per_hour

    @cached_property
    def hourly(self) -> float | None:
        return None if self.unit_usd_per_hour is None else self.unit_usd_per_hour * self.demand.count

    @cached_property
    def idle_hourly(self) -> float | None:
        if self.unit_usd_per_hour is None:
            return None
        d = self.demand
        return self.unit_usd_per_hour * d.idle_count * d.idle_hours_per_day / HOURS_PER_DAY

    @property
    def scheduled(self) -> bool:
        """Whether its idle nodes run only part of the day (`demand.idle_schedule` says what shortens it)."""
        return self.demand.idle_hours_per_day != HOURS_PER_DAY

    def to_json(self) -> dict[str, Any]:
        d = self.demand
        out: dict[str, Any] = {
            "resource": d.resource,
            "size": d.size,
            "count": d.count,
            "hourlyUsd": _round_hour(self.hourly),
            "idleHourlyUsd": _round_hour(self.idle_hourly),
            "idleCount": d.idle_count,
            "priority": d.priority,
            "priceBasis": PRICE_BASIS[d.priority],
            "priceObserved": None if self.price is None else self.price.observed_text,
        }
        if self.scheduled:
            out["idleHoursPerDay"] = d.idle_hours_per_day
            out["idleSchedule"] = d.idle_schedule
        if self.why_unpriced:
            out["unpriced"] = self.why_unpriced
        return out


@dataclass(frozen=True)
class CostEstimate:
    """The cost of a stack: a line per VM-billed resource, the totals, where the prices come from and
    the stack's budget. Built complete once; each figure below is computed on first use and kept."""

    resources: tuple[ResourceCost, ...]
    prices_region: str
    sources: Mapping[str, PriceSource]
    budget_monthly_usd: float | None = None  # the stack's budgets (summed) per month; None without one

    @cached_property
    def oldest_price(self) -> Price | None:
        """The oldest price the estimate used (an unknown date counts as the oldest)."""
        return oldest(r.price for r in self.resources if r.price is not None)

    @cached_property
    def prices_source(self) -> PriceSource | None:
        """Where the oldest price used comes from; None when no price was used."""
        first = self.oldest_price
        return None if first is None else self.sources.get(first.source)

    @cached_property
    def unpriced_sizes(self) -> tuple[str, ...]:
        return tuple(sorted({r.demand.size for r in self.resources if r.price is None}))

    @cached_property
    def priced(self) -> tuple[ResourceCost, ...]:
        return tuple(r for r in self.resources if r.unit_usd_per_hour is not None)

    @cached_property
    def complete(self) -> bool:
        """Every resource priced; else the totals are a lower bound."""
        return len(self.priced) == len(self.resources)

    @cached_property
    def hourly(self) -> float:
        return sum(r.hourly or 0.0 for r in self.priced)

    @cached_property
    def idle_hourly(self) -> float:
        return sum(r.idle_hourly or 0.0 for r in self.priced)

    @cached_property
    def monthly(self) -> float:
        return self.hourly * HOURS_PER_MONTH

    @cached_property
    def idle_monthly(self) -> float:
        return self.idle_hourly * HOURS_PER_MONTH

    # The totals as reported (JSON, tables, diffs): per hour to 4 places, per month to the cent.
    @cached_property
    def hourly_usd(self) -> float:
        return round(self.hourly, 4)

    @cached_property
    def idle_hourly_usd(self) -> float:
        return round(self.idle_hourly, 4)

    @cached_property
    def monthly_usd(self) -> float:
        return round(self.monthly, 2)

    @cached_property
    def idle_monthly_usd(self) -> float:
        return round(self.idle_monthly, 2)

    @cached_property
    def low_priority(self) -> bool:
        """Whether an AML low-priority resource is priced at the Spot rate (an assumption the reports note)."""
        return any(r.demand.priority == "LowPriority" for r in self.resources)

    @cached_property
    def idle_schedules(self) -> frozenset[str]:
        """What shortens some resource's idle day: "auto-shutdown", "autoscale"."""
        return frozenset(r.demand.idle_schedule for r in self.resources if r.scheduled and r.demand.idle_schedule)

    def to_json(self) -> dict[str, Any]:
        first, source = self.oldest_price, self.prices_source
        return {
            "hourlyUsd": self.hourly_usd,
            "idleHourlyUsd": self.idle_hourly_usd,
            "monthlyUsd": self.monthly_usd,
            "idleMonthlyUsd": self.idle_monthly_usd,
            "pricesObserved": None if first is None else first.observed_text,
            "pricesSource": None if source is None else source.url,
            "pricesSourceDescription": None if source is None else source.description,
            "pricesRegion": self.prices_region,
            "complete": self.complete,
            "lowerBound": not self.complete,
            "unpricedSizes": list(self.unpriced_sizes),
            "resources": [r.to_json() for r in self.resources],
            "budgetMonthlyUsd": self.budget_monthly_usd,
        }


NO_COST = CostEstimate((), "", {})  # a stack that runs no VM and has no budget


def _round_hour(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def unit_price(demand: Demand, sizes: Catalog) -> tuple[Price | None, str | None]:
    """The price per node-hour at the demand's priority, or None and why."""
    size = sizes.find(demand.size)
    if size is None:
        return None, f"{demand.size} is not in the catalog"
    if demand.discounted:
        if size.spot is None:
            return None, f"the catalog has no Spot price for {size.name}"
        return size.spot, None
    if size.payg is None:
        return None, f"the catalog has no pay-as-you-go price for {size.name}"
    return size.payg, None


def estimate(
    demands: Sequence[Demand], sizes: Catalog | None = None, budget_monthly_usd: float | None = None
) -> CostEstimate:
    sizes = sizes or catalog()
    costs = tuple(ResourceCost(d, *unit_price(d, sizes)) for d in demands)
    return CostEstimate(costs, sizes.prices.region, sizes.prices.sources, budget_monthly_usd)


def estimate_resources(resources: Sequence[RecordedResource], default_region: str | None = None) -> CostEstimate:
    """The cost of a recorded program, with its budget."""
    return estimate(collect(resources, default_region), budget_monthly_usd=budget_amount(resources))


@dataclass(frozen=True)
class BudgetAmount:
    resource: str
    monthly_usd: float


def budgets(resources: Sequence[RecordedResource]) -> list[BudgetAmount]:
    """The stack's consumption budgets, each as USD per month."""
    found = []
    for r in resources:
        if r.type != BUDGET:
            continue
        inputs = r.plain_inputs()
        amount = inputs.get("amount")
        months = MONTHS_PER_GRAIN.get(str(inputs.get("timeGrain") or "Monthly"))
        if isinstance(amount, (int, float)) and months:
            found.append(BudgetAmount(r.name, float(amount) / months))
    return found


def budget_warnings(resources: Sequence[RecordedResource], cost: CostEstimate) -> list[str]:
    """A warning for each budget below the idle monthly cost, or far above the full-scale one."""
    warnings = []
    for b in budgets(resources):
        if b.monthly_usd < cost.idle_monthly:
            warnings.append(
                f"{b.resource}: the budget ({b.monthly_usd:,.2f} USD a month) is below the idle cost "
                f"({cost.idle_monthly:,.2f} USD a month): it will alert every month even when nothing runs; "
                f"raise it above the idle cost or cut what runs idle"
            )
        elif cost.complete and cost.monthly > 0 and b.monthly_usd > FAR_ABOVE_FACTOR * cost.monthly:
            warnings.append(
                f"{b.resource}: the budget ({b.monthly_usd:,.2f} USD a month) is more than {FAR_ABOVE_FACTOR:g}x the "
                f"full-scale cost ({cost.monthly:,.2f} USD a month): it would never alert; lower it to about "
                f"the full-scale cost"
            )
    return warnings


def budget_amount(resources: Sequence[RecordedResource]) -> float | None:
    """The stack's monthly budget (the sum when there are several), or None without one."""
    found = budgets(resources)
    return sum(b.monthly_usd for b in found) if found else None
