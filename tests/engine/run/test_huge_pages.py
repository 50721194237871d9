"""The test processes that fork plans hold their loaded heap in huge pages (tests/huge_pages.py).

Where the kernel cannot (no transparent huge pages, or a kernel before 6.1) these tests skip: nothing but the
suite's speed depends on them."""

from __future__ import annotations

import json
import platform
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests import cli_process, huge_pages

MB = 1 << 20


def huge_kb(pid: int | str = "self") -> int:
    """AnonHugePages of the process, in kB, as the kernel counts them."""
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("AnonHugePages:"):
            return int(line.split()[1])
    raise AssertionError(f"no AnonHugePages line in /proc/{pid}/smaps_rollup")


def kernel_can_collapse() -> bool:
    """Transparent huge pages present and not turned off, on Linux 6.1 or later (MADV_COLLAPSE): read from the
    system, not from what tests/huge_pages.py manages, so that a broken collapse fails here instead of skipping."""
    enabled = Path("/sys/kernel/mm/transparent_hugepage/enabled")
    if not huge_pages.HUGE_PAGE_SIZE.exists() or not enabled.exists() or "[never]" in enabled.read_text():
        return False
    release = re.match(r"(\d+)\.(\d+)", platform.release())
    return release is not None and (int(release[1]), int(release[2])) >= (6, 1)


pytestmark = pytest.mark.skipif(
    not kernel_can_collapse(), reason="no transparent huge pages here, or a kernel before Linux 6.1 (MADV_COLLAPSE)"
)


def test_a_collapsed_range_is_what_the_kernel_counts_in_huge_pages() -> None:
    program = """
import json, mmap, runpy, sys
size = 64 << 20
buffer = bytearray(size)  # a private anonymous mapping of its own (glibc maps an allocation this large)
buffer[:: mmap.PAGESIZE] = b"x" * (size // mmap.PAGESIZE)
def huge_kb():
    return int(open("/proc/self/smaps_rollup").read().split("AnonHugePages:")[1].split()[0])
before = huge_kb()
covered = runpy.run_path(sys.argv[1])["collapse_into_huge_pages"]()
print(json.dumps({"before": before, "covered": covered, "after": huge_kb(), "intact": buffer.count(b"x")}))
"""
    ran = subprocess.run(
        [sys.executable, "-c", program, huge_pages.__file__], capture_output=True, text=True, timeout=60, check=True
    )
    seen = json.loads(ran.stdout)

    # the buffer's 64 MB less at most one huge page at each end of its mapping, and what it says it covered
    assert seen["after"] - seen["before"] >= (64 - 2 * 2) * 1024
    assert seen["covered"] >= seen["after"] * 1024 - seen["before"] * 1024
    assert seen["intact"] == 64 * MB // 4096  # the memory holds what it held


def test_the_processes_that_fork_plans_hold_their_preload_in_huge_pages() -> None:
    zygote = cli_process._the_zygote().process.pid

    # the preload is about 160 MB of each; a third of it in huge pages is far more than the kernel makes unasked
    # (transparent_hugepage "madvise": none)
    assert huge_kb(zygote) >= 50 * 1024
    assert huge_kb() >= 50 * 1024  # this test worker (tests/conftest.py)
