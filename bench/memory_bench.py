"""Benchmark: does planning stack after stack in one process leak memory?

Plans a generated fleet (bench/fleet.py) serially in this process, the way `gpu-stacks check
--jobs 1` does, but drops each plan once it is made: whatever the process's resident memory gains
from then on is state one stack left behind for the next. Checkpoints at 12, 48 and 200 stacks.
(The check process itself also keeps every plan until it prints them; bench/check_bench.py
reports its peak RSS.)

    python bench/memory_bench.py [N]
"""

from __future__ import annotations

import gc
import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from fleet import write_fleet  # noqa: E402 - bench/ is not a package; its path is set above
from floors import machine_line  # noqa: E402

CHECKPOINTS = (12, 48, 200)


def rss_mb() -> float:
    """Resident memory now (not the peak): /proc/self/statm's second field, in pages."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else max(CHECKPOINTS)
    from azure_gpu_stacks.catalog.clock import utc_today
    from azure_gpu_stacks.engine.run.plan import plan_stack
    from azure_gpu_stacks.engine.run.project import load_project

    print(machine_line())
    with tempfile.TemporaryDirectory(prefix="gpu-stacks-memory-") as tmp:
        project = load_project(write_fleet(count, Path(tmp) / "fleet"))
        base = (0, 0.0)
        for index, name in enumerate(project.stacks(), 1):
            plan_stack(project, name, day=utc_today()).to_json()  # made, rendered, dropped
            if index in CHECKPOINTS or index == count:
                gc.collect()
                now = rss_mb()
                line = f"after {index:4d} stacks: {now:6.1f} MB resident"
                if base[0]:
                    grown = now - base[1]
                    line += (
                        f", +{grown:4.1f} MB since {base[0]} stacks = {1024 * grown / (index - base[0]):4.1f} "
                        "KB per stack"
                    )
                else:  # by then every kind of stack has run once and loaded its modules
                    base = (index, now)
                print(line, flush=True)


if __name__ == "__main__":
    main()
