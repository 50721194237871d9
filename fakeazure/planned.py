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
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..sdk.internals import UNKNOWN_STRING_VALUE, is_secret

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
