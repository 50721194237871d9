"""`gpu-stacks merge SHARD...`: the shards of one `check --shard K/N` run as one report (docs/fleet.md)."""

from __future__ import annotations

import argparse
from pathlib import Path

from . import options
from .said import Said

NAME = "merge"
HELP = "combine the shards of a `check --shard K/N` run into one report, as one unsharded check writes it"
DESCRIPTION = (
    "Reads the JSON Lines every `gpu-stacks check --shard K/N` of one run wrote (all N of them) and writes the "
    "report, verdict and exit code an unsharded check of the same stacks gives, byte for byte."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("shards", metavar="SHARD", nargs="+", type=Path, help="a file `check --shard K/N` wrote")
    options.add_report_formats(p)
    options.add_fail_level(p)


def run(args: argparse.Namespace) -> Said:
    from ..fleet.shards import Merged

    targets = options.report_targets(args)
    merged = Merged(args.shards)
    return options.reported(
        Said(),
        targets,
        merged.entries,
        lambda: merged.pack_rules,
        merged.affected,
        args.fail_level,
        args.sarif_category,
    )
