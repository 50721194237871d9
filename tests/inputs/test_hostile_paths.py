"""Paths that are not files, given wherever the tools read a file: FIFOs, devices, sockets and links
into /proc. Each is refused at once, named for what it is, in one line naming the path (exit 2),
instead of hanging the job or reading forever.

These cannot be committed (a FIFO or a socket is made at test time; a link to /proc/self/fd/0 could
be, and is the case a pull request can bring). Each run is a separate `gpu-stacks` process (forked from
an interpreter that has imported it: tests/cli_process.py) with a pipe on stdin whose writer stays open
and stdout a pipe, as in CI, under a timeout: a hang fails the test instead of the suite.
"""

from __future__ import annotations

import os
import socket
import subprocess
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from azure_gpu_stacks.engine.cli import main

from tests.cli_process import gpu_stacks_process
from tests.conftest import REPO

DATA = REPO / "tests" / "data"
TIMEOUT_S = 120  # far more than a refusal takes; a hang is what this bounds
REFERENCED = "acme/network/prod"

FIFO = "is a FIFO (named pipe), not a regular file; allowed: a regular file"
CHARACTER_DEVICE = "is a character device, not a regular file; allowed: a regular file"
SOCKET = "is a socket, not a regular file; allowed: a regular file"
PROC = (
    "a link into /proc ('/proc/self/fd/{fd}'), whose content depends on the process reading it; allowed: a regular file"
)


def make_fifo(path: Path) -> None:
    os.mkfifo(path)


def make_socket(path: Path) -> None:
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))  # left bound and listening: a reader that connected would wait
    server.listen(1)
    _OPEN_SOCKETS.append(server)


_OPEN_SOCKETS: list[socket.socket] = []


@pytest.fixture(autouse=True)
def _close_sockets() -> Iterator[None]:
    yield
    while _OPEN_SOCKETS:
        _OPEN_SOCKETS.pop().close()


def link_to(target: str) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        path.symlink_to(target)

    return make


