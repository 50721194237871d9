"""Where the report goes can fail too: a reader that went away, a full disk. Both end quietly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

CLI = [sys.executable, "-c", "import sys; from azure_gpu_stacks.preflight.cli import main; sys.exit(main())"]


def test_output_to_a_closed_pipe_ends_quietly() -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # `gpu-stacks stacks | head -0`: the reader is gone before anything is written
    try:
        run = subprocess.run([*CLI, "stacks"], stdout=write_end, stderr=subprocess.PIPE, text=True, cwd=REPO, timeout=120)
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
