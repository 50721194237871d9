"""The cost of plans as people read it: a section of the plan report, and a table across stacks.

Both read the plan's typed `cost` (a `CostEstimate`, see `azure_gpu_stacks.catalog.pricing`), so JSON, text
and markdown agree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ...catalog.prices import UNKNOWN
from ...catalog.pricing import HOURS_PER_MONTH, PRICE_BASIS, SPOT_CAVEAT, CostEstimate, ResourceCost
from ...catalog.words import counted
from ...policies import limit_stack_cost, warn_incoherent_budgets
from ..run.outcome import Outcome, StackFailure, plans_of
from ..run.plan import Plan
from ..run.violation import Violation
from .cost_total import CostTotal
from .tables import Format, table

# What the idle hours of each kind of schedule assume (see azure_gpu_stacks.catalog.demand).
SCHEDULE_NOTES = {
    "auto-shutdown": "a VM with a daily auto-shutdown is taken to be started at 09:00 and to run until the shutdown",
    "autoscale": (
        "a scale set on an autoscale schedule runs each profile's minimum from its start until the next profile starts"
    ),
}


def usd(value: float | None, places: int = 2) -> str:
    return "unpriced" if value is None else f"{value:,.{places}f}"


def _nodes(line: ResourceCost) -> str:
    d = line.demand
    idle = f"{d.idle_count}"
    if line.scheduled:
        idle += f" for {round(d.idle_hours_per_day, 2):g} h/day"
    return f"{d.count} (idle {idle})"


def provenance(cost: CostEstimate | None) -> str:
    """Where the prices come from: the oldest price used, its date and source."""
    source = None if cost is None else cost.prices_source
    if cost is None or cost.oldest_price is None or source is None:
        return "no price used"
    observed = cost.oldest_price.observed_text
    when = "date unknown" if observed == UNKNOWN else f"observed {observed}"
    return f"oldest price used: {when}, {source.description} ({source.url})"


def prices_note(costs: Sequence[CostEstimate]) -> str:
    """`catalog list prices (each resource in its region: REGIONS; Linux; oldest price used: ...)` over costs."""
    return CostNotes.over(costs).prices()


def _age(cost: CostEstimate) -> tuple[bool, str]:
    """Sorts costs by their oldest price, unknown dates first."""
    observed = UNKNOWN if cost.oldest_price is None else cost.oldest_price.observed_text
    return observed != UNKNOWN, observed


def unpriced(costs: Sequence[CostEstimate]) -> list[str]:
    """Each size and region the costs could not price ("size in region"): their totals are lower bounds."""
    return sorted({where for c in costs for where in c.unpriced})


def cost_section(cost: CostEstimate) -> list[str]:
    """Lines for the text plan report; none when the stack runs no VMs."""
    if not cost.resources:
        return []
    rows = [
        [
            r.demand.resource,
            r.demand.size,
            r.demand.region or "none",
            PRICE_BASIS[r.demand.priority],
            _nodes(r),
            usd(r.hourly, 4),
            usd(r.idle_hourly, 4),
            _observed(r),
        ]
        for r in cost.resources
    ]
    lines = [
        "",
        f"Cost (catalog list prices, each resource in its region, Linux; {provenance(cost)}; {HOURS_PER_MONTH} h a "
        "month):",
    ]
    headers = ["resource", "size", "region", "price", "nodes", "USD/h", "idle USD/h", "price observed"]
    body = table(headers, rows, right=(5, 6))
    lines += ["  " + line for line in body.splitlines()]
    least = "at least " if cost.lower_bound else ""
    lines.append(
        f"  full scale {least}{usd(cost.hourly_usd, 4)} USD/h = {least}{usd(cost.monthly_usd)} USD/month; "
        f"idle {least}{usd(cost.idle_hourly_usd, 4)} USD/h = {least}{usd(cost.idle_monthly_usd)} USD/month"
    )
    if cost.budget_monthly_usd is not None:
        lines.append(f"  budget {budget_text(cost)} USD/month")
    unpriced = [f"{r.demand.resource} ({r.why_unpriced})" for r in cost.resources if r.why_unpriced]
    if unpriced:
        lines.append("  lower bound: not in the totals, no price known: " + "; ".join(unpriced))
    unestimated = [n for n in cost.not_counted if n.estimate is None]
    if unestimated:
        lines.append(
            "  lower bound: not counted, billed without a dated price here: " + "; ".join(map(str, unestimated))
        )
    lines += [f"  {line}" for line in charge_estimates(cost)]
    lines += [f"  {line}" for line in commitment_lines(cost)]
    if cost.spot:
        lines.append(f"  ({SPOT_CAVEAT})")
    lines += [f"  ({note})" for kind, note in SCHEDULE_NOTES.items() if kind in cost.idle_schedules]
    return lines


def cost_row(plan: Outcome) -> list[str]:
    """One stack's row of `cost_table` (a stack not planned has no figures)."""
    if isinstance(plan, StackFailure):
        return [plan.stack, "not planned", "", "", "", ""]
    c = plan.cost
    least = ">= " if c.lower_bound else ""
    return [
        plan.stack,
        least + usd(c.hourly_usd, 4),
        least + usd(c.monthly_usd),
        least + usd(c.idle_hourly_usd, 4),
        least + usd(c.idle_monthly_usd),
        budget_text(c),
    ]


