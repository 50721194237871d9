"""Which resource group a resource lives in and which groups a budget covers (policies/resource_groups.py), as the
stack policies that pair a GPU resource with its budget read them: from the names when they are known, and before
deployment from the `ResourceGroup` the resource was built from, which the engine reports as its dependencies and,
per property, its property dependencies (the Pulumi CLI sends both to a stack policy; pulumi_policy's
PolicyResource holds them). Called directly on PolicyResource objects built as pulumi_policy builds them."""

from __future__ import annotations

from typing import Any

import pulumi_policy
from azure_gpu_stacks.policies.resource_groups import resource_group_of, scope_coverage
from azure_gpu_stacks.policies.values import get

from tests.policy_helpers import STACK, UNKNOWN

GROUP = "azure-native:resources:ResourceGroup"
BUDGET = "azure-native:consumption:Budget"
VM = "azure-native:compute:VirtualMachine"
SUB = "/subscriptions/00000000-0000-0000-0000-0000000000aa"


def resource(
    kind: str,
    name: str,
    props: dict[str, Any],
    depends_on: tuple[pulumi_policy.PolicyResource, ...] = (),
    by_property: dict[str, list[pulumi_policy.PolicyResource]] | None = None,
) -> pulumi_policy.PolicyResource:
    options = pulumi_policy.PolicyResourceOptions(False, [], None, [], pulumi_policy.PolicyCustomTimeouts(0, 0, 0), [])
    urn = f"{STACK}{kind}::{name}"
    return pulumi_policy.PolicyResource(
        kind, props, urn, name, options, None, None, list(depends_on), by_property or {}
    )


def group(name: str) -> pulumi_policy.PolicyResource:
    return resource(GROUP, f"{name}-resource", {"resourceGroupName": name, "location": "eastus"})


def test_a_resource_group_is_its_own_group_by_either_name_property() -> None:
    assert resource_group_of(group("rg-gpu")) == "rg-gpu"
    assert resource_group_of(resource(GROUP, "rg", {"name": "rg-gpu"})) == "rg-gpu"  # a raw program's `name`


def test_a_resource_whose_group_is_unknown_is_in_the_group_it_was_built_from() -> None:
    vm = resource(VM, "vm", {"resourceGroupName": UNKNOWN, "name": "vm"}, depends_on=(group("rg-gpu"),))

    assert resource_group_of(vm) == "rg-gpu"


def test_the_group_a_property_was_built_from_comes_before_the_resources_other_dependencies() -> None:
    gpu, other = group("rg-gpu"), group("rg-other")
    vm = resource(
        VM, "vm", {"resourceGroupName": UNKNOWN}, depends_on=(other, gpu), by_property={"resourceGroupName": [gpu]}
    )
    budget = resource(BUDGET, "budget", {"scope": UNKNOWN}, depends_on=(other, gpu), by_property={"scope": [gpu]})

    assert resource_group_of(vm) == "rg-gpu"
    coverage = scope_coverage(get(budget.props, "scope"), budget)  # as the policies read a budget's scope
    assert coverage is not None and (coverage.resource_groups, coverage.described) == (
        frozenset({"rg-gpu"}),
        "resource group rg-gpu",
    )


def test_a_budget_scope_unknown_without_a_group_to_trace_covers_every_group() -> None:
    coverage = scope_coverage(get({"scope": UNKNOWN}, "scope"))

    assert coverage is not None and (coverage.resource_groups, coverage.described) == (
        None,
        "a scope known only after deployment",
    )


def test_a_budget_without_a_scope_covers_nothing_even_when_built_from_a_group() -> None:
    budget = resource(BUDGET, "budget", {}, depends_on=(group("rg-gpu"),))

    assert scope_coverage(None, budget) is None
    assert scope_coverage(None) is None


def test_a_subscription_or_a_broader_scope_covers_every_group_and_is_named_as_written() -> None:
    # a budget on a management group or a billing account watches every subscription below it
    for scope in (SUB, "/providers/Microsoft.Management/managementGroups/ml"):
        coverage = scope_coverage(scope)
        assert coverage is not None and (coverage.resource_groups, coverage.described) == (None, scope)
