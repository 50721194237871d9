"""What a new user meets on day one: the README's commands work as written after `make plan`, every
command's --help names the exit codes it can give, and the README leads to every command's page
(docs/commands/, where each option is: tests/engine/commands/test_command_docs.py) and to pages that exist."""

from __future__ import annotations

import argparse
import json
import re
import shlex
from pathlib import Path

import pytest
from azure_gpu_stacks.engine.cli import _parser, main
from azure_gpu_stacks.engine.exit_codes import COMMAND_EXIT_CODES

from tests.conftest import REPO

README = (REPO / "README.md").read_text()


def subcommands() -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_every_command_is_in_the_exit_code_table() -> None:
    assert set(subcommands()) == set(COMMAND_EXIT_CODES)


@pytest.mark.parametrize("command", sorted(COMMAND_EXIT_CODES))
def test_help_names_every_exit_code_of_the_command(capsys: pytest.CaptureFixture[str], command: str) -> None:
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    help_text = capsys.readouterr().out

    assert done.value.code == 0
    listed = re.findall(r"^  (\d+)\s+", help_text.split("exit codes:\n", 1)[1], flags=re.M)
    assert [int(c) for c in listed] == [code for code, _ in COMMAND_EXIT_CODES[command]]


def test_a_command_line_parsed_after_another_gets_none_of_its_repeated_options() -> None:
    # one process parses many command lines with one parser (a test session, a wrapper calling main() in a loop)
    first = _parser().parse_args(
        ["check", "inference-t4", "--existing", "vm.json", "--stack-outputs", "org/net/prod=out.json"]
    )
    second = _parser().parse_args(["check", "inference-t4"])
    third = _parser().parse_args(["diff", "origin/main", "--allow-replace", "urn:a"])
    fourth = _parser().parse_args(["diff", "origin/main"])

    assert (first.existing, first.stack_outputs) == ([Path("vm.json")], ["org/net/prod=out.json"])
    assert (second.existing, second.stack_outputs) == ([], [])
    assert (third.allow_replace, fourth.allow_replace) == (["urn:a"], [])


def test_quota_and_plan_help_say_a_quota_shortfall_is_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    for command, phrase in (("quota", "1    quota is short"), ("plan", "a quota shortfall")):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert phrase in capsys.readouterr().out


def test_a_quota_shortfall_is_exit_1_as_the_help_says(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    usage = tmp_path / "usage.json"
    usage.write_text(
        json.dumps(
            [
                {"currentValue": 0, "limit": 0, "name": {"value": "standardNCASv3_T4Family", "localizedValue": "T4"}},
                {"currentValue": 0, "limit": 100, "name": {"value": "cores", "localizedValue": "Total Regional vCPUs"}},
            ]
        )
    )

    assert main(["quota", "inference-t4", "--usage", str(usage), "--project", str(REPO)]) == 1
    assert main(["plan", "inference-t4", "--usage", str(usage), "--project", str(REPO)]) == 1
    assert "results in exceeding approved standardNCASv3_T4Family Cores quota" in capsys.readouterr().out


def test_readme_links_the_page_of_every_command() -> None:
    linked = set(re.findall(r"\(docs/commands/([\w-]+)\.md\)", README)) - {"README"}

    assert linked == set(subcommands())


@pytest.mark.parametrize(
    "page", ["README.md", "ARCHITECTURE.md", *sorted(p.name for p in (REPO / "docs").glob("*.md"))]
)
def test_links_between_the_pages_lead_to_files_that_exist(page: str) -> None:
    path = REPO / page if (REPO / page).is_file() else REPO / "docs" / page
    prose = re.sub(r"`[^`\n]*`", "", path.read_text(encoding="utf-8"))  # a code span is never a link
    targets = re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", prose)

    assert [t for t in targets if not (path.parent / t).exists()] == []


def test_readme_says_how_gpu_stacks_is_found_after_make() -> None:
    setup = README.split("## Set up and try it", 1)[1].split("## ", 1)[0]
    assert "make plan" in setup
    assert ". .venv/bin/activate" in setup and ".venv/bin/gpu-stacks" in setup


def readme_commands() -> list[list[str]]:
    """Every literal `gpu-stacks` command of the README's shell blocks (not the synopsis' templates)."""
    found = []
    for block in re.findall(r"```sh\n(.*?)```", README, flags=re.S):
        for line in block.splitlines():
            command = line.split("#", 1)[0].strip()
            if command.startswith("gpu-stacks ") and not re.search(r"[A-Z]{3,}|\[|\||\$", command):
                found.append(shlex.split(command)[1:])
    # `policy-pack export DIR` writes a directory: tests/engine/commands/test_policy_pack_cli.py runs it in a
    # temporary one.
    return [argv for argv in found if argv[:2] != ["policy-pack", "export"]]


def test_readme_commands_run_as_written(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(REPO)  # where the README's reader stands after `make plan`
    commands = readme_commands()
    assert ["check"] in commands and ["check", "training-a100"] in commands

    for argv in commands:
        code = main(argv)
        _, err = capsys.readouterr()
        assert code in (0, 1), f"gpu-stacks {' '.join(argv)}: {err}"
