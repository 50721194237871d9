"""`gpu-stacks stacks`: the project's stacks, one a line."""

from __future__ import annotations

import argparse

from ..report import versioned
from . import options
from .said import Said

NAME = "stacks"
HELP = "list the project's stacks"
DESCRIPTION = None


def add_arguments(p: argparse.ArgumentParser) -> None:
    options.add_project(p)
    options.add_format(
        p, ("text", "json"), 'text (one name a line); json ({"formatVersion": 1, "stacks": [...]}, for a CI matrix)'
    )


def run(args: argparse.Namespace) -> Said:
    from ..run.project import load_project

    said = Said()
    names = load_project(options.project_dir(args.project)).stacks()
    if args.format == "json":
        said.json(versioned({"stacks": names}))
    else:
        said.text("\n".join(names))
    return said
