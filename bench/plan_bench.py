"""Benchmark: what one offline plan costs, against the import floor no offline plan can go below.

The floor is a bare Python process importing pulumi, pulumi_policy and the provider modules the
shipped stacks use (bench/floors.py). Ratios are taken in one run on one machine, so they compare
like with like; absolute seconds depend on the machine.

    python bench/plan_bench.py [--stack inference-t4] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from floors import best, import_floor


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--stack", default="inference-t4")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}", flush=True)
    floor = import_floor(args.repeat)
    print(f"import floor            {floor.seconds:6.2f} s  {floor.peak_rss_mb:5.0f} MB", flush=True)
    plan = best([sys.executable, "-m", "azure_gpu_stacks.engine", "plan", args.stack], args.repeat)
    print(
        f"plan {args.stack:<18} {plan.seconds:6.2f} s  {plan.peak_rss_mb:5.0f} MB   "
        f"{plan.seconds / floor.seconds:4.2f}x the import floor"
    )


if __name__ == "__main__":
    main()
