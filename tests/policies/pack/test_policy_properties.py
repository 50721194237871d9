"""Property-based: whatever properties a resource holds, no policy of the pack raises.

Random property trees (unknowns of every kind, secrets, None, wrong types, deep nesting, the key
names the policies read) on random resources of the types the policies look at, fed two ways:
- through `azure_gpu_stacks.engine.run.policy_run.analyze`, the servicer path `gpu-stacks check` and the Pulumi CLI
  take (properties arrive as read-only proxies that raise on unknowns; an exception a policy raises
  there escapes `analyze` and would fail the whole check);
- to each policy's own `validate`, with plain dicts, as a test or another pack calls it.
A violation is fine; an exception, or a violation without a message, is not.
"""

from __future__ import annotations

import math
from typing import Any

import pulumi
import pytest
from azure_gpu_stacks.engine.errors import InputError
from azure_gpu_stacks.engine.run.policy_config import resolve
from azure_gpu_stacks.engine.run.policy_run import MAX_PROPERTY_DEPTH, analyze, pack_policies
from azure_gpu_stacks.engine.run.runtime import RecordedResource
from azure_gpu_stacks.sdk.internals import UNKNOWN_VALUES, secret
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pulumi_policy import (
    PolicyCustomTimeouts,
    PolicyResource,
    PolicyResourceOptions,
    ResourceValidationArgs,
    ResourceValidationPolicy,
    StackValidationArgs,
    StackValidationPolicy,
)

STACK = "urn:pulumi:prop::azure-gpu-stacks::"
TYPES = [
    "azure-native:resources:ResourceGroup",
    "azure-native:compute:VirtualMachine",
    "azure-native:compute:VirtualMachineScaleSet",
    "azure-native:containerservice:ManagedCluster",
    "azure-native:containerservice:AgentPool",
    "azure-native:machinelearningservices:Compute",
    "azure-native:network:NetworkSecurityGroup",
    "azure-native:network:SecurityRule",
    "azure-native:devtestlab:GlobalSchedule",
    "azure-native:consumption:Budget",
    "azure-gpu-stacks:index:GpuVm",
    "kubernetes:core/v1:Namespace",
]
# Names the policies read, so that random trees reach their branches rather than only missing keys.
KEYS = [
    "resourceGroupName",
    "location",
    "hardwareProfile",
    "vmSize",
    "sku",
    "name",
    "capacity",
    "tier",
    "osProfile",
    "linuxConfiguration",
    "disablePasswordAuthentication",
    "virtualMachineProfile",
    "orchestrationMode",
    "singlePlacementGroup",
    "proximityPlacementGroup",
    "id",
    "agentPoolProfiles",
    "nodeTaints",
    "count",
    "minCount",
    "maxCount",
    "enableAutoScaling",
    "mode",
    "properties",
    "computeType",
    "scaleSettings",
    "minNodeCount",
    "maxNodeCount",
    "nodeIdleTimeBeforeScaleDown",
    "securityRules",
    "direction",
    "access",
    "protocol",
    "sourceAddressPrefix",
    "sourceAddressPrefixes",
    "destinationPortRange",
    "destinationPortRanges",
    "taskType",
    "status",
    "targetResourceId",
    "scope",
    "amount",
    "notifications",
    "enabled",
    "threshold",
    "contactEmails",
    "timeGrain",
    "tags",
    "priority",
]
STRINGS = [
    "Standard_NC4as_T4_v3",
    "Standard_NC6",
    "Standard_ND96asr_v4",
    "Standard_NC24ads_A100_v4",
    "Standard_D4s_v5",
    "Uniform",
    "Flexible",
    "Inbound",
    "Allow",
    "Tcp",
    "*",
    "22",
    "3389",
    "20-25",
    "Internet",
    "0.0.0.0/0",
    "sku=gpu:NoSchedule",
    "AmlCompute",
    "PT15M",
    "ComputeVmShutdownTask",
    "Enabled",
    "/subscriptions/0/resourceGroups/rg",
    "rg",
    "eastus",
    "a@example.com",
    "",
]


class Weird:
    """A value of a type no property ever has."""


UNKNOWN_SENTINELS = sorted(UNKNOWN_VALUES.values())


def resource_lists(finite: bool) -> st.SearchStrategy[list[tuple[str, dict[str, Any]]]]:
    """Stacks of random resources; `finite`: no infinity or NaN (the servicer path refuses those, see below)."""
    leaves = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**53), 2**53),
        st.floats(allow_nan=not finite, allow_infinity=not finite),
        st.text(max_size=12),
        st.sampled_from(STRINGS),
        st.sampled_from(UNKNOWN_SENTINELS),
        st.just(pulumi.UNKNOWN),
    )
    trees = st.recursive(
        leaves,
        lambda children: st.one_of(
            st.lists(children, max_size=4),
            st.dictionaries(st.one_of(st.sampled_from(KEYS), st.text(max_size=8)), children, max_size=5),
            children.map(secret),
        ),
        max_leaves=40,
    )
    properties = st.dictionaries(st.sampled_from(KEYS), trees, max_size=8)
    return st.lists(st.tuples(st.sampled_from(TYPES), properties), min_size=1, max_size=6)