def gpu_stacks(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """`gpu-stacks ARGV` with stdin a pipe nobody writes to or closes, and stdout and stderr pipes."""
    read_end, write_end = os.pipe()
    try:
        return gpu_stacks_process(argv, stdin=read_end, cwd=cwd, timeout=TIMEOUT_S)
    finally:
        os.close(read_end)
        os.close(write_end)


def referencing_project(root: Path) -> Path:
    """A project whose program reads another stack's outputs (pulumi.StackReference)."""
    root.mkdir()
    (root / "Pulumi.yaml").write_text("name: app\nruntime: python\n")
    (root / "Pulumi.dev.yaml").write_text("config: {}\n")
    (root / "__main__.py").write_text(
        textwrap.dedent(f"""
            import pulumi
            pulumi.export("subnet", pulumi.StackReference("{REFERENCED}").get_output("subnetId"))
        """)
    )
    return root


# where the odd path goes -> (argv with PATH for it, the project it runs in, the path itself)
def place(where: str, tmp_path: Path) -> tuple[list[str], Path]:
    """The command line (run in the project) that reads the odd path at `where`, and that path."""
    project = referencing_project(tmp_path / "p")
    odd = tmp_path / "odd"
    flags = {
        "--usage": ["plan", "dev", "--usage", str(odd)],
        "--aml-usage": ["plan", "dev", "--aml-usage", str(odd)],
        "--skus": ["plan", "dev", "--skus", str(odd)],
        "--policy-config": ["check", "dev", "--policy-config", str(odd)],
        "--existing": ["plan", "dev", "--existing", str(odd)],
        "--stack-outputs": ["plan", "dev", "--stack-outputs", f"{REFERENCED}={odd}"],
    }
    if where in flags:
        return flags[where], odd
    if where == "stack file":
        odd = tmp_path / "Pulumi.odd.yaml"
        return ["plan", str(odd)], odd
    if where == "stack directory entry":  # the good stack plans: its reference is saved
        saved = project / "stack-outputs" / f"{REFERENCED}.json"
        saved.parent.mkdir(parents=True)
        saved.write_text('{"subnetId": "/subscriptions/1/resourceGroups/rg"}')
        return ["check"], project / "Pulumi.odd.yaml"
    if where == "stack-outputs/ file":
        odd = project / "stack-outputs" / f"{REFERENCED}.json"
        odd.parent.mkdir(parents=True)
        return ["plan", "dev"], odd
    raise AssertionError(where)


PLACES = [
    "--usage",
    "--aml-usage",
    "--skus",
    "--policy-config",
    "--existing",
    "--stack-outputs",
    "stack file",
    "stack directory entry",
    "stack-outputs/ file",
]


def assert_refused(result: subprocess.CompletedProcess[str], odd: Path, expected: str) -> None:
    assert result.returncode == 2, result.stderr
    if odd.name == "Pulumi.odd.yaml" and result.stdout:  # `check` of the project: the good stack is still reported
        assert result.stdout.startswith("OK: dev ") and "NOT PLANNED: odd: " in result.stdout, result.stdout
        assert result.stderr.startswith("gpu-stacks: error: odd: "), result.stderr
    else:
        assert result.stdout == ""
    assert result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert odd.name in result.stderr, result.stderr  # named as given or relative to the project
    assert expected in result.stderr, result.stderr


@pytest.mark.parametrize("where", PLACES)
def test_a_fifo_is_refused_at_once_wherever_a_file_is_read(tmp_path: Path, where: str) -> None:
    argv, odd = place(where, tmp_path)
    make_fifo(odd)

    assert_refused(gpu_stacks(argv, tmp_path / "p"), odd, FIFO)


@pytest.mark.parametrize("fd", [0, 1])
@pytest.mark.parametrize("where", ["stack file", "stack directory entry", "--usage", "stack-outputs/ file"])
def test_a_link_to_the_process_own_stdin_or_stdout_is_refused(tmp_path: Path, where: str, fd: int) -> None:
    """A committed `Pulumi.x.yaml -> /proc/self/fd/0`: in CI stdin and stdout are pipes, and reading
    either waits forever (stdout's reader is the job itself)."""
    argv, odd = place(where, tmp_path)
    link_to(f"/proc/self/fd/{fd}")(odd)

    assert_refused(gpu_stacks(argv, tmp_path / "p"), odd, PROC.format(fd=fd))


@pytest.mark.parametrize(
    ("where", "make", "expected"),
    [
        ("--usage", link_to("/dev/zero"), CHARACTER_DEVICE),  # would read to the cap, 16 MiB of zeros
        ("--skus", link_to("/dev/zero"), CHARACTER_DEVICE),  # ... 512 MiB
        ("--stack-outputs", link_to("/dev/zero"), CHARACTER_DEVICE),
        ("--existing", make_socket, SOCKET),
        ("stack file", make_socket, SOCKET),
    ],
    ids=["usage-dev-zero", "skus-dev-zero", "stack-outputs-dev-zero", "existing-socket", "stack-file-socket"],
)
def test_devices_and_sockets_are_named_as_such(
    tmp_path: Path, where: str, make: Callable[[Path], None], expected: str
) -> None:
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    argv, odd = place(where, tmp_path)
    make(odd)

    assert_refused(gpu_stacks(argv, tmp_path / "p"), odd, expected)


# tests/data/hostile_stack_outputs/<case>.json -> what its one line says after the file name
HOSTILE_STACK_OUTPUTS = {
    "deep": "nested deeper than 64 levels; allowed: at most 64",
    "huge-number": "subnetId: a number of 5,000 digits is out of range; allowed: whole numbers from -2^63 to 2^63-1",
    "not-an-object": "a JSON list; allowed: the object `pulumi stack output --json` writes",
}


def test_hostile_stack_outputs_corpus_is_the_table() -> None:
    assert sorted(p.stem for p in (DATA / "hostile_stack_outputs").iterdir()) == sorted(HOSTILE_STACK_OUTPUTS)


@pytest.mark.parametrize("given", ["--stack-outputs", "stack-outputs/ file"])
@pytest.mark.parametrize("case", sorted(HOSTILE_STACK_OUTPUTS))
def test_stack_outputs_are_read_under_the_caps_and_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, given: str
) -> None:
    """Read in the program's run, as every input is: the file named, not the program blamed."""
    argv, path = place(given, tmp_path)
    path.write_bytes((DATA / "hostile_stack_outputs" / f"{case}.json").read_bytes())

    assert main([*argv, "--project", str(tmp_path / "p")]) == 2
    out, err = capsys.readouterr()

    assert out == ""
    assert err.count("\n") == 1 and f"{path}: " in err and HOSTILE_STACK_OUTPUTS[case] in err, err
    assert "the program" not in err
