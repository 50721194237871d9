"""The plan as a picture: every resource a node, parents and dependencies as arrows, each component's GPU cost."""

from __future__ import annotations

import dataclasses
import functools

import pytest
from azure_gpu_stacks.catalog.clock import utc_today
from azure_gpu_stacks.engine.report.graph import MAX_NODES, mermaid, tree
from azure_gpu_stacks.engine.run.plan import Plan, plan_stack
from azure_gpu_stacks.engine.run.project import load_project
from azure_gpu_stacks.engine.run.runtime import RecordedResource

from tests.conftest import REPO
from tests.policy_helpers import catalog_size

HOURS_PER_MONTH = 730  # docs/prices.md: the month every monthly figure is


@functools.cache
def t4_plan() -> Plan:
    return plan_stack(load_project(REPO), "inference-t4", day=utc_today())


def test_every_resource_is_a_node_and_every_child_hangs_from_its_parent() -> None:
    plan = t4_plan()
    lines = mermaid(plan)
    ids = {r.urn: f"r{i}" for i, r in enumerate(plan.resources)}

    assert lines[0] == "```mermaid" and lines[-1] == "```"
    for r in plan.resources:
        assert any(line.strip().startswith(f'{ids[r.urn]}["{r.name}<br/>') or line.strip().startswith(
            f'{ids[r.urn]}(["{r.name}<br/>') for line in lines)  # fmt: skip
        if r.parent is not None:
            assert f"  {ids[r.parent]} --> {ids[r.urn]}" in lines


def test_the_vm_component_shows_its_busy_cost_from_the_catalog_price() -> None:
    price = catalog_size("Standard_NC4as_T4_v3")["prices"]["eastus"]["payg"]
    [component] = [line for line in mermaid(t4_plan()) if '(["gpu-vm<br/>' in line]

    assert f"busy {price * HOURS_PER_MONTH:,.2f} / idle " in component
    assert "gpu-vm [GpuVm]  (busy " + f"{price * HOURS_PER_MONTH:,.2f}" in "\n".join(tree(t4_plan()))


def test_dependencies_are_dotted_except_on_the_resource_group() -> None:
    plan = t4_plan()
    ids = {r.urn: f"r{i}" for i, r in enumerate(plan.resources)}
    [vm] = [r for r in plan.resources if r.type == "azure-native:compute:VirtualMachine"]
    [nic] = [r for r in plan.resources if r.type == "azure-native:network:NetworkInterface"]
    [group] = [r for r in plan.resources if r.type == "azure-native:resources:ResourceGroup"]
    lines = mermaid(plan)

    assert nic.urn in vm.dependencies and f"  {ids[nic.urn]} -.-> {ids[vm.urn]}" in lines
    assert group.urn in vm.dependencies and f"  {ids[group.urn]} -.-> {ids[vm.urn]}" not in lines


def test_the_tree_indents_children_under_their_component() -> None:
    lines = tree(t4_plan())
    at = lines.index(next(line for line in lines if line.startswith("gpu-vm [GpuVm]")))

    assert lines[at + 1].startswith("  gpu-vm-")


@pytest.mark.parametrize("count", [MAX_NODES + 5, 400])
def test_a_large_stack_is_cut_and_says_how_many_more(count: int) -> None:
    resources = tuple(
        RecordedResource(f"urn:pulumi:s::p::azure-native:resources:ResourceGroup::rg{i}",
                         "azure-native:resources:ResourceGroup", f"rg{i}", None, True, False, {})
        for i in range(count)
    )  # fmt: skip
    plan = dataclasses.replace(t4_plan(), resources=resources)
    lines = mermaid(plan)

    assert sum(1 for line in lines if line.startswith("  r")) == MAX_NODES
    assert f'  more["… and {count - MAX_NODES} more resources"]' in lines
    assert len(tree(plan)) == count


def test_a_quote_in_a_name_cannot_end_the_label() -> None:
    odd = RecordedResource('urn:pulumi:s::p::azure-native:resources:ResourceGroup::a"b',
                           "azure-native:resources:ResourceGroup", 'a"b', None, True, False, {})  # fmt: skip
    [node] = [line for line in mermaid(dataclasses.replace(t4_plan(), resources=(odd,))) if line.startswith("  r0")]

    assert node == '  r0["a#quot;b<br/><small>resources:ResourceGroup</small>"]'


def test_the_same_plan_draws_the_same_lines_whatever_order_the_engine_recorded_dependencies_in() -> None:
    """The engine records a resource's dependencies in an order that varies from run to run: a PR comment and a
    merged report must not change when the stack did not."""
    plan = t4_plan()
    reversed_dependencies = tuple(dataclasses.replace(r, dependencies=r.dependencies[::-1]) for r in plan.resources)

    assert any(len(r.dependencies) > 1 for r in plan.resources)  # there is an order to vary
    assert mermaid(dataclasses.replace(plan, resources=reversed_dependencies)) == mermaid(plan)
