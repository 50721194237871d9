"""`gpu-stacks check [STACK...]`: plan every stack (or those named) and give one verdict."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import InputError
from ..report import JSON_FORMAT_VERSION, versioned
from . import options
from .said import Document, Part, Said, Text

if TYPE_CHECKING:
    from ..run.outcome import Outcome

NAME = "check"
HELP = "plan every stack (or those named) and give one verdict"
DESCRIPTION = None


def add_arguments(p: argparse.ArgumentParser) -> None:
    options.add_stacks(
        p, "stacks to check (default: all in the project); with --root, DIR:STACK as the report names them"
    )
    options.add_report_formats(p)
    options.add_fail_level(p)
    options.add_common(p)
    options.add_as_of(p)
    options.add_jobs(p)
    add_fleet(p)


def add_fleet(p: argparse.ArgumentParser) -> None:
    """The options of a check of many projects (docs/fleet.md)."""
    group = p.add_argument_group("many projects (docs/fleet.md)")
    group.add_argument(
        "--root",
        type=Path,
        metavar="DIR",
        help="check every Pulumi project under DIR (each Pulumi.yaml, its stackConfigDir) with one verdict",
    )
    group.add_argument(
        "--affected",
        metavar="BASE",
        help="check only the stacks a change since the git revision BASE can alter, with the reasons; "
        "the others are listed as unchanged",
    )
    group.add_argument(
        "--shard",
        type=_shard,
        metavar="K/N",
        help="check the K-th of N deterministic shares of the stacks, balanced by their estimated work, and write "
        "its JSON Lines for `gpu-stacks merge`",
    )
    group.add_argument(
        "--cache-dir",
        type=Path,
        metavar="DIR",
        help="cache stack results in DIR, keyed by everything that can change them; with --root, --affected or "
        "--shard the cache is on by default in $XDG_CACHE_HOME/gpu-stacks/check",
    )
    group.add_argument("--no-cache", action="store_true", help="plan every stack; neither read nor write the cache")


def _shard(text: str) -> tuple[int, int]:
    """--shard's parser, loaded when the option is given: the shards' module loads the reports (and the
    planning machinery they name), which every other command line, `--help` and `merge` included, would
    otherwise pay for when the parser is built."""
    from ..fleet.shards import parse_shard

    return parse_shard(text)


def run(args: argparse.Namespace) -> Said:
    from . import check_root as fleet

    targets = options.report_targets(args)
    if fleet.wanted(args):
        if args.create_venv:
            raise InputError(
                "--create-venv: not with --root or --affected; allowed: make each project's environment with "
                "`gpu-stacks check --project DIR --create-venv`"
            )
        return fleet.run(args, targets)
    said = Said()
    plans = options.plan_many(args, said)
    from ..report.verdicts import summary

    said.exit_code = options.judged(max(p.exit_code for p in plans), summary(plans)["advisory"], args.fail_level)
    for fmt, file in targets:
        part = report(fmt, plans, args.project, args.sarif_category)
        if file is None:
            said.stdout.append(part)
        else:
            said.file(file, part, "--format")
    return said


def report(fmt: str, plans: list[Outcome], project: Path | None, sarif_category: str | None = None) -> Part:
    """The report of `plans` in `fmt`."""
    from ..report.check_total import total_json, total_lines
    from ..report.cost_total import CostTotal

    if fmt == "json":
        from ..report.verdicts import summary

        worst = max(p.exit_code for p in plans)
        return Document(
            {
                "formatVersion": JSON_FORMAT_VERSION,
                "stacks": [versioned(p.to_json()) for p in plans],  # each as `plan --json` prints it
                "summary": summary(plans),
                "costTotal": total_json(CostTotal.of(plans)),
                "exitCode": worst,
            }
        )
    if fmt == "markdown":
        from ..report.markdown import render_markdown

        return Text(render_markdown(plans), end="")
    if fmt == "sarif":
        from ..report.sarif import render_sarif

        return Document(render_sarif(plans, root=project, category=sarif_category))
    if fmt == "junit":
        from ..report.junit import render_junit
        from ..report.sarif import pack_rules

        return Text(render_junit([p.to_json() for p in plans], list(pack_rules())), end="")
    from ..report.text import check_lines

    lines = [line for p in plans for line in check_lines(p)]
    return Text("\n".join(lines + total_lines(CostTotal.of(plans))))
