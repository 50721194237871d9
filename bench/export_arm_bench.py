"""Benchmark: `gpu-stacks export-arm STACK` against `gpu-stacks plan STACK` of the same stack (issue 25).

Both are fresh processes, alternating, best of `--repeat` each; the ratio is what building the template
adds to the plan it is made from. Target: <= 1.2x for every shipped stack.

    python bench/export_arm_bench.py [--stack training-a100 ...] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from floors import REPO, Measured, measure

ENGINE = [sys.executable, "-m", "azure_gpu_stacks.engine"]
TARGET = 1.2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    stacks = sorted(
        p.name.removeprefix("Pulumi.").removesuffix(".yaml") for p in (REPO / "stacks").glob("Pulumi.*.yaml")
    )
    parser.add_argument("--stack", nargs="*", default=stacks)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.machine()}, {os.cpu_count()} cores")
    worst = 0.0
    for stack in args.stack:
        plans: list[Measured] = []
        exports: list[Measured] = []
        for _ in range(args.repeat):  # alternating, so a busy moment costs both alike
            plans.append(measure([*ENGINE, "plan", stack]))
            exports.append(measure([*ENGINE, "export-arm", stack]))
        plan, export = min(p.seconds for p in plans), min(e.seconds for e in exports)
        worst = max(worst, export / plan)
        print(f"{stack:<16} plan {plan:6.2f} s   export-arm {export:6.2f} s   {export / plan:4.2f}x")
    print(f"worst {worst:4.2f}x (target <= {TARGET}x): {'met' if worst <= TARGET else 'NOT met'}")


if __name__ == "__main__":
    main()
