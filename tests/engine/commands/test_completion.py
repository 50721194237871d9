"""`gpu-stacks completion bash`, sourced by a real bash and asked what a user's Tab would offer: the commands, a
command's options, an option's choices, the project's stacks (from the stack files on disk)."""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from azure_gpu_stacks.engine.cli import main

from tests.conftest import REPO

BIN = Path(sys.executable).parent  # where the environment's `gpu-stacks` is, for the script's stack lookup
SHIPPED_STACKS = sorted(p.name.removeprefix("Pulumi.").removesuffix(".yaml") for p in (REPO / "stacks").glob("*.yaml"))
LINES = (
    "gpu-stacks ",
    "gpu-stacks co",
    "gpu-stacks check --fa",
    "gpu-stacks check --fail-level ",
    "gpu-stacks cost --format ",
    "gpu-stacks check tr",
    "gpu-stacks plan -s ",
    "gpu-stacks check --usage ",
)


@cache
def script() -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["completion", "bash"]) == 0
    return out.getvalue()


@pytest.fixture(scope="module")
def offered() -> dict[str, list[str]]:
    """What Tab offers at the end of each of LINES, in one bash run from the repository (the shipped project).

    A module fixture, so that the tests reading it form one xdist group (tests/conftest.py): a cached function ran
    once per worker, and the script's stack lookup starts `gpu-stacks` (0.7 CPU-s a run)."""
    calls = []
    for line in LINES:
        words = line.split(" ")
        quoted = " ".join(f"'{w}'" for w in words)
        calls.append(
            f'COMP_WORDS=({quoted}); COMP_CWORD={len(words) - 1}; _gpu_stacks; echo "{line}|${{COMPREPLY[*]}}"'
        )
    done = subprocess.run(
        ["bash", "-c", script() + "\n" + "\n".join(calls)],
        cwd=REPO,
        env={**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return {line: reply.split() for line, _, reply in (row.partition("|") for row in done.stdout.splitlines())}


def test_the_first_word_offers_every_command(offered: dict[str, list[str]]) -> None:
    # the commands as `gpu-stacks --help` lists them
    help_text = io.StringIO()
    with contextlib.redirect_stdout(help_text), pytest.raises(SystemExit):
        main(["--help"])
    listed = re.findall(r"^    ([a-z-]+)", help_text.getvalue(), re.MULTILINE)

    assert len(listed) > 5 and offered["gpu-stacks "] == [*listed, "-h", "--help", "--version"]
    assert sorted(offered["gpu-stacks co"]) == ["completion", "cost"]


def test_an_option_is_completed_and_its_choices_offered(offered: dict[str, list[str]]) -> None:
    assert offered["gpu-stacks check --fa"] == ["--fail-level"]
    assert offered["gpu-stacks check --fail-level "] == ["mandatory", "advisory", "none"]
    assert offered["gpu-stacks cost --format "] == ["text", "markdown", "json"]


def test_stacks_are_the_projects_own(offered: dict[str, list[str]]) -> None:
    assert offered["gpu-stacks plan -s "] == SHIPPED_STACKS
    assert offered["gpu-stacks check tr"] == [s for s in SHIPPED_STACKS if s.startswith("tr")] == ["training-a100"]


def test_a_path_valued_option_is_left_to_the_shells_file_completion(offered: dict[str, list[str]]) -> None:
    assert offered["gpu-stacks check --usage "] == []  # `complete -o default` then offers files


def test_zsh_reads_the_same_script_through_bashcompinit() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["completion", "zsh"]) == 0
    lines = out.getvalue().splitlines()

    assert lines[1] == "autoload -U +X bashcompinit && bashcompinit"
    assert lines[2:] == script().splitlines()[1:]


def test_an_unknown_shell_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as ended:
        main(["completion", "fish"])

    assert ended.value.code == 2
    assert "invalid choice: 'fish' (choose from 'bash', 'zsh')" in capsys.readouterr().err
