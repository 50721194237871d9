"""`gpu-stacks plan STACK`: what `pulumi up` would create, offline."""

from __future__ import annotations

import argparse

from ..report import versioned
from . import options
from .said import Said

NAME = "plan"
HELP = "what `pulumi up` would create, offline"
DESCRIPTION = "Plan one stack offline."


def add_arguments(p: argparse.ArgumentParser) -> None:
    options.add_stack(p)
    options.add_format(
        p,
        ("text", "json", "pulumi-preview"),
        "text; json (one document); pulumi-preview (the steps, ops and new states `pulumi preview --json` "
        "prints, for tools built on that shape)",
    )
    p.add_argument(
        "--preview",
        action="store_true",
        help="ids unknown too, and only the checks a provider makes during `pulumi preview` (by default a plan "
        "already leaves the outputs Azure computes unknown, and checks everything it can)",
    )
    options.add_common(p)
    options.add_as_of(p)


def run(args: argparse.Namespace) -> Said:
    from ..report.text import render_text
    from ..run.plan import plan_stack

    project = options.planned_project(args)
    reference = options.reference(args)
    settings, day = options.run_settings(args)
    options.progress(args)(f"planning {args.stack} offline…")
    plan = plan_stack(
        project,
        args.stack,
        reference,
        day=day,
        preview=args.preview,
        policy_settings=settings,
        limits=options.limits(args),
    )
    said = Said(plan.exit_code)
    said.learn([plan])
    if args.format == "json":
        said.json(versioned(plan.to_json()))
    elif args.format == "pulumi-preview":
        from ..report.pulumi_preview import preview_json

        said.json(preview_json(plan))
    else:
        said.text(render_text(plan))
    return said
