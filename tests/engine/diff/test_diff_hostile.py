"""`gpu-stacks diff` with broken input and misbehaving programs, as the other commands get them:
every bad stack file of the corpus is one stderr line naming the stack file, exit 2, nothing on
stdout, the checkout left as it was; and `--timeout` reaches the programs diff runs."""

from __future__ import annotations

import json
import os
import shutil
import signal
import time
from pathlib import Path

import pytest

from tests.cli_process import CliProcess
from tests.e2e.test_bad_input import BAD_STACKS, CORPUS
from tests.engine.diff.test_diff import commit, edit, git, project_repo, run, snapshot


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped inference-t4 project, committed: BASE for every case. The tests that change the project
    change a copy of it (`copy_of`): git's set-up is made once per module, the diffs' own git calls per test."""
    root = project_repo(tmp_path_factory.mktemp("diff-hostile") / "repo", ("inference-t4",))
    commit(root)
    return root


@pytest.fixture(scope="module")
def pristine(repo: Path) -> dict[str, str]:
    """The checkout as committed, before any case: HEAD, branches, index, working tree, worktrees, stash."""
    return snapshot(repo)


def copy_of(repo: Path, root: Path) -> Path:
    """The committed repository at `root`, its environment link kept a link."""
    shutil.copytree(repo, root, symlinks=True)
    return root


@pytest.mark.parametrize("case", sorted(BAD_STACKS))
def test_diff_bad_stack_file_exits_2_naming_file_and_key(
    repo: Path, pristine: dict[str, str], capsys: pytest.CaptureFixture[str], case: str
) -> None:
    stack_file = repo / "stacks" / f"Pulumi.{case}.yaml"
    shutil.copy(CORPUS / stack_file.name, stack_file)
    try:
        code, out, err = run(capsys, "diff", "HEAD", case, "--project", str(repo), "-j", "1")
        kept = stack_file.read_bytes()
    finally:
        stack_file.unlink()

    assert (code, out) == (2, ""), err
    assert err.count("\n") == 1 and err.startswith(f"gpu-stacks: error: stacks/{stack_file.name}: "), err
    assert BAD_STACKS[case] in err
    assert "Traceback" not in err
    # The checkout as it was: the case's file as written, and with it gone again, everything else as committed
    # (one snapshot per case, compared with the module's one from before any case, rather than two per case).
    assert kept == (CORPUS / stack_file.name).read_bytes()
    assert snapshot(repo) == pristine


def test_diff_stops_a_program_that_runs_past_its_timeout(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = copy_of(repo, tmp_path / "repo")
    (root / "__main__.py").write_text("import time\n\ntime.sleep(60)\n", encoding="utf-8")

    # the shortest wait worth reading (--timeout takes any number above 0): a program that sleeps for a minute is
    # stopped the same way after 0.5 s as after 2
    code, out, err = run(capsys, "diff", "HEAD", "--project", str(root), "-j", "1", "--timeout", "0.5")

    assert (code, out) == (2, "")
    assert err == (
        "gpu-stacks: error: stacks/Pulumi.inference-t4.yaml: the program did not finish within 0.5 s (--timeout); "
        "it was stopped\n"
    )


def test_diff_cost_with_a_size_that_has_no_price_is_a_lower_bound_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project_repo(tmp_path / "repo", ("training-a100",))
    commit(root)
    edit(
        root / "stacks" / "Pulumi.training-a100.yaml", "vmSize: Standard_ND96asr_v4", "vmSize: Standard_ND96isr_H200_v5"
    )

    code, out, err = run(capsys, "diff", "HEAD", "--project", str(root), "-j", "1", "--format", "json")

    assert "lower bounds: no price is known for Standard_ND96isr_H200_v5" in json.loads(out)["total"]["prices"], err


TEAM_LIB_PROGRAM = """
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "vendor", "teamlib"))
import pulumi
import teamnames
from pulumi_azure_native import resources

