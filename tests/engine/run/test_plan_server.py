"""The test processes' plan server (tests/plan_server.py): an in-process command's plan made by the server is the
plan the test process makes itself, the test's environment travels with it, and a patch in the test process keeps
the plan there, where the patch is seen."""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from unittest import mock

import pytest
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.engine.run import plan as plan_module
from pytest_mock import MockerFixture

from tests import plan_server
from tests.generated_programs import write_project

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="plans run in forked children on Linux"),
    pytest.mark.skipif(os.environ.get("TESTS_PLAN_SERVER") == "off", reason="TESTS_PLAN_SERVER=off: no plan server"),
]

# A program whose plan shows one environment variable of the process that ran it.
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


def test_a_plan_server_that_died_fails_one_plan_and_the_next_starts_another(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _plan(project, capsys)  # the server is running
    server = plan_server.server_process()
    os.kill(server, signal.SIGKILL)

    with pytest.raises(RuntimeError, match="the plan server ended before it answered"):
        main(["plan", "dev", "--project", str(project)])
    plan, how = _plan(project, capsys)

    assert how == "the plan server" and plan["outputs"]["team"] == "unset"
    assert plan_server.server_process() != server


def _where_called(real: Callable[..., object], log: Path) -> Callable[..., object]:
    """`real`, writing the pid of each process that calls it to `log` first."""

    def recording(*args: object, **kwargs: object) -> object:
        with log.open("a", encoding="utf-8") as out:
            out.write(f"{os.getpid()}\n")
        return real(*args, **kwargs)

    return recording


def test_the_functions_whose_patches_the_server_ignores_never_run_in_an_engine_process(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each is replaced, in every module that holds it, by one that notes the process calling it, and the plans are
    made here (another attribute is patched too): their engine processes and programs are forks of this process
    that carry the replacements, so every call must have been made by this process itself."""
    team = write_project(tmp_path / "root" / "team", PROGRAM)
    logs = {f: tmp_path / f"{f.__module__}.{f.__qualname__}" for f in plan_server.caller_side()}
    for module in [m for name, m in list(sys.modules.items()) if name.startswith("azure_gpu_stacks.")]:
        for name, value in list(vars(module).items()):
            for function, log in logs.items():
                if value is function:
                    monkeypatch.setattr(module, name, _where_called(function, log))
    monkeypatch.setattr(plan_module, "PLAN_SERVER_MARK", True, raising=False)

    for command in (["plan", "dev", "--project", str(team)], ["check", "--project", str(team)]):
        assert main(command) == 0, capsys.readouterr().err
    assert main(["check", "--root", str(tmp_path / "root"), "--no-cache"]) == 0, capsys.readouterr().err

    assert {log.name: set(log.read_text().split()) for log in logs.values()} == {
        log.name: {str(os.getpid())} for log in logs.values()
    }
