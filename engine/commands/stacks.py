"""`gpu-stacks stacks`: the project's stacks, one a line."""

from __future__ import annotations

import argparse

from . import options
from .said import Said

NAME = "stacks"
HELP = "list the project's stacks"
DESCRIPTION = None


def add_arguments(p: argparse.ArgumentParser) -> None:
    options.add_project(p)


def run(args: argparse.Namespace) -> Said:
    from ..run.project import load_project

    said = Said()
    said.text("\n".join(load_project(options.project_dir(args.project)).stacks()))
    return said
