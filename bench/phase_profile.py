"""Where one stack's check spends its time, per phase, in a fresh process (issue 41).

Phases: the interpreter's start, the imports gpu-stacks loads before planning, the preload of what every
plan needs (several stacks only), then, for each stack checked: reading the stack and making the fake ARM,
the environment's probe, the program's run (the engine process and the program's child: fork,
connection, Pulumi's runtime, the engine's gRPC answers), the policy pack, the cost, and what is left
(the CLI, the report). Each phase is timed by wrapping the function that does it in `engine.run.plan`'s
namespace; a phase that runs in the engine process writes its time to a file, so it is counted whichever
process ran it.

    python bench/phase_profile.py [STACK ...] [--project DIR] [--repeat 3] [--base REV]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from floors import REPO, load_line, machine_line

CHILD = r"""
import json, os, sys, time
started = time.perf_counter()
if os.environ.get("BASE_PATH"):
    sys.path.insert(0, os.environ["BASE_PATH"])
from azure_gpu_stacks.engine import cli
from azure_gpu_stacks.engine.run import parallel, plan
imported = time.perf_counter()
log = os.environ["PHASES"]

def timed(name, function):
    def wrapper(*args, **kwargs):
        begin = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            with open(log, "a") as fh:
                fh.write(json.dumps([name, time.perf_counter() - begin]) + "\n")
    return wrapper

for name, attribute in (("stack file + fake ARM", "load_stack"), ("stack file + fake ARM", "make_arm"),
                        ("environment probe", "python_for"), ("program run", "_run_forked"),
                        ("program run", "_run_executed"), ("policy pack", "analyze"), ("cost", "estimate_resources"),
                        ("plan in all (engine process, wall)", "plan_stack")):
    setattr(plan, attribute, timed(name, getattr(plan, attribute)))
parallel.preload = timed("preload (SDK classes, catalog: before any fork)", parallel.preload)
with open(log, "a") as fh:
    fh.write(json.dumps(["imports", imported - started]) + "\n")
try:
    cli.main(sys.argv[1:])
except SystemExit:
    pass
with open(log, "a") as fh:
    fh.write(json.dumps(["after the imports (wall)", time.perf_counter() - imported]) + "\n")
"""


def profile(argv: list[str], base_path: Path | None) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "phases"
        begin = time.perf_counter()
        subprocess.run(
            [sys.executable, "-c", CHILD, *argv],
            cwd=REPO,
            env={**os.environ, "PHASES": str(log), "BASE_PATH": str(base_path or "")},
            capture_output=True,
            check=False,
        )
        total = time.perf_counter() - begin
        phases: dict[str, float] = defaultdict(float)
        for line in log.read_text().splitlines():
            name, seconds = json.loads(line)
            phases[name] += seconds
    phases["process, wall"] = total
    return phases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("stacks", nargs="*")
    parser.add_argument("--project")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--base", help="also profile this revision's code, runs interleaved (bench/engine_process_bench.py)"
    )
    args = parser.parse_args()
    print(machine_line())
    print(load_line("before"))
    argv = ["check", "--jobs", "1", *(["--project", args.project] if args.project else []), *args.stacks]
    with tempfile.TemporaryDirectory(prefix="gpu-stacks-bench-") as tmp:
        sides: dict[str, Path | None] = {"this checkout": None}
        if args.base:
            from engine_process_bench import base_tree

            sides = {args.base: base_tree(args.base, Path(tmp)), **sides}
        runs: dict[str, list[dict[str, float]]] = {side: [] for side in sides}
        for _ in range(args.repeat):
            for side, path in sides.items():
                runs[side].append(profile(argv, path))
    best = {side: min(found, key=lambda r: r["process, wall"]) for side, found in runs.items()}
    names = list(dict.fromkeys(name for found in best.values() for name in found))
    print(f"{'phase (best run by wall time)':40} " + " ".join(f"{side:>14}" for side in best))
    for name in names:
        print(f"{name:40} " + " ".join(f"{1000 * found.get(name, 0.0):11.0f} ms" for found in best.values()))
    print(load_line("after"))


if __name__ == "__main__":
    main()
