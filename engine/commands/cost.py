"""`gpu-stacks cost [STACK...]`: busy and idle cost of stacks, as a table."""

from __future__ import annotations

import argparse

from ..report import versioned
from . import options
from .said import Said

NAME = "cost"
HELP = "busy and idle cost of stacks, as a table"
DESCRIPTION = (
    "Cost of stacks from the catalog's prices, each total beside its budget's amount and thresholds. The cost "
    "policies' verdicts (limit-stack-cost, warn-incoherent-budgets) decide the exit code at --fail-level, as "
    "check decides it. Charges priced beside the totals that rest on usage (ingestion, operations, storage) take "
    "the values of gpu-stacks.usage.yaml beside Pulumi.yaml, else the shipped defaults, and say which "
    "(docs/prices.md)."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    options.add_stacks(p, "stacks to price (default: all in the project)")
    options.add_format(p, ("text", "markdown", "json"), "text; markdown (a pull-request comment); json (one document)")
    options.add_common(p)
    options.add_as_of(p)
    options.add_jobs(p)
    options.add_fail_level(p)


def run(args: argparse.Namespace) -> Said:
    """Exit 1 when a cost policy's violation fails at `--fail-level` (limit-stack-cost, warn-incoherent-budgets:
    advisory unless the policy config makes them mandatory), else 0; 2 when a stack could not be priced."""
    from ..report.cost import cost_violations
    from ..run.outcome import StackFailure

    said = Said()
    plans = options.plan_many(args, said)
    if args.format == "json":
        from ..report.cost_total import CostTotal

        stacks = [
            {"stack": p.stack, "error": p.message}
            if isinstance(p, StackFailure)
            else {
                "stack": p.stack,
                "cost": p.cost.to_json(),
                "costViolations": [v.to_json() for v in cost_violations(p)],
            }
            for p in plans
        ]
        said.json(versioned({"stacks": stacks, "total": CostTotal.of(plans).to_json()}))
    else:
        from ..report.cost import cost_table

        said.text(cost_table(plans, args.format))
    failed = max((p.exit_code for p in plans if isinstance(p, StackFailure)), default=0)
    found = [v for p in plans if not isinstance(p, StackFailure) for v in cost_violations(p)]
    mandatory = sum(1 for v in found if v.mandatory)
    said.exit_code = failed or options.judged(1 if mandatory else 0, len(found) - mandatory, args.fail_level)
    return said
