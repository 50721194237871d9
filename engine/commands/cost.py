"""`gpu-stacks cost [STACK...]`: busy and idle cost of stacks, as a table."""

from __future__ import annotations

import argparse

from ..report import versioned
from . import options
from .said import Said

NAME = "cost"
HELP = "busy and idle cost of stacks, as a table"
DESCRIPTION = "Cost of stacks from the catalog's prices."


def add_arguments(p: argparse.ArgumentParser) -> None:
    options.add_stacks(p, "stacks to price (default: all in the project)")
    options.add_format(p, ("text", "markdown", "json"), "text; markdown (a pull-request comment); json (one document)")
    options.add_common(p)
    options.add_as_of(p)
    options.add_jobs(p)


def run(args: argparse.Namespace) -> Said:
    """Cost is information, not a verdict: exit 0 whatever the stacks cost; 2 when a stack could not be priced."""
    from ..run.outcome import StackFailure

    said = Said()
    plans = options.plan_many(args, said)
    if args.format == "json":
        from ..report.cost_total import CostTotal

        stacks = [
            {"stack": p.stack, "error": p.message}
            if isinstance(p, StackFailure)
            else {"stack": p.stack, "cost": p.cost.to_json()}
            for p in plans
        ]
        said.json(versioned({"stacks": stacks, "total": CostTotal.of(plans).to_json()}))
    else:
        from ..report.cost import cost_table

        said.text(cost_table(plans, args.format))
    said.exit_code = max((p.exit_code for p in plans if isinstance(p, StackFailure)), default=0)
    return said