resources.ResourceGroup("rg", resource_group_name=teamnames.GROUP, location="eastus")
pulumi.export("group", teamnames.GROUP)
"""


def _submodule_repo(root: Path) -> Path:
    """A project whose program imports from a git submodule (vendor/teamlib), committed with it. The submodule also
    holds a symlink to an absolute path out of it, as a vendored tree may: BASE has it as git checks it out (an
    extraction of `git archive` with Python's "data" filter refused it, with a traceback)."""
    lib = root / "teamlib"
    lib.mkdir(parents=True)
    (lib / "teamnames.py").write_text('GROUP = "rg-team"\n')
    (lib / "system-docs").symlink_to("/usr/share/doc")
    git(lib, "init", "-q")
    commit(lib, "lib")
    project = root / "project"
    project.mkdir()
    (project / "Pulumi.yaml").write_text("name: team\nruntime: python\n")
    (project / "Pulumi.dev.yaml").write_text("config:\n  azure-native:location: eastus\n")
    (project / "__main__.py").write_text(TEAM_LIB_PROGRAM)
    git(project, "init", "-q")
    git(project, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib), "vendor/teamlib")
    commit(project)
    return project


@pytest.fixture(scope="module")
def submodule_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`_submodule_repo`, made once for the module: one test diffs a change of its working tree (and puts the file
    back), the other diffs a clone of it."""
    return _submodule_repo(tmp_path_factory.mktemp("diff-submodule"))


def test_diff_plans_base_with_its_submodules(submodule_project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = submodule_project
    dev = project / "Pulumi.dev.yaml"
    committed = dev.read_text()
    dev.write_text("config:\n  azure-native:location: westus2\n")
    try:
        code, out, err = run(capsys, "diff", "HEAD", "--project", str(project), "-j", "1", "--format", "json")
    finally:
        dev.write_text(committed)

    assert code in (0, 1) and err == "", err
    assert json.loads(out)["stacks"][0]["stack"] == "dev"
    assert git(project, "worktree", "list", "--porcelain").count("worktree ") == 1


def test_diff_names_a_submodule_this_clone_lacks(
    submodule_project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = submodule_project
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(project), str(clone))  # submodules not initialised: nothing to read offline

    code, out, err = run(capsys, "diff", "HEAD", "--project", str(clone), "-j", "1")

    assert (code, out) == (2, "")
    assert err.startswith("gpu-stacks: error: BASE 'HEAD': submodule vendor/teamlib (") and err.count("\n") == 1
    assert "`git submodule update --init --recursive`" in err


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_diff_removes_its_worktree_when_ended_by_a_signal(repo: Path, tmp_path: Path, signum: int) -> None:
    """As on Ctrl-C: the registered worktree and its directory go, then the process ends by the signal."""
    root = copy_of(repo, tmp_path / "repo")
    running = tmp_path / "the program is running"
    program = f"import pathlib, time\n\npathlib.Path({str(running)!r}).touch()\ntime.sleep(120)\n"
    (root / "__main__.py").write_text(program, encoding="utf-8")
    temp = tmp_path / "tmp"
    temp.mkdir()
    # its own process (forked from an interpreter that imported it: tests/cli_process.py)
    proc = CliProcess(["diff", "HEAD", "--project", root, "-j", "1"], env={**os.environ, "TMPDIR": str(temp)})
    try:
        deadline = time.monotonic() + 120
        # inside the plan of the working tree, with the base's worktree registered
        while git(root, "worktree", "list", "--porcelain").count("worktree ") < 2 or not running.exists():
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate(timeout=10)
            time.sleep(0.05)
        proc.send_signal(signum)
        proc.communicate(timeout=60)
    finally:
        proc.kill()
        proc.wait(timeout=60)

    assert proc.returncode == -signum
    assert git(root, "worktree", "list", "--porcelain").count("worktree ") == 1
    assert list(temp.iterdir()) == []
