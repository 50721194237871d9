"""Benchmark: what running each program in its own forked child costs (`azure_gpu_stacks.engine.run.isolation`).

In one process, after the imports: the shipped stacks planned with each program in a child (what
`gpu-stacks` does) and in-process (isolation switched off, as before it existed), interleaved so
that both meet the same machine load; the best round of each is kept. The figure is the ratio
isolated / in-process for the whole set of stacks, and the fork's own cost per stack.

Then the two ways a child runs the program: a generated project of `--resources` resource groups
planned with no environment named (forked from this process, the SDK already imported) and with
Pulumi.yaml naming a virtual environment (its interpreter executed on engine/run/program_host.py,
importing the SDK itself), interleaved, best of the rounds; the figure is exec / fork. The
environment is made here with `python -m venv --without-pip` and a `.pth` lending it this
environment's packages (as tests/engine/run/test_project_venv.py does), so nothing is downloaded.

    python bench/isolation_bench.py [--rounds 5] [--resources 50]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from azure_gpu_stacks.catalog.clock import utc_today
from azure_gpu_stacks.engine.run import heap, isolation, plan
from azure_gpu_stacks.engine.run.parallel import preload
from azure_gpu_stacks.engine.run.project import load_project
from floors import REPO, load_line, machine_line

from tests.generated_programs import resource_groups


def plan_all(isolated: bool) -> float:
    project = load_project(REPO)
    original = isolation.isolation_available
    if not isolated:
        isolation.isolation_available = lambda: False  # type: ignore[assignment]
    try:
        start = time.perf_counter()
        for name in project.stacks():
            plan.plan_stack(project, name, day=utc_today())
        return time.perf_counter() - start
    finally:
        isolation.isolation_available = original  # type: ignore[assignment]


def fork_only() -> float:
    """A child that does nothing but hand back None: the fixed cost of isolation per program."""
    start = time.perf_counter()
    for _ in range(20):
        isolation.run_isolated(lambda: None, str, isolation.Limits(), "nothing")
    return (time.perf_counter() - start) / 20


def exec_and_fork_projects(directory: Path, resources: int) -> tuple[Path, Path]:
    """The same generated program twice: with no environment named, and naming a venv of its own."""
    venv = directory / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    (venv / "lib" / version / "site-packages" / "lent.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    forked = resource_groups(directory / "forked", resources)
    executed = resource_groups(directory / "executed", resources)
    (executed / "Pulumi.yaml").write_text(
        f"name: generated\nruntime:\n  name: python\n  options:\n    virtualenv: {venv}\n"
    )
    return forked, executed


def plan_once(root: Path) -> float:
    project = load_project(root)
    start = time.perf_counter()
    plan.plan_stack(project, "dev", day=utc_today())
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--resources", type=int, default=50)
    args = parser.parse_args()
    print(machine_line())
    print(load_line("before"))
    preload()
    heap.freeze()
    plan_all(True), plan_all(False)  # warm-up: every kind of stack once each way
    isolated, inline = [], []
    for _ in range(args.rounds):
        isolated.append(plan_all(True))
        inline.append(plan_all(False))
    stacks = len(load_project(REPO).stacks())
    print(f"shipped stacks in-process      {min(inline):6.3f} s  ({stacks} stacks, best of {args.rounds})")
    print(f"shipped stacks, child each     {min(isolated):6.3f} s  {min(isolated) / min(inline):5.2f}x")
    print(f"fork, run nothing, hand back   {1000 * fork_only():6.1f} ms per program")
    with tempfile.TemporaryDirectory(prefix="isolation-bench-") as directory:
        forked_root, executed_root = exec_and_fork_projects(Path(directory), args.resources)
        plan_once(forked_root), plan_once(executed_root)  # warm-up: the environment's probe is made once
        forked, executed = [], []
        for _ in range(args.rounds):
            forked.append(plan_once(forked_root))
            executed.append(plan_once(executed_root))
    print(f"{args.resources} resource groups, forked  {min(forked):6.3f} s  (best of {args.rounds})")
    print(f"the same, project's venv (exec) {min(executed):6.3f} s  {min(executed) / min(forked):5.2f}x")
    print(load_line("after"))


if __name__ == "__main__":
    main()
