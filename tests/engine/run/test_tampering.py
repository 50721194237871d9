"""A program cannot change its own verdict (issue 24): the engine (what was registered, the fake ARM's
answers, the policies, the limits) is in gpu-stacks' process, and the program reaches it only over
Pulumi's gRPC protocols. Each program in tests/data/tampering tries a trick, then makes a VM of a
retired size with no budget: the plan must still fail, for that VM."""

from __future__ import annotations

import shutil
import socket
from pathlib import Path

import pytest
from azure_gpu_stacks.engine.cli import main

from tests.conftest import REPO
from tests.generated_programs import write_project

PROGRAMS = REPO / "tests" / "data" / "tampering"
LIMITS = ["--timeout", "60", "--memory-limit", "200"]


def tampering_project(root: Path, program: str) -> Path:
    write_project(root, (PROGRAMS / program).read_text())
    shutil.copy(PROGRAMS / "retired_vm.py", root / "retired_vm.py")
    return root


def retired_vm_refused(capsys: pytest.CaptureFixture[str], root: Path) -> tuple[int, str]:
    code = main(["plan", "dev", "--project", str(root), *LIMITS])
    out, _ = capsys.readouterr()
    return code, out


def test_garbage_on_the_engines_connection_fails_the_plan(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a forked program's one connection to its engine is a socket pair: garbage on it can only break its own run
    code = main(
        ["plan", "dev", "--project", str(tampering_project(tmp_path / "p", "garbage_on_the_channel.py")), *LIMITS]
    )
    out, err = capsys.readouterr()

    assert (code, out) == (2, "")
    # which line depends on how much of the garbage the engine read before ending the connection: an answer to a
    # request the program never read ("Method not found!") or the connection's end
    assert err in (
        "gpu-stacks: error: the program raised Exception: Method not found!\n",
        "gpu-stacks: error: Resource monitor has terminated, shutting down\n",
    ), err


@pytest.mark.parametrize("program", ["patch_the_recorder.py", "forge_the_engines_result.py"])
def test_tampering_program_still_fails_for_its_retired_vm(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], program: str
) -> None:
    code, out = retired_vm_refused(capsys, tampering_project(tmp_path / "p", program))

    assert code == 1, out
    assert "trainer  [azure-native:compute:VirtualMachine]" in out  # recorded, whatever the program patched
    assert "trainer [azure-native:compute:VirtualMachine]: SkuNotAvailable" in out  # the fake ARM's answer
    assert "[mandatory] disallow-retired-vm-sizes: trainer:" in out  # and the policies, run by the engine
    assert "[mandatory] require-cost-alerts: trainer:" in out
    assert "FORGED" not in out + capsys.readouterr().err


def test_a_forked_program_reaches_no_descriptor_its_caller_holds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The garbage program writes on every Unix socket it holds: a socket the planning process holds (a test
    worker's zygote socket, tests/cli_process.py, which ended on 64 NUL bytes once a run) receives none of it."""
    held, other_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    with held, other_end:
        code = main(
            ["plan", "dev", "--project", str(tampering_project(tmp_path / "p", "garbage_on_the_channel.py")), *LIMITS]
        )
        capsys.readouterr()
        for end in (held, other_end):
            end.setblocking(False)
            with pytest.raises(BlockingIOError):  # nothing arrived
                end.recv(1 << 16)

    assert code == 2


def test_program_cannot_lift_its_memory_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tampering_project(tmp_path / "p", "raise_the_memory_limit.py")

    code = main(["plan", "dev", "--project", str(root), *LIMITS])
    _, err = capsys.readouterr()

    assert code == 2
    assert err.strip() == (
        "gpu-stacks: error: Pulumi.dev.yaml: the program ran out of memory: "
        "it needed more than 200 MiB (--memory-limit)"
    )
