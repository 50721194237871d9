"""The test processes' plan server (tests/plan_server.py): an in-process command's plan made by the server is the
plan the test process makes itself, the test's environment travels with it, and a patch in the test process keeps
the plan there, where the patch is seen."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from unittest import mock

import pytest
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.engine.run import plan as plan_module
from pytest_mock import MockerFixture

from tests import plan_server
from tests.generated_programs import write_project

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="plans run in forked children on Linux")

# A program whose plan shows the environment it ran in and the process that ran its engine's side.
PROGRAM = """
import os

import pulumi
from pulumi_azure_native import resources

resources.ResourceGroup("rg", location="eastus", tags={"team": os.environ.get("PLAN_SERVER_TEAM", "unset")})
pulumi.export("team", os.environ.get("PLAN_SERVER_TEAM", "unset"))
"""


def _plan(root: Path, capsys: pytest.CaptureFixture[str]) -> tuple[dict, str]:
    """What `gpu-stacks plan dev --json` prints for the project, and how the plan was made."""
    before = plan_server.made_by.copy()
    code = main(["plan", "dev", "--project", str(root), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    (how,) = (plan_server.made_by - before).elements()
    return json.loads(out), how


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return write_project(tmp_path / "team", PROGRAM)


def test_the_servers_plan_is_the_plan_the_test_process_makes(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    served, how = _plan(project, capsys)
    assert how == "the plan server"

    with pytest.MonkeyPatch.context() as patch:  # any attribute patched: the plan is made here
        patch.setattr(plan_module, "PLAN_SERVER_MARK", True, raising=False)
        made_here, how_here = _plan(project, capsys)

    assert how_here == "a patch active"
    assert served == made_here
    assert served["outputs"]["team"] == "unset"


def test_the_tests_environment_travels_to_the_server(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PLAN_SERVER_TEAM", "vision")  # an environment variable alone is no patch

    plan, how = _plan(project, capsys)

    assert how == "the plan server"
    assert plan["outputs"]["team"] == "vision"


def _refusing(*args: object, **kwargs: object) -> None:
    raise plan_module.InputError("dev: refused by the test's patch")


def test_a_monkeypatch_reaches_the_plan(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(plan_module, "run_hosted", _refusing)  # what the engine process calls to run the program

    code = main(["plan", "dev", "--project", str(project), "--json"])

    assert (code, capsys.readouterr().err) == (2, "gpu-stacks: error: dev: refused by the test's patch\n")


def test_a_mock_patch_reaches_the_plan_and_once_undone_the_server_plans_again(
    project: Path, capsys: pytest.CaptureFixture[str], mocker: MockerFixture
) -> None:
    with mock.patch.object(plan_module, "run_hosted", _refusing):
        assert main(["plan", "dev", "--project", str(project)]) == 2
    assert capsys.readouterr().err.endswith("refused by the test's patch\n")

    mocker.patch.object(plan_module, "run_hosted", _refusing)
    assert main(["plan", "dev", "--project", str(project)]) == 2
    assert capsys.readouterr().err.endswith("refused by the test's patch\n")
    mocker.stopall()

    assert _plan(project, capsys)[1] == "the plan server"


def test_a_patched_dict_keeps_the_plan_here(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with mock.patch.dict(plan_module.__dict__, {"run_hosted": _refusing}):
        assert main(["plan", "dev", "--project", str(project)]) == 2
    assert capsys.readouterr().err.endswith("refused by the test's patch\n")
