"""`gpu-stacks check [STACK...]`: plan every stack (or those named) and give one verdict."""

from __future__ import annotations

import argparse

from azure_gpu_stacks.engine.commands import options

NAME = "check"
HELP = "plan every stack (or those named) and give one verdict"
DESCRIPTION = None


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("stacks", metavar="STACK", nargs="*", help="stacks to check (default: all in the project)")
    p.add_argument(
        "--format",
        choices=options.FORMATS,
        default="text",
        help="text; json (one document); markdown (a pull-request comment); sarif (GitHub code scanning)",
    )
    p.add_argument("--json", action="store_true", help="same as --format json")
    options.add_common(p)
    options.add_as_of(p)
    options.add_jobs(p)


def run(args: argparse.Namespace) -> int:
    plans = options.plan_many(args)
    worst = max(p.exit_code for p in plans)
    fmt = "json" if args.json else args.format
    if fmt == "json":
        from azure_gpu_stacks.engine.report.verdicts import summary

        options.out_json({"stacks": [p.to_json() for p in plans], "summary": summary(plans), "exitCode": worst})
    elif fmt == "markdown":
        from azure_gpu_stacks.engine.report.markdown import render_markdown

        options.out(render_markdown(plans), end="")
    elif fmt == "sarif":
        from azure_gpu_stacks.engine.report.sarif import render_sarif

        options.out_json(render_sarif(plans, root=args.project))
    else:
        from azure_gpu_stacks.engine.report.text import verdict, violation_line

        for p in plans:
            options.out(verdict(p))
            for r in p.refusals:
                options.out(f"  - {r.resource} [{r.type}]: {r.code}: {r.message}")
            for v in p.violations:
                options.out(f"  - {violation_line(v)}")
    return worst