leaves = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8), st.sampled_from(UNKNOWN_SENTINELS))


def deep(depth: int, leaf: Any) -> Any:
    """`depth` levels of alternating maps and lists around `leaf`."""
    value = leaf
    for level in range(depth):
        value = {"properties": value} if level % 2 else [value]
    return value


def recorded(stack: list[tuple[str, dict[str, Any]]]) -> list[RecordedResource]:
    urns = [f"{STACK}{t}::r{i}" for i, (t, _) in enumerate(stack)]
    return [
        RecordedResource(
            urn=urns[i],
            type=t,
            name=f"r{i}",
            parent=None,
            custom=True,
            protect=False,
            inputs=props,
            dependencies=tuple(urns[:i]),  # each resource depends on those before it, as a program's often do
        )
        for i, (t, props) in enumerate(stack)
    ]


def assert_no_escape_through_the_servicer(stack: list[tuple[str, dict[str, Any]]]) -> None:
    violations = analyze(recorded(stack))  # raises what any policy raises

    assert all(v.message and v.policy for v in violations), violations


def options() -> PolicyResourceOptions:
    return PolicyResourceOptions(False, [], False, [], PolicyCustomTimeouts(0, 0, 0), [])


def call_every_validate(stack: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """Each policy's own validate, called as a test calls it: plain dicts, the pack's default config."""
    config = resolve(list(pack_policies()))
    messages: list[str] = []

    def report(message: str, urn: str | None = None) -> None:
        messages.append(message)

    for policy in pack_policies():
        props = config[policy.name].properties
        if isinstance(policy, ResourceValidationPolicy):
            for i, (t, p) in enumerate(stack):
                policy.validate(
                    ResourceValidationArgs(t, p, f"{STACK}{t}::r{i}", f"r{i}", options(), None, props), report
                )
        elif isinstance(policy, StackValidationPolicy):
            resources = [
                PolicyResource(t, p, f"{STACK}{t}::r{i}", f"r{i}", options(), None, None, [], {})
                for i, (t, p) in enumerate(stack)
            ]
            policy.validate(StackValidationArgs(resources, props), report)
    return messages


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(resource_lists(finite=True))
def test_policy_properties_nothing_escapes_the_servicer(stack: list[tuple[str, dict[str, Any]]]) -> None:
    assert_no_escape_through_the_servicer(stack)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(resource_lists(finite=False))
def test_policy_properties_nothing_escapes_validate(stack: list[tuple[str, dict[str, Any]]]) -> None:
    assert all(isinstance(m, str) and m for m in call_every_validate(stack))


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(TYPES), st.sampled_from(KEYS), st.integers(2, 1000), st.one_of(leaves, st.just(Weird())))
def test_policy_properties_deep_nesting_and_foreign_types(resource_type: str, key: str, depth: int, leaf: Any) -> None:
    """Nesting at and far beyond what the engine can send, and (called directly) values of no JSON type."""
    plain = leaf if not isinstance(leaf, Weird) else None  # the wire holds JSON only
    stack = [(resource_type, {key: deep(depth, plain)})]
    if depth <= MAX_PROPERTY_DEPTH:
        assert_no_escape_through_the_servicer(stack)
    else:
        with pytest.raises(
            InputError, match=rf"^r0 \[{resource_type}\]: input {key}(\.properties|\[0\])+: nested deeper"
        ):
            analyze(recorded(stack))
    call_every_validate([(resource_type, {key: deep(depth, leaf)}), (resource_type, {key: leaf})])


@pytest.mark.parametrize("number", [math.inf, -math.inf, math.nan])
def test_policy_properties_non_finite_number_is_bad_input_naming_resource_and_key(number: float) -> None:
    """pulumi-policy cannot read infinity or NaN (its request-to-JSON step raises); `analyze` says
    which resource and property hold one, as an InputError (exit 2), rather than crash."""
    stack = [("azure-native:consumption:Budget", {"notifications": {"a": {"threshold": [1.0, number]}}})]

    with pytest.raises(InputError) as error:
        analyze(recorded(stack))

    assert str(error.value) == (
        f"r0 [azure-native:consumption:Budget]: input notifications.a.threshold[1]: {number}; allowed: a finite number "
        "(the policy pack cannot read it, under `pulumi preview` either)"
    )


def test_policy_properties_known_bad_resource_still_reported() -> None:
    """The properties tests are not vacuous: the same paths report a violation they should."""
    retired = [("azure-native:compute:VirtualMachine", {"hardwareProfile": {"vmSize": "Standard_NC6"}})]

    assert any(v.policy == "disallow-retired-vm-sizes" for v in analyze(recorded(retired)))
    assert any("Standard_NC6" in m for m in call_every_validate(retired))
