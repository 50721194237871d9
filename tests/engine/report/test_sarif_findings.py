"""SARIF where reviewers look: on the line a team changes, ranked as GitHub ranks alerts, stable across edits."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.engine.cli import main

from tests.conftest import REPO, TEST_SSH_KEY
from tests.shared_plans import plans_shared


@pytest.fixture(scope="module", autouse=True)
def plans() -> Iterator[dict[str, Any]]:
    """The file's plans by their arguments (tests/shared_plans.py): the shipped stack's reports read one plan of it."""
    with plans_shared() as plans:
        yield plans


# GitHub's bands for `security-severity` (docs.github.com, "SARIF support for code scanning", observed 2026-11-26).
BANDS = {"critical": (9.0, 10.0), "high": (7.0, 8.9), "medium": (4.0, 6.9), "low": (0.1, 3.9)}
TEAM_PROGRAM = f"""
from pulumi_azure_native import resources
from azure_gpu_stacks.components import TrainingCluster

rg = resources.ResourceGroup("rg", location="eastus")
TrainingCluster("train", {{"resource_group_name": rg.name, "location": "eastus", "ssh_public_key": "{TEST_SSH_KEY}"}})
"""


def sarif(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    main(["check", *argv, "--format", "sarif"])
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


def results(document: dict[str, Any], rule: str) -> list[dict[str, Any]]:
    return [r for r in document["runs"][0]["results"] if r["ruleId"] == rule]


def place(result: dict[str, Any]) -> tuple[str, dict[str, int]]:
    location = result["locations"][0]["physicalLocation"]
    return location["artifactLocation"]["uri"], location["region"]


@pytest.fixture
def team(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    project = tmp_path / "team"
    project.mkdir()
    (project / "Pulumi.yaml").write_text("name: vision\nruntime: python\n", encoding="utf-8")
    (project / "Pulumi.dev.yaml").write_text("config:\n  azure-native:location: eastus\n", encoding="utf-8")
    (project / "__main__.py").write_text(TEAM_PROGRAM, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return project


def test_a_finding_on_a_components_child_points_at_the_team_line_that_made_the_component(
    capsys: pytest.CaptureFixture[str], team: Path
) -> None:
    [always_on] = results(sarif(capsys, "--project", "team"), "warn-always-on-infiniband-cluster")
    line = (
        TEAM_PROGRAM.splitlines().index(next(x for x in TEAM_PROGRAM.splitlines() if x.startswith("TrainingCluster(")))
        + 1
    )

    assert place(always_on) == ("team/__main__.py", {"startLine": line})


def test_a_shipped_stacks_finding_points_at_the_stack_file_section(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    lines = (REPO / "stacks" / "Pulumi.training-a100.yaml").read_text(encoding="utf-8").splitlines()
    [section] = [i for i, x in enumerate(lines, start=1) if x.strip() == "azure-gpu-stacks:trainingCluster:"]
    [always_on] = results(sarif(capsys, "training-a100"), "warn-always-on-infiniband-cluster")

    uri, region = place(always_on)
    assert (uri, region["startLine"]) == ("stacks/Pulumi.training-a100.yaml", section)
    assert region["startColumn"] == lines[section - 1].index("azure-gpu-stacks:") + 1
    assert not any("site-packages" in place(r)[0] or place(r)[0].startswith("components/")
                   for r in sarif(capsys, "training-a100")["runs"][0]["results"])  # fmt: skip


def test_fingerprints_survive_an_edit_that_moves_the_line(capsys: pytest.CaptureFixture[str], team: Path) -> None:
    before = sarif(capsys, "--project", "team")["runs"][0]["results"]
    (team / "__main__.py").write_text("# a comment\n\n" + TEAM_PROGRAM, encoding="utf-8")
    after = sarif(capsys, "--project", "team")["runs"][0]["results"]

    prints = [r["partialFingerprints"] for r in before]
    assert prints == [r["partialFingerprints"] for r in after]
    assert [place(r)[1] for r in before] != [place(r)[1] for r in after]
    assert len({json.dumps(p) for p in prints}) == len(prints)


def test_every_rule_ranks_in_githubs_band_for_its_severity_and_the_run_has_a_category(
    capsys: pytest.CaptureFixture[str], team: Path
) -> None:
    run = sarif(capsys, "--project", "team")["runs"][0]
    rules = [r for r in run["tool"]["driver"]["rules"] if not r["id"].startswith("azure/")]

    assert rules
    for rule in rules:
        low, high = BANDS[rule["properties"]["severity"]]
        assert low <= float(rule["properties"]["security-severity"]) <= high
        assert "security" in rule["properties"]["tags"]
    assert run["automationDetails"]["id"].startswith("gpu-stacks/")
