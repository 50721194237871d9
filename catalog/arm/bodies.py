"""pulumi-azure-native's flattened inputs <-> the ARM REST body of a PUT, per type token, from mapping.json.

pulumi-azure-native flattens each `properties` object the swagger marks `x-ms-client-flatten` into the
resource's inputs (`VirtualNetwork(address_space=...)` is `properties.addressSpace` on the wire), adds
the URL's path parameters as inputs (`resourceGroupName`, `virtualNetworkName`), and names a few
properties after the swagger's `x-ms-client-name`. `to_arm_body` undoes that for one resource:

    {"type": "Microsoft.Network/virtualNetworks", "apiVersion": "2024-05-01", "name": ...,
     "location": ..., "tags": ..., "properties": {"addressSpace": ..., "subnets": [{"name": ...,
     "properties": {"addressPrefix": ...}}]}}

and `from_arm_body` is its inverse (path parameters other than the name come back only when given). An answer (the
resource's outputs) goes through `to_arm_body` too: the mapping names its outputs as well (an App Insights component's
`appId` is `properties.AppId`), and an output `properties` object is ARM's own.
The API version is the one the installed SDK's module names ("Uses Azure REST API version ...").
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

MAPPING_FILE = "mapping.json"
# azure-native takes user-assigned identities as a list of resource ids and sends ARM's map keyed by
# them (each value `{}`: the principal and client ids are ARM's to fill in), on every type.
USER_ASSIGNED = "userAssignedIdentities"
# Wire names azure-native's inputs spell otherwise at every level: the swagger's `odata.type` discriminator is the
# input `odataType` (pulumi-azure-native's MetricAlertSingleResourceMultipleMetricCriteriaArgs.odata_type, "specifies
# the type of the alert criteria", sent as metricAlert_API.json's `odata.type`; observed 2026-11-27).
WIRE_NAMES = {"odataType": "odata.type"}
INPUT_NAMES = {wire: name for name, wire in WIRE_NAMES.items()}


def _renamed(value: Any, names: dict[str, str]) -> Any:
    """`value` with `names`' keys renamed at every level (where the mapping has no shape for it)."""
    if isinstance(value, dict):
        return {names.get(k, k): _renamed(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, names) for v in value]
    return value


@dataclass(frozen=True)
class ArmType:
    """What the mapping knows of one pulumi-azure-native type token."""

    token: str
    arm_type: str
    api_version: str
    name_input: str
    path_inputs: tuple[str, ...]
    body: dict[str, Any]
    source: str


@functools.cache
def _mapping() -> dict[str, Any]:
    text = resources.files(__package__).joinpath(MAPPING_FILE).read_text(encoding="utf-8")
    types: dict[str, Any] = json.loads(text)["types"]
    return types


def tokens() -> list[str]:
    """Every type token the mapping covers."""
    return sorted(_mapping())


@functools.cache
def arm_type(token: str) -> ArmType | None:
    """The mapping of `token`, or None for a type the mapping does not cover."""
    entry = _mapping().get(token)
    if entry is None:
        return None
    return ArmType(
        token,
        entry["armType"],
        entry["apiVersion"],
        entry["nameInput"],
        tuple(entry["pathInputs"]),
        entry["body"],
        entry["source"],
    )


def to_arm_body(token: str, inputs: dict[str, Any]) -> dict[str, Any]:
    """The ARM body of a PUT of `token` with these (camelCase) inputs: `type`, `apiVersion`, `name`,
    the envelope properties and `properties`. Path parameters other than the name are dropped."""
    found = arm_type(token)
    if found is None:
        raise KeyError(f"no ARM body mapping for {token}")
    rest = {k: v for k, v in inputs.items() if k not in found.path_inputs}
    body = {"type": found.arm_type, "apiVersion": found.api_version}
    name = inputs.get(found.name_input) if found.name_input else None
    if name is not None:
        body["name"] = name
    body.update(_to_wire(rest, found.body))
    return body


def from_arm_body(token: str, body: dict[str, Any], path: dict[str, Any] | None = None) -> dict[str, Any]:
    """The pulumi-azure-native inputs of an ARM body (`to_arm_body`'s inverse); `path` adds the URL's
    parameters (`resourceGroupName`...)."""
    found = arm_type(token)
    if found is None:
        raise KeyError(f"no ARM body mapping for {token}")
    rest = {k: v for k, v in body.items() if k not in ("type", "apiVersion", "id", "name")}
    inputs = _from_wire(rest, found.body)
    if found.name_input and "name" in body:
        inputs[found.name_input] = body["name"]
    inputs.update(path or {})
    return inputs


def _to_wire(value: dict[str, Any], shape: dict[str, Any]) -> dict[str, Any]:
    renamed: dict[str, str] = shape.get("renamed", {})
    fields: dict[str, Any] = shape.get("fields", {})
    lifted = shape.get("lifted")
    envelope = set(shape.get("envelope", ())) | _ENVELOPE
    top: dict[str, Any] = {}
    inner: dict[str, Any] = {}
    for key, item in value.items():
        wire = renamed.get(key, WIRE_NAMES.get(key, key))
        child = fields.get(key)
        converted = _convert(item, child, _to_wire) if child else _renamed(item, WIRE_NAMES)
        if key == USER_ASSIGNED and isinstance(item, list):
            converted = {str(identity): {} for identity in item}
        if key == "properties" and lifted is not None and isinstance(converted, dict):
            # an answer's own `properties` where the inputs are flattened (a resource group's, an autoscale
            # setting's: the resource's class answers the spec's properties object unflattened) is ARM's `properties`
            inner.update(converted)
            continue
        # where `properties` is flattened, an input the spec does not list (newer than it) goes inside
        (inner if lifted is not None and (wire in lifted or wire not in envelope) else top)[wire] = converted
    if inner:
        top["properties"] = {**top.get("properties", {}), **inner} if isinstance(top.get("properties"), dict) else inner
    return top


def _from_wire(value: dict[str, Any], shape: dict[str, Any]) -> dict[str, Any]:
    names = {wire: name for name, wire in (WIRE_NAMES | shape.get("renamed", {})).items()}
    fields: dict[str, Any] = shape.get("fields", {})
    flat = dict(value)
    if shape.get("lifted") is not None and isinstance(flat.get("properties"), dict):
        flat = {**{k: v for k, v in flat.items() if k != "properties"}, **flat["properties"]}
    out: dict[str, Any] = {}
    for wire, item in flat.items():
        name = names.get(wire, wire)
        child = fields.get(name)
        out[name] = _convert(item, child, _from_wire) if child else _renamed(item, INPUT_NAMES)
        if wire == USER_ASSIGNED and isinstance(item, dict):
            out[name] = list(item)
    return out


def _convert(item: Any, child: dict[str, Any], level: Any) -> Any:
    if "items" in child:
        return [_convert(i, child["items"], level) for i in item] if isinstance(item, list) else item
    if "values" in child:
        return {k: _convert(v, child["values"], level) for k, v in item.items()} if isinstance(item, dict) else item
    return level(item, child) if isinstance(item, dict) else item


# ARM's envelope: what stays beside `properties` on every resource and sub-resource (Azure Resource
# Manager's resource definition, https://learn.microsoft.com/azure/azure-resource-manager/templates/syntax#resources,
# observed 2026-11-25), for inputs the saved spec does not list.
_ENVELOPE = frozenset(
    {"id", "name", "type", "location", "tags", "sku", "zones", "identity", "kind", "plan", "extendedLocation", "etag"}
)
