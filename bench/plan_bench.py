"""Benchmark: what one offline plan costs, against the floor no offline plan can go below.

The floor is a bare Python process importing pulumi and the pulumi-azure-native modules a stack
uses (touching one class in each, since the modules load lazily). Ratios are taken in one run on
one machine, so they compare like with like; absolute seconds depend on the machine.

    python bench/plan_bench.py [--stack inference-t4] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
IMPORT_FLOOR = (
    "import pulumi, pulumi_policy\n"
    "from pulumi_azure_native import resources, network, compute, devtestlab, consumption\n"
    "(resources.ResourceGroup, network.VirtualNetwork, compute.VirtualMachine, devtestlab.GlobalSchedule, consumption.Budget)\n"
)


def best_of(command: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, cwd=REPO, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--stack", default="inference-t4")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}", flush=True)
    floor = best_of([sys.executable, "-c", IMPORT_FLOOR], args.repeat)
    print(f"import floor            {floor:6.2f} s", flush=True)
    plan = best_of([sys.executable, "-m", "preflight", "plan", args.stack], args.repeat)
    print(f"plan {args.stack:<18} {plan:6.2f} s   {plan / floor:4.2f}x the import floor")


if __name__ == "__main__":
    main()
