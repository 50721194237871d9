"""Benchmark: what a plan costs in CPU, this checkout against a base revision, interleaved in one run (A B A B).

Issue 34 asks for a suite within 120 s on two cores, and most of the suite's CPU is plans; a user with a big
program waits for the same plan. This runs the same commands with the base revision's code (`git archive`,
imported ahead of this checkout, as engine_process_bench.py does) and with this checkout's, alternately, and
prints each pair's CPU (user + system of the command and every process it forked: the engine process and the
program's child) and the ratio new / base, with the load average beside it:

- `plan inference-t4` (one shipped stack) and `check --jobs 1` of the five shipped stacks;
- `plan` of a generated program of `--groups` resource groups (tests/generated_programs.py; 2,000 in
  tests/engine/run/test_plan_scaling.py) and of one of `--components` GpuVm components with their children.

    python bench/plan_cost_bench.py [--base REV] [--pairs 2] [--groups 2000] [--components 50]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine_process_bench import CLI, base_tree
from floors import load_line, machine_line, measure

from tests.generated_programs import gpu_vms, resource_groups


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", default="HEAD", help="the revision to compare against (default HEAD)")
    parser.add_argument("--pairs", type=int, default=2)
    parser.add_argument("--groups", type=int, default=2000, help="resource groups of the generated program")
    parser.add_argument("--components", type=int, default=50, help="GpuVm components of the generated program")
    args = parser.parse_args()
    print(machine_line())
    print(load_line("before"))
    with tempfile.TemporaryDirectory(prefix="gpu-stacks-bench-") as tmp:
        base_path = base_tree(args.base, Path(tmp))
        groups = resource_groups(Path(tmp) / "groups", args.groups)
        components = gpu_vms(Path(tmp) / "components", args.components)
        sides = {
            "base": [sys.executable, "-c", CLI, str(base_path)],
            "new": [sys.executable, "-m", "azure_gpu_stacks.engine"],
        }
        runs = {
            "plan inference-t4": ["plan", "inference-t4"],
            "check shipped": ["check", "--jobs", "1"],
            f"plan {args.groups} groups": ["plan", "dev", "--project", str(groups), "--timeout", "3600"],
            f"plan {args.components} GpuVms": ["plan", "dev", "--project", str(components), "--timeout", "3600"],
        }
        cpu: dict[str, dict[str, list[float]]] = {what: {"base": [], "new": []} for what in runs}
        for pair in range(args.pairs):  # each pair runs base then new, for every input
            for what, command in runs.items():
                found = {side: measure([*sides[side], *command]) for side in ("base", "new")}
                base, new = found["base"], found["new"]
                for side, measured in found.items():
                    cpu[what][side].append(measured.cpu_seconds)
                print(
                    f"{what:22} pair {pair + 1}: cpu base {base.cpu_seconds:6.2f} s  new {new.cpu_seconds:6.2f} s  "
                    f"new/base {new.cpu_seconds / base.cpu_seconds:.2f}x  (wall {base.seconds:6.2f} s / "
                    f"{new.seconds:6.2f} s, peak RSS {base.peak_rss_mb:4.0f} / {new.peak_rss_mb:4.0f} MB)  "
                    f"load {os.getloadavg()[0]:.2f}",
                    flush=True,
                )
        for what, sides_cpu in cpu.items():
            best_base, best_new = min(sides_cpu["base"]), min(sides_cpu["new"])
            ratio = best_new / best_base
            print(f"{what:22} best cpu: base {best_base:6.2f} s  new {best_new:6.2f} s  new/base {ratio:.2f}x")
    print(load_line("after"))


if __name__ == "__main__":
    main()
