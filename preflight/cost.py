"""The cost of a stack from the catalog's prices: per VM-billed resource and in total, at full scale
and when idle, per hour and per month; and whether the stack's budget fits that cost.

- Full scale: every resource at its largest node count (AKS `maxCount`, AML `maxNodeCount`).
- Idle: what still runs when nothing is scheduled (AML at `minNodeCount`, an autoscaled AKS pool at
  `minCount`, a scale set at its capacity or only in the hours its autoscale schedule runs it (0
  when parked), a VM only for the hours before its daily auto-shutdown),
  as an average hourly rate. See `azure_gpu_stacks.preflight.demand` for how each resource type is read and the
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

The catalog's prices are approximate East US Linux list prices (`components/catalog/vm_sizes.yaml`);
resources in other regions are priced at those rates too, and the report says so.

What this does not count: disks, networking, AKS/AML management fees, storage and reservations.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from azure_gpu_stacks.components.catalog import Catalog, catalog
from azure_gpu_stacks.components.catalog.prices import Price, PriceSource, oldest
from azure_gpu_stacks.preflight.demand import HOURS_PER_DAY, Demand, collect
from azure_gpu_stacks.preflight.runtime import RecordedResource

HOURS_PER_MONTH = 730
FAR_ABOVE_FACTOR = 3.0  # a budget above this many times the full-scale cost would never alert
BUDGET = "azure-native:consumption:Budget"
# Budget periods as months, to compare any time grain with a monthly cost.
MONTHS_PER_GRAIN = {"Monthly": 1, "BillingMonth": 1, "Quarterly": 3, "BillingQuarter": 3, "Annually": 12, "BillingAnnual": 12}


# What a resource's unit price is, by priority; low priority at the Spot rate is an assumption.
PRICE_BASIS = {"Regular": "pay-as-you-go", "Spot": "spot", "LowPriority": "spot rate (assumed for low priority)"}


@dataclass(frozen=True)
class ResourceCost:
    demand: Demand
    price: Price | None  # one node, at its priority's price
    why_unpriced: str | None = None

    @property
    def unit_usd_per_hour(self) -> float | None:
        return None if self.price is None else self.price.usd_per_hour

    @property
    def hourly(self) -> float | None:
        return None if self.unit_usd_per_hour is None else self.unit_usd_per_hour * self.demand.count

    @property
    def idle_hourly(self) -> float | None:
        if self.unit_usd_per_hour is None:
            return None
        d = self.demand
        return self.unit_usd_per_hour * d.idle_count * d.idle_hours_per_day / HOURS_PER_DAY

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
        if d.idle_hours_per_day != HOURS_PER_DAY:
            out["idleHoursPerDay"] = d.idle_hours_per_day
            out["idleSchedule"] = d.idle_schedule
        if self.why_unpriced:
            out["unpriced"] = self.why_unpriced
        return out


@dataclass(frozen=True)
class CostEstimate:
    resources: list[ResourceCost]
    prices_region: str
    sources: Mapping[str, PriceSource]

    @property
    def oldest_price(self) -> Price | None:
        """The oldest price the estimate used (an unknown date counts as the oldest)."""
        return oldest(r.price for r in self.resources if r.price is not None)

    @property
    def unpriced_sizes(self) -> list[str]:
        return sorted({r.demand.size for r in self.resources if r.price is None})

    @property
    def priced(self) -> list[ResourceCost]:
        return [r for r in self.resources if r.unit_usd_per_hour is not None]

    @property
    def complete(self) -> bool:
        return len(self.priced) == len(self.resources)

    @property
    def hourly(self) -> float:
        return sum(r.hourly or 0.0 for r in self.priced)

    @property
    def idle_hourly(self) -> float:
        return sum(r.idle_hourly or 0.0 for r in self.priced)

    @property
    def monthly(self) -> float:
        return self.hourly * HOURS_PER_MONTH

    @property
    def idle_monthly(self) -> float:
        return self.idle_hourly * HOURS_PER_MONTH

    def to_json(self) -> dict[str, Any]:
        first = self.oldest_price
        source = self.sources.get(first.source) if first is not None else None
        return {
            "hourlyUsd": _round_hour(self.hourly),
            "idleHourlyUsd": _round_hour(self.idle_hourly),
            "monthlyUsd": round(self.monthly, 2),
            "idleMonthlyUsd": round(self.idle_monthly, 2),
            "pricesObserved": None if first is None else first.observed_text,
            "pricesSource": None if source is None else source.url,
            "pricesSourceDescription": None if source is None else source.description,
            "pricesRegion": self.prices_region,
            "complete": self.complete,
            "lowerBound": not self.complete,
            "unpricedSizes": self.unpriced_sizes,
            "resources": [r.to_json() for r in self.resources],
        }


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


def estimate(demands: Sequence[Demand], sizes: Catalog | None = None) -> CostEstimate:
    sizes = sizes or catalog()
    costs = []
    for d in demands:
        price, why = unit_price(d, sizes)
        costs.append(ResourceCost(d, price, why))
    return CostEstimate(costs, sizes.prices.region, sizes.prices.sources)


def estimate_resources(resources: Sequence[RecordedResource], default_region: str | None = None) -> CostEstimate:
    """The cost of a recorded program."""
    return estimate(collect(resources, default_region))


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


def cost_document(resources: Sequence[RecordedResource], default_region: str | None) -> tuple[dict[str, Any], list[str]]:
    """The plan's `cost` document (with the stack's monthly budget) and the budget warnings."""
    cost = estimate_resources(resources, default_region)
    document = {**cost.to_json(), "budgetMonthlyUsd": budget_amount(resources)}
    return document, budget_warnings(resources, cost)
