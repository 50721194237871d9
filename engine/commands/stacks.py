"""`gpu-stacks stacks`: the project's stacks, one a line."""

from __future__ import annotations

import argparse

from ..report import JSON_FORMAT_VERSION
from . import options
from .said import Said

NAME = "stacks"
HELP = "list the project's stacks"
DESCRIPTION = None


def add_arguments(p: argparse.ArgumentParser) -> None:
    options.add_project(p)
    p.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help='text (one name a line); json ({"formatVersion": 1, "stacks": [...]}, for a CI matrix)',
    )
    p.add_argument("--json", action="store_true", help="same as --format json")


def run(args: argparse.Namespace) -> Said:
    from ..run.project import load_project

    said = Said()
    names = load_project(options.project_dir(args.project)).stacks()
    if args.json or args.format == "json":
        said.json({"formatVersion": JSON_FORMAT_VERSION, "stacks": names})
    else:
        said.text("\n".join(names))
    return said
