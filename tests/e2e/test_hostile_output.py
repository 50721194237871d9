"""Where the report goes can fail too: a reader that went away, a full disk. Both end quietly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

CLI = [sys.executable, "-c", "from azure_gpu_stacks.engine.cli import run; run()"]  # the console script


def test_output_to_a_closed_pipe_ends_quietly() -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # `gpu-stacks stacks | head -0`: the reader is gone before anything is written
    try:
        run = subprocess.run(
            [*CLI, "stacks"], stdout=write_end, stderr=subprocess.PIPE, text=True, cwd=REPO, timeout=120
        )
    finally:
        os.close(write_end)

    assert run.returncode == 141  # as a shell reports a command ended by SIGPIPE
    assert run.stderr == ""


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_output_to_a_full_disk_is_one_line() -> None:
    with open("/dev/full", "w") as full:
        run = subprocess.run([*CLI, "stacks"], stdout=full, stderr=subprocess.PIPE, text=True, cwd=REPO, timeout=120)

    assert run.returncode == 2
    assert run.stderr == "gpu-stacks: error: cannot write the report: No space left on device\n"


ESCAPES = "\x1b]0;pwned\x07\x1b[2Jvm"  # retitle the terminal, clear the screen

PROGRAM = f"""
from pulumi_azure_native import compute, resources
rg = resources.ResourceGroup("rg", location="eastus", tags={{"owner": "ml\\x00team"}})
compute.VirtualMachine({ESCAPES!r}, resource_group_name=rg.name, location="eastus",
    hardware_profile=compute.HardwareProfileArgs(vm_size="Standard_NV6"))
"""


@pytest.mark.parametrize(
    "argv", [["plan", "dev"], ["plan", "dev", "--json"], ["check"], ["check", "--format", "markdown"]], ids=" ".join
)
def test_output_escapes_control_characters_from_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """Terminal escapes in a resource's name and a NUL in a tag reach the report escaped: a terminal
    runs none of them (the VM's retired size puts its name in every format's violations)."""
    from azure_gpu_stacks.engine.cli import main

    root = tmp_path / "p"
    root.mkdir()
    (root / "Pulumi.yaml").write_text("name: escapes\nruntime: python\n")
    (root / "Pulumi.dev.yaml").write_text("config: {}\n")
    (root / "__main__.py").write_text(PROGRAM)

    code = main([*argv, "--project", str(root)])
    out, err = capsys.readouterr()

    assert code == 1, err  # the retired size is a mandatory violation
    assert "\x1b" not in out and "\x00" not in out and "\x07" not in out
    if "--json" in argv:
        assert "\\u001b]0;pwned\\u0007\\u001b[2Jvm" in out and "ml\\u0000team" in out
    else:
        assert "\\x1b]0;pwned\\x07\\x1b[2Jvm" in out
