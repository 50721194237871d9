"""Every shipped workflow as GitHub documents it: current actions, least permissions, forks guarded, uv's cache."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import REPO

WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.yml"))
SETUP = REPO / ".github" / "actions" / "setup" / "action.yml"
FORK_GUARD = "github.event.pull_request.head.repo.full_name == github.repository"
# Majors GitHub has deprecated or that run on Node 20, which GitHub's runners are retiring: the CodeQL
# Action's own warning says "CodeQL Action v3 will be deprecated in December 2026" (observed 2026-11-26).
RETIRED = ("github/codeql-action/upload-sarif@v3", "actions/checkout@v4", "actions/setup-python@v5", "actions/cache@v4",
           "actions/upload-artifact@v4", "actions/download-artifact@v4", "actions/github-script@v7")  # fmt: skip


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data


def steps(path: Path) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(job name, job, step) of every step of the workflow."""
    return [(name, job, step) for name, job in load(path)["jobs"].items() for step in job.get("steps", [])]


@pytest.mark.parametrize("path", WORKFLOWS, ids=[p.name for p in WORKFLOWS])
def test_no_retired_action_version(path: Path) -> None:
    used = {step["uses"] for _, _, step in steps(path) if "uses" in step}

    assert not used & set(RETIRED)


@pytest.mark.parametrize("path", WORKFLOWS, ids=[p.name for p in WORKFLOWS])
def test_sarif_uploads_have_their_permissions_and_skip_forks(path: Path) -> None:
    uploads = [(job, step) for _, job, step in steps(path) if "upload-sarif" in step.get("uses", "")]
    for job, step in uploads:
        assert job["permissions"]["security-events"] == "write"
        assert job["permissions"]["actions"] == "read"  # private repositories refuse the upload without it
        assert FORK_GUARD in step["if"]


@pytest.mark.parametrize("path", WORKFLOWS, ids=[p.name for p in WORKFLOWS])
def test_environments_come_from_uv_lock_not_a_pip_cache(path: Path) -> None:
    for _, _, step in steps(path):
        assert step.get("with", {}).get("cache") != "pip"
    builds = [step for _, _, step in steps(path) if "make .venv/.installed-stamp" in step.get("run", "")]
    assert not builds, "jobs build .venv through .github/actions/setup"


def test_the_setup_action_keys_uvs_cache_on_the_lock() -> None:
    action = load(SETUP)
    [cache] = [s for s in action["runs"]["steps"] if str(s.get("uses", "")).startswith("actions/cache@")]
    [build] = [s for s in action["runs"]["steps"] if "run" in s]

    assert cache["with"]["path"] == "~/.cache/uv"
    assert "hashFiles('uv.lock')" in cache["with"]["key"]
    assert "make .venv/.installed-stamp" in build["run"]


def test_only_the_release_job_may_write_contents_and_no_workflow_grants_it_to_all() -> None:
    for path in WORKFLOWS:
        assert load(path).get("permissions", {}).get("contents") == "read"
        for name, job in load(path)["jobs"].items():
            if job.get("permissions", {}).get("contents") == "write":
                assert (path.name, name) == ("release.yml", "release")


def test_the_test_job_has_time_for_the_suite_on_a_busy_runner() -> None:
    offline = load(REPO / ".github" / "workflows" / "pull-request.yml")["jobs"]["offline"]

    assert offline["timeout-minutes"] >= 30
