"""`gpu-stacks merge SHARD...`: the shards of one `check --shard K/N` run as one report (docs/fleet.md)."""

from __future__ import annotations

import argparse
from pathlib import Path

from . import options

NAME = "merge"
HELP = "combine the shards of a `check --shard K/N` run into one report, as one unsharded check writes it"
DESCRIPTION = (
    "Reads the JSON Lines every `gpu-stacks check --shard K/N` of one run wrote (all N of them) and writes the "
    "report, verdict and exit code an unsharded check of the same stacks gives, byte for byte."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("shards", metavar="SHARD", nargs="+", type=Path, help="a file `check --shard K/N` wrote")
    p.add_argument(
        "--format",
        choices=options.FORMATS,
        default="text",
        help="text; json (one document); markdown (a pull-request comment); sarif (GitHub code scanning)",
    )
    p.add_argument("--json", action="store_true", help="same as --format json")


def run(args: argparse.Namespace) -> int:
    from ..fleet.render import write_report
    from ..fleet.shards import Merged

    merged = Merged(args.shards)
    fmt = "json" if args.json else args.format
    return write_report(fmt, merged.entries, lambda: merged.pack_rules, merged.affected, options.out)
