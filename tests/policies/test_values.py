"""How every policy reads a property (policies/values.py): a value unknown before deployment is unknown whichever
way it arrives, a raw template's "true"/"false" strings are booleans, and a path through lists is named as a
violation names it. Called directly: these are the readers each policy's own tests go through.

The unknown values are the engine's, as pulumi-policy's own proxy holds them (`pulumi_policy.proxy`'s
`UNKNOWN_*_VALUE`, copied from pulumi/pulumi sdk/go/common/resource/plugin/rpc.go), and the SDK's
`pulumi.UNKNOWN`, which a program's recorded inputs hold."""

from __future__ import annotations

from typing import Any

import pulumi
import pulumi_policy.proxy as proxy
import pytest
from azure_gpu_stacks.policies.values import UNKNOWN, flag, get, is_unknown, text, walk

ENGINE_UNKNOWNS = [
    getattr(proxy, name) for name in dir(proxy) if name.startswith("UNKNOWN_") and name.endswith("_VALUE")
]


@pytest.mark.parametrize("value", [*ENGINE_UNKNOWNS, pulumi.UNKNOWN, UNKNOWN])
def test_each_kind_of_unknown_value_is_unknown(value: Any) -> None:
    assert is_unknown(value)
    assert get({"vmSize": value}, "vmSize") is UNKNOWN


def test_seven_kinds_of_engine_unknown_are_read() -> None:
    # boolean, number, string, array, asset, archive, object
    assert len(set(ENGINE_UNKNOWNS)) == 7


@pytest.mark.parametrize("value", ["Standard_NC4as_T4_v3", "", None, 0, False])
def test_a_known_value_is_not_unknown(value: Any) -> None:
    assert not is_unknown(value)


@pytest.mark.parametrize(
    ("value", "read"),
    [(True, True), (False, False), ("true", True), ("false", False), (" True ", True), ("FALSE", False)],
)
def test_a_boolean_is_read_from_a_raw_templates_strings_in_any_case(value: Any, read: bool) -> None:
    # an ARM template written by hand may say "enabled": "true"
    assert flag(value) is read


@pytest.mark.parametrize("value", ["yes", "1", 1, None, "", UNKNOWN])
def test_anything_else_is_no_boolean(value: Any) -> None:
    assert flag(value) is None


def test_an_unknown_string_is_no_text() -> None:
    assert text(proxy.UNKNOWN_STRING_VALUE) is None
    assert text("  gpu  ") == "gpu"


def test_a_path_through_a_list_names_each_item_as_a_violation_does() -> None:
    pools = {"agentPoolProfiles": [{"vmSize": "Standard_D4s_v5"}, {"vmSize": "Standard_NC4as_T4_v3"}]}

    assert list(walk(pools, ("agentPoolProfiles", "*", "vmSize"))) == [
        ("agentPoolProfiles[0].vmSize", "Standard_D4s_v5"),
        ("agentPoolProfiles[1].vmSize", "Standard_NC4as_T4_v3"),
    ]
    assert list(walk(["a", "b"], ("*",))) == [("[0]", "a"), ("[1]", "b")]
    assert list(walk("a", ())) == [("", "a")]


def test_an_unknown_step_names_the_path_left_without_its_lists() -> None:
    # the whole list is unknown before deployment: one unknown, named by the properties under it
    props = {"properties": {"pools": proxy.UNKNOWN_ARRAY_VALUE}}

    assert list(walk(props, ("properties", "pools", "*", "deployment", "vmSize"))) == [
        ("properties.pools.deployment.vmSize", UNKNOWN)
    ]
