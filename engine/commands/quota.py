"""`gpu-stacks quota STACK`: the vCPU quota a stack needs at full scale, against the subscription's limits."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..report import versioned
from . import options
from .said import Said

NAME = "quota"
HELP = "vCPU quota a stack needs at full scale, against the subscription's limits"
DESCRIPTION = (
    "Quota a stack needs, per counter and region, against `az vm list-usage` (or --live) and "
    "`az ml compute list-usage` limits, and a Batch account's own (`az batch account show`)."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    options.add_stack(p)
    p.add_argument(
        "--live", action="store_true", help="read the limits from Azure (needs the [azure] extra and a login)"
    )
    p.add_argument("--subscription", help="subscription id for --live (default: $AZURE_SUBSCRIPTION_ID)")
    p.add_argument(
        "--batch-account",
        type=Path,
        metavar="FILE",
        help="a Batch-managed account's core quota, as `az batch account show --name ACCOUNT --resource-group RG "
        "-o json` writes it (its pools draw on it, not on the subscription's)",
    )
    options.add_format(p, ("text", "markdown", "json"), "text; markdown (a pull-request comment); json (one document)")
    options.add_common(p)


def run(args: argparse.Namespace) -> Said:
    from ..estimate.quota import quota_report, render
    from ..run.plan import ReferenceFiles
    from ..run.stack_references import parse_option

    project = options.planned_project(args)
    _, day = options.run_settings(args)  # the file checked like every command's, though quota applies no policy
    options.progress(args)(f"planning {args.stack} offline…")
    reference = ReferenceFiles(
        stack_outputs=parse_option(args.stack_outputs), organization=args.organization, existing=tuple(args.existing)
    )
    report = quota_report(
        project,
        args.stack,
        day=day,
        usage_file=args.usage,
        aml_usage_file=args.aml_usage,
        batch_account_file=args.batch_account,
        skus_file=args.skus,
        live=args.live,
        subscription_id=args.subscription,
        live_timeout_s=args.timeout,
        run_limits=options.limits(args),
        reference=reference,
    )
    said = Said(report.exit_code, secrets=set(report.secret_values))
    if args.format == "json":
        said.json(versioned(report.to_json()))
    else:
        said.text(render(report, args.format))
    return said
