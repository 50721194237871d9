"""The processes a check runs: no fork from a process that runs threads, every wait bounded, a worker
that dies is that item's failure, what a child wrote just before it ended is never lost, and nothing
of the engine's (a socket directory, a child) outlives gpu-stacks, SIGTERM and environment errors
included (issue 40)."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.engine.errors import InputError
from azure_gpu_stacks.engine.run import isolation, parallel

from tests.cli_process import CliProcess, gpu_stacks_process
from tests.conftest import REPO

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="programs run in forked children on Linux")

SHIPPED = sorted(p.name.split(".")[1] for p in (REPO / "stacks").glob("Pulumi.*.yaml"))

# Every os.fork of a check is recorded with the threads the forking process ran at that moment. One fresh
# interpreter runs `check --jobs 2` (the parallel path: the preload, then a worker per stack), then `check --jobs 1`
# (each stack's engine process forked from the main one), each with its own record and output file: the first
# check's forks are made from the first one on, as a fresh `gpu-stacks` makes them, and a thread that any import
# of either path starts is still running at the forks after it. Two interpreters cost 2.5 CPU-seconds more.
FORK_RECORDER = """
import contextlib, json, os, sys, threading
real_fork = os.fork
def recording_fork():
    tasks = len(os.listdir("/proc/self/task"))
    with open(os.environ["FORKS"], "a") as fh:
        fh.write("%d %d %d\\n" % (os.getpid(), threading.active_count(), tasks))
    return real_fork()
os.fork = recording_fork
from azure_gpu_stacks.engine.cli import main
directory, stacks = sys.argv[1], sys.argv[2:]
codes = {}
for jobs in ("2", "1"):
    os.environ["FORKS"] = os.path.join(directory, "forks-" + jobs)
    with open(os.path.join(directory, "out-" + jobs), "w") as out, contextlib.redirect_stdout(out):
        codes[jobs] = main(["check", "--jobs", jobs, "--format", "json", *stacks])
print(json.dumps(codes), flush=True)
os._exit(0)
"""


def test_every_fork_of_a_check_is_made_by_a_process_with_one_thread(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", FORK_RECORDER, str(tmp_path), *SHIPPED],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    codes = json.loads(done.stdout)
    for jobs in ("2", "1"):
        assert codes[jobs] in (0, 1), (jobs, done.stderr)
        assert len(json.loads((tmp_path / f"out-{jobs}").read_text())["stacks"]) == len(SHIPPED)
        forks = tmp_path / f"forks-{jobs}"
        records = [tuple(int(x) for x in line.split()) for line in forks.read_text().splitlines()]
        # each stack's program is forked once, and with 4 stacks some process forks more than once
        assert len(records) >= 2 * len(SHIPPED), jobs
        threaded = [
            (pid, python_threads, tasks) for pid, python_threads, tasks in records if (python_threads, tasks) != (1, 1)
        ]
        assert threaded == [], (
            f"--jobs {jobs}: forks made by a process running threads (pid, Python threads, OS threads): {threaded}"
        )


# --- run_forked: a worker that dies or hangs is that item's failure -------------------------------------


def _misbehave(item: str) -> str:
    if item == "exits":
        os._exit(3)
    if item == "killed":
        os.kill(os.getpid(), signal.SIGKILL)
    if item == "hangs":
        time.sleep(600)
    if item == "raises":
        raise InputError("raises: a bad value")
    return item.upper()


@pytest.fixture
def short_deadlines(monkeypatch: pytest.MonkeyPatch) -> float:
    """A worker's deadline of 2 x 0.5 s: the graces set to nothing, so a hanging worker is stopped quickly."""
    monkeypatch.setattr(parallel, "WORKER_GRACE_S", 0.0)
    monkeypatch.setattr(isolation, "ENGINE_GRACE_S", 0.0)
    return 0.5


