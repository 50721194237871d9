"""Flags validated where they are read: one error line (after a short usage hint), exit 2, for values
that used to overflow, crash or pass unchecked; limits taken from the machine (open files, cores,
memory) are named in the line."""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.engine.commands.options import FDS_KEPT, FDS_PER_WORKER, WORKERS_PER_CORE

from tests.conftest import REPO

TIMEOUT_S = 300


def refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """The error line of a command line argparse refuses, after checking the whole of stderr's shape."""
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    out, err = capsys.readouterr()
    lines = err.splitlines()

    assert exit_.value.code == 2 and out == ""
    assert len(lines) == 2, err  # the hint and the error, not argparse's usage of every option
    command = argv[0]
    assert lines[0].startswith(f"usage: gpu-stacks {command} ") and f"gpu-stacks {command} --help" in lines[0]
    assert lines[1].startswith("gpu-stacks: error: argument ")
    return lines[1]


def test_a_memory_limit_past_the_machine_is_refused_not_blamed_on_the_program(
    capsys: pytest.CaptureFixture[str],
) -> None:
    memory_mib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2**20
    line = refused(capsys, ["plan", "inference-t4", "--memory-limit", "1e15"])

    assert line == (
        "gpu-stacks: error: argument --memory-limit: '1e15' MiB is more than this machine's memory; "
        f"allowed: a number of MiB from 1 to {memory_mib:,}"
    )
    assert "program" not in line


@pytest.mark.parametrize("value", ["0", "0.5", "-3", "nan", "lots"])
def test_a_memory_limit_below_one_mib_or_not_a_number_is_refused(
    capsys: pytest.CaptureFixture[str], value: str
) -> None:
    line = refused(capsys, ["plan", "inference-t4", f"--memory-limit={value}"])

    assert line.startswith(
        f"gpu-stacks: error: argument --memory-limit: '{value}'; allowed: a number of MiB from 1 to "
    )


@pytest.mark.parametrize("value", ["a b", "-acme", "ac", "x" * 41, "acme\n", "org/name", "acme."])
def test_an_organization_pulumi_would_not_accept_is_refused(capsys: pytest.CaptureFixture[str], value: str) -> None:
    line = refused(capsys, ["plan", "inference-t4", f"--organization={value}"])

    assert line.startswith("gpu-stacks: error: argument --organization: ")
    assert "allowed: an organization as Pulumi names them: 3 to 40 letters, digits, '-' and '_'" in line


@pytest.mark.parametrize("value", ["acme", "my-org_2", "organization", "a" * 40])
def test_organizations_pulumi_accepts_are_taken(capsys: pytest.CaptureFixture[str], value: str) -> None:
    """Pulumi Cloud's rule (pkg/backend/httpstate `stackOwnerRegexp`) at its edges: 3 and 40 characters."""
    code = main(["plan", "inference-t4", "--organization", value, "--json"])
    capsys.readouterr()

    assert code in (0, 1)


def test_jobs_past_the_cores_are_refused_naming_the_most(capsys: pytest.CaptureFixture[str]) -> None:
    cores = len(os.sched_getaffinity(0))
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft != resource.RLIM_INFINITY and (soft - FDS_KEPT) // FDS_PER_WORKER < WORKERS_PER_CORE * cores:
        pytest.skip("open files, not cores, limit the workers here")
    line = refused(capsys, ["check", "--jobs", "10000"])

    assert line == (
        "gpu-stacks: error: argument --jobs/-j: '10000'; allowed: a whole number of worker processes from 1 to "
        f"{WORKERS_PER_CORE * cores} ({WORKERS_PER_CORE} per core, {cores} cores)"
    )


def _under_ulimit_n(count: int, *argv: str) -> list[str]:
    """`argv` run as a user runs it after `ulimit -n COUNT`: the shell lowers the limit and execs it. Never a
    `preexec_fn`: that runs Python in a fork of this test process, which may hold gRPC's threads (an in-process
    test's channels), and gRPC's fork handlers can abort that child before it execs (seen in CI as exit -6 with
    `epoll_wait error: Bad file descriptor`, the command itself never started)."""
    return ["bash", "-c", f'ulimit -n {count} && exec "$0" "$@"', *argv]


def test_jobs_under_a_low_open_files_limit_are_refused_naming_it() -> None:
    """`ulimit -n 40`: the parent's descriptors, not the cores, bound the workers; one line, no traceback."""
    result = subprocess.run(
        _under_ulimit_n(40, sys.executable, "-m", "azure_gpu_stacks.engine", "check", "--jobs", "10000"),
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=TIMEOUT_S,
        check=False,
    )
    most = (40 - FDS_KEPT) // FDS_PER_WORKER

    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines()[-1] == (
        "gpu-stacks: error: argument --jobs/-j: '10000'; allowed: a whole number of worker processes from 1 to "
        f"{most} (open files limited to 40 (ulimit -n))"
    )


def test_the_most_jobs_allowed_under_ulimit_128_plan_every_stack(tmp_path: Path) -> None:
    """The issue's case: `ulimit -n 128` and as many workers as allowed, over more stacks than workers: the most
    allowed here plus two (the shipped stacks in turn). The parent plans the first stack itself and forks a worker
    for each other one, the most allowed at once, and one more once a worker has ended (a fixed 12 stacks were
    fewer than the workers allowed on 3 cores or more, and more than needed on 2)."""
    for name in ("Pulumi.yaml", "__main__.py"):
        (tmp_path / name).write_bytes((REPO / name).read_bytes())
    (tmp_path / ".venv").symlink_to(sys.prefix)  # the environment Pulumi.yaml names: gpu-stacks' own
    probe = subprocess.run(
        _under_ulimit_n(
            128, sys.executable, "-m", "azure_gpu_stacks.engine", "check", "--jobs", "10000", "--project", str(tmp_path)
        ),
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    most = re.search(r"from 1 to (\d+)", probe.stderr)
    assert most is not None, probe.stderr
    stacks = sorted((REPO / "stacks").glob("Pulumi.*.yaml"))
    (tmp_path / "stacks").mkdir()
    count = int(most[1]) + 2
    for index in range(count):
        source = stacks[index % len(stacks)]
        (tmp_path / "stacks" / f"Pulumi.s{index}.yaml").write_bytes(source.read_bytes())

    result = subprocess.run(
        _under_ulimit_n(
            128, sys.executable, "-m", "azure_gpu_stacks.engine", "check", "--jobs", most[1], "--project", str(tmp_path)
        ),
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )

    assert result.returncode in (0, 1), result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stdout.splitlines()) >= count
