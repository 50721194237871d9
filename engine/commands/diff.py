"""`gpu-stacks diff BASE [STACK...]`: what a change does to each stack, against a git revision."""

from __future__ import annotations

import argparse

from ..report import versioned
from . import options
from .said import Said

NAME = "diff"
HELP = "what a change does to each stack, against a git revision (pull-request review)"
DESCRIPTION = "Plan each stack at BASE (a temporary git worktree) and in the working tree, and compare."


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("base", metavar="BASE", help="git revision to compare with: origin/main, a tag or a commit")
    options.add_stacks(p, "stacks to compare (default: all, at either revision)")
    options.add_format(p, ("text", "json", "markdown"), "text; json (one document); markdown (a pull-request comment)")
    p.add_argument(
        "--allow-replace",
        action="append",
        default=[],
        metavar="URN",
        help="acknowledge the replacement of this GPU pool or cluster (repeatable); "
        "or put `# gpu-stacks: allow-replace URN` in the stack file",
    )
    options.add_common(p)
    options.add_as_of(p)
    options.add_jobs(p)


def run(args: argparse.Namespace) -> Said:
    from ..diff.command import diff_report

    if args.create_venv:
        options.planned_project(args)
    report, code, secrets = diff_report(
        args,
        options.project_dir(args.project),
        *options.run_settings(args),
        options.progress(args),
        options.reference(args),
        options.limits(args),
    )
    said = Said(code, secrets=set(secrets))
    if isinstance(report, dict):
        said.json(versioned(report))
    else:
        said.text(report, end="")
    return said
