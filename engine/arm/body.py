"""Stand-in for the azure-native -> ARM body mapping until `azure_gpu_stacks.catalog.arm` lands.

What it knows comes from two existing homes: how ARM names and places each type (its ARM type, the
input carrying its name, the inputs naming its parents, whether it is an extension resource under
`scope`) from the fake ARM's type registry (`fakeazure.models`), and the API version from the
installed pulumi-azure-native itself (each resource class's docstring says "Uses Azure REST API version
X"; pulumi/pulumi-azure-native, observed 2026-11-25 in 3.x). The one rule it applies: the inputs that are
URL path segments leave the body, the envelope properties stay at the top, and the rest goes under
`properties` (azure-native flattens a body's `properties` object where the spec marks it
`x-ms-client-flatten`; where it does not, the input is itself named `properties`). Nested flattening
(a security rule's or an IP configuration's own `properties`) is the spec-contract mapping's job.
"""

from __future__ import annotations

import functools
import importlib.util
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from azure_gpu_stacks.fakeazure.models import resource_type

# The ARM envelope: what sits beside `properties` at the top of a tracked resource's body.
# Source: Azure/azure-rest-api-specs specification/common-types/resource-management/v5/types.json
# (TrackedResource: location, tags) and the per-type top-level properties of each RP spec (observed 2026-11-25).
ENVELOPE = ("location", "tags", "sku", "zones", "identity", "kind", "plan", "extendedLocation", "managedBy")
RESOURCE_GROUP_INPUT = "resourceGroupName"
SCOPE_INPUT = "scope"
API_VERSION = re.compile(r"Uses Azure REST API version (\d{4}-\d{2}-\d{2}(?:-preview)?)")


@dataclass(frozen=True)
class ArmShape:
    """Where a type's name, parents and body come from."""

    arm_type: str
    name_input: str
    parent_inputs: tuple[str, ...]
    scoped: bool
    located: bool
    api_version: str | None


@functools.cache
def shape(token: str) -> ArmShape:
    rtype = resource_type(token)
    return ArmShape(
        rtype.arm_type,
        rtype.name_input,
        tuple(rtype.parent_inputs),
        rtype.scoped,
        rtype.located,
        sdk_api_version(token),
    )


def path_inputs(token: str) -> frozenset[str]:
    """The inputs that are segments of the request URL, not part of the body."""
    s = shape(token)
    return frozenset({s.name_input, *s.parent_inputs, RESOURCE_GROUP_INPUT, *((SCOPE_INPUT,) if s.scoped else ())})


def to_body(token: str, inputs: dict[str, Any]) -> dict[str, Any]:
    """The request body ARM receives for azure-native's `inputs` of `token`."""
    path = path_inputs(token)
    body: dict[str, Any] = {k: v for k, v in inputs.items() if k in ENVELOPE}
    rest = {k: v for k, v in inputs.items() if k not in ENVELOPE and k not in path}
    if set(rest) == {"properties"}:
        body["properties"] = rest["properties"]
    elif rest:
        body["properties"] = rest
    return body


def from_body(token: str, body: dict[str, Any], path: dict[str, Any]) -> dict[str, Any]:
    """azure-native's inputs again from a body and the URL's path segments (the inverse of `to_body`)."""
    inputs = {k: v for k, v in body.items() if k != "properties"}
    properties = body.get("properties")
    if isinstance(properties, dict):
        if _keeps_properties(token):
            inputs["properties"] = properties
        else:
            inputs.update(properties)
    return {**inputs, **path}


@functools.cache
def _keeps_properties(token: str) -> bool:
    """Types whose SDK input is `properties` itself (the spec does not flatten it)."""
    source = _sdk_source(token)
    return source is not None and re.search(r"^\s+properties: pulumi\.Input\[", source, re.MULTILINE) is not None


def sdk_api_version(token: str) -> str | None:
    """The API version pulumi-azure-native sends for `token`, read from its installed SDK."""
    source = _sdk_source(token)
    found = API_VERSION.search(source) if source else None
    return found.group(1) if found else None


@functools.cache
def _sdk_source(token: str) -> str | None:
    """The source of the SDK module that defines `token`'s class, read without importing it."""
    parts = token.split(":")
    if len(parts) != 3 or parts[0] != "azure-native":
        return None
    spec = importlib.util.find_spec("pulumi_azure_native")
    if spec is None or not spec.submodule_search_locations:
        return None
    snake = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", parts[2])
    snake = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", snake).lower()
    path = Path(next(iter(spec.submodule_search_locations))) / parts[1] / f"{snake}.py"
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None
