"""Running a program as the Pulumi CLI and its Python language host run it: which project, which
program file, its import path and working directory, and what `pulumi.get_*` answer."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from azure_gpu_stacks.engine.cli import main

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
        f"gpu-stacks: error: no Pulumi.yaml project file found (searching upwards from {tmp_path}); allowed: run "
        "inside "
        "a Pulumi project, or name one with --project DIR\n"
    )


def test_in_this_repository_the_default_is_this_repository(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(REPO / "stacks")

    assert main(["stacks"]) == 0
    assert capsys.readouterr().out.split() == ["aks-gpu", "aml-gpu", "batch-gpu", "inference-t4", "training-a100"]


def plan_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def test_main_directory_runs_there_with_its_siblings_importable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = team_project(tmp_path / "team", "")
    (root / "Pulumi.yaml").write_text("name: team\nruntime: python\nmain: infra/\n")
    (root / "infra").mkdir()
    (root / "infra" / "helpers.py").write_text("NAME = 'from-helpers'\n")
    (root / "infra" / "data.txt").write_text("read-relative\n")
    (root / "infra" / "__main__.py").write_text(
        textwrap.dedent("""
        import os
        import sys
        import pulumi
        import helpers
        pulumi.export("helpers", helpers.NAME)
        pulumi.export("data", open("data.txt").read().strip())
        pulumi.export("cwd", os.path.basename(os.getcwd()))
        pulumi.export("argv", sys.argv)
        pulumi.export("root", os.path.basename(pulumi.get_root_directory()))
    """)
    )

    outputs = plan_json(capsys, ["plan", "dev", "--project", str(root), "--json"])["outputs"]
    assert outputs == {
        "helpers": "from-helpers",
        "data": "read-relative",
        "cwd": "infra",
        "argv": ["."],
        "root": "team",
    }


def test_a_main_file_does_not_make_its_siblings_importable_as_with_pulumi(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # pulumi/pulumi#7360: `main: app.py` runs with cwd beside it, but its directory is not on sys.path.
    root = team_project(tmp_path / "team", "")
    (root / "Pulumi.yaml").write_text("name: team\nruntime: python\nmain: app.py\n")
    (root / "helpers.py").write_text("NAME = 'x'\n")
    (root / "app.py").write_text("import helpers\n")
    monkeypatch.syspath_prepend("")  # as `python -m`: the current directory on sys.path

    assert main(["plan", "dev", "--project", str(root)]) == 2
    err = capsys.readouterr().err
    assert err == "gpu-stacks: error: the program raised ModuleNotFoundError: No module named 'helpers' (at app.py:1)\n"


def test_program_modules_do_not_leak_from_one_project_into_the_next(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program = "import pulumi\nimport helpers\npulumi.export('which', helpers.WHICH)\n"
    first, second = team_project(tmp_path / "one", program), team_project(tmp_path / "two", program)
    (first / "helpers.py").write_text("WHICH = 'one'\n")
    (second / "helpers.py").write_text("WHICH = 'two'\n")

    assert plan_json(capsys, ["plan", "dev", "--project", str(first), "--json"])["outputs"]["which"] == "one"
    assert plan_json(capsys, ["plan", "dev", "--project", str(second), "--json"])["outputs"]["which"] == "two"


def test_project_stack_and_organization_answer_as_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = team_project(
        tmp_path / "team",
        """
        import pulumi
        pulumi.export("who", f"{pulumi.get_organization()}/{pulumi.get_project()}/{pulumi.get_stack()}")
    """,
    )

    assert (
        plan_json(capsys, ["plan", "prod", "--project", str(root), "--json"])["outputs"]["who"]
        == "organization/team/prod"
    )
    assert (
        plan_json(capsys, ["plan", "prod", "--project", str(root), "--json", "--organization", "acme"])["outputs"][
            "who"
        ]
        == "acme/team/prod"
    )


def test_structured_config_and_secrets_reach_pulumi_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = team_project(
        tmp_path / "team",
        """
        import pulumi
        config = pulumi.Config()
        db = config.require_object("db")
        pulumi.export("port", db["port"])
        pulumi.export("replicas", config.require_int("replicas"))
        pulumi.export("token", config.require_secret("token"))
        pulumi.export("tokenIsSecret", pulumi.runtime.is_config_secret("team:token"))
    """,
    )
    (root / "Pulumi.dev.yaml").write_text(
        "config:\n  team:db:\n    port: 5432\n    host: db.internal\n  team:replicas: 3\n  team:token:\n    "
        "secure: v1:dG9rZW4=\n"
    )

    plan = plan_json(capsys, ["plan", "dev", "--project", str(root), "--json"])
    assert plan["outputs"] == {"port": 5432, "replicas": 3, "token": "[secret]", "tokenIsSecret": True}


def test_log_warnings_are_in_the_report_and_errors_fail_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = team_project(
        tmp_path / "team",
        """
        import pulumi
        pulumi.log.info("said in passing")
        pulumi.log.warn("quota is tight in eastus")
        pulumi.log.error("no budget owner configured")
    """,
    )

    assert main(["plan", "dev", "--project", str(root)]) == 1
    out = capsys.readouterr().out
    assert "Warnings:\n  - quota is tight in eastus\n" in out
    assert "Errors the program logged (pulumi.log.error):\n  - no budget owner configured\n" in out
    assert "said in passing" not in out
    assert out.rstrip().endswith("1 error the program logged.")
    assert main(["check", "--project", str(root), "--format", "json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert document["stacks"][0]["errors"] == ["no budget owner configured"]
