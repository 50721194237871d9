"""Where the suite's CPU goes, per test and per file (docs/testing.md, "How it is measured").

A pytest plugin, loaded only when asked (`-p tests.cpu_profile`): for each test, the wall seconds and the
CPU-seconds of the test process itself and of the children it reaped meanwhile (a subprocess, the zygote's children
once it ends, a plan's forked engine process and program, or its plan server's: tests/plan_server.py), one JSON
line per test in `$CPU_PROFILE_DIR/<worker>.jsonl`; at the end, how its plans were made in `<worker>.plans.json`.
A child's CPU counts when it is reaped, so a module fixture's children can land on a neighbouring test of the same
file: read the figures per file.

The process that runs the session (xdist's controller, or the only one) also samples the machine's idle time
(`/proc/stat`, every 0.2 s) into `$CPU_PROFILE_DIR/idle.jsonl`: a core idle while a test sleeps, polls or waits for
a child is wall time that no CPU figure shows. The summary says how many core-seconds sat idle before the first
test, after the last, and during each file's tests (shared between the tests running at once on the workers).

    CPU_PROFILE_DIR=/tmp/cpu nice -n 10 .venv/bin/python -m pytest -n 2 --dist loadgroup -p tests.cpu_profile
    .venv/bin/python -m tests.cpu_profile /tmp/cpu     # per file, most CPU first
"""

from __future__ import annotations

import collections
import json
import os
import resource
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

_out: IO[str] | None = None
IDLE_SAMPLE_S = 0.2


def _cpu(who: int) -> tuple[float, float]:
    """(user + system, system) CPU-seconds of this process or of its reaped children."""
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime, usage.ru_stime


def _plan_server_cpu() -> float:
    """CPU-seconds of the plans this process's plan server made for it (tests/plan_server.py): its children's,
    which this process's own `RUSAGE_CHILDREN` never counts."""
    from tests import plan_server

    return plan_server.server_cpu()


def _resident_mb() -> int | None:
    try:
        return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") >> 20
    except OSError:  # not Linux
        return None


def _directory() -> Path:
    directory = Path(os.environ.get("CPU_PROFILE_DIR", "cpu-profile"))
    directory.mkdir(parents=True, exist_ok=True)
    return directory


def _idle_core_seconds() -> float | None:
    """The machine's idle time so far, all cores together (the `cpu` line of /proc/stat: idle + iowait)."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()
    except OSError:  # not Linux
        return None
    return (int(fields[4]) + int(fields[5])) / os.sysconf("SC_CLK_TCK")


def _sample_idle(path: Path) -> None:
    with open(path, "a", encoding="utf-8") as out:
        while (idle := _idle_core_seconds()) is not None:
            out.write(json.dumps({"t": round(time.time(), 3), "idle": idle}) + "\n")
            out.flush()
            time.sleep(IDLE_SAMPLE_S)


def pytest_configure(config: pytest.Config) -> None:
    if "PYTEST_XDIST_WORKER" not in os.environ:  # the session's own process: one sampler for the machine
        threading.Thread(target=_sample_idle, args=(_directory() / "idle.jsonl",), daemon=True).start()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    global _out
    if _out is None:
        _out = open(_directory() / f"{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.jsonl", "a", encoding="utf-8")
    started = time.time()
    before = (time.monotonic(), _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN), _plan_server_cpu())
    yield
    wall, own, children, served = before
    own_after, children_after = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN)
    served = _plan_server_cpu() - served
    record = {
        "test": item.nodeid,
        "start": round(started, 3),  # seconds since the epoch, to line the workers up with a machine-wide sampler
        "wall": round(time.monotonic() - wall, 3),
        "self": round(own_after[0] - own[0], 3),
        "children": round(children_after[0] - children[0] + served, 3),  # with the plans its plan server made
        # kernel time, in self + children (the plan server's not counted)
        "sys": round(own_after[1] - own[1] + children_after[1] - children[1], 3),
        "rss_mb": _resident_mb(),  # the test process after the test: each fork copies its page tables
    }
    _out.write(json.dumps(record) + "\n")
    _out.flush()


def pytest_sessionfinish(session: pytest.Session) -> None:
    from tests import plan_server

    if plan_server.made_by:  # a process that ran tests (not xdist's controller)
        name = f"{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.plans.json"
        (_directory() / name).write_text(json.dumps(dict(plan_server.made_by)), encoding="utf-8")


def plans_summary(directory: Path) -> list[str]:
    """How the test processes' own plans were made: by their plan servers, or in the test process and why."""
    made: collections.Counter[str] = collections.Counter()
    for path in directory.glob("*.plans.json"):
        made.update(json.loads(path.read_text(encoding="utf-8")))
    return [f"{count:8d} plans made: {why}" for why, count in made.most_common()]


