"""Where the repository lives is not known here (docs/releasing.md, "Where the repository lives"): no file makes a
URL up, the install lines name the GitHub owner as the one variable `<org>` and say where it is explained, and the
workflows act on whichever repository runs them."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from tests.conftest import REPO

# An install line or link that names the repository on GitHub: its owner is `<org>` wherever it appears.
REPOSITORY_URL = re.compile(r"github\.com/([^/\s\"'`]+)/azure-gpu-stacks\b")
# CHANGELOG.md records the lines as each release printed them; the lead writes it.
SHIPPED_TEXT = [
    p
    for pattern in ("*.md", "docs/**/*.md", "examples/**/*.yaml", "provider/*.yaml", "*.toml")
    for p in REPO.glob(pattern)
    if p.name != "CHANGELOG.md"
]
WORKFLOWS = sorted((REPO / ".github").rglob("*.yml"))


def test_pyproject_makes_up_no_project_urls() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]

    assert "urls" not in project


@pytest.mark.parametrize("path", SHIPPED_TEXT, ids=lambda p: str(p.relative_to(REPO)))
def test_every_repository_url_names_the_owner_as_org_and_says_where_it_is_explained(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    owners = set(REPOSITORY_URL.findall(text))

    assert owners <= {"<org>"}
    if owners:
        assert "docs/releasing.md" in text or path.name == "releasing.md"


def test_the_install_lines_are_found() -> None:  # the check above reads the files that hold them
    holders = {p.relative_to(REPO).as_posix() for p in SHIPPED_TEXT if REPOSITORY_URL.search(p.read_text("utf-8"))}
    assert holders >= {"README.md", "docs/components.md", "docs/releasing.md", "examples/yaml-team/Pulumi.yaml"}


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: str(p.relative_to(REPO)))
def test_no_workflow_names_a_repository(path: Path) -> None:
    text = path.read_text(encoding="utf-8")

    assert "<org>" not in text
    assert not REPOSITORY_URL.search(text)
