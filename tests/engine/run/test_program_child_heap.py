"""What the garbage collector walks in the processes a plan forks. An engine process leaves what it inherited
out of every collection (frozen, so its pages are never written and copied); a program's child hands back its
outcome and ends (`os._exit`) with no collection of what the run made (a program of 2,000 resource groups
leaves 5.2 million objects, and one collection of them cost a third of the plan's CPU). The cost itself is
bench/plan_cost_bench.py's."""

from __future__ import annotations

import gc
from pathlib import Path

from azure_gpu_stacks.catalog.clock import utc_today
from azure_gpu_stacks.engine.run import children
from azure_gpu_stacks.engine.run.isolation import Limits
from azure_gpu_stacks.engine.run.plan import plan_stack
from azure_gpu_stacks.engine.run.project import load_project

from tests.generated_programs import LOCATION, write_project

# The program says each collection the garbage collector starts, and then that it ended; the cycles it leaves
# behind are what a collection after the run would walk.
PROGRAM = f"""
import gc
import sys

from pulumi_azure_native import resources


def said(phase, info):
    if phase == "start":
        sys.stdout.write(f"collection of generation {{info['generation']}}\\n")


gc.callbacks.append(said)
for i in range(20):
    resources.ResourceGroup(f"rg{{i}}", location="{LOCATION}")
cycles = []
for i in range(5000):
    node = {{}}
    node["self"] = node
    cycles.append(node)
del cycles
print("program ended")
"""


def test_the_program_child_collects_nothing_after_the_program_ended(tmp_path: Path) -> None:
    plan = plan_stack(load_project(write_project(tmp_path / "p", PROGRAM)), "dev", limits=Limits(), day=utc_today())

    assert plan.exit_code == 0, (plan.refusals[:1], plan.errors[:1])
    assert [r.name for r in plan.resources] == [f"rg{i}" for i in range(20)]
    said = plan.program_output.splitlines()
    assert "program ended" in said
    assert said[said.index("program ended") + 1 :] == []


def test_an_engine_process_leaves_what_it_inherited_out_of_its_collections() -> None:
    inherited = len(gc.get_objects())  # what this process holds that the collector tracks

    frozen = children.call(gc.get_freeze_count, 60, "the engine process")

    assert frozen >= inherited
