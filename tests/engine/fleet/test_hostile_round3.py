"""A third hostile round (issue 40): special files where the fleet reads a project's files for its cache
key, its shard weights and its import graph. A FIFO, a socket or a link to /dev/zero inside a project
must never hang `check --root` with the cache on: it is named in one warning line, never opened, and the
project's stacks are planned afresh (never served from, nor stored in, a cache keyed without them).

Each run is a separate `gpu-stacks` process (forked from an interpreter that has imported it:
tests/cli_process.py) under a timeout with stdin a pipe whose writer stays open, as in CI: a hang fails the
test instead of the suite.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.monorepo import write_monorepo
from tests.cli_process import gpu_stacks_process

TIMEOUT_S = 180  # far more than planning two small stacks takes; a hang is what this bounds


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """(a fleet of two one-stack projects, the project that holds the special files). Team 00 holds a FIFO,
    a listening socket and a link to /dev/zero beside its program; team 01 is plain."""
    root = write_monorepo(tmp_path_factory.mktemp("round3") / "repo", 2, 1)
    project = root / "teams" / "team-00"
    os.mkfifo(project / "queue.fifo")  # no writer: a reader that opened it would wait forever
    (project / "zeros.bin").symlink_to("/dev/zero")  # a reader would read forever
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(project / "agent.sock"))
    server.listen(1)
    try:
        yield root, project
    finally:
        server.close()


def gpu_stacks(cwd: Path, *argv: str | Path) -> subprocess.CompletedProcess[str]:
    read, write = os.pipe()  # stdin a pipe whose writer stays open: reading it would wait
    try:
        return gpu_stacks_process(argv, cwd=cwd, stdin=read, timeout=TIMEOUT_S)
    finally:
        os.close(read)
        os.close(write)


@pytest.fixture(scope="module")
def cached_run(fleet: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """Two `check --root --cache-dir` runs over the fleet: (the cache directory, the second run's stderr)."""
    root, _ = fleet
    cache = tmp_path_factory.mktemp("cache")
    errors = []
    for _ in range(2):
        done = gpu_stacks(root.parent, "check", "--root", root.name, "--cache-dir", cache, "--format", "json")
        assert "Traceback" not in done.stderr, done.stderr
        assert done.returncode == 0, done.stderr  # each project's first stack passes (bench/monorepo.py)
        report = json.loads(done.stdout)
        assert report["summary"]["stacks"] == 2, report["summary"]
        errors.append(done.stderr)
    return cache, errors[1].splitlines()


def test_a_special_file_in_a_project_does_not_hang_the_cached_check_and_is_named_once(
    cached_run: tuple[Path, list[str]],
) -> None:
    _, stderr = cached_run
    warnings = [line for line in stderr if line.startswith("gpu-stacks: warning:")]
    assert len(warnings) == 1, stderr  # one project, one line
    [warning] = warnings
    # the first special file in the project's order (os.walk, names sorted) is the one named
    assert warning.startswith("gpu-stacks: warning: teams/team-00/agent.sock: is a socket, not a regular file"), warning
    assert "planned without the cache" in warning


def test_the_project_with_a_special_file_is_never_stored_and_the_plain_one_is(
    cached_run: tuple[Path, list[str]],
) -> None:
    cache, _ = cached_run
    stored = [json.loads(p.read_text())["record"]["stack"] for p in cache.glob("*.json")]
    assert len(stored) == 1, stored  # team 01's stack only: team 00's could not be keyed by what it reads
    assert stored[0].startswith("teams/team-01:"), stored


def test_a_fifo_stack_file_does_not_hang_shard_weighing(fleet: tuple[Path, Path], tmp_path: Path) -> None:
    """`--shard` weighs each stack file before planning: a FIFO stack file is weighed at the floor, never
    opened, and the stack is a not-planned entry naming it (exit 2), the other stacks planned."""
    root, project = fleet
    stack_files = sorted(project.rglob("Pulumi.*.yaml"))
    fifo = stack_files[0].with_name("Pulumi.zz-fifo.yaml")
    os.mkfifo(fifo)
    try:
        done = gpu_stacks(root.parent, "check", "--root", root.name, "--no-cache", "--shard", "1/1")
    finally:
        fifo.unlink()
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 2, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(lines) == 1 + 3, lines  # the header, then the two plain stacks and the FIFO one
    failed = [line for line in done.stderr.splitlines() if "zz-fifo" in line]
    assert len(failed) == 1 and "is a FIFO (named pipe), not a regular file" in failed[0], done.stderr


# --- in process: what the untrusted reader says of each kind of path --------------------------------------


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("queue.fifo", "is a FIFO (named pipe), not a regular file"),
        ("zeros.bin", "is a character device, not a regular file"),
        ("agent.sock", "is a socket, not a regular file"),
    ],
)
def test_the_untrusted_digest_and_head_name_a_special_file_without_opening_it(
    fleet: tuple[Path, Path], name: str, said: str
) -> None:
    from azure_gpu_stacks.inputs.files import NotRegularFileError, digest_regular, read_head

    _, project = fleet
    for read in (lambda p: digest_regular(p, 1024), lambda p: read_head(p, 1024)):
        with pytest.raises(NotRegularFileError) as refused:
            read(project / name)
        assert str(refused.value) == f"{project / name}: {said}; allowed: a regular file"


def test_a_project_file_over_the_key_cap_leaves_its_stacks_uncached_without_reading_it(tmp_path: Path) -> None:
    """A 300 MiB sparse data file (the key hashes at most 256 MiB of one file): the project's stacks have no
    key, and one line names the file and its size; the file is never read (a sparse file reads as zeros)."""
    from azure_gpu_stacks.engine.fleet.cache import Keys
    from azure_gpu_stacks.engine.fleet.discover import find_fleet

    root = write_monorepo(tmp_path / "repo", 2, 1)
    with (root / "teams" / "team-01" / "weights.bin").open("wb") as handle:
        handle.truncate(300 * 1024 * 1024)
    fleet = find_fleet(root)
    keys = Keys(fleet, "environment", "run")
    by_project = {stack.member.directory: keys.key(stack) for stack in fleet.stacks()}

    assert by_project["teams/team-01"] is None and by_project["teams/team-00"] is not None, by_project
    assert keys.unkeyable == {
        "teams/team-01": f"teams/team-01/weights.bin: {300 * 1024 * 1024:,} bytes; allowed: at most 256 MiB"
    }


def test_a_fifo_stack_file_does_not_hang_affected_reference_following(tmp_path: Path) -> None:
    """`--affected`: a changed program puts the stacks that reference its stacks in, which reads the
    referencing project's stack files; a FIFO among them is never opened (the run ends, no traceback)."""
    root = write_monorepo(tmp_path / "repo", 2, 2)
    os.mkfifo(next((root / "teams" / "team-01").rglob("Pulumi.*.yaml")).with_name("Pulumi.t01-fifo.yaml"))
    with (root / "teams" / "team-00" / "__main__.py").open("a") as program:
        program.write("# changed\n")
    done = gpu_stacks(root, "check", "--root", ".", "--affected", "main", "--no-cache", "--format", "json")

    assert "Traceback" not in done.stderr and done.returncode == 0, done.stderr
    checked = {entry["stack"] for entry in json.loads(done.stdout)["affected"]["checked"]}
    assert "teams/team-01:t01-s000" in checked, checked  # it references team-00's first stack (bench/monorepo.py)
