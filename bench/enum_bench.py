"""Benchmark: what Azure's published enums (the fake ARM's outside check) add to `gpu-stacks check`.

`gpu-stacks check --jobs 1` of the shipped stacks, each run a fresh process, with the enum check and
with it switched off (`FakeArm(check_enums=False)`), alternating so that other work on the machine
hits both alike; the best of each is kept. The figure is the ratio with/without. The same plans are
then made in this process (imports paid once), which shows the check's own cost without the noise
of process start-up on a busy machine.

    python bench/enum_bench.py [--repeat 5]

Target (issue 13): at most 1.10x.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from floors import load_line, machine_line, measure

# A check in which every FakeArm is made with check_enums as given on the command line.
DRIVER = """
import sys
import azure_gpu_stacks.fakeazure.backend as backend
init = backend.FakeArm.__init__
enums = sys.argv[1] == "on"
def patched(self, *args, **kwargs):
    kwargs["check_enums"] = enums
    init(self, *args, **kwargs)
backend.FakeArm.__init__ = patched
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
    print(f"check shipped, enums off   {min(off):6.2f} s  (best of {args.repeat})")
    print(f"check shipped, enums on    {min(on):6.2f} s  (best of {args.repeat})")
    print(f"ratio on/off               {min(on) / min(off):6.3f}x   target <= 1.10x")
    warm_off, warm_on = in_process(args.repeat)
    print(f"plans in-process, off/on   {warm_off:6.3f} s / {warm_on:.3f} s   ratio {warm_on / warm_off:.3f}x")


def in_process(repeat: int) -> tuple[float, float]:
    """Best seconds to plan every shipped stack in this process, enums off and on (after one warm-up)."""
    import azure_gpu_stacks.fakeazure.backend as backend
    from azure_gpu_stacks.catalog.clock import utc_today
    from azure_gpu_stacks.engine.run.plan import plan_stack
    from azure_gpu_stacks.engine.run.project import load_project

    project = load_project(Path(__file__).resolve().parents[1])
    init = backend.FakeArm.__init__
    times: dict[bool, list[float]] = {False: [], True: []}
    for round_ in range(repeat + 1):
        for enums in (False, True):

            def patched(self: backend.FakeArm, *a: object, _enums: bool = enums, **kw: object) -> None:
                kw["check_enums"] = _enums
                init(self, *a, **kw)  # type: ignore[arg-type]

            backend.FakeArm.__init__ = patched  # type: ignore[method-assign]
            start = time.perf_counter()
            for stack in project.stacks():
                plan_stack(project, stack, day=utc_today())
            if round_:
                times[enums].append(time.perf_counter() - start)
    backend.FakeArm.__init__ = init  # type: ignore[method-assign]
    return min(times[False]), min(times[True])


if __name__ == "__main__":
    main()
