"""`check --jobs` and `cost --jobs`: forked workers print exactly what one process prints, in the order named."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from azure_gpu_stacks.catalog.clock import utc_today
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.engine.run.plan import plan_stack
from azure_gpu_stacks.engine.run.project import load_project

from tests.conftest import REPO
from tests.shared_plans import Store, share_outcomes

SHIPPED = ["training-a100", "aks-gpu", "inference-t4", "aml-gpu"]  # not sorted: order named is kept


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def plans_made() -> Store:
    """The plans this module's tests share. A module fixture: `make test` runs the tests that use it on one worker
    (tests/conftest.py, `module_fixture_group`), which plans them once; a module-level dict was filled on both."""
    return {}


@pytest.fixture
def planned_once(monkeypatch: pytest.MonkeyPatch, plans_made: Store) -> None:
    """The shipped stacks are planned once serially and once by forked workers for this module
    (tests/shared_plans.py); each format's command then prints from those plans, so the comparisons below are of
    the same serial and parallel plans, rendered by the commands themselves (the plans are frozen: nothing can
    change them)."""
    share_outcomes(monkeypatch, plans_made)


@pytest.mark.usefixtures("planned_once")
@pytest.mark.parametrize("fmt", ["json", "text", "markdown", "sarif"])
def test_parallel_check_prints_the_serial_output(capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    serial = run(capsys, "check", *SHIPPED, "--format", fmt, "--jobs", "1")
    parallel = run(capsys, "check", *SHIPPED, "--format", fmt, "--jobs", "2")

    assert serial == parallel
    assert serial[0] == 0 and serial[1]


@pytest.mark.usefixtures("planned_once")
def test_parallel_check_keeps_the_order_named(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    _, out, _ = run(capsys, "check", *SHIPPED, "--json", "--jobs", "2")

    assert [s["stack"] for s in json.loads(out)["stacks"]] == SHIPPED


@pytest.mark.usefixtures("planned_once")
def test_parallel_cost_prints_the_serial_output(capsys: pytest.CaptureFixture[str]) -> None:
    serial = run(capsys, "cost", *SHIPPED, "--format", "json", "--jobs", "1")
    parallel = run(capsys, "cost", *SHIPPED, "--format", "json", "--jobs", "2")

    assert serial == parallel and serial[0] == 0


def test_parallel_plan_is_the_same_every_run() -> None:
    """The order resources reach the monitor no longer depends on thread timing."""
    project = load_project(REPO)

    first = plan_stack(project, "aks-gpu", day=utc_today()).to_json()
    again = plan_stack(project, "aks-gpu", day=utc_today()).to_json()

    assert first == again


def test_parallel_bad_stack_gives_the_serial_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The bad stack second of three: under --jobs 2 the parent plans the first stack itself, then forks a worker
    for each of the other two at once, so the bad stack's error comes back from a worker beside a good stack's plan
    (a fourth stack before it, aks-gpu, the slowest to plan, only queued one more worker: nothing asserted here)."""
    project = tmp_path / "p"
    shutil.copytree(REPO / "stacks", project / "stacks")
    shutil.copy(REPO / "Pulumi.yaml", project)
    shutil.copy(REPO / "__main__.py", project)
    (project / ".venv").symlink_to(sys.prefix)  # the environment Pulumi.yaml names: gpu-stacks' own
    (project / "stacks" / "Pulumi.broken.yaml").write_text("config:\n  azure-native:location: moon\n")
    names = ["inference-t4", "broken", "aml-gpu"]

    serial = run(capsys, "check", *names, "--project", str(project), "--jobs", "1")
    parallel = run(capsys, "check", *names, "--project", str(project), "--jobs", "2")

    assert serial == parallel
    assert serial[0] == 2 and "stacks/Pulumi.broken.yaml" in serial[2] and "'moon' is not an Azure region" in serial[2]


@pytest.mark.parametrize("jobs", ["0", "-1", "two"])
def test_parallel_jobs_must_be_a_positive_whole_number(capsys: pytest.CaptureFixture[str], jobs: str) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["check", "--jobs", jobs])

    assert exit_.value.code == 2
    assert (
        f"argument --jobs/-j: '{jobs}'; allowed: a whole number of worker processes from 1 to "
        in capsys.readouterr().err
    )
