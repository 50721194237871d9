"""Benchmark: planning time per resource grows no faster than the program (issue 24: within 1.3x).

Generated programs of SMALL and LARGE resource groups (tests/generated_programs.py writes them, the
same the tests plan) are planned in this process, as `gpu-stacks plan` plans them: the program in a
forked child, the engine here. Sizes alternate, best of `--repeat` each, so both see the same machine;
the figure is a ratio taken in one run, not seconds.

    python bench/plan_scaling_bench.py [--small 100] [--large 2000] [--repeat 2]
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from azure_gpu_stacks.catalog.clock import utc_today
from azure_gpu_stacks.engine.run.isolation import Limits
from azure_gpu_stacks.engine.run.plan import plan_stack
from azure_gpu_stacks.engine.run.project import load_project

from tests.generated_programs import resource_groups

TARGET = 1.3


def seconds_per_resource(root: Path, count: int) -> float:
    started = time.perf_counter()
    plan = plan_stack(load_project(root), "dev", limits=Limits(timeout_s=3600), day=utc_today())
    elapsed = time.perf_counter() - started
    assert len(plan.resources) == count, f"planned {len(plan.resources)} of {count} resources"
    return elapsed / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--small", type=int, default=100)
    parser.add_argument("--large", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}", flush=True)
    with tempfile.TemporaryDirectory() as scratch:
        roots = {n: resource_groups(Path(scratch) / f"rg{n}", n) for n in (args.small, args.large)}
        seconds_per_resource(roots[args.small], args.small)  # warm: the imports a plan loads once
        best = {n: float("inf") for n in roots}
        for _ in range(args.repeat):
            for n, root in roots.items():
                best[n] = min(best[n], seconds_per_resource(root, n))
    for n, per in best.items():
        print(f"{n:>6} resources  {per * 1000:8.2f} ms per resource", flush=True)
    ratio = best[args.large] / best[args.small]
    verdict = "within" if ratio <= TARGET else "ABOVE"
    print(f"per-resource time at {args.large} vs {args.small}: {ratio:.2f}x ({verdict} the {TARGET}x target)")


if __name__ == "__main__":
    main()
