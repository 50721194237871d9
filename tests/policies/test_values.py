"""How every policy reads a property (policies/values.py): a value unknown before deployment is unknown whichever
way it arrives, a raw template's "true"/"false" strings are booleans, and a path through lists is named as a
violation names it. Called directly: these are the readers each policy's own tests go through.

The unknown values are the engine's sentinels (pulumi/pulumi sdk/go/common/resource/plugin/rpc.go, `Unknown*Value`,
read 2026-11-27), and the SDK's `pulumi.UNKNOWN`, which a program's recorded inputs hold."""

from __future__ import annotations

from typing import Any

import pulumi
import pulumi_policy
import pytest
from azure_gpu_stacks.policies.values import UNKNOWN, flag, get, is_unknown, text, walk

ENGINE_UNKNOWNS = {
    "boolean": "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7",
    "number": "3eeb2bf0-c639-47a8-9e75-3b44932eb421",
    "string": "04da6b54-80e4-46f7-96ec-b56ff0331ba9",
    "array": "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2",
    "asset": "030794c1-ac77-496b-92df-f27374a8bd58",
    "archive": "e48ece36-62e2-4504-bad9-02848725956a",
    "object": "dd056dcd-154b-4c76-9bd3-c8f88648b5ff",
}


@pytest.mark.parametrize("value", [*ENGINE_UNKNOWNS.values(), pulumi.UNKNOWN, UNKNOWN])
def test_each_kind_of_unknown_value_is_unknown(value: Any) -> None:
    assert is_unknown(value)
    assert get({"vmSize": value}, "vmSize") is UNKNOWN


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
    assert text(ENGINE_UNKNOWNS["string"]) is None
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
    props = {"properties": {"pools": ENGINE_UNKNOWNS["array"]}}

    assert list(walk(props, ("properties", "pools", "*", "deployment", "vmSize"))) == [
        ("properties.pools.deployment.vmSize", UNKNOWN)
    ]


# The engine's secret envelope: the secret signature under the signature key (pulumi/pulumi
# sdk/go/common/resource/sig/sig.go, `Key` and `Secret`, read 2026-11-27).
SIG_KEY, SECRET_SIG = "4dabf18193072939515e22adb298388d", "1b47061264138c4ac30d75fd1eb44270"


def engine_secret(value: Any) -> dict[str, Any]:
    return {SIG_KEY: SECRET_SIG, "value": value}


def test_a_secret_is_read_through_the_engines_envelope_and_as_remediate_gives_it() -> None:
    assert text(engine_secret("Standard_NC4as_T4_v3")) == "Standard_NC4as_T4_v3"
    assert text(pulumi_policy.Secret("Standard_NC4as_T4_v3")) == "Standard_NC4as_T4_v3"
    assert get({"sku": pulumi_policy.Secret({"name": "Standard_NC4as_T4_v3"})}, "sku", "name") == "Standard_NC4as_T4_v3"


def test_a_secret_of_a_secret_is_read_to_a_bounded_depth() -> None:
    # a secret of a secret is legal; the reader unwraps at most 7 envelopes, so a cycle cannot hang it
    nested: Any = "Standard_NC4as_T4_v3"
    for _ in range(7):
        nested = engine_secret(nested)
    assert text(nested) == "Standard_NC4as_T4_v3"
    assert text(engine_secret(nested)) is None


def test_a_property_is_found_under_another_casing_of_its_name() -> None:
    # a raw ARM template may write `VmSize`; the engine sends camelCase `vmSize`
    assert get({"properties": {"VmSize": "Standard_NC4as_T4_v3"}}, "properties", "vmSize") == "Standard_NC4as_T4_v3"
    assert get({"vmSize": "Standard_NC4as_T4_v3", "VMSIZE": "Standard_D4s_v5"}, "vmSize") == "Standard_NC4as_T4_v3"
    assert get({"vmSizes": "Standard_NC4as_T4_v3"}, "vmSize") is None


def test_an_item_is_read_only_from_a_list_and_within_its_bounds() -> None:
    pools = {"agentPoolProfiles": [{"name": "system"}, {"name": "gpu"}], "sku": "Standard", "tags": {"0": "zero"}}

    assert [get(pools, "agentPoolProfiles", i, "name") for i in (0, 1, -1, -2)] == ["system", "gpu", "gpu", "system"]
    assert [get(pools, "agentPoolProfiles", i) for i in (2, -3)] == [None, None]
    assert get(pools, "sku", 0) is None  # a string is no list of characters
    assert get(pools, "tags", 0) is None  # a map is no list


def test_an_unknown_value_is_false_as_an_absent_one_and_named_unknown_in_a_message() -> None:
    # `text(get(...)) or default` and `if value:` treat a value known only after deployment as not given
    assert not UNKNOWN
    assert f"driver {UNKNOWN}" == "driver UNKNOWN"
