"""`gpu-stacks diff`: run the comparison and print it in the format asked for."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Mapping

from azure_gpu_stacks.preflight.diff_report import render_json, render_text
from azure_gpu_stacks.preflight.diff_run import run_diff
from azure_gpu_stacks.preflight.plan import ReferenceFiles
from azure_gpu_stacks.preflight.policy_config import PolicySettings


def print_diff(
    args: argparse.Namespace, policy_settings: Mapping[str, PolicySettings] | None, progress: Callable[[str], None]
) -> int:
    """Exit 0 when the change introduces no problem, 1 when it does (see `DiffReport.exit_code`)."""
    report = run_diff(
        args.project,
        args.base,
        args.stacks,
        ReferenceFiles(usage=args.usage, skus=args.skus),
        policy_settings,
        args.jobs,
        args.allow_replace,
        progress,
    )
    if args.format == "json":
        print(json.dumps(render_json(report), indent=2))
    elif args.format == "markdown":
        from azure_gpu_stacks.preflight.diff_markdown import render_markdown

        print(render_markdown(report), end="")
    else:
        print(render_text(report))
    return report.exit_code
