"""The cost of a stack from the catalog's prices: per VM-billed resource and in total, at full scale
and when idle, per hour and per month; and whether the stack's budget fits that cost.

One home for the arithmetic: a pure function of the resources' inputs and the catalog, so the
engine (`gpu-stacks cost`, plans, diffs) and the policy pack inside the Pulumi engine (the budget
coherence policy) compute the same figures.

- Full scale: every resource at its largest node count (AKS `maxCount`, AML `maxNodeCount`).
- Idle: what still runs when nothing is scheduled (AML at `minNodeCount`, an autoscaled AKS pool at
  `minCount`, a scale set at its capacity or only in the hours its autoscale schedule runs it (0
  when parked), a VM only for the hours before its daily auto-shutdown),
  as an average hourly rate. See `azure_gpu_stacks.catalog.demand` for how each resource type is
  read and the auto-shutdown assumption.
- Each resource is priced in its own region (`location`, else its cluster's or resource group's,
  else the stack's `azure-native:location`), at the catalog's price for that size there. A region
  the catalog has no price for (its source does not cover it), a size it has no price for, or a
  missing Spot price when the nodes run as Spot leaves the resource unpriced, never guessed at
  another region's rate; the totals are then a lower bound (`lowerBound: true`) and the reports
  name each size and region without a price (`unpriced`).
- Spot VMs, Spot scale sets and AKS pools are priced at the Spot rate. So are Azure ML clusters on
  `LowPriority`: low-priority VMs were retired for Azure ML on 2026-03-31 and such clusters' nodes
  are allocated as Spot VMs, billed at the variable Spot rate of the size and region (capped at
  pay-as-you-go), evicted nodes billed while powered on, so a low-priority cluster can cost more
  than a dedicated one (https://learn.microsoft.com/azure/machine-learning/how-to-manage-optimize-cost,
  MicrosoftDocs/azure-ai-docs PRs 806 and 791, observed 2026-11-25). Every cost line says "Spot"
  for them and the reports carry the eviction caveat (`SPOT_CAVEAT`).
- A month is 730 hours (8,760 / 12), as Azure's pricing calculator counts it.
- Every price has its own observed date and source; the cost names the oldest price it used and
  its source (`pricesObserved`, `pricesSource`): an old snapshot's price says its date is unknown.

Budgets are judged per notification (`budget_problems`).

For GPU nodes that run every hour, what a 1-year savings plan would cost where a dated rate exists, and which
commitment terms have none, is shown beside the cost as information (`commitments`, `catalog.commitments`).

What this does not count (disks, the AKS tier, public IPs, monitoring ingestion, storage, registries) is named per
resource (`catalog.charges`, `not_counted`): the totals are then a lower bound (`lowerBound`, `notCounted`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from operator import eq, ge, gt
from typing import Any

from .charges import NotCounted, not_counted
from .commitments import Commitment, always_on_commitments
from .demand import HOURS_PER_DAY, HOURS_PER_MONTH, Demand, RecordedResource, collect
from .model import Catalog, catalog
from .prices import UNKNOWN, Price, PriceSource, oldest
from .usage import SHIPPED_USAGE, Usage

# How far above the full-scale monthly cost a budget may be (a fraction: 2.0 allows up to 3x) before it
# "can never fire"; the budget-coherence policy's `aboveFullScaleMargin` overrides it.
DEFAULT_ABOVE_FULL_SCALE_MARGIN = 2.0
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


# What a resource's unit price is, by priority: Azure ML low priority is billed as Spot (module docstring).
PRICE_BASIS = {"Regular": "pay-as-you-go", "Spot": "Spot", "LowPriority": "Spot (Azure ML low priority)"}
SPOT_CAVEAT = (
    "Spot prices vary with region and demand up to the pay-as-you-go price, and nodes can be evicted at any "
    "time; Azure ML low-priority clusters are allocated as Spot VMs since 2026-03-31 and evicted nodes bill "
    "while powered on (learn.microsoft.com/azure/machine-learning/how-to-manage-optimize-cost)"
)


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
            "region": d.region,
            "priceObserved": None if self.price is None else self.price.observed_text,
            "priceSource": None if self.price is None else self.price.source,
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
    sources: Mapping[str, PriceSource]
    budget_monthly_usd: float | None = None  # the stack's budgets (summed) per month; None without one
    not_counted: tuple[NotCounted, ...] = ()  # resources billed for what no price here counts (catalog.charges)
    budgets: tuple[BudgetLimit, ...] = ()  # each budget of the stack with its notifications: the limits shown
    commitments: tuple[Commitment, ...] = ()  # always-on GPU nodes and a commitment's price: information only

    @cached_property
    def lower_bound(self) -> bool:
        """Whether the totals leave something out: a VM without a price, or a resource's own charges."""
        return not self.complete or bool(self.not_counted)

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
    def unpriced(self) -> tuple[str, ...]:
        """Each size and region without a price, as "size in region": what makes the totals a lower bound."""
        return tuple(
            sorted({f"{r.demand.size} in {r.demand.region or 'no region'}" for r in self.resources if r.price is None})
        )

    @cached_property
    def regions(self) -> tuple[str, ...]:
        """The regions the resources run in (each priced at its own prices)."""
        return tuple(sorted({r.demand.region for r in self.resources if r.demand.region}))

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
        """Whether an Azure ML low-priority cluster is priced (as Spot: retired for Azure ML 2026-03-31)."""
        return any(r.demand.priority == "LowPriority" for r in self.resources)

    @cached_property
    def spot(self) -> bool:
        """Whether any resource is priced at a Spot rate (the reports then carry `SPOT_CAVEAT`)."""
        return any(r.demand.discounted for r in self.resources)

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
            "pricesRegions": list(self.regions),
            "complete": not self.lower_bound,
            "lowerBound": self.lower_bound,
            "vmsComplete": self.complete,
            "notCounted": [n.to_json() for n in self.not_counted],
            "unpricedSizes": list(self.unpriced_sizes),
            "unpriced": list(self.unpriced),
            "spotCaveat": SPOT_CAVEAT if self.spot else None,
            "resources": [r.to_json() for r in self.resources],
            "budgetMonthlyUsd": self.budget_monthly_usd,
            "budgets": [b.to_json(self.monthly) for b in self.budgets],
            "commitments": [c.to_json() for c in self.commitments],
        }

    def crossed(self) -> list[tuple[BudgetLimit, BudgetNotification]]:
        """Each budget notification the full-scale monthly cost reaches (a budget without notifications: its
        amount, as a notification at 100 %)."""
        return [(b, n) for b in self.budgets for n in b.limits() if n.reached_by(self.monthly, b.monthly_usd)]