def budget_text(cost: CostEstimate) -> str:
    """The limit beside a stack's totals: each budget's monthly amount and where each of its notifications
    fires (`500.00 (actual 50 %: 250.00, actual 100 %: 500.00)`); `none` without a budget."""
    if cost.budgets:
        return "; ".join(b.text() for b in cost.budgets)
    return "none" if cost.budget_monthly_usd is None else usd(cost.budget_monthly_usd)


CHARGES_HEADING = "lower bound: priced beside the totals, not in them (dated prices of charges, docs/prices.md):"


def charge_estimates(cost: CostEstimate) -> list[str]:
    """The heading and a line per resource whose own charge has a dated price (catalog/charge_prices.yaml)."""
    found = [n.estimate_text() for n in cost.not_counted if n.estimate is not None]
    return [CHARGES_HEADING, *(f"  {line}" for line in found)] if found else []


COMMITMENTS_HEADING = (
    "commitments for always-on GPU nodes (information, not in the totals; dated public rates only, docs/prices.md):"
)


def commitment_lines(cost: CostEstimate) -> list[str]:
    """The heading and a line per resource with GPU nodes running every hour (`catalog.commitments`)."""
    found = [c.text() for c in cost.commitments]
    return [COMMITMENTS_HEADING, *(f"  {line}" for line in found)] if found else []


# The policies whose verdicts are about what a stack costs: `gpu-stacks cost` reports them and judges them at
# `--fail-level` as `check` judges every policy (the same violations, from the same plan).
COST_POLICIES = (limit_stack_cost.NAME, warn_incoherent_budgets.NAME)


def cost_violations(plan: Plan) -> list[Violation]:
    """The plan's violations of the cost policies (the limit, the budgets' coherence)."""
    return [v for v in plan.violations if v.policy in COST_POLICIES]


def total_row(total: CostTotal) -> list[str]:
    """The last row of `cost_table` for several stacks: their sum (the budgets are each stack's own)."""
    least = ">= " if total.lower_bound else ""
    return [
        f"total ({counted(total.stacks, 'stack')})"
        if not total.not_planned
        else f"total ({total.stacks} of {counted(total.rows, 'stack')} planned)",
        least + usd(total.hourly_usd, 4),
        least + usd(total.monthly_usd),
        least + usd(total.idle_hourly_usd, 4),
        least + usd(total.idle_monthly_usd),
        "",
    ]


COST_HEADERS = ["stack", "USD/h", "USD/month", "idle USD/h", "idle USD/month", "budget USD/month"]
COST_RIGHT = (1, 2, 3, 4, 5)


