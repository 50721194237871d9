"""The two floors an offline check cannot go below, measured on this machine in this run.

- Import floor: a bare Python process importing pulumi, pulumi_policy and every pulumi-azure-native
  and pulumi-kubernetes module the shipped stacks use, touching one class in each (the SDK loads a
  module's classes lazily, on first touch).
- Runtime floor: the same stack programs under Pulumi's own mock runtime (`pulumi.runtime.set_mocks`)
  with mocks that only echo the inputs back: no fake ARM, no recording, no policies, no cost. Run in
  one process after a warm-up run of each program, so it is the runtime's cost, not the imports'.

    python bench/floors.py [--project DIR] [STACK...]     # prints the runtime floor as JSON
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import runpy
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]

# (module, one class in it): every provider module a shipped stack registers a resource of.
IMPORTED = [
    ("pulumi_azure_native.resources", "ResourceGroup"),
    ("pulumi_azure_native.network", "VirtualNetwork"),
    ("pulumi_azure_native.compute", "VirtualMachine"),
    ("pulumi_azure_native.devtestlab", "GlobalSchedule"),
    ("pulumi_azure_native.consumption", "Budget"),
    ("pulumi_azure_native.machinelearningservices", "Workspace"),
    ("pulumi_azure_native.storage", "StorageAccount"),
    ("pulumi_azure_native.keyvault", "Vault"),
    ("pulumi_azure_native.containerregistry", "Registry"),
    ("pulumi_azure_native.applicationinsights", "Component"),
    ("pulumi_azure_native.operationalinsights", "Workspace"),
    ("pulumi_azure_native.containerservice", "ManagedCluster"),
    ("pulumi_azure_native.authorization", "RoleAssignment"),
    ("pulumi_kubernetes", "Provider"),
    ("pulumi_kubernetes.core.v1", "Namespace"),
    ("pulumi_kubernetes.apps.v1", "DaemonSet"),
]
IMPORT_FLOOR = "import importlib, pulumi, pulumi_policy\n" + "".join(
    f"importlib.import_module({module!r}).{cls}\n" for module, cls in IMPORTED
)


def machine_line() -> str:
    """The first line of every benchmark's output: the day, the machine, its cores and Python."""
    return (
        f"{time.strftime('%Y-%m-%d')}, {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )


def load_line(when: str) -> str:
    """`load average before the run: 0.24 1.51 2.55`: what else the machine was doing."""
    return f"load average {when} the run: {' '.join(f'{x:.2f}' for x in os.getloadavg())}"


@dataclass(frozen=True)
class Measured:
    seconds: float
    peak_rss_mb: float  # the process's own peak resident set (and its children's, if any)
    # user + system CPU of the process and every descendant it waited for (wait4(2)): steadier than the wall
    # time on a shared machine, where other work takes turns on the cores
    cpu_seconds: float = 0.0


def measure(command: list[str], cwd: Path = REPO) -> Measured:
    """Wall time and peak RSS of one process run to completion; its stdout is discarded."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    stderr = process.stderr.read().decode() if process.stderr else ""
    if process.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(command)} exited {process.returncode}: {stderr}")
    return Measured(seconds, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime)


def best(command: list[str], repeat: int) -> Measured:
    runs = [measure(command) for _ in range(repeat)]
    return Measured(min(r.seconds for r in runs), max(r.peak_rss_mb for r in runs))


def import_floor(repeat: int = 3) -> Measured:
    return best([sys.executable, "-c", IMPORT_FLOOR], repeat)


SPIN = "x = 0\nfor i in range(20_000_000):\n    x += i * i\n"


def parallel_floor(jobs: int) -> float:
    """What `jobs` processes get from the machine right now: the wall time of `jobs` copies of a
    pure-Python loop run at once, over the time of running them one after another (1/jobs when each
    process has a core to itself; 1.0 when they share one, e.g. other work holds the rest)."""
    one = measure([sys.executable, "-c", SPIN]).seconds
    start = time.perf_counter()
    processes = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(jobs)]
    for process in processes:
        process.wait()
    return (time.perf_counter() - start) / (jobs * one)


@dataclass(frozen=True)
class RuntimeFloor:
    stacks: dict[str, tuple[int, float]]  # stack -> (resources registered, seconds)
    cpu: dict[str, float] | None = None  # stack -> CPU seconds of its run (user + system)

    @property
    def seconds(self) -> float:
        return sum(s for _, s in self.stacks.values())

    @property
    def cpu_seconds(self) -> float:
        return sum((self.cpu or {}).values())

    @property
    def resources(self) -> int:
        return sum(n for n, _ in self.stacks.values())


def runtime_floor(project: Path = REPO, stacks: list[str] | None = None) -> RuntimeFloor:
    """Measured in a fresh process, so the check's imports and state are not shared with it."""
    done = subprocess.run(
        [sys.executable, str(Path(__file__)), "--project", str(project), *(stacks or [])],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    found = json.loads(done.stdout).items()
    return RuntimeFloor({k: (v[0], v[1]) for k, v in found}, {k: v[2] for k, v in found if len(v) > 2})


def _echo_run(main_file: Path, project: str, stack: str, config: dict[str, str], secret_keys: list[str]) -> int:
    import pulumi

    class Echo(pulumi.runtime.Mocks):
        registered = 0

        def new_resource(self, args: pulumi.runtime.MockResourceArgs) -> tuple[str, dict[str, Any]]:
            Echo.registered += 1
            return f"{args.name}-id", dict(args.inputs)

        def call(self, args: pulumi.runtime.MockCallArgs) -> tuple[dict[str, Any], list[Any]]:
            return dict(args.args), []

    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    pulumi.runtime.reset_options()
    pulumi.runtime.set_all_config(config, secret_keys)
    pulumi.runtime.set_mocks(Echo(), project=project, stack=stack, preview=False)
    pulumi.runtime.test(lambda: runpy.run_path(str(main_file), run_name="__main__"))()
    pulumi.runtime.reset_options()
    asyncio.set_event_loop(None)
    loop.close()
    return Echo.registered


def _main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--project", type=Path, default=REPO)
    parser.add_argument("stacks", nargs="*")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    from azure_gpu_stacks.engine.run.project import load_project, load_stack

    project = load_project(args.project)
    names = args.stacks or project.stacks()
    os.chdir(project.root)
    sys.path.insert(0, str(project.root))
    settings = {name: load_stack(project, name) for name in names}
    warmed: set[str] = set()
    for s in settings.values():  # one warm-up run of each distinct program shape loads its modules
        shape = json.dumps(sorted(k for k in s.config if not k.endswith((":tags", ":location"))))
        if shape not in warmed:
            warmed.add(shape)
            _echo_run(project.main_file, project.name, s.name, s.config, s.secret_keys)
    result = {}
    for name, s in settings.items():
        start, cpu = time.perf_counter(), time.process_time()
        count = _echo_run(project.main_file, project.name, s.name, s.config, s.secret_keys)
        result[name] = (count, time.perf_counter() - start, time.process_time() - cpu)
    print(json.dumps(result))


if __name__ == "__main__":
    _main()
