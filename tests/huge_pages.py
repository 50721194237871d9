"""The test processes' loaded heap moved into transparent huge pages, so that the plans forked from them cost less.

Every plan forks an engine process, which forks the program (`engine.run.plan`); the test processes that fork them
(the zygote of tests/cli_process.py and its children, the plan servers of tests/plan_server.py, the test workers)
hold 200-430 MB, most of it what the preload loaded for good. A fork copies one page-table entry per 4 kB page of
that and the child's exit tears them down again: the kernel's `copy_page_range` and `unmap_page_range` were an
eighth of the whole suite's CPU (docs/testing.md, "Tenth session"). In 2 MB pages, a fork copies one entry where it
copied 512. A child that writes to an inherited page still copies 4 kB: a plan forked from a collapsed process
took as many page faults (about 8,300) and 30 % less system time (docs/testing.md, "Eleventh session").

`madvise(MADV_COLLAPSE)` (Linux 6.1 and later) makes the huge pages now, whatever the system-wide THP settings in
sysfs say (Linux commit 7d8faaf15545, which introduced it, observed 2026-11-27). Where the system has no huge
pages, or its kernel refuses the call, nothing changes but speed.

A test-suite measure, not a product one: `gpu-stacks check --root` over 160 stacks spent 15-25 % less system time
with its preloaded heap collapsed, 5-8 % more user time, and the same wall time (docs/testing.md).
"""

from __future__ import annotations

import ctypes
import errno
from collections.abc import Iterator
from pathlib import Path

MADV_COLLAPSE = 25  # include/uapi/asm-generic/mman-common.h (Linux 6.1), observed 2026-11-27
HUGE_PAGE_SIZE = Path("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size")


def collapse_into_huge_pages() -> int:
    """This process's private anonymous memory (the C heap, Python's arenas) in huge pages from now on: the bytes
    covered, 0 where there are no huge pages. Memory already in huge pages costs nothing again (about 5 ms for a
    test worker after a file's tests, 0.5 s for a zygote's first 150 MB)."""
    try:
        size = int(HUGE_PAGE_SIZE.read_text())
        madvise = ctypes.CDLL(None, use_errno=True).madvise
    except (OSError, ValueError, AttributeError):  # not Linux, or no transparent huge pages
        return 0
    madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    covered = 0
    for start, end in private_anonymous_ranges():
        first, last = -(-start // size) * size, end // size * size  # the whole huge pages inside the range
        if last - first < size:
            continue
        if madvise(first, last - first, MADV_COLLAPSE) == 0:
            covered += last - first
        elif ctypes.get_errno() == errno.EINVAL:  # a kernel before 6.1 knows no MADV_COLLAPSE
            break
        # EAGAIN (a page busy now) or ENOMEM: that range stays in small pages, the rest is still worth it
    return covered


def private_anonymous_ranges() -> Iterator[tuple[int, int]]:
    """(start, end) of each writable private mapping of this process that no file backs (`/proc/self/maps`)."""
    try:
        lines = Path("/proc/self/maps").read_text().splitlines()
    except OSError:
        return
    for line in lines:
        fields = line.split(maxsplit=5)
        anonymous = len(fields) == 5 or fields[5] == "[heap]"
        if fields[1].startswith("rw") and fields[1].endswith("p") and anonymous:
            start, _, end = fields[0].partition("-")
            yield int(start, 16), int(end, 16)
