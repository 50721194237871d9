"""docs/commands/: a page per `gpu-stacks` command, generated from the CLI, complete and never stale."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest
from azure_gpu_stacks.engine.commands import TABLE
from azure_gpu_stacks.engine.commands.reference import DOCS_DIR, INDEX, command_parsers, main, render
from azure_gpu_stacks.engine.exit_codes import COMMAND_EXIT_CODES

from tests.conftest import REPO

PAGES = render()


def test_docs_commands_pages_are_current() -> None:
    assert DOCS_DIR == REPO / "docs" / "commands"
    committed = {p.name: p.read_text(encoding="utf-8") for p in DOCS_DIR.glob("*.md")}

    assert committed == PAGES, (
        "docs/commands/ is stale: run `make docs` (python -m azure_gpu_stacks.engine.commands.reference) and commit it"
    )


def test_every_command_has_a_page_and_a_line_in_the_index() -> None:
    names = [command.NAME for command in TABLE]

    assert set(PAGES) == {f"{name}.md" for name in names} | {INDEX}
    assert re.findall(r"^- \[`gpu-stacks ([\w-]+)`\]", PAGES[INDEX], flags=re.M) == names


@pytest.mark.parametrize("name", sorted(COMMAND_EXIT_CODES))
def test_page_lists_every_option_and_exit_code_of_the_command(name: str) -> None:
    page = PAGES[f"{name}.md"]
    parser = command_parsers()[name]
    parsers = [
        parser,
        *(sub for a in parser._actions if isinstance(a, argparse._SubParsersAction) for sub in a.choices.values()),
    ]
    options = {o for p in parsers for a in p._actions for o in a.option_strings if o.startswith("--") and o != "--help"}
    positionals = {
        str(a.metavar or a.dest)
        for p in parsers
        for a in p._actions
        if not a.option_strings and not isinstance(a, argparse._SubParsersAction)
    }

    assert options | positionals
    for option in options:
        assert f"`{option}" in page, option
    for positional in positionals:
        assert f"| `{positional}" in page, positional
    rows = re.findall(r"^\| (\d+) \| ", page.split("## Exit codes", 1)[1], flags=re.M)
    assert [int(code) for code in rows] == [code for code, _ in COMMAND_EXIT_CODES[name]]


def test_links_from_each_page_lead_to_pages_that_exist() -> None:
    for name, page in PAGES.items():
        for target in re.findall(r"\]\(([^)#]+)\)", page):
            assert (DOCS_DIR / target).resolve().is_file(), f"{name} links to {target}"


def test_make_docs_writes_the_pages_and_removes_a_gone_command(tmp_path: Path) -> None:
    (tmp_path / "retired-command.md").write_text("old\n", encoding="utf-8")

    assert main(["--output", str(tmp_path)]) == 0
    assert {p.name: p.read_text(encoding="utf-8") for p in tmp_path.iterdir()} == PAGES
