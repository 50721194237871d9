"""policies/stack_resources.py: what the engine hands a stack policy, as the plain resources the catalog's demand and
cost readers take. In-process, on resources as pulumi_policy's PolicyResource carries them (urn, resource_type,
name, props, dependencies)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from azure_gpu_stacks.catalog.demand import ResourceInputs
from azure_gpu_stacks.policies.stack_resources import MAX_DEPTH, plain_copy, resource_inputs

from tests.policy_helpers import STACK, UNKNOWN

VM = "azure-native:compute:VirtualMachine"


@dataclass
class Resource:
    urn: str
    resource_type: str
    name: str
    props: Any
    dependencies: list[Any] = field(default_factory=list)


@dataclass
class Dependency:
    urn: str


def test_a_resource_becomes_plain_inputs_with_its_dependencies_urns_in_order() -> None:
    props = {"hardwareProfile": {"vmSize": "Standard_NC4as_T4_v3"}, "zones": ("1", UNKNOWN), "osProfile": UNKNOWN}
    deps = [Dependency(f"{STACK}azure-native:network:NetworkInterface::nic"), Dependency(f"{STACK}x:y:Z::b")]
    resource = Resource(f"{STACK}{VM}::vm", "azure-native:compute/v20240301:VirtualMachine", "vm", props, deps)

    assert resource_inputs(resource) == ResourceInputs(
        f"{STACK}{VM}::vm",
        VM,  # without the API-version module
        "vm",
        {"hardwareProfile": {"vmSize": "Standard_NC4as_T4_v3"}, "zones": ["1", None], "osProfile": None},
        (f"{STACK}azure-native:network:NetworkInterface::nic", f"{STACK}x:y:Z::b"),
    )


def test_a_resource_without_dependencies_or_with_unknown_props_has_none() -> None:
    resource = Resource(f"{STACK}{VM}::vm", VM, "vm", UNKNOWN)
    del resource.dependencies  # a resource the engine hands without the attribute

    assert resource_inputs(resource) == ResourceInputs(f"{STACK}{VM}::vm", VM, "vm", {}, ())


def _nested(depth: int) -> Any:
    value: Any = "leaf"
    for _ in range(depth):
        value = {"a": [value]}
    return value


def test_values_deeper_than_the_bound_are_none_and_those_within_it_are_kept() -> None:
    within = plain_copy(_nested(MAX_DEPTH // 2))  # each level is a dict and a list: depth 2 per level
    beyond = plain_copy(_nested(MAX_DEPTH))

    assert within == _nested(MAX_DEPTH // 2)
    assert beyond != _nested(MAX_DEPTH) and "leaf" not in repr(beyond) and repr(beyond).count("{") == MAX_DEPTH // 2 + 1