def test_a_worker_that_dies_or_hangs_is_its_items_failure(short_deadlines: float) -> None:
    items = ["first", "exits", "fine", "killed", "hangs", "last"]
    started = time.monotonic()
    results = parallel.run_forked(
        _misbehave, items, 2, failed=lambda item, why: f"FAILED {item}: {why}", timeout_s=short_deadlines
    )
    assert time.monotonic() - started < 60
    assert results == [
        "FIRST",
        "FAILED exits: the worker ended its process with status 3 (os._exit or a crash) before it finished",
        "FINE",
        "FAILED killed: the worker died of signal SIGKILL (its Python interpreter crashed or was killed) "
        "before it finished",
        "FAILED hangs: the worker did not finish within 1 s (--timeout); it was stopped",
        "LAST",
    ]


def test_without_failed_a_dead_worker_is_an_input_error_naming_the_item(short_deadlines: float) -> None:
    with pytest.raises(InputError) as error:
        parallel.run_forked(_misbehave, ["first", "fine", "exits", "last"], 2, timeout_s=short_deadlines)
    assert (
        str(error.value) == "exits: the worker ended its process with status 3 (os._exit or a crash) before it finished"
    )


def test_what_a_task_raises_in_a_worker_is_raised_as_it_was(short_deadlines: float) -> None:
    with pytest.raises(InputError, match="^raises: a bad value$"):
        parallel.run_forked(
            _misbehave, ["first", "fine", "raises"], 2, failed=lambda item, why: why, timeout_s=short_deadlines
        )


# --- the isolation race: a child that ends between a select and a waitpid ------------------------------


class _SelectThatMissesTheResult:
    """`select` as it behaves under load: the first wait with a timeout returns nothing ready, though the
    child wrote its result and ended while it waited (here: it waits until both are so). It learns the child's pid
    from `fork`, which stands in for `os.fork` and forks."""

    def __init__(self) -> None:
        self.missed = False
        self.child = 0
        self._real_fork = os.fork

    def fork(self) -> int:
        pid = self._real_fork()
        if pid:
            self.child = pid
        return pid

    def select(self, *args: Any) -> Any:
        if not self.missed and args[3]:
            self.missed = True
            # the child runs `lambda: 42`, writes its result and exits meanwhile: both pipes readable (the output
            # pipe at its end, as the child prints nothing), then the child waiting to be reaped (left unreaped)
            deadline = time.monotonic() + 30
            while len(select.select(args[0], [], [], 0.01)[0]) < len(args[0]) and time.monotonic() < deadline:
                pass
            ended = os.WEXITED | os.WNOHANG | os.WNOWAIT
            while os.waitid(os.P_PID, self.child, ended) is None and time.monotonic() < deadline:
                time.sleep(0.001)
            assert os.waitid(os.P_PID, self.child, ended) is not None, "the child did not end within 30 s"
            return [], [], []
        return select.select(*args)


def test_a_result_written_just_before_the_child_ended_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    stand_in = _SelectThatMissesTheResult()
    monkeypatch.setattr(isolation, "select", stand_in)
    monkeypatch.setattr(os, "fork", stand_in.fork)
    value, output = isolation.run_isolated(lambda: 42, str, isolation.Limits(timeout_s=30), "the program")
    assert value == 42
    assert stand_in.missed and stand_in.child, "the race was not staged: no select with a timeout, or no fork"


# 60 short children, each handing back its index, forked by a small process that imported only `isolation` (before
# the busy loops start: it says when it is ready and waits to be told to go). A fork of this test process (its
# preloaded ~200 MB heap) takes about four times as long, and the busy loops burn both cores for as long as the
# children take (8 CPU-s in the suite's profile, docs/testing.md).
MANY_CHILDREN = """
import json, sys
from azure_gpu_stacks.engine.run import isolation
print("ready", flush=True)
sys.stdin.readline()
limits = isolation.Limits(timeout_s=60)
print(json.dumps([isolation.run_isolated(lambda i=i: i, str, limits, "p")[0] for i in range(60)]))
"""