@dataclass(frozen=True)
class CostNotes:
    """What the notes under a cost table say, reduced over stacks in order (a fleet's merge streams them):
    the regions, the first stack's cost with the oldest price (its age and provenance), each size and region
    without a price, and whether any stack is priced at a Spot rate (Spot VMs and pools, AML low priority)."""

    regions: frozenset[str] = frozenset()
    oldest: tuple[tuple[bool, str], str] | None = None
    unpriced: frozenset[str] = frozenset()
    spot: bool = False
    prices_used: tuple[tuple[str, ...], ...] = ()  # PRICES_USED_HEADERS rows, the first of each size/region/basis
    sources: tuple[tuple[str, str], ...] = ()  # (key, "key: description (url)") of each price source used, by key
    not_counted: frozenset[str] = frozenset()  # "type: what" billed without a dated price here

    @classmethod
    def of(cls, cost: CostEstimate) -> CostNotes:
        rows: dict[tuple[str, ...], tuple[str, ...]] = {}
        for r in cost.resources:
            key = (r.demand.size, r.demand.region or "none", PRICE_BASIS[r.demand.priority])
            source = "none" if r.price is None else r.price.source
            rows.setdefault(key, (*key, usd(r.unit_usd_per_hour, 4), _observed(r), source))
        used = {r.price.source for r in cost.resources if r.price is not None}
        described = {key: cost.sources.get(key) for key in used}
        return cls(
            frozenset(cost.regions),
            None if cost.prices_source is None else (_age(cost), provenance(cost)),
            frozenset(cost.unpriced),
            cost.spot,
            tuple(rows.values()),
            tuple(sorted((k, f"{k}: {s.description} ({s.url})") for k, s in described.items() if s is not None)),
            frozenset(
                f"{n.type.removeprefix('azure-native:')}: {n.what}" for n in cost.not_counted if n.estimate is None
            ),
        )

    def then(self, later: CostNotes) -> CostNotes:
        """These notes followed by a later stack's (the first of equally old prices stays)."""
        oldest = self.oldest
        if later.oldest is not None and (oldest is None or later.oldest[0] < oldest[0]):
            oldest = later.oldest
        seen = {row[:3] for row in self.prices_used}
        return CostNotes(
            self.regions | later.regions,
            oldest,
            self.unpriced | later.unpriced,
            self.spot or later.spot,
            self.prices_used + tuple(row for row in later.prices_used if row[:3] not in seen),
            tuple(sorted(dict((*self.sources, *later.sources)).items())),
            self.not_counted | later.not_counted,
        )

    @classmethod
    def over(cls, costs: Sequence[CostEstimate]) -> CostNotes:
        notes = cls()
        for cost in costs:
            notes = notes.then(cls.of(cost))
        return notes

    def prices(self) -> str:
        """`catalog list prices (each resource in its region: REGIONS; Linux; oldest price used: ...)`."""
        oldest = self.oldest[1] if self.oldest else provenance(None)
        regions = ", ".join(sorted(self.regions)) or "none"
        return f"catalog list prices (each resource in its region: {regions}; Linux; {oldest})"

    def text(self, fmt: Format) -> str:
        note = self.prices()
        notes = [f"{note[:1].upper()}{note[1:]}; {HOURS_PER_MONTH} h a month; VM nodes only."]
        if self.not_counted:
            notes.append(
                ">= a lower bound: not counted, billed without a dated price here: "
                + "; ".join(sorted(self.not_counted))
                + " (each resource in `gpu-stacks plan`)."
            )
        if self.unpriced:
            notes.append(
                f">= a lower bound: no price is known for {', '.join(sorted(self.unpriced))} (see `gpu-stacks plan`)."
            )
        if self.spot:
            notes.append(SPOT_CAVEAT[:1].upper() + SPOT_CAVEAT[1:] + ".")
        if self.prices_used:
            notes.append("Prices used (each with the day it was read from its source):")
            notes.append(table(PRICES_USED_HEADERS, [list(row) for row in self.prices_used], fmt, right=(3,)))
        if self.sources:
            notes.append("Sources: " + "; ".join(line for _, line in self.sources) + ".")
        return ("\n\n" if fmt == "markdown" else "\n").join(notes)


def _observed(line: ResourceCost) -> str:
    return "unpriced" if line.price is None else line.price.observed_text


PRICES_USED_HEADERS = ["size", "region", "price", "USD/h", "observed", "source"]


# What a cost table says under its rows, by section (each section's heading, then a line per stack): the charges
# priced beside the totals, the commitments of always-on GPU nodes, the cost policies' verdicts. A fleet's record
# keeps each stack's lines (`cost_lines`) so that its report renders the same sections (engine/fleet/render.py).
COST_SECTIONS = {
    "charges": CHARGES_HEADING[:1].upper() + CHARGES_HEADING[1:],
    "commitments": COMMITMENTS_HEADING[:1].upper() + COMMITMENTS_HEADING[1:],
    "costPolicies": "Cost policies:",
}


def cost_lines(plan: Plan) -> dict[str, list[str]]:
    """One stack's lines of each of COST_SECTIONS, each naming the stack."""
    return {
        "charges": [f"{plan.stack}: {line.strip()}" for line in charge_estimates(plan.cost)[1:]],
        "commitments": [f"{plan.stack}: {c.text()}" for c in plan.cost.commitments],
        "costPolicies": [f"{plan.stack}: {v.policy} ({v.level}): {v.message}" for v in cost_violations(plan)],
    }


def cost_sections(stacks: Sequence[Mapping[str, Sequence[str]]], fmt: Format) -> list[str]:
    """Each of COST_SECTIONS that any stack has lines in: its heading, then those lines in the stacks' order."""
    bullet = "- " if fmt == "markdown" else "  "
    blocks = []
    for key, heading in COST_SECTIONS.items():
        found = [line for lines in stacks for line in lines[key]]
        if found:
            blocks.append("\n".join([heading, *(bullet + line for line in found)]))
    return blocks


def cost_table(plans: Sequence[Outcome], fmt: Format = "text") -> str:
    """One row per stack: full-scale and idle cost per hour and month, and its budget; then each price
    used with its date and source."""
    rows = [cost_row(p) for p in plans]
    total = CostTotal.of(plans)
    if total.rows > 1:
        rows.append(total_row(total))
    planned = plans_of(list(plans))
    sections = cost_sections([cost_lines(p) for p in planned], fmt)
    notes = CostNotes.over([p.cost for p in planned]).text(fmt)
    return ("\n\n" if fmt == "markdown" else "\n").join(
        [table(COST_HEADERS, rows, fmt, right=COST_RIGHT), *sections, notes]
    )
