"""Every `--help` fits a 100-column terminal (issue 37: lines of 225 to 468 characters in the raw description
and exit-code table, which argparse prints as written), its line breaks kept and no word cut."""

from __future__ import annotations

import pytest
from azure_gpu_stacks.engine.cli import _parser
from azure_gpu_stacks.engine.commands.parser import subcommands
from azure_gpu_stacks.engine.exit_codes import COMMAND_EXIT_CODES

WIDTH = 100


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", str(WIDTH))  # what argparse wraps the options' help to


def test_every_help_line_fits_100_columns(terminal: None) -> None:
    top = _parser()
    pages = {"gpu-stacks": top.format_help(), **{name: p.format_help() for name, p in subcommands(top)}}

    long = {name: [line for line in page.splitlines() if len(line) > WIDTH] for name, page in pages.items()}
    assert {name: lines for name, lines in long.items() if lines} == {}
    assert set(pages) - {"gpu-stacks"} == set(COMMAND_EXIT_CODES)


def test_the_exit_code_table_keeps_every_word_of_each_meaning(terminal: None) -> None:
    help_text = dict(subcommands(_parser()))["check"].format_help()
    table = help_text.split("exit codes:\n", 1)[1]

    for code, meaning in COMMAND_EXIT_CODES["check"]:
        assert meaning.split() == _row(table, code).split()


def _row(table: str, code: int) -> str:
    """The meaning of `code` in the table, its wrapped lines joined."""
    rows: dict[str, list[str]] = {}
    current = ""
    for line in table.splitlines():
        if line[:7].strip():
            current, text = line.split(None, 1)
            rows[current] = [text]
        elif current:
            rows[current].append(line.strip())
    return " ".join(rows[str(code)])
