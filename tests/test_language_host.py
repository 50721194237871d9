"""Running a program as the Pulumi CLI and its Python language host run it: which project, which
program file, its import path and working directory, and what `pulumi.get_*` answer."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from azure_gpu_stacks.preflight.cli import main
from tests.conftest import REPO


def team_project(root: Path, program: str = "import pulumi\npulumi.export('project', pulumi.get_project())\n") -> Path:
    root.mkdir(parents=True)
    (root / "Pulumi.yaml").write_text("name: team\nruntime: python\n")
    (root / "__main__.py").write_text(textwrap.dedent(program))
    (root / "Pulumi.dev.yaml").write_text("config: {}\n")
    (root / "Pulumi.prod.yaml").write_text("config: {}\n")
    return root


def test_stacks_inside_a_team_project_lists_that_projects_stacks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = team_project(tmp_path / "team")
    (root / "infra" / "deep").mkdir(parents=True)
    monkeypatch.chdir(root / "infra" / "deep")  # the CLI searches upward from here

    assert main(["stacks"]) == 0
    assert capsys.readouterr().out == "dev\nprod\n"
    assert main(["plan", "dev", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["outputs"]["project"] == "team"


def test_outside_any_project_the_default_is_refused_as_the_cli_refuses_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)

    assert main(["stacks"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"gpu-stacks: error: no Pulumi.yaml project file found (searching upwards from {tmp_path}); allowed: run inside "
        "a Pulumi project, or name one with --project DIR\n"
    )


def test_in_this_repository_the_default_is_this_repository(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(REPO / "stacks")

    assert main(["stacks"]) == 0
    assert capsys.readouterr().out.split() == ["aks-gpu", "aml-gpu", "inference-t4", "training-a100"]