def test_many_children_on_a_loaded_machine_all_hand_back_their_results() -> None:
    """Under load (a busy loop per core beside them), 60 short children: each result is read."""
    forker = subprocess.Popen(
        [sys.executable, "-c", MANY_CHILDREN],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert forker.stdin is not None and forker.stdout is not None
    try:
        assert forker.stdout.readline() == "ready\n"
        burners = [
            subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(parallel.default_jobs() + 1)
        ]
        try:
            out, err = forker.communicate("go\n", timeout=300)
        finally:
            for burner in burners:
                burner.kill()
                burner.wait()
    finally:
        forker.kill()
        forker.wait()
    assert forker.returncode == 0, err
    assert json.loads(out) == list(range(60))


# --- nothing outlives gpu-stacks -----------------------------------------------------------------------


def _cli(tmp: Path, *argv: str, **env: str) -> CliProcess:
    """`gpu-stacks ARGV` as its own process (forked from an interpreter that imported it: tests/cli_process.py)
    with TMPDIR=tmp, stdout and stderr pipes."""
    return CliProcess(argv, env={**os.environ, "TMPDIR": str(tmp), **env})


def _write_project(
    root: Path, program: str, pulumi_yaml: str = "name: p\nruntime: python\n", stacks: tuple[str, ...] = ("dev",)
) -> Path:
    root.mkdir(parents=True)
    (root / "Pulumi.yaml").write_text(pulumi_yaml)
    (root / "__main__.py").write_text(textwrap.dedent(program))
    for stack in stacks:
        (root / f"Pulumi.{stack}.yaml").write_text("config: {}\n")
    return root


def _engine_leftovers(tmp: Path) -> list[str]:
    return sorted(p.name for p in tmp.iterdir() if p.name.startswith("gpu-stacks-engine-"))


def test_an_environment_error_leaves_no_engine_directory(tmp_path: Path) -> None:
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    root = _write_project(tmp_path / "p", "", "name: p\nruntime:\n  name: python\n  options:\n    virtualenv: venv\n")
    (root / "venv").write_text("not a directory\n")
    run = _cli(tmp, "check", "--project", str(root))
    out, err = run.communicate(timeout=300)
    assert run.returncode == 2, err
    assert "runtime.options.virtualenv: 'venv'" in err and "not a directory" in err
    assert _engine_leftovers(tmp) == []


SLEEPER = """
import os, time
import pulumi
if pulumi.get_stack() != "a":  # the first stack is quick, so that `check --jobs` starts its workers
    path = os.environ["PIDS"] + "/" + str(os.getpid())
    with open(path + ".part", "w") as fh:
        fh.write(str(os.getppid()))  # the engine's process
    os.rename(path + ".part", path)  # whole when the test sees it (it read an empty file once, between open and write)
    time.sleep(600)
"""


def _started(pids: Path) -> list[int]:
    """The programs that wrote their pid file (a `.part` is one still writing)."""
    return [int(name) for name in os.listdir(pids) if name.isdigit()]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sigterm_ends_the_programs_and_removes_every_engine_directory(tmp_path: Path, jobs: str) -> None:
    # a TMPDIR short enough for a socket path in it (a longer one falls back to /tmp: the test below)
    tmp = Path(tempfile.mkdtemp(dir="/tmp", prefix="t"))
    pids = tmp_path / "pids"
    pids.mkdir()
    root = _write_project(tmp_path / "p", SLEEPER, stacks=("a", "b", "c"))
    run = _cli(tmp, "check", "--jobs", jobs, "--project", str(root), PIDS=str(pids))
    deadline = time.monotonic() + 120
    while len(_started(pids)) < int(jobs) and time.monotonic() < deadline and run.poll() is None:
        time.sleep(0.1)
    assert run.poll() is None, run.communicate()
    programs = _started(pids)
    assert len(programs) == int(jobs)
    engines = [int((pids / str(pid)).read_text()) for pid in programs]
    assert _engine_leftovers(tmp) == [], "a forked program reaches its engine over a socket pair, not a socket file"

    run.send_signal(signal.SIGTERM)
    run.communicate(timeout=30)
    assert run.returncode == -signal.SIGTERM
    # gone when gpu-stacks is: each engine ended and reaped its program before it died, so none is left running
    # (or dying) on the parent-death signal, nor a zombie for the system to reap
    assert [pid for pid in programs if Path(f"/proc/{pid}").exists()] == [], "a program outlived gpu-stacks"
    assert [pid for pid in engines if Path(f"/proc/{pid}").exists()] == [], "an engine outlived gpu-stacks"
    assert _engine_leftovers(tmp) == []
    tmp.rmdir()


def test_a_tmpdir_too_long_for_a_socket_path_still_plans(tmp_path: Path) -> None:
    # sun_path holds 108 bytes (unix(7)); gRPC refused the socket under a long TMPDIR, failing every stack
    tmp = tmp_path / ("d" * 60) / ("e" * 60)
    tmp.mkdir(parents=True)
    root = _write_project(tmp_path / "p", "import pulumi\npulumi.export('ok', 1)\n")
    run = gpu_stacks_process(["check", "--project", root], timeout=120, env={**os.environ, "TMPDIR": str(tmp)})

    assert (run.returncode, run.stderr) == (0, ""), run.stderr
    assert _engine_leftovers(tmp) == []


def test_an_engine_process_that_dies_is_one_line_not_a_hang(tmp_path: Path) -> None:
    # the program kills the process serving its engine (its parent): the stack fails in one line, exit 2
    root = _write_project(tmp_path / "p", "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n")
    run = _cli(tmp_path, "check", "--project", str(root))
    out, err = run.communicate(timeout=120)
    assert run.returncode == 2
    assert err == (
        "gpu-stacks: error: dev: the offline engine's process died of signal SIGKILL (its Python interpreter "
        "crashed or was killed) before it finished\n"
    )
    assert _engine_leftovers(tmp_path) == []


@pytest.mark.parametrize("create", [[], ["--create-venv"]], ids=["as-found", "create-venv"])
def test_a_hanging_project_python_is_stopped_at_the_runs_timeout(tmp_path: Path, create: list[str]) -> None:
    root = _write_project(tmp_path / "p", "", "name: p\nruntime:\n  name: python\n  options:\n    virtualenv: venv\n")
    python = root / "venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text("#!/bin/sh\nsleep 600\n")
    python.chmod(0o755)
    started = time.monotonic()
    # half a second: the interpreter never answers, so any timeout is reached, and the test's worker waits for it
    run = _cli(tmp_path, "check", "--project", str(root), "--timeout", "0.5", *create)
    out, err = run.communicate(timeout=120)
    assert run.returncode == 2
    assert err.count("\n") == 1 and "did not answer within 0.5 s (--timeout)" in err, err
    assert time.monotonic() - started < 45  # the probe's own 60 s do not apply


def test_a_failed_pip_install_is_quoted_by_its_error_line_not_pips_notice() -> None:
    from azure_gpu_stacks.engine.run.interpreter import meaningful_line

    # pip 24's output for a requirement no index has (pip/_internal/resolution/resolvelib/factory.py's
    # two ERROR lines), followed by its upgrade notice (pip/_internal/self_outdated_check.py)
    stderr = (
        "ERROR: Could not find a version that satisfies the requirement pulumi-nothing==9.9 (from versions: none)\n"
        "ERROR: No matching distribution found for pulumi-nothing==9.9\n"
        "\n"
        "[notice] A new release of pip is available: 24.0 -> 24.3.1\n"
        "[notice] To update, run: python -m pip install --upgrade pip\n"
    )
    assert meaningful_line(stderr, "Collecting pulumi-nothing==9.9\n") == (
        "ERROR: No matching distribution found for pulumi-nothing==9.9"
    )
