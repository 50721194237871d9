"""Where one stack's check spends its time, per phase, in a fresh process (issue 41).

Phases: the interpreter's start, the imports gpu-stacks loads before planning, the preload of what every
plan needs (several stacks only), then, for each stack checked: reading the stack and making the fake ARM,
the environment's probe, the program's run, the policy pack, the cost, and what is left (the CLI, the
report). Inside each stack's plan: the fork of its engine process, that process's gRPC server start and
stop (a revision before the socket pair of engine/run/socket_channel.py), or its socket pair read and
answered, the fork of the program's child, the child's channel set-up and its Pulumi runtime running the
program, the engine's answers (the servicers' handlers), the plan pickled in the engine process and read back in
the check's, and the SDK types the check process reads after each plan (`engine.run.sdk_types`). Each phase
is timed by wrapping the function that does it (a base revision without it shows 0); a phase that runs in
a child writes its time to a file, so it is counted whichever process ran it. `--fleet N` profiles a
generated fleet (bench/fleet.py), where the per-stack column is what each added stack costs.

    python bench/phase_profile.py [STACK ...] [--project DIR | --fleet N] [--repeat 3] [--base REV]
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

from fleet import write_fleet
from floors import REPO, load_line, machine_line

CHILD = r"""
import json, os, sys, time
started = time.perf_counter()
if os.environ.get("BASE_PATH"):
    sys.path.insert(0, os.environ["BASE_PATH"])
from azure_gpu_stacks.engine import cli
from azure_gpu_stacks.engine.run import children, isolation, monitor, parallel, plan, program_host
imported = time.perf_counter()
log = os.environ["PHASES"]
main_pid = os.getpid()

def record(name, seconds):
    with open(log, "a") as fh:
        fh.write(json.dumps([name, seconds]) + "\n")

def timed(name, function):
    def wrapper(*args, **kwargs):
        begin = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            record(name, time.perf_counter() - begin)
    return wrapper

def wrap(owner, attribute, name):
    if hasattr(owner, attribute):  # a base revision may not have it
        setattr(owner, attribute, timed(name, getattr(owner, attribute)))

for name, attribute in (("stack file + fake ARM", "load_stack"), ("stack file + fake ARM", "make_arm"),
                        ("environment probe", "python_for"), ("program run (engine process, wall)", "_run_forked"),
                        ("program run (engine process, wall)", "_run_executed"), ("policy pack", "analyze"),
                        ("cost", "estimate_resources"), ("program child: Pulumi runtime + program", "run_hosted"),
                        ("plan in all (check process, wall)", "plan_stack")):
    wrap(plan, attribute, name)
wrap(parallel, "preload", "preload (SDK classes, catalog: before any fork)")
try:
    from azure_gpu_stacks.engine.run import sdk_types
    wrap(sdk_types, "read_classes", "check process: SDK types of each plan read")
except ImportError:  # a base revision without it
    pass
wrap(children, "call", "engine process: fork to plan back (wall)")
wrap(children, "_send", "engine process: plan pickled and written")
wrap(children.Call, "outcome", "check process: plan read back")
wrap(monitor.MonitorServer, "start", "engine process: gRPC server start")
wrap(monitor.MonitorServer, "stop", "engine process: gRPC server stop")
wrap(program_host, "connect", "program child: channel set-up")
try:
    from azure_gpu_stacks.engine.run import socket_channel
    wrap(socket_channel.SocketServer, "serve", "engine process: socket pair read and answered (engine calls in it)")
except ImportError:  # a base revision without it (its programs talk gRPC)
    pass
for method in monitor.MONITOR_METHODS:
    wrap(monitor._MonitorServicer, method, "engine calls (the fake ARM's answers, in the server)")
real_fork = os.fork
def fork():
    begin = time.perf_counter()
    pid = real_fork()
    if pid:
        side = "check process: fork" if os.getpid() == main_pid else "engine process: fork of the program child"
        record(side + " (parent's side)", time.perf_counter() - begin)
    return pid
os.fork = fork
record("imports", imported - started)
try:
    cli.main(sys.argv[1:])
except SystemExit:
    pass
record("after the imports (wall)", time.perf_counter() - imported)
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
    parser.add_argument("--fleet", type=int, help="profile a generated fleet of N stacks (bench/fleet.py) instead")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--base", help="also profile this revision's code, runs interleaved (bench/engine_process_bench.py)"
    )
    args = parser.parse_args()
    print(machine_line())
    print(load_line("before"))
    with tempfile.TemporaryDirectory(prefix="gpu-stacks-bench-") as tmp:
        project = str(write_fleet(args.fleet, Path(tmp) / "fleet")) if args.fleet else args.project
        argv = ["check", "--jobs", "1", *(["--project", project] if project else []), *args.stacks]
        count = args.fleet or len(args.stacks) or len(list((Path(project or REPO) / "stacks").glob("Pulumi.*.yaml")))
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
    print(f"{count} stacks; each phase in all, then per stack")
    print(f"{'phase (best run by wall time)':58} " + " ".join(f"{side:>24}" for side in best))
    for name in names:
        print(
            f"{name:58} "
            + " ".join(
                f"{1000 * found.get(name, 0.0):9.0f} ms {1000 * found.get(name, 0.0) / count:7.1f} ms/stack"
                for found in best.values()
            )
        )
    print(load_line("after"))


if __name__ == "__main__":
    main()
