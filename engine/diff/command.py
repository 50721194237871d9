"""`gpu-stacks diff`: run the comparison and render it in the format asked for."""

from __future__ import annotations

import argparse
import datetime as dt
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ..run.isolation import Limits
from ..run.plan import ReferenceFiles
from ..run.policy_config import PolicySettings
from .report import render_json, render_text
from .run import run_diff


def diff_report(
    args: argparse.Namespace,
    project_dir: Path,
    policy_settings: Mapping[str, PolicySettings] | None,
    day: dt.date,
    progress: Callable[[str], None],
    reference: ReferenceFiles,
    limits: Limits,
) -> tuple[str | dict[str, Any], int, frozenset[str]]:
    """The report to print (text, or the JSON document), the exit code (0 when the change introduces no
    problem, 1 when it does: `DiffReport.exit_code`) and the secrets of both revisions, for the CLI to mask."""
    report = run_diff(
        project_dir,
        args.base,
        args.stacks,
        reference,
        policy_settings,
        args.jobs,
        args.allow_replace,
        progress,
        limits,
        day=day,
    )
    if args.format == "json":
        return render_json(report), report.exit_code, report.secrets
    if args.format == "markdown":
        from .markdown import render_markdown

        return render_markdown(report), report.exit_code, report.secrets
    return render_text(report) + "\n", report.exit_code, report.secrets
