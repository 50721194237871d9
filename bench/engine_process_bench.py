"""Benchmark: the engine in a process of its own per plan (this checkout) against a base revision's engine,
interleaved in one run (A B A B), with the floors of the same run.

Issue 40 moved each plan's engine (its gRPC server) out of gpu-stacks' own process, so that no process
that forks runs threads; issue 41 asks that a check cost what its programs cost. This runs the same
`gpu-stacks check` with the base revision's code (`git archive`, imported ahead of this checkout) and
with this checkout's, alternately, for the shipped stacks and a generated fleet of N stacks, and prints
each pair's ratio (new / base) with the load average beside it.

    python bench/engine_process_bench.py [--base REV] [--pairs 3] [--fleet 12 48]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fleet import write_fleet
from floors import REPO, import_floor, load_line, machine_line, measure, runtime_floor

ROOMS = ("catalog", "components", "engine", "fakeazure", "inputs", "policies", "sdk", "stack")
# The CLI with `azure_gpu_stacks` read from a directory given first on the path (ahead of the editable install).
CLI = "import sys; sys.path.insert(0, sys.argv.pop(1)); from azure_gpu_stacks.engine.cli import run; run()"


def base_tree(revision: str, into: Path) -> Path:
    """The base revision's package, importable from the returned directory."""
    source = into / "source"
    source.mkdir()
    archive = subprocess.run(["git", "archive", revision], cwd=REPO, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
    package = into / "path" / "azure_gpu_stacks"
    package.mkdir(parents=True)
    for room in ROOMS:
        (package / room).symlink_to(source / room)
    return into / "path"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", default="HEAD", help="the revision to compare against (default HEAD)")
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument(
        "--fleet", type=int, nargs="+", default=[48], help="fleet sizes; with two, what each stack added costs"
    )
    args = parser.parse_args()
    print(machine_line())
    print(load_line("before"))
    with tempfile.TemporaryDirectory(prefix="gpu-stacks-bench-") as tmp:
        base = base_tree(args.base, Path(tmp))
        fleets = {n: write_fleet(n, Path(tmp) / f"fleet{n}") for n in args.fleet}
        sides = {
            "base": [sys.executable, "-c", CLI, str(base)],
            "new": [sys.executable, "-m", "azure_gpu_stacks.engine"],
        }
        imports = import_floor(1)
        measured = {"shipped": runtime_floor()} | {
            f"fleet N={n}": runtime_floor(project) for n, project in fleets.items()
        }
        floors = {what: found.seconds for what, found in measured.items()}
        cpu_floors = {what: found.cpu_seconds for what, found in measured.items()}
        print(
            f"import floor {imports.seconds:.2f} s; runtime floors "
            + ", ".join(f"{k} {v:.2f} s" for k, v in floors.items())
        )
        runs = [("shipped", ["--jobs", "1"])] + [
            (f"fleet N={n}", ["--project", str(project), "--jobs", "1"]) for n, project in fleets.items()
        ]
        best: dict[tuple[str, str], float] = {}
        best_cpu: dict[tuple[str, str], float] = {}
        for pair in range(args.pairs):  # each pair runs base then new, for every input, A B A B
            for what, extra in runs:
                seconds, cpu = {}, {}
                for side in ("base", "new"):
                    found = measure([*sides[side], "check", *extra])
                    seconds[side], cpu[side] = found.seconds, found.cpu_seconds
                    best[what, side] = min(best.get((what, side), seconds[side]), seconds[side])
                    best_cpu[what, side] = min(best_cpu.get((what, side), cpu[side]), cpu[side])
                load = os.getloadavg()[0]
                floor = imports.seconds + floors[what]
                print(
                    f"{what:14} pair {pair + 1}: base {seconds['base']:6.2f} s ({seconds['base'] / floor:.2f}x floor)  "
                    f"new {seconds['new']:6.2f} s ({seconds['new'] / floor:.2f}x floor)  new/base "
                    f"{seconds['new'] / seconds['base']:.2f}x  cpu base {cpu['base']:6.2f} s new {cpu['new']:6.2f} s "
                    f"new/base {cpu['new'] / cpu['base']:.2f}x  load {load:.2f}",
                    flush=True,
                )
        if len(args.fleet) >= 2:  # what each stack beyond the smallest fleet adds, best runs, against its floor
            small, large = min(args.fleet), max(args.fleet)
            added_floor = (floors[f"fleet N={large}"] - floors[f"fleet N={small}"]) / (large - small)
            for side in ("base", "new"):
                added = (best[f"fleet N={large}", side] - best[f"fleet N={small}", side]) / (large - small)
                print(
                    f"each stack added beyond N={small} ({side:4}): {1000 * added:.0f} ms vs runtime floor "
                    f"{1000 * added_floor:.0f} ms = {added / added_floor:.2f}x (target <= 1.0x)"
                )
            added_cpu_floor = (cpu_floors[f"fleet N={large}"] - cpu_floors[f"fleet N={small}"]) / (large - small)
            for side in ("base", "new"):
                added = (best_cpu[f"fleet N={large}", side] - best_cpu[f"fleet N={small}", side]) / (large - small)
                print(
                    f"each stack added beyond N={small} ({side:4}), CPU: {1000 * added:.0f} ms vs runtime floor's CPU "
                    f"{1000 * added_cpu_floor:.0f} ms = {added / added_cpu_floor:.2f}x"
                )
    print(load_line("after"))


if __name__ == "__main__":
    main()