NO_COST = CostEstimate((), {})  # a stack that runs no VM and has no budget


def _round_hour(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def unit_price(demand: Demand, sizes: Catalog) -> tuple[Price | None, str | None]:
    """The price per node-hour at the demand's priority in its region, or None and why."""
    size = sizes.find(demand.size)
    if size is None:
        return None, f"{demand.size} is not in the catalog"
    if demand.region is None:
        return None, f"no region is set for {demand.resource}, and prices differ by region"
    if demand.region not in size.prices:
        covered = ", ".join(sorted(size.prices)) or "none"
        return None, f"the catalog has no price for {size.name} in {demand.region} (priced regions: {covered})"
    price = size.price(demand.region, spot=demand.discounted)
    if price is None:
        kind = "Spot" if demand.discounted else "pay-as-you-go"
        return None, f"the catalog has no {kind} price for {size.name} in {demand.region}"
    return price, None


def estimate(
    demands: Sequence[Demand], sizes: Catalog | None = None, budget_monthly_usd: float | None = None
) -> CostEstimate:
    sizes = sizes or catalog()
    costs = tuple(ResourceCost(d, *unit_price(d, sizes)) for d in demands)
    return CostEstimate(
        costs, sizes.prices.sources, budget_monthly_usd, commitments=always_on_commitments(demands, sizes)
    )


def estimate_resources(
    resources: Sequence[RecordedResource],
    default_region: str | None = None,
    sizes: Catalog | None = None,
    usage: Usage = SHIPPED_USAGE,
) -> CostEstimate:
    """The cost of a program's resources (recorded by the engine, or as a policy sees them), with its budget; the
    charges beside it priced on `usage` (the project's usage file over the shipped defaults)."""
    cost = estimate(collect(resources, default_region), sizes, budget_monthly_usd=budget_amount(resources))
    charges = not_counted(resources, default_region, usage)
    return replace(cost, not_counted=charges, budgets=tuple(budget_limits(resources)))


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


def _budget_basis(cost: CostEstimate) -> str:
    """What a budget was judged against: the resources counted and how old their prices are."""
    counted = ", ".join(r.demand.resource for r in cost.resources) or "none"
    first = cost.oldest_price
    when = "unknown" if first is None or first.observed_text == UNKNOWN else first.observed_text
    basis = f"resources counted: {counted}; oldest price observed: {when}"
    if not cost.complete:
        basis += f"; a lower bound, no price for {', '.join(cost.unpriced)}"
    return basis


# How a notification's `operator` compares the cost with its threshold: "Alert will be triggered if the evaluated
# cost is greater than the threshold value" (GreaterThan, "the recommended OperatorType", which CostAlert sets),
# "greater than or equal to" (GreaterThanOrEqualTo), "the same as" (EqualTo) (Learn, Azure.ResourceManager.Consumption
# NotificationAlertTriggerType; the enum of `Notification.operator` in consumption.json 2024-08-01; observed
# 2026-11-27). An operator not known before deployment is read as GreaterThan.
REACHED_BY_OPERATOR: dict[str, Callable[[float, float], bool]] = {
    "GreaterThan": gt,
    "GreaterThanOrEqualTo": ge,
    "EqualTo": eq,
}
DEFAULT_OPERATOR = "GreaterThan"


@dataclass(frozen=True)
class BudgetNotification:
    """One notification of a budget: it fires when the cost (actual, or forecast for the period) passes
    `threshold_percent` of the budget's amount, as its `operator` compares them. Azure's contract: "Notification is
    sent when the cost exceeded the threshold. It is always percent and has to be between 0 and 1000";
    `thresholdType` Actual (the default) or Forecasted (Azure/azure-rest-api-specs,
    specification/consumption/resource-manager/Microsoft.Consumption/stable/2024-08-01/consumption.json,
    `Notification`; observed 2026-11-26)."""

    name: str
    threshold_percent: float
    threshold_type: str = "Actual"
    operator: str = DEFAULT_OPERATOR

    def firing_monthly(self, budget_monthly_usd: float) -> float:
        """The monthly cost at which this notification fires."""
        return budget_monthly_usd * self.threshold_percent / 100

    def reached_by(self, monthly_usd: float, budget_monthly_usd: float) -> bool:
        """Whether a monthly cost of `monthly_usd` sets this notification off (REACHED_BY_OPERATOR)."""
        return REACHED_BY_OPERATOR[self.operator](monthly_usd, self.firing_monthly(budget_monthly_usd))


AMOUNT = BudgetNotification("amount", 100)  # what a budget without notifications is judged at


@dataclass(frozen=True)
class BudgetLimit:
    """A budget of the stack as a limit on its cost: its monthly amount and the notifications that fire."""

    resource: str
    monthly_usd: float
    notifications: tuple[BudgetNotification, ...] = ()

    def limits(self) -> tuple[BudgetNotification, ...]:
        """What fires, lowest first: the notifications, or the amount itself when there are none."""
        return tuple(sorted(self.notifications, key=lambda n: (n.threshold_percent, n.threshold_type, n.name))) or (
            AMOUNT,
        )

    def text(self) -> str:
        """`500.00 (actual 50 %: 250.00, forecasted 100 %: 500.00)`: the amount and where each notification
        fires."""
        fires = ", ".join(
            f"{n.threshold_type.lower()} {n.threshold_percent:g} %: {n.firing_monthly(self.monthly_usd):,.2f}"
            for n in self.limits()
            if n is not AMOUNT
        )
        return f"{self.monthly_usd:,.2f}" + (f" ({fires})" if fires else "")

    def to_json(self, full_scale_monthly_usd: float) -> dict[str, Any]:
        return {
            "resource": self.resource,
            "monthlyUsd": self.monthly_usd,
            "notifications": [
                {
                    "name": n.name,
                    "thresholdPercent": n.threshold_percent,
                    "thresholdType": n.threshold_type,
                    "firesAtMonthlyUsd": round(n.firing_monthly(self.monthly_usd), 2),
                    "reachedAtFullScale": n.reached_by(full_scale_monthly_usd, self.monthly_usd),
                }
                for n in self.limits()
            ],
        }


def budget_limits(resources: Sequence[RecordedResource]) -> list[BudgetLimit]:
    """The stack's consumption budgets with their enabled notifications, each amount per month."""
    by_name = {r.name: r for r in resources if r.type == BUDGET}
    return [
        BudgetLimit(
            b.resource,
            b.monthly_usd,
            tuple(budget_notifications(by_name[b.resource].plain_inputs().get("notifications"))),
        )
        for b in budgets(resources)
    ]


def budget_notifications(raw: Any) -> list[BudgetNotification]:
    """A budget's enabled notifications (its `notifications` input, name -> notification, as plain data),
    each with a known threshold; disabled ones and thresholds unknown before deployment are left out."""
    if not isinstance(raw, Mapping):
        return []
    found = []
    for name, notification in raw.items():
        if not isinstance(notification, Mapping) or notification.get("enabled") is False:
            continue
        threshold = notification.get("threshold")
        if isinstance(threshold, bool) or not isinstance(threshold, (int, float)):
            continue
        kind = str(notification.get("thresholdType") or "Actual")
        given = notification.get("operator")
        compares = given if isinstance(given, str) and given in REACHED_BY_OPERATOR else DEFAULT_OPERATOR
        found.append(BudgetNotification(str(name), float(threshold), kind, compares))
    return found


def budget_problems(
    label: str,
    monthly_usd: float,
    cost: CostEstimate,
    margin: float = DEFAULT_ABOVE_FULL_SCALE_MARGIN,
    notifications: Sequence[BudgetNotification] | None = None,
) -> list[str]:
    """Why a budget of `monthly_usd` a month cannot work for the resources `cost` counts: one message per
    notification that cannot work, naming it; without notifications (None), the amount itself is judged.

    What fires is a notification's threshold, not the amount: amount x threshold %. Below the idle
    monthly cost it fires every month; above the full-scale monthly cost by more than `margin` (a
    fraction) it can never fire, unless the cost is a lower bound (a price missing): a lower bound is
    never called too high. The message names the amounts, the resources counted and the date of the
    oldest price used."""
    if notifications is None:
        problem = _firing_problem(label, "the budget", monthly_usd, cost, margin)
        return [problem] if problem else []
    problems = []
    for n in notifications:
        firing = n.firing_monthly(monthly_usd)
        what = (
            f"notification '{n.name}' ({n.threshold_type}, {n.threshold_percent:g} % of {monthly_usd:,.2f} USD a month)"
        )
        problem = _firing_problem(f"{label}, {what}", "it", firing, cost, margin)
        if problem:
            problems.append(problem)
    return problems


def _firing_problem(label: str, subject: str, firing_usd: float, cost: CostEstimate, margin: float) -> str | None:
    """Why something that fires at `firing_usd` a month fires every month or can never fire, or None."""
    basis = _budget_basis(cost)
    if firing_usd < cost.idle_monthly:
        return (
            f"{label}: fires every month: {subject} ({firing_usd:,.2f} USD a month) is below the idle cost "
            f"({cost.idle_monthly:,.2f} USD a month) even when nothing runs ({basis}); raise it above the idle "
            "cost or cut what runs idle"
        )
    ceiling = (1 + margin) * cost.monthly
    if cost.complete and cost.monthly > 0 and firing_usd > ceiling:
        return (
            f"{label}: can never fire: {subject} ({firing_usd:,.2f} USD a month) is more than {margin:.0%} above "
            f"the full-scale cost ({cost.monthly:,.2f} USD a month, so at most {ceiling:,.2f}) ({basis}); lower "
            "it to about the full-scale cost"
        )
    return None


def low_priority_warnings(cost: CostEstimate) -> list[str]:
    """A warning for each Azure ML cluster on `LowPriority`: since 2026-03-31 it runs, and bills, as Spot."""
    return [
        f"{r.demand.resource}: vmPriority LowPriority: low-priority VMs were retired for Azure ML on 2026-03-31; "
        f"the cluster still deploys but its nodes are allocated as Spot VMs, billed at the variable Spot rate of "
        f"{r.demand.size} in {r.demand.region or 'its region'} up to the pay-as-you-go price, evicted nodes billing "
        f"while powered on, so it can cost more than a Dedicated cluster; priced here at the catalog's Spot rate "
        f"(learn.microsoft.com/azure/machine-learning/how-to-manage-optimize-cost)"
        for r in cost.resources
        if r.demand.priority == "LowPriority"
    ]


def budget_amount(resources: Sequence[RecordedResource]) -> float | None:
    """The stack's monthly budget (the sum when there are several), or None without one."""
    found = budgets(resources)
    return sum(b.monthly_usd for b in found) if found else None
