"""What a commitment would cost for the GPU nodes a stack runs all the time: information beside the cost, never in
its totals, budgets or guardrails.

A node that runs every hour of the month (a scale set or cluster never parked, a VM without a daily shutdown, an AKS
pool's minimum) is what an Azure savings plan or reservation pays off on: a savings plan commits "an hourly spend for
one-year or three-year plans for Azure compute resources", a reservation covers the compute cost of VMs that match
its size and region (MicrosoftDocs/azure-docs, articles/cost-management-billing/savings-plan/buy-savings-plan.md and
articles/cost-management-billing/manage/understand-vm-reservation-charges.md, observed 2026-11-27). Spot and Azure ML
low-priority nodes are left out: "Azure doesn't offer reservations for Spot VMs" (the same page), and their rate is
already the discounted one.

The savings plan's rate is the catalog's `savingsPlan1Year` of the size in its region (the Retail Prices API's
`savingsPlan` price of the Linux pay-as-you-go row, with that row's day and source); a reservation's is the catalog's
`reservation1Year` or `reservation3Year`, the price of the whole term for one VM, a month being a twelfth (or a
thirty-sixth) of it, with its own day and source where it was read apart from the pay-as-you-go price
(catalog/vm_sizes.yaml, docs/prices.md). A term without a dated public price here (the 3-year savings plan everywhere,
the 1-year savings plan outside the regions whose rows were saved, reservations outside the sizes and regions whose
rows were saved) is named as missing, never estimated from a typical discount.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .demand import HOURS_PER_DAY, HOURS_PER_MONTH, Demand
from .model import Catalog
from .prices import RESERVATION_TERM_MONTHS, reservation_usd_per_hour

SAVINGS_PLAN_1Y = "1-year savings plan"
RESERVATION_1Y, RESERVATION_3Y = "1-year reservation", "3-year reservation"
# Every commitment term a GPU VM can be bought under, in the order they are named.
TERMS = (SAVINGS_PLAN_1Y, "3-year savings plan", RESERVATION_1Y, RESERVATION_3Y)
# A reservation term's name in the Retail Prices API's words (`reservationTerm`).
API_TERM = {RESERVATION_1Y: "1 Year", RESERVATION_3Y: "3 Years"}


@dataclass(frozen=True)
class Commitment:
    """The always-on GPU nodes of one resource and what a commitment would cost for them, a month."""

    resource: str
    size: str
    region: str
    nodes: int  # nodes running every hour of the month
    payg_usd_per_hour: float  # one node, pay-as-you-go
    savings_plan_1y_usd_per_hour: float | None  # one node under a 1-year savings plan; None: no dated rate
    observed: str  # the day the pay-as-you-go and savings-plan rates were read
    source: str  # their source key (prices.sources)
    reservation_usd: tuple[tuple[str, float], ...] = ()  # (term, one node's whole-term price), in TERMS' order
    reservation_observed: str = ""  # the day the reservations were read ("" without any)
    reservation_source: str = ""  # their source key

    @property
    def payg_monthly(self) -> float:
        return self.payg_usd_per_hour * self.nodes * HOURS_PER_MONTH

    @property
    def savings_plan_1y_monthly(self) -> float | None:
        rate = self.savings_plan_1y_usd_per_hour
        return None if rate is None else rate * self.nodes * HOURS_PER_MONTH

    def reservation_monthly(self, term: str) -> float | None:
        """What the nodes' reservation of `term` costs a month (its price over the term's months); None: no price."""
        price = dict(self.reservation_usd).get(term)
        return None if price is None else price / RESERVATION_TERM_MONTHS[API_TERM[term]] * self.nodes

    @property
    def missing(self) -> tuple[str, ...]:
        """The terms without a dated price here."""
        known = {term for term, _ in self.reservation_usd}
        if self.savings_plan_1y_usd_per_hour is not None:
            known.add(SAVINGS_PLAN_1Y)
        return tuple(t for t in TERMS if t not in known)

    def text(self) -> str:
        """`RESOURCE: 2 always-on SIZE nodes in REGION, 9,000.00 USD a month pay-as-you-go; a 1-year savings plan
        7,800.00 (... USD/h a node, observed ..., SOURCE); a 1-year reservation 6,000.00 (36,000 USD a node for the
        term, ... USD/h; observed ..., SOURCE); ...; no dated price of ...`."""
        head = (
            f"{self.resource}: {self.nodes} always-on {self.size} node{'s' if self.nodes != 1 else ''} in "
            f"{self.region}, {self.payg_monthly:,.2f} USD a month pay-as-you-go"
        )
        plan = self.savings_plan_1y_monthly
        if plan is not None:
            head += (
                f"; a {SAVINGS_PLAN_1Y} {plan:,.2f} ({self.savings_plan_1y_usd_per_hour:g} USD/h a node, "
                f"observed {self.observed}, {self.source})"
            )
        for term, price in self.reservation_usd:
            hourly = reservation_usd_per_hour(price, API_TERM[term])
            head += (
                f"; a {term} {self.reservation_monthly(term):,.2f} ({price:,.0f} USD a node for the term, "
                f"{hourly:.4g} USD/h; observed {self.reservation_observed}, {self.reservation_source})"
            )
        missing = self.missing
        return f"{head}; no dated price of a {_joined(missing)} here" if missing else head

    def to_json(self) -> dict[str, Any]:
        plan = self.savings_plan_1y_monthly
        return {
            "resource": self.resource,
            "size": self.size,
            "region": self.region,
            "alwaysOnNodes": self.nodes,
            "payAsYouGoMonthlyUsd": round(self.payg_monthly, 2),
            "savingsPlan1YearUsdPerHour": self.savings_plan_1y_usd_per_hour,
            "savingsPlan1YearMonthlyUsd": None if plan is None else round(plan, 2),
            "priceObserved": self.observed,
            "priceSource": self.source,
            "reservations": [
                {
                    "term": term,
                    "termUsd": price,
                    "monthlyUsd": round(self.reservation_monthly(term) or 0.0, 2),
                    "priceObserved": self.reservation_observed,
                    "priceSource": self.reservation_source,
                }
                for term, price in self.reservation_usd
            ],
            "noDatedPrice": list(self.missing),
        }


def _joined(terms: Sequence[str]) -> str:
    return terms[0] if len(terms) == 1 else f"{', '.join(terms[:-1])} or {terms[-1]}"


def always_on_commitments(demands: Sequence[Demand], sizes: Catalog) -> tuple[Commitment, ...]:
    """One `Commitment` per resource with GPU nodes running every hour at the pay-as-you-go rate, in order; a
    resource without a pay-as-you-go price in its region has none (its cost already names it unpriced)."""
    found = []
    for d in demands:
        size = sizes.find(d.size)
        if d.discounted or d.idle_count <= 0 or d.idle_hours_per_day < HOURS_PER_DAY or d.region is None:
            continue
        prices = None if size is None or not size.gpus else size.prices.get(d.region)
        if size is None or prices is None or prices.payg is None:
            continue
        terms = {RESERVATION_1Y: prices.reservation_1y, RESERVATION_3Y: prices.reservation_3y}
        found.append(
            Commitment(
                d.resource,
                size.name,
                d.region,
                d.idle_count,
                prices.payg,
                prices.savings_plan_1y,
                str(prices.observed),
                prices.source,
                tuple((term, price) for term, price in terms.items() if price is not None),
                str(prices.reservation_observed or prices.observed),
                prices.reservation_source or prices.source,
            )
        )
    return tuple(found)
