"""The release workflow (.github/workflows/release.yml) run step by step where it can be offline:
it reads the one version, finds that version's CHANGELOG section for the release notes, and tags
`v<version>`, the form every install line names."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from azure_gpu_stacks.components.version import __version__

from tests.conftest import REPO

WORKFLOW = REPO / ".github" / "workflows" / "release.yml"


def jobs() -> dict[str, Any]:
    jobs: dict[str, Any] = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))["jobs"]
    return jobs


def step(name: str) -> dict[str, Any]:
    (found,) = [s for job in jobs().values() for s in job["steps"] if s.get("name") == name]
    return found


def run_step(
    name: str, tmp_path: Path, cwd: Path = REPO, **env: str
) -> tuple[subprocess.CompletedProcess[str], dict[str, str]]:
    output = tmp_path / "github-output"
    output.touch()
    done = subprocess.run(
        ["bash", "-eo", "pipefail", "-c", step(name)["run"]], cwd=cwd, capture_output=True, text=True, timeout=60,
        env={**os.environ, "GITHUB_OUTPUT": str(output), **env}, check=False,
    )  # fmt: skip
    pairs = dict(line.split("=", 1) for line in output.read_text().splitlines() if "=" in line)
    return done, pairs


def test_release_reads_the_one_version(tmp_path: Path) -> None:
    done, outputs = run_step("Version", tmp_path)

    assert done.returncode == 0, done.stderr
    assert outputs["version"] == __version__
    assert outputs["released"] in {"true", "false"}


def test_release_notes_are_the_versions_changelog_section(tmp_path: Path) -> None:
    shutil.copy(REPO / "CHANGELOG.md", tmp_path)
    done, _ = run_step("Release notes", tmp_path, cwd=tmp_path, VERSION=__version__)
    notes = (tmp_path / "notes.md").read_text()

    assert done.returncode == 0, done.stderr
    changelog = (REPO / "CHANGELOG.md").read_text()
    section = re.search(
        rf"^## \[{re.escape(__version__)}\] - .*?\n(.*?)(?=^## \[|^\[[^\]]*\]: )", changelog, re.DOTALL | re.MULTILINE
    )
    assert section and notes == section.group(1) and notes.strip()


def test_release_notes_refuse_a_version_without_a_changelog_section(tmp_path: Path) -> None:
    shutil.copy(REPO / "CHANGELOG.md", tmp_path)
    done, _ = run_step("Release notes", tmp_path, cwd=tmp_path, VERSION="99.0.0")

    assert done.returncode == 1
    assert done.stderr == "CHANGELOG.md has no section for 99.0.0\n"


@pytest.mark.parametrize("name", ["Environment (.venv from uv.lock)", "Tests", "Wheel", "Release notes"])
def test_release_does_nothing_for_a_version_already_tagged(name: str) -> None:
    assert step(name)["if"] == "steps.version.outputs.released == 'false'"
    assert jobs()["release"]["if"] == "needs.build.outputs.released == 'false'"


def test_only_the_job_that_tags_may_write_and_it_runs_no_project_code() -> None:
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    writers = [name for name, job in jobs().items() if "write" in job["permissions"].values()]

    assert workflow["permissions"] == {"contents": "read"}
    assert writers == ["release"]
    assert not any("checkout" in s.get("uses", "") or "make" in s.get("run", "") for s in jobs()["release"]["steps"])


def test_release_tags_v_version_on_the_commit_that_brings_it() -> None:
    command = step("Tag and release")["run"]

    assert command.startswith('gh release create "v$VERSION" dist/*.whl --target "$GITHUB_SHA"')
