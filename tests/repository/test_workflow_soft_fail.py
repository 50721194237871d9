"""The workflows and docs/fleet.md's GitLab and Azure Pipelines examples say what a failing check means with
`--soft-fail` / `--fail-level` where findings are another step's to report, never `|| test $? -eq 1` (issue 37),
and write several formats in one run instead of running check or merge once per format."""

from __future__ import annotations

import re

import pytest

from tests.conftest import REPO

PIPELINES = [*sorted((REPO / ".github" / "workflows").glob("*.yml")), REPO / "docs" / "fleet.md"]


@pytest.mark.parametrize("path", PIPELINES, ids=lambda p: p.name)
def test_no_pipeline_swallows_exit_code_1_by_hand(path: object) -> None:
    text = REPO.joinpath(str(path)).read_text(encoding="utf-8")

    assert not re.search(r"test \$\? -eq 1|\|\| true", text)


@pytest.mark.parametrize("path", PIPELINES, ids=lambda p: p.name)
def test_merge_runs_once_per_pipeline_with_every_format(path: object) -> None:
    text = REPO.joinpath(str(path)).read_text(encoding="utf-8")
    blocks = re.split(r"^## ", text, flags=re.MULTILINE) if str(path).endswith(".md") else [text]

    for block in blocks:
        merges = re.findall(r"\.venv/bin/gpu-stacks merge (?:[^\n\\]|\\\n)*", block)  # a command, continued lines too
        assert len(merges) <= 1, merges
        assert all("sarif=" in m for m in merges), merges


def test_the_fleet_and_the_offline_check_upload_under_different_categories() -> None:
    # the SARIF's own automationDetails.id is the category (upload-sarif keeps it over its `category` input)
    workflows = REPO / ".github" / "workflows"
    offline = (workflows / "pull-request.yml").read_text(encoding="utf-8")
    fleet = (workflows / "fleet-check.yml").read_text(encoding="utf-8")

    assert "--sarif-category" not in offline  # gpu-stacks/check/, the default
    assert re.search(r"gpu-stacks merge [^\n]*\\\n\s*--sarif-category gpu-stacks/fleet/ ", fleet)
    assert "category:" not in offline + fleet  # an input the SARIF's own id overrides: it would only mislead
