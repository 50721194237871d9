"""The `gpu-stacks` argument parser, built from the command table: the CLI parses with it and
`reference.py` writes each command's page from it (both above this room, neither imported by it)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from ...inputs.files import escaped
from ..exit_codes import HELP_WIDTH, epilog
from . import TABLE
from .options import stacks_given


class CommandLineError(SystemExit):
    """argparse's exit 2 for a bad command line, with its error line (for the CLI to say as JSON too)."""

    def __init__(self, line: str) -> None:
        super().__init__(2)
        self.line = line


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        """A bad command line: a short usage hint, then the one error line (exit 2), instead of argparse's
        full usage of every option."""
        line = escaped(message)
        self._print_message(f"{self.hint()}\ngpu-stacks: error: {line}\n", sys.stderr)
        raise CommandLineError(line)

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        """argparse's, then `-s/--stack` folded into the STACK arguments (a command's parser does it, so that an
        error line comes with that command's usage)."""
        parsed, extras = super().parse_known_args(args, namespace)
        if error := stacks_given(parsed):
            self.error(error)
        return parsed, extras

    def hint(self) -> str:
        """`usage: gpu-stacks check [STACK ...] [OPTIONS] (gpu-stacks check --help lists them)`."""
        positionals = [a for a in self._actions if not a.option_strings and a.help != argparse.SUPPRESS]
        words = [self._get_formatter()._format_args(a, a.dest.upper()) for a in positionals]
        return f"usage: {' '.join([self.prog, *words])} [OPTIONS] ({self.prog} --help lists them)"


def parser(description: str | None = None, version: str | None = None) -> argparse.ArgumentParser:
    """`gpu-stacks` and one sub-parser per command of `TABLE` (`description`: the CLI's own, for --help;
    `version`: what `--version` prints, the option left out without it)."""
    top = _Parser(
        prog="gpu-stacks", description=raw_wrapped(description), formatter_class=argparse.RawDescriptionHelpFormatter
    )
    if version is not None:
        top.add_argument("--version", action="version", version=version)
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in TABLE:
        p = sub.add_parser(
            command.NAME,
            help=command.HELP,
            description=raw_wrapped(command.DESCRIPTION),
            epilog=epilog(command.NAME),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        command.add_arguments(p)
        p.set_defaults(run=command.run)
    return top


def raw_wrapped(text: str | None) -> str | None:
    """A raw description (its own line breaks kept) with each line longer than `HELP_WIDTH` wrapped, words whole."""
    if text is None:
        return None
    import textwrap

    return "\n".join(
        "\n".join(textwrap.wrap(line, HELP_WIDTH, break_long_words=False, break_on_hyphens=False)) or line
        for line in text.split("\n")
    )


def subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser]]:
    """The sub-parsers under `parser` (the commands under gpu-stacks, a command's own actions), in their order."""
    found = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return [item for action in found for item in action.choices.items()]
