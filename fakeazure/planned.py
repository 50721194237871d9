"""What a program sees of a new azure-native resource during `pulumi preview`: its planned outputs.

During a preview the Python SDK runs with `dry_run=True`, and an output the provider does not give a
value for is unknown: `apply` callbacks on it do not run and values derived from it are unknown
(pulumi/pulumi `sdk/python/lib/pulumi/runtime/rpc.py`, `resolve_properties`: "We're previewing. If the
engine was able to give us a reasonable value back, then use it. Otherwise, inform the Output that the
value isn't known."; pulumi docs "Inputs and Outputs", apply during preview; observed 2026-11-26).

azure-native answers a create during preview from Azure's response schema: "If a response property
has a value in inputs with the same name, we take that value. Otherwise, we return a computed
property", nested properties included (`identity.principalId` beside an input `identity.type`)
(pulumi/pulumi-azure-native#408, "Populate unknown outputs during preview"), and keeps the resource's
`name` and `location` known (pulumi/pulumi-azure-native#282, "provider-side preview to ensure stability
of name and location"; both observed 2026-11-26).

Here the response is the fake ARM's own answer (`FakeArm.put`): every property it answers that the
inputs do not give is sent as the engine's unknown sentinel, at any depth. One deliberate difference:
the id stays known, because it is the PUT's path (subscription, group, type and name, all known once
the provider has named the resource) and the fake ARM checks every reference by it; a callback on an id
alone therefore runs offline where a preview would leave it.

Under `plan --preview` (ids unknown too) no PUT is made, so there is no answer to start from: the shape is
the type's response schema as the installed SDK holds it (the resource class's output properties and their
`*Response` types), walked as azure-native's `SdkShapeConverter.PreviewOutputs` walks it
(pulumi/pulumi-azure-native `provider/pkg/resources/convert.go`, observed 2026-11-27): every response
property the inputs give is the input, recursed into through objects, lists and maps (a NIC's
`ipConfigurations[].privateIPAddress` is unknown beside the given `subnet`); every other one unknown; a
union (`oneOf`) input kept as given; a list of user-assigned identity ids, answered as a map, unknown whole.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping, Sequence
from typing import Any

from ..sdk.internals import UNKNOWN_STRING_VALUE, is_secret, property_types
from .enums import sdk_module

# Response properties azure-native's preview answers from the request, not as computed (#282).
KNOWN_DURING_PREVIEW = ("name", "location")


def planned_outputs(inputs: Mapping[str, Any], answered: Mapping[str, Any]) -> dict[str, Any]:
    """The outputs a preview gives: the inputs, and every property only Azure's answer holds unknown."""
    out: dict[str, Any] = dict(inputs)
    for key, value in answered.items():
        if key in inputs:
            out[key] = _merged(inputs[key], value)
        elif key in KNOWN_DURING_PREVIEW:
            out[key] = value
        else:
            out[key] = UNKNOWN_STRING_VALUE
    return out


def _merged(given: Any, answered: Any) -> Any:
    """An input value with what Azure adds inside it made unknown (a secret input is kept whole)."""
    if is_secret(given):
        return given
    if isinstance(given, dict) and isinstance(answered, dict):
        return {
            **given,
            **{k: (_merged(given[k], v) if k in given else UNKNOWN_STRING_VALUE) for k, v in answered.items()},
        }
    if isinstance(given, list) and isinstance(answered, list) and len(given) == len(answered):
        return [_merged(g, a) for g, a in zip(given, answered, strict=True)]
    if isinstance(given, list) and isinstance(answered, dict):  # user-assigned identities: ids in, a map out
        return {k: _unknown_leaves(v) for k, v in answered.items()}
    return given


def _unknown_leaves(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _unknown_leaves(v) for k, v in value.items()}
    return UNKNOWN_STRING_VALUE


def previewed_outputs(token: str, inputs: Mapping[str, Any], known: Mapping[str, Any]) -> dict[str, Any]:
    """The outputs `pulumi preview` gives a new resource of `token` with no answer to read: the inputs, every
    property of the type's response schema they do not give unknown, at any depth; `known` adds what the
    provider's preview keeps known (#282: the name it gave). A type the installed SDK lacks: the inputs."""
    cls = resource_class(token)
    if cls is None:
        return {**inputs, **known}
    return {**inputs, **_from_schema(inputs, property_types(cls)), **known}


def resource_class(token: str) -> type | None:
    """The installed SDK's class of an azure-native type token (`azure-native:network/v20230201:Subnet` too)."""
    found_module = sdk_module(token)
    found = getattr(*found_module, None) if found_module is not None else None
    return found if isinstance(found, type) else None


def _from_schema(given: Mapping[str, Any], fields: Mapping[str, Any]) -> dict[str, Any]:
    return {
        name: (_value(given[name], hint) if name in given else UNKNOWN_STRING_VALUE) for name, hint in fields.items()
    }


def _value(given: Any, hint: Any) -> Any:
    if is_secret(given):
        return given
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if isinstance(given, list) and origin is not None and _is(origin, Sequence) and args:
        return [_value(item, args[0]) for item in given]
    if origin is not None and _is(origin, Mapping) and len(args) == 2:
        if isinstance(given, list):  # user-assigned identities: ids in, a map keyed by them out (a string set)
            return UNKNOWN_STRING_VALUE
        if isinstance(given, dict):
            return {key: _value(item, args[1]) for key, item in given.items()}
    if isinstance(given, dict) and isinstance(hint, type) and hint.__module__.startswith("pulumi_azure_native."):
        return {**given, **_from_schema(given, property_types(hint))}
    return given  # a plain value, or a union of types (`oneOf`), kept as given


def _is(origin: Any, abstract: type) -> bool:
    return isinstance(origin, type) and issubclass(origin, abstract) and not issubclass(origin, str)
