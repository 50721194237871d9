"""Where the suite's CPU goes, per test and per file (docs/testing.md, "How it is measured").

A pytest plugin, loaded only when asked (`-p tests.cpu_profile`): for each test, the wall seconds and the
CPU-seconds of the test process itself and of the children it reaped meanwhile (a plan's forked engine
process and program, a subprocess, the zygote's children once it ends), one JSON line per test in
`$CPU_PROFILE_DIR/<worker>.jsonl`. A child's CPU counts when it is reaped, so a module fixture's children
can land on a neighbouring test of the same file: read the figures per file.

    CPU_PROFILE_DIR=/tmp/cpu nice -n 10 .venv/bin/python -m pytest -n 2 --dist loadgroup -p tests.cpu_profile
    .venv/bin/python -m tests.cpu_profile /tmp/cpu     # per file, most CPU first
"""

from __future__ import annotations

import collections
import json
import os
import resource
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

_out: IO[str] | None = None


def _cpu(who: int) -> tuple[float, float]:
    """(user + system, system) CPU-seconds of this process or of its reaped children."""
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime, usage.ru_stime


def _resident_mb() -> int | None:
    try:
        return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") >> 20
    except OSError:  # not Linux
        return None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    global _out
    if _out is None:
        directory = Path(os.environ.get("CPU_PROFILE_DIR", "cpu-profile"))
        directory.mkdir(parents=True, exist_ok=True)
        _out = open(directory / f"{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.jsonl", "a", encoding="utf-8")
    started = time.time()
    before = (time.monotonic(), _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN))
    yield
    wall, own, children = before
    own_after, children_after = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN)
    record = {
        "test": item.nodeid,
        "start": round(started, 3),  # seconds since the epoch, to line the workers up with a machine-wide sampler
        "wall": round(time.monotonic() - wall, 3),
        "self": round(own_after[0] - own[0], 3),
        "children": round(children_after[0] - children[0], 3),
        "sys": round(own_after[1] - own[1] + children_after[1] - children[1], 3),  # kernel time, in self + children
        "rss_mb": _resident_mb(),  # the test process after the test: each fork copies its page tables
    }
    _out.write(json.dumps(record) + "\n")
    _out.flush()


def summary(directory: Path) -> list[str]:
    """One line per test file: tests, CPU-seconds (own + children, and the kernel's share), wall seconds; most CPU
    first."""
    files: dict[str, list[float]] = collections.defaultdict(lambda: [0, 0.0, 0.0, 0.0, 0.0])
    for path in sorted(directory.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            row = files[record["test"].split("::", 1)[0]]
            row[0] += 1
            row[1] += record["self"]
            row[2] += record["children"]
            row[3] += record["wall"]
            row[4] += record.get("sys", 0.0)
    total = sum(row[1] + row[2] for row in files.values())
    kernel = sum(row[4] for row in files.values())
    lines = [f"{total:8.1f} CPU-s ({kernel:.1f} system) in {sum(int(r[0]) for r in files.values())} tests"]
    for name, (count, own, children, wall, system) in sorted(files.items(), key=lambda kv: -(kv[1][1] + kv[1][2])):
        lines.append(
            f"{own + children:8.1f} CPU-s ({own:6.1f} own, {system:6.1f} system) {wall:8.1f} s wall"
            f" {int(count):5d} tests  {name}"
        )
    return lines


if __name__ == "__main__":
    print("\n".join(summary(Path(sys.argv[1] if len(sys.argv) > 1 else "cpu-profile"))))
