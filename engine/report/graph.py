"""A stack's resources as a picture: a Mermaid flowchart for the markdown report, a tree for a terminal.

Pulumi draws a stack with `pulumi stack graph` (a DOT file of resources and their dependencies); a pull
request is read first where a picture renders, and GitHub renders Mermaid in issues, pull-request
comments and job summaries from a ```mermaid fenced block (docs.github.com, "Creating diagrams",
observed 2026-11-26). The graph is the plan's: each component and resource a node, a solid arrow from
parent to child, a dotted one for a dependency that is not already a parent's (nor on the resource group,
which every resource in it depends on: drawn, those arrows hide the others), and on each component
what its GPUs cost a month busy (full scale) and idle, summed from the plan's cost lines of the
resources under it. Large stacks keep the first `MAX_NODES` nodes and say how many more there are:
GitHub refuses a diagram past its size limit, and nobody reads a thousand boxes.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from ...catalog.pricing import HOURS_PER_MONTH
from ..escapes import mermaid_text
from ..run.plan import Plan
from ..run.runtime import RecordedResource

MAX_NODES = 120
RESOURCE_GROUP = "azure-native:resources:ResourceGroup"


def _short_type(resource: RecordedResource) -> str:
    """`azure-native:compute:VirtualMachine` as `compute:VirtualMachine`; a component's own type as its class."""
    parts = resource.type.split(":")
    if not resource.custom:
        return parts[-1]
    return ":".join(parts[1:]) if parts[0] == "azure-native" else resource.type


def _monthly(plan: Plan) -> dict[str, tuple[float, float]]:
    """(busy, idle) USD a month of each priced resource, by URN."""
    by_name: dict[str, tuple[float, float]] = defaultdict(lambda: (0.0, 0.0))
    for line in plan.cost.resources:
        if line.hourly is None or line.idle_hourly is None:
            continue
        name = line.demand.resource.split("/")[0]
        busy, idle = by_name[name]
        by_name[name] = (busy + line.hourly * HOURS_PER_MONTH, idle + line.idle_hourly * HOURS_PER_MONTH)
    return {r.urn: by_name[r.name] for r in plan.resources if r.custom and r.name in by_name}


def _subtree_costs(plan: Plan) -> dict[str, tuple[float, float]]:
    """(busy, idle) USD a month under each resource: its own and its descendants'."""
    totals: dict[str, tuple[float, float]] = defaultdict(lambda: (0.0, 0.0))
    parents = {r.urn: r.parent for r in plan.resources}
    for urn, (busy, idle) in _monthly(plan).items():
        node: str | None = urn
        seen: set[str] = set()
        while node is not None and node not in seen:  # a parent cycle cannot come from Pulumi; bounded anyway
            seen.add(node)
            old = totals[node]
            totals[node] = (old[0] + busy, old[1] + idle)
            node = parents.get(node)
    return totals


def _label(resource: RecordedResource, cost: tuple[float, float] | None) -> str:
    text = f"{mermaid_text(resource.name)}<br/><small>{mermaid_text(_short_type(resource))}</small>"
    if cost is not None and not resource.custom and (cost[0] or cost[1]):
        text += f"<br/>busy {cost[0]:,.2f} / idle {cost[1]:,.2f} USD/month"
    return text


def mermaid(plan: Plan) -> list[str]:
    """The plan as a fenced Mermaid flowchart (the lines, fences included)."""
    shown = list(plan.resources[:MAX_NODES])
    ids = {r.urn: f"r{i}" for i, r in enumerate(shown)}
    order = {r.urn: i for i, r in enumerate(shown)}
    costs = _subtree_costs(plan)
    groups = {r.urn for r in shown if r.type == RESOURCE_GROUP}
    lines = ["```mermaid", "flowchart LR"]
    for r in shown:
        label = _label(r, costs.get(r.urn))
        lines.append(f'  {ids[r.urn]}["{label}"]' if r.custom else f'  {ids[r.urn]}(["{label}"])')
    for r in shown:
        if r.parent in ids:
            lines.append(f"  {ids[r.parent]} --> {ids[r.urn]}")
        # in the plan's order, not the order the engine recorded them in (which varies from run to run): the
        # same plan draws the same lines, so a comment changes only when the stack does
        for dependency in sorted(set(r.dependencies) & set(ids), key=order.__getitem__):
            if dependency != r.parent and dependency not in groups:
                lines.append(f"  {ids[dependency]} -.-> {ids[r.urn]}")
    if len(plan.resources) > MAX_NODES:
        lines.append(f'  more["… and {len(plan.resources) - MAX_NODES} more resources"]')
    lines.append("```")
    return lines


def tree(plan: Plan) -> list[str]:
    """The plan as an indented tree of parents and children, for a terminal (`mermaid`'s plain-text twin)."""
    children: dict[str | None, list[RecordedResource]] = defaultdict(list)
    urns = {r.urn for r in plan.resources}
    for r in plan.resources:
        children[r.parent if r.parent in urns else None].append(r)
    costs = _subtree_costs(plan)
    lines: list[str] = []

    def walk(items: Iterable[RecordedResource], depth: int) -> None:
        for r in items:
            cost = costs.get(r.urn)
            note = ""
            if cost is not None and not r.custom and (cost[0] or cost[1]):
                note = f"  (busy {cost[0]:,.2f}, idle {cost[1]:,.2f} USD/month)"
            lines.append(f"{'  ' * depth}{r.name} [{_short_type(r)}]{note}")
            if depth < 32:  # deeper than any real component nesting
                walk(children.get(r.urn, []), depth + 1)

    walk(children[None], 0)
    return lines