def _records(directory: Path) -> list[dict[str, object]]:
    return [
        json.loads(line)
        for path in sorted(directory.glob("*.jsonl"))
        if path.name != "idle.jsonl"
        for line in path.read_text(encoding="utf-8").splitlines()
    ]


def idle_summary(directory: Path, records: list[dict[str, object]], files: int = 10) -> list[str]:
    """Idle core-seconds before the first test, after the last and during the tests, and the files during whose
    tests the most sat idle (a span idle while two tests ran counts for both)."""
    path = directory / "idle.jsonl"
    samples = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []
    if len(samples) < 2 or not records:
        return []
    spans = [(a["t"], b["t"], b["idle"] - a["idle"]) for a, b in zip(samples, samples[1:], strict=False)]

    def idle_between(start: float, end: float) -> float:
        return sum(idle * max(0.0, min(end, t1) - max(start, t0)) / (t1 - t0) for t0, t1, idle in spans if t1 > t0)

    tests = [(float(r["start"]), float(r["start"]) + float(r["wall"]), str(r["test"])) for r in records if "start" in r]
    if not tests:
        return []
    first, last = min(t[0] for t in tests), max(t[1] for t in tests)
    per_file: collections.Counter[str] = collections.Counter()
    for start, end, test in tests:
        per_file[test.split("::", 1)[0]] += idle_between(start, end)
    lines = [
        f"{sum(s[2] for s in spans):8.1f} idle core-seconds: {idle_between(samples[0]['t'], first):.1f} before the "
        f"first test, {idle_between(last, samples[-1]['t']):.1f} after the last; during these files' tests:"
    ]
    lines += [f"{idle:8.1f} {name}" for name, idle in per_file.most_common(files)]
    return lines


def summary(directory: Path) -> list[str]:
    """One line per test file: tests, CPU-seconds (own + children, and the kernel's share), wall seconds; most CPU
    first. Then the idle core-seconds (`idle_summary`), where they were sampled."""
    files: dict[str, list[float]] = collections.defaultdict(lambda: [0, 0.0, 0.0, 0.0, 0.0])
    records = _records(directory)
    for record in records:
        row = files[str(record["test"]).split("::", 1)[0]]
        row[0] += 1
        row[1] += float(record["self"])
        row[2] += float(record["children"])
        row[3] += float(record["wall"])
        row[4] += float(record.get("sys", 0.0))
    total = sum(row[1] + row[2] for row in files.values())
    kernel = sum(row[4] for row in files.values())
    lines = [f"{total:8.1f} CPU-s ({kernel:.1f} system) in {sum(int(r[0]) for r in files.values())} tests"]
    for name, (count, own, children, wall, system) in sorted(files.items(), key=lambda kv: -(kv[1][1] + kv[1][2])):
        lines.append(
            f"{own + children:8.1f} CPU-s ({own:6.1f} own, {system:6.1f} system) {wall:8.1f} s wall"
            f" {int(count):5d} tests  {name}"
        )
    return lines + idle_summary(directory, records) + plans_summary(directory)


if __name__ == "__main__":
    print("\n".join(summary(Path(sys.argv[1] if len(sys.argv) > 1 else "cpu-profile"))))
