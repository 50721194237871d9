"""Benchmark: `gpu-stacks check` over the shipped stacks and over generated fleets, against the floors.

Every figure is a ratio to a floor measured in the same run (bench/floors.py), so results compare
across machines; absolute seconds are this machine's. Each check is a fresh process, timed from
spawn to exit, with its peak RSS from the kernel (`wait4`).

    python bench/check_bench.py [--fleet 12 48 200] [--repeat 3] [--jobs N]

Targets (issue 8): shipped stacks <= 1.3x (import floor + runtime floor); each stack a fleet adds
<= 1.3x its runtime floor, serially; the fleet with --jobs (default: the cores) <= 0.65x the serial
wall time on 2 cores, with output identical to the serial run; peak RSS flat in N beyond results.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fleet import write_fleet
from floors import REPO, Measured, best, import_floor, load_line, machine_line, measure, parallel_floor, runtime_floor

CHECK = [sys.executable, "-m", "azure_gpu_stacks.engine", "check"]


def output_digest(argv: list[str]) -> str:
    done = subprocess.run(argv, cwd=REPO, capture_output=True, check=False)
    return hashlib.sha256(done.stdout).hexdigest()[:12]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fleet", type=int, nargs="*", default=[12, 48, 200])
    parser.add_argument("--repeat", type=int, default=3, help="runs of the shipped-stack check and the import floor")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--fleet-repeat", type=int, default=2, help="runs of each fleet check and floor (the best is kept)"
    )
    args = parser.parse_args()
    print(machine_line())

    print(load_line("before"))
    print(
        f"parallel floor               {parallel_floor(args.jobs):7.2f}x  ({args.jobs} CPU-bound processes at "
        f"once vs one after another; ideal {1 / args.jobs:.2f}x)"
    )
    imports = import_floor(args.repeat)
    shipped_floor = runtime_floor()
    print(f"import floor                 {imports.seconds:7.2f} s  {imports.peak_rss_mb:6.0f} MB")
    print(
        f"runtime floor, shipped       {shipped_floor.seconds:7.2f} s  ({len(shipped_floor.stacks)} stacks, "
        f"{shipped_floor.resources} resources: {1000 * shipped_floor.seconds / shipped_floor.resources:.0f} "
        "ms/resource, "
        f"{1000 * shipped_floor.seconds / len(shipped_floor.stacks):.0f} ms/stack)"
    )
    shipped = best([*CHECK, "--jobs", "1"], args.repeat)
    floor = imports.seconds + shipped_floor.seconds
    print(
        f"check shipped (--jobs 1)     {shipped.seconds:7.2f} s  {shipped.peak_rss_mb:6.0f} MB   "
        f"{shipped.seconds / floor:.2f}x (import + runtime floor = {floor:.2f} s)   target <= 1.20x (issue 41)"
    )
    shipped_parallel = best([*CHECK, "--jobs", str(args.jobs)], args.repeat)
    print(
        f"check shipped (--jobs {args.jobs})     {shipped_parallel.seconds:7.2f} s  "
        f"{shipped_parallel.peak_rss_mb:6.0f} MB"
    )

    base: tuple[int, Measured, float] | None = None
    with tempfile.TemporaryDirectory(prefix="gpu-stacks-fleet-") as tmp:
        for n in args.fleet:
            project = write_fleet(n, Path(tmp) / f"fleet{n}")
            argv = [*CHECK, "--project", str(project)]
            # Rounds alternate serial and parallel, so a burst of other work on the machine hits both alike.
            floors, serials, parallels = [], [], []
            for _ in range(args.fleet_repeat):
                floors.append(runtime_floor(project))
                serials.append(measure([*argv, "--jobs", "1"]))
                parallels.append(measure([*argv, "--jobs", str(args.jobs)]))
            fleet_floor = min(floors, key=lambda f: f.seconds)
            serial = Measured(min(m.seconds for m in serials), max(m.peak_rss_mb for m in serials))
            parallel = Measured(min(m.seconds for m in parallels), max(m.peak_rss_mb for m in parallels))
            same = output_digest([*argv, "--json", "--jobs", "1"]) == output_digest(
                [*argv, "--json", "--jobs", str(args.jobs)]
            )
            line = (
                f"fleet N={n:<4} floor {fleet_floor.seconds:6.2f} s ({fleet_floor.resources} resources)  "
                f"serial {serial.seconds:6.2f} s {serial.peak_rss_mb:5.0f} MB  "
                f"--jobs {args.jobs} {parallel.seconds:6.2f} s {parallel.peak_rss_mb:5.0f} MB  "
                f"parallel/serial {parallel.seconds / serial.seconds:.2f}x (target <= 0.65x)  "
                f"output {'identical' if same else 'DIFFERS'}"
            )
            if base is None:
                base = (n, serial, fleet_floor.seconds)
            else:
                n0, serial0, floor0 = base
                added = (serial.seconds - serial0.seconds) / (n - n0)
                added_floor = (fleet_floor.seconds - floor0) / (n - n0)
                line += (
                    f"\n             each stack added beyond N={n0}: {1000 * added:.0f} ms vs runtime floor "
                    f"{1000 * added_floor:.0f} ms = {added / added_floor:.2f}x (target <= 1.00x, issue 41); "
                    f"RSS +{serial.peak_rss_mb - serial0.peak_rss_mb:.0f} MB for {n - n0} more stacks"
                )
            print(line, flush=True)
    print(f"parallel floor, after        {parallel_floor(args.jobs):7.2f}x")


if __name__ == "__main__":
    main()
