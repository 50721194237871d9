"""Benchmark: what running each program in its own forked child costs (`azure_gpu_stacks.engine.run.isolation`).

In one process, after the imports: the shipped stacks planned with each program in a child (what
`gpu-stacks` does) and in-process (isolation switched off, as before it existed), interleaved so
that both meet the same machine load; the best round of each is kept. The figure is the ratio
isolated / in-process for the whole set of stacks, and the fork's own cost per stack.

    python bench/isolation_bench.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from azure_gpu_stacks.engine.run import heap, isolation, plan
from azure_gpu_stacks.engine.run.parallel import preload
from azure_gpu_stacks.engine.run.project import load_project
from floors import REPO


def plan_all(isolated: bool) -> float:
    project = load_project(REPO)
    original = isolation.isolation_available
    if not isolated:
        isolation.isolation_available = lambda: False  # type: ignore[assignment]
    try:
        start = time.perf_counter()
        for name in project.stacks():
            plan.plan_stack(project, name)
        return time.perf_counter() - start
    finally:
        isolation.isolation_available = original  # type: ignore[assignment]


def fork_only() -> float:
    """A child that does nothing but hand back None: the fixed cost of isolation per program."""
    start = time.perf_counter()
    for _ in range(20):
        isolation.run_isolated(lambda: None, str, isolation.Limits(), "nothing")
    return (time.perf_counter() - start) / 20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(
        f"{time.strftime('%Y-%m-%d')}, {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    print(f"load average before the run: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    preload()
    heap.freeze()
    plan_all(True), plan_all(False)  # warm-up: every kind of stack once each way
    isolated, inline = [], []
    for _ in range(args.rounds):
        isolated.append(plan_all(True))
        inline.append(plan_all(False))
    stacks = len(load_project(REPO).stacks())
    print(f"shipped stacks in-process      {min(inline):6.3f} s  ({stacks} stacks, best of {args.rounds})")
    print(f"shipped stacks, child each     {min(isolated):6.3f} s  {min(isolated) / min(inline):5.2f}x")
    print(f"fork, run nothing, hand back   {1000 * fork_only():6.1f} ms per program")
    print(f"load average after the run:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
