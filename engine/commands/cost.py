"""`gpu-stacks cost [STACK...]`: busy and idle cost of stacks, as a table."""

from __future__ import annotations

import argparse

from . import options
from .said import Said

NAME = "cost"
HELP = "busy and idle cost of stacks, as a table"
DESCRIPTION = "Cost of stacks from the catalog's prices."


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("stacks", metavar="STACK", nargs="*", help="stacks to price (default: all in the project)")
    p.add_argument(
        "--format", choices=("text", "markdown", "json"), default="text", help="markdown for pull-request comments"
    )
    options.add_common(p)
    options.add_as_of(p)
    options.add_jobs(p)


def run(args: argparse.Namespace) -> Said:
    """Cost is information, not a verdict: exit 0 whatever the stacks cost; 2 when a stack could not be priced."""
    from ..run.outcome import StackFailure

    said = Said()
    plans = options.plan_many(args, said)
    if args.format == "json":
        stacks = [
            {"stack": p.stack, "error": p.message}
            if isinstance(p, StackFailure)
            else {"stack": p.stack, "cost": p.cost.to_json()}
            for p in plans
        ]
        said.json({"stacks": stacks})
    else:
        from ..report.cost import cost_table

        said.text(cost_table(plans, args.format))
    said.exit_code = max((p.exit_code for p in plans if isinstance(p, StackFailure)), default=0)
    return said
