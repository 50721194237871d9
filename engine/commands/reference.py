"""docs/commands/<command>.md, one page per `gpu-stacks` command, written from the CLI itself.

    python -m azure_gpu_stacks.engine.commands.reference     # (or `make docs`) rewrite docs/commands/

Each page is the command's description, its usage, a row per argument (argparse's own help text, choices
and default) and its exit codes (`engine/exit_codes.py`, the table `--help` prints), so a page says what
the CLI does and nothing else; `tests/engine/commands/test_command_docs.py` fails when a committed page is
stale. What is not per command (input limits, quota files, prices) is in the hand-written pages each one links to.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from ..exit_codes import COMMAND_EXIT_CODES
from . import TABLE
from .parser import parser, subcommands

DOCS_DIR = Path(__file__).resolve().parents[2] / "docs" / "commands"
INDEX = "README.md"
USAGE_WIDTH = 100  # usage lines wrap here whatever the terminal generating the page is
GENERATED = (
    "<!-- generated from the CLI by `make docs` (engine/commands/reference.py): edit the command, not this page -->"
)
# command -> the hand-written pages (under docs/) that hold what the command's options refer to
SEE_ALSO: dict[str, tuple[tuple[str, str], ...]] = {
    "plan": (("inputs.md", "input files and their limits"), ("quota.md", "quota files")),
    "check": (
        ("inputs.md", "input files and their limits"),
        ("quota.md", "quota files"),
        ("fleet.md", "many projects: --root, --affected, the cache, --shard"),
    ),
    "merge": (("fleet.md", "shards in CI: GitHub Actions, GitLab, Azure Pipelines"),),
    "cost": (("prices.md", "where prices come from"), ("inputs.md", "input files and their limits")),
    "quota": (("quota.md", "quota files, counters and remedies"), ("inputs.md", "input files and their limits")),
    "diff": (("diff.md", "reading a diff"), ("inputs.md", "input files and their limits")),
    "export-arm": (("preflight.md", "Azure's own verdict: the template, preflight, fidelity records"),),
    "preflight": (("preflight.md", "running it, fidelity records, what only Azure shows"),),
    "stacks": (),
    "policy-pack": (("policies.md", "the policies and their config"),),
    "completion": (),
}


def command_parsers() -> dict[str, argparse.ArgumentParser]:
    """Each command's parser, built as `gpu-stacks` builds it (with its description and exit codes)."""
    return dict(subcommands(parser()))


def render() -> dict[str, str]:
    """File name under docs/commands/ -> its text: a page per command, in TABLE order, and the index."""
    parsers = command_parsers()
    pages = {f"{c.NAME}.md": _page(c.NAME, c.HELP, parsers[c.NAME]) for c in TABLE}
    pages[INDEX] = _index()
    return pages


def _index() -> str:
    lines = ["# `gpu-stacks` commands", "", GENERATED, ""]
    lines += [f"- [`gpu-stacks {c.NAME}`]({c.NAME}.md): {c.HELP}" for c in TABLE]
    lines += ["", "Every command's `--help` says the same as its page."]
    return "\n".join(lines) + "\n"


def _page(name: str, summary: str, parser: argparse.ArgumentParser) -> str:
    lines = [f"# `gpu-stacks {name}`", "", GENERATED, ""]
    lines += _about(parser, summary)
    for action, sub, help_text in _subcommands_with_help(parser):
        lines += [f"## `gpu-stacks {name} {action}`", ""] + _about(sub, help_text)
    lines += ["## Exit codes", "", "| code | meaning |", "| --- | --- |"]
    lines += [f"| {code} | {_cell(meaning)} |" for code, meaning in COMMAND_EXIT_CODES[name]]
    if SEE_ALSO[name]:
        lines += ["", "See also: " + "; ".join(f"[{title}](../{page})" for page, title in SEE_ALSO[name]) + "."]
    return "\n".join(lines) + "\n"


def _about(parser: argparse.ArgumentParser, summary: str) -> list[str]:
    lead = parser.description or summary
    lines = [lead[0].upper() + lead[1:], ""]
    lines += ["```", _usage(parser), "```", ""]
    rows = [_row(a) for a in parser._actions if a.help != argparse.SUPPRESS and not _is_help_or_subcommands(a)]
    if rows:
        lines += ["| argument | default | meaning |", "| --- | --- | --- |", *rows, ""]
    return lines


def _usage(parser: argparse.ArgumentParser) -> str:
    formatter = argparse.HelpFormatter(prog=parser.prog, width=USAGE_WIDTH)
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups)
    return formatter.format_help().strip()


def _row(action: argparse.Action) -> str:
    if action.option_strings:
        metavar = "" if action.nargs == 0 else f" {action.metavar or action.dest.upper()}"
        name = ", ".join(f"`{o}{metavar}`" for o in action.option_strings)
        if isinstance(action, argparse._AppendAction):
            name += " (repeatable)"
    else:
        name = f"`{action.metavar or action.dest}`"
    meaning = _cell((action.help or "") % vars(action))
    if action.choices:
        meaning += f"; one of {', '.join(f'`{c}`' for c in action.choices)}"
    return f"| {name} | {_default(action)} | {meaning} |"


def _default(action: argparse.Action) -> str:
    """What the page says of the default: the help's own words where it names one (a default worked out
    on the machine, such as the number of cores, is not written into the page), else the value."""
    if not action.option_strings and action.nargs not in ("?", "*"):
        return "required"
    unset = action.default is None or action.default is False or action.default in ([], argparse.SUPPRESS)
    if unset or "default:" in (action.help or ""):
        return ""
    return f"`{action.default}`"


def _is_help_or_subcommands(action: argparse.Action) -> bool:
    return isinstance(action, (argparse._HelpAction, argparse._SubParsersAction))


def _subcommands_with_help(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser, str]]:
    found = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    helps = {c.dest: c.help or "" for a in found for c in a._choices_actions}
    return [(name, sub, helps[name]) for name, sub in subcommands(parser)]


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write docs/commands/ from the gpu-stacks CLI.")
    parser.add_argument("--output", type=Path, default=DOCS_DIR, help=f"where to write (default: {DOCS_DIR})")
    args = parser.parse_args(argv)
    pages = render()
    args.output.mkdir(parents=True, exist_ok=True)
    for stale in sorted(set(p.name for p in args.output.glob("*.md")) - set(pages)):
        (args.output / stale).unlink()  # a command that is gone takes its page with it
    for name, text in pages.items():
        (args.output / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(pages)} pages to {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
