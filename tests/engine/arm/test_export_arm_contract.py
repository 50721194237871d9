"""Every exported template of the shipped stacks, re-read against the ARM types of each resource's API version (the
autorest.bicep types of Azure's specs, saved in tests/data/azure-specs) beyond the JSON types test_export_arm_types
reads: every property the type requires is there, every value of a closed set (a string literal or a union of them)
is one of its values, a polymorphic object is read as the variant its discriminator names, and no id of the fake's
own subscription or tenant is left (issue 33). It reads export-arm's output only."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
from azure_gpu_stacks.engine.arm.template import export
from azure_gpu_stacks.fakeazure import FAKE_SUBSCRIPTION_ID, FAKE_TENANT_ID

from tests.conftest import REPO
from tests.engine.arm.test_export_arm import STACKS, entries

SAVED = REPO / "tests" / "data" / "azure-specs"
ENVELOPE = ("type", "apiVersion", "dependsOn", "condition", "scope", "copy", "comments")
# Properties the template carries elsewhere than the body: the name is the entry's own and ARM fills in the rest.
NOT_REQUIRED_OF_A_TEMPLATE = ("name", "id")


@cache
def arm_types() -> dict[str, tuple[list[dict[str, Any]], int]]:
    """`Type@apiVersion` -> (the file's types, the index of its body)."""
    found: dict[str, tuple[list[dict[str, Any]], int]] = {}
    for path in SAVED.rglob("types.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        for name, index in data["resources"].items():
            found[name.lower()] = (data["types"], _index(data["types"][index]["body"]))
    return found


def _index(ref: dict[str, str]) -> int:
    return int(ref["$ref"].rsplit("/", 1)[-1])


def _literals(types: list[dict[str, Any]], node: dict[str, Any]) -> set[str] | None:
    """The values of a closed set of strings, or None when the type is not one."""
    if node["$type"] == "StringLiteralType":
        return {node["value"]}
    if node["$type"] == "UnionType":
        members = [types[_index(e)] for e in node["elements"]]
        if all(m["$type"] == "StringLiteralType" for m in members):
            return {m["value"] for m in members}
    return None


def broken(value: Any, types: list[dict[str, Any]], index: int, path: str) -> list[str]:
    """Where `value` misses a required property or holds a value outside a closed set (expressions not judged)."""
    node = types[index]
    kind = node["$type"]
    if isinstance(value, str) and value.startswith("[") and not value.startswith("[["):
        return []  # an ARM expression, evaluated at deployment
    allowed = _literals(types, node)
    if allowed is not None and isinstance(value, str):
        return [] if value.lower() in {a.lower() for a in allowed} else [f"{path}: {value!r} not in {sorted(allowed)}"]
    if kind == "DiscriminatedObjectType" and isinstance(value, dict):
        fields = dict(node.get("baseProperties", {}))
        variant = node["elements"].get(str(value.get(node["discriminator"])))
        if variant is not None:
            fields.update(types[_index(variant)].get("properties", {}))
        return _object(value, fields, types, path)
    if kind == "ObjectType" and isinstance(value, dict):
        if "additionalProperties" in node and not node.get("properties"):
            return [m for k, v in value.items() for m in broken(v, types, _index(node["additionalProperties"]), k)]
        return _object(value, node.get("properties", {}), types, path)
    if kind == "ArrayType" and isinstance(value, list):
        return [m for i, v in enumerate(value) for m in broken(v, types, _index(node["itemType"]), f"{path}[{i}]")]
    return []


def _object(value: dict[str, Any], fields: dict[str, Any], types: list[dict[str, Any]], path: str) -> list[str]:
    out = []
    for key, prop in fields.items():
        flags = prop.get("flags", 0)
        if flags & 1 and not flags & 2 and key not in value and key not in NOT_REQUIRED_OF_A_TEMPLATE:
            out.append(f"{path}.{key}: required, missing")
    for key, child in value.items():
        prop = fields.get(key)
        if prop is not None:
            out += broken(child, types, _index(prop["type"]), f"{path}.{key}")
    return out


@pytest.fixture(scope="module")
def documents(shipped_plans: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        stack: export(plan.resources, project=plan.project, stack=plan.stack, identity=plan.identity).document
        for stack, plan in shipped_plans.items()
    }


@pytest.mark.parametrize("stack", STACKS)
def test_every_exported_resource_has_what_its_arm_type_requires_and_allows(
    documents: dict[str, dict[str, Any]], stack: str
) -> None:
    checked, wrong = 0, []
    for entry in entries(documents[stack]):
        known = arm_types().get(f"{entry['type']}@{entry['apiVersion']}".lower())
        if known is None:
            continue
        types, body = known
        checked += 1
        wrong += broken({k: v for k, v in entry.items() if k not in ENVELOPE}, types, body, entry["name"])

    assert checked >= len(entries(documents[stack])) // 2 and wrong == []


@pytest.mark.parametrize("stack", STACKS)
def test_no_template_holds_the_fakes_subscription_or_tenant(documents: dict[str, dict[str, Any]], stack: str) -> None:
    text = json.dumps(documents[stack])

    assert FAKE_SUBSCRIPTION_ID not in text and FAKE_TENANT_ID not in text
