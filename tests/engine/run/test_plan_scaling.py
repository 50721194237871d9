"""Programs as large as real team stacks plan (issue 24: >~60 resources once died of RecursionError),
in the order the program registers them, the same every run. Timing is bench/plan_scaling_bench.py's."""

from __future__ import annotations

from pathlib import Path

from azure_gpu_stacks.catalog.clock import utc_today
from azure_gpu_stacks.engine.run.isolation import Limits
from azure_gpu_stacks.engine.run.plan import plan_stack
from azure_gpu_stacks.engine.run.project import load_project

from tests.generated_programs import gpu_vms, resource_groups

GPU_VM = "azure-gpu-stacks:index:GpuVm"
VIRTUAL_MACHINE = "azure-native:compute:VirtualMachine"


# Time is not what these assert (bench/plan_scaling_bench.py measures it), and a busy CI machine is slow.
NO_DEADLINE = Limits(timeout_s=3600)


# 2000 is past any real stack, and far past the ~60 resources that once died of RecursionError. (100 was planned
# too, and 500 before it: each asserted the same order on fewer resources than this plan, 0.3-7 CPU-s more.)
def test_program_of_many_resources_plans_in_its_own_order(tmp_path: Path) -> None:
    count = 2000
    plan = plan_stack(load_project(resource_groups(tmp_path / "p", count)), "dev", limits=NO_DEADLINE, day=utc_today())

    assert [r.name for r in plan.resources] == [f"rg{i}" for i in range(count)]
    assert plan.exit_code == 0, (plan.refusals[:1], plan.violations[:1])


def test_program_of_50_components_plans_each_with_its_children(tmp_path: Path) -> None:
    plan = plan_stack(load_project(gpu_vms(tmp_path / "p", 50)), "dev", limits=NO_DEADLINE, day=utc_today())

    components = [r for r in plan.resources if r.type == GPU_VM]
    assert [c.name for c in components] == [f"vm{i}" for i in range(50)]
    vms = [r for r in plan.resources if r.type == VIRTUAL_MACHINE]
    assert sorted(vm.parent or "" for vm in vms) == sorted(c.urn for c in components)
