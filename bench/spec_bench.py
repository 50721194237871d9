"""Benchmark: what the REST spec's constraints (the fake ARM's `spec` check) add to `gpu-stacks check`.

`gpu-stacks check --jobs 1` of the shipped stacks, each run a fresh process, with the spec check and
with it switched off (`backend.spec_refusals` made to find nothing), alternating so that other work
on the machine hits both alike; the best of each is kept. The figure is the ratio with/without. The same plans are
then made in this process (imports paid once), which shows the check's own cost without the noise
of process start-up on a busy machine.

    python bench/spec_bench.py [--repeat 5]

Target (issue 29): at most 1.05x.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from floors import load_line, machine_line, measure

# A check with the fake's spec check on or off, as given on the command line.
DRIVER = """
import sys
import azure_gpu_stacks.fakeazure.backend as backend
if sys.argv[1] == "off":
    backend.spec_refusals = lambda *args: []
from azure_gpu_stacks.engine.cli import main
code = main(["check", "--jobs", "1", "--format", "json"])
sys.exit(0 if code in (0, 1) else code)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(machine_line())
    print(load_line("before"))
    on, off = [], []
    for _ in range(args.repeat):
        off.append(measure([sys.executable, "-c", DRIVER, "off"]).seconds)
        on.append(measure([sys.executable, "-c", DRIVER, "on"]).seconds)
    print(f"check shipped, spec off    {min(off):6.2f} s  (best of {args.repeat})")
    print(f"check shipped, spec on     {min(on):6.2f} s  (best of {args.repeat})")
    print(f"ratio on/off               {min(on) / min(off):6.3f}x   target <= 1.05x")
    warm_off, warm_on = in_process(args.repeat)
    print(f"plans in-process, off/on   {warm_off:6.3f} s / {warm_on:.3f} s   ratio {warm_on / warm_off:.3f}x")
    seconds, puts = check_alone(args.repeat)
    share = seconds / warm_off
    print(f"the check alone, {puts} PUTs of the shipped stacks: {seconds * 1000:.1f} ms, {share:.4f} of the plans")


def in_process(repeat: int) -> tuple[float, float]:
    """Best seconds to plan every shipped stack in this process, spec check off and on (after one warm-up)."""
    import azure_gpu_stacks.fakeazure.backend as backend
    from azure_gpu_stacks.catalog.clock import utc_today
    from azure_gpu_stacks.engine.run.plan import plan_stack
    from azure_gpu_stacks.engine.run.project import load_project

    project = load_project(Path(__file__).resolve().parents[1])
    check = backend.spec_refusals
    times: dict[bool, list[float]] = {False: [], True: []}
    for round_ in range(repeat + 1):
        for spec in (False, True):
            backend.spec_refusals = check if spec else (lambda *args: [])  # type: ignore[assignment]
            start = time.perf_counter()
            for stack in project.stacks():
                plan_stack(project, stack, day=utc_today())
            if round_:
                times[spec].append(time.perf_counter() - start)
    backend.spec_refusals = check
    return min(times[False]), min(times[True])


def check_alone(repeat: int) -> tuple[float, int]:
    """Best seconds of the spec check over every azure-native PUT of the shipped stacks (their recorded
    inputs), the part of a check the load of a shared machine cannot blur, and the number of PUTs."""
    from azure_gpu_stacks.catalog.clock import utc_today
    from azure_gpu_stacks.engine.run.plan import plan_stack
    from azure_gpu_stacks.engine.run.project import load_project
    from azure_gpu_stacks.fakeazure.errors import ArmError
    from azure_gpu_stacks.fakeazure.spec import refuse_spec_violations
    from azure_gpu_stacks.sdk.values import unwrap_secrets

    project = load_project(Path(__file__).resolve().parents[1])
    puts = [
        (r.type, r.name, unwrap_secrets(dict(r.inputs)))
        for stack in project.stacks()
        for r in plan_stack(project, stack, day=utc_today()).resources
        if r.custom and r.type.startswith("azure-native:")
    ]
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for token, name, props in puts:
            with contextlib.suppress(ArmError):  # a name here is the logical one, not what azure-native sends
                refuse_spec_violations(token, name, props, "eastus")
        best = min(best, time.perf_counter() - start)
    return best, len(puts)


if __name__ == "__main__":
    main()
