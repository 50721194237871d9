"""Every gpu-stacks command line the workflows run is one the CLI accepts, and those that plan every stack of a
CI job say a progress line per stack in the job's log (`--progress always`: stderr is no terminal there)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import yaml
from azure_gpu_stacks.engine.commands.parser import parser

from tests.conftest import REPO

WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.yml"))
# What the workflows' variables hold where an option checks its value's shape (the others are kept as written).
SAMPLES = {"AS_OF": "2026-11-27", "SHARD": "1", "SHARDS": "4"}


def command_lines(path: Path) -> list[list[str]]:
    """Each `.venv/bin/gpu-stacks ...` of the workflow's `run:` scripts, its continuation lines joined, up to the
    first pipe, redirection or `||`, as words (shell variables as `SAMPLES`, else as written)."""
    found = []
    for job in yaml.safe_load(path.read_text(encoding="utf-8"))["jobs"].values():
        for step in job.get("steps", []):
            script = re.sub(r"\\\n\s*", " ", step.get("run", ""))
            script = re.sub(r"\$([A-Z_]+)", lambda m: SAMPLES.get(m.group(1), m.group(0)), script)
            for match in re.finditer(r"\.venv/bin/gpu-stacks ([^\n|>]*)", script):
                words = shlex.split(match.group(1).split("||")[0])
                found.append(words[:-1] if words[-1:] == ["2"] else words)  # `2> FILE`
    return found


LINES = [(path.name, words) for path in WORKFLOWS for words in command_lines(path)]


def test_the_workflows_run_gpu_stacks() -> None:
    assert {name for name, _ in LINES} >= {"pull-request.yml", "fleet-check.yml"}


@pytest.mark.parametrize(("workflow", "words"), LINES, ids=[f"{n}:{' '.join(w)[:60]}" for n, w in LINES])
def test_each_command_line_parses(workflow: str, words: list[str]) -> None:
    parser().parse_args(words)  # argparse exits 2 on an unknown or misspelt option


def test_the_checks_of_every_stack_log_a_line_per_stack() -> None:
    every_stack = [
        (name, words)
        for name, words in LINES
        if words[0] == "check" and (parser().parse_args(words).stacks == [] or "--root" in words)
    ]
    assert len(every_stack) == 2
    assert all(parser().parse_args(words).progress == "always" for _, words in every_stack)
