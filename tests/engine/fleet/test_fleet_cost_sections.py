"""A fleet's markdown report (`check --root`) says under its cost table what one project's check says: the charges
priced beside the totals, the commitments of always-on GPU nodes and the cost policies' verdicts. The fleet renders
from each stack's record, and until the record kept those lines its report left the three sections out (found when a
retired size got an eastus price and its commitment line appeared in one report only). Run on a copy of the shipped
project: inference-t4's OS disk is a charge, training-a100's nodes run every hour, and limit-stack-cost's
`maxMonthlyUsd` of 300 USD a month is below what the stacks cost at full scale (the first test checks that all three
sections are there to lose)."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from pathlib import Path

import pytest
from azure_gpu_stacks.engine.cli import main

from tests.conftest import REPO

SECTIONS = (
    "Lower bound: priced beside the totals, not in them",
    "Commitments for always-on GPU nodes",
    "Cost policies:",
)


def markdown_check(where: str, *argv: str | Path) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(["check", where, *map(str, argv), "--format", "markdown", "--as-of", "2026-11-27"])
    assert code in (0, 1)
    return out.getvalue()


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    base = tmp_path_factory.mktemp("fleet-cost")
    project = base / "project"
    project.mkdir()
    for name in ("Pulumi.yaml", "__main__.py"):
        shutil.copy(REPO / name, project / name)
    shutil.copytree(REPO / "stacks", project / "stacks")
    config = base / "policy-config.json"
    config.write_text(json.dumps({"limit-stack-cost": {"maxMonthlyUsd": 300}}), encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(base)  # both runs name the project by the same relative path
        one = markdown_check("--project", "project", "--policy-config", config)
        fleet = markdown_check("--root", "project", "--policy-config", config)
    return one, fleet


def test_a_fleets_markdown_has_each_cost_section_of_one_projects_check(reports: tuple[str, str]) -> None:
    one, fleet = reports

    assert [s for s in SECTIONS if s in one] == list(SECTIONS)  # the copy has all three to lose
    assert [s for s in SECTIONS if s in fleet] == list(SECTIONS)


def test_a_fleets_markdown_is_one_projects_check_line_for_line(reports: tuple[str, str]) -> None:
    one, fleet = reports

    assert fleet.splitlines() == one.splitlines()
