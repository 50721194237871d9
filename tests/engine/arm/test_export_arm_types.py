"""Every exported template of the shipped stacks, re-read against the ARM types Azure generates for each resource's
API version (Azure/bicep-types-az, saved in tests/data/azure-specs): every property whose type is integer, string
or boolean holds that JSON type (`"count": 2`, never `2.0`), and no value of the fake's own (its deployer's object
id) is left in any template (issue 33)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
from azure_gpu_stacks.engine.arm.template import export
from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.fakeazure.models.authorization import deployer_object_id

from tests.conftest import REPO
from tests.engine.arm.test_export_arm import STACKS, entries

SAVED = REPO / "tests" / "data" / "azure-specs"
JSON_TYPES: dict[str, tuple[type, ...]] = {"IntegerType": (int,), "StringType": (str,), "BooleanType": (bool,)}


@cache
def arm_types() -> dict[str, tuple[list[dict[str, Any]], int]]:
    """`Type@apiVersion` -> (the file's types, the index of its body)."""
    found: dict[str, tuple[list[dict[str, Any]], int]] = {}
    for path in SAVED.rglob("types.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        for name, index in data["resources"].items():
            body = data["types"][index]["body"]["$ref"]
            found[name.lower()] = (data["types"], int(body.split("/")[-1]))
    return found


def mistyped(value: Any, types: list[dict[str, Any]], index: int, path: str) -> list[str]:
    """Where `value` is not the JSON type the ARM type at `index` says (template expressions are not judged)."""
    node = types[index]
    kind = node["$type"]
    if isinstance(value, str) and value.startswith("[") and not value.startswith("[["):
        return []  # an ARM expression, typed at deployment
    if kind in JSON_TYPES:
        ok = isinstance(value, JSON_TYPES[kind]) and not (kind == "IntegerType" and isinstance(value, bool))
        return [] if ok else [f"{path}: {value!r} is not {kind}"]
    if kind == "ObjectType" and isinstance(value, dict):
        out = []
        for key, child in value.items():
            prop = (node.get("properties") or {}).get(key)
            if prop is not None:
                out += mistyped(child, types, int(prop["type"]["$ref"].split("/")[-1]), f"{path}.{key}")
        return out
    if kind == "ArrayType" and isinstance(value, list):
        item = int(node["itemType"]["$ref"].split("/")[-1])
        return [m for i, v in enumerate(value) for m in mistyped(v, types, item, f"{path}[{i}]")]
    return []


@pytest.mark.parametrize("stack", STACKS)
def test_every_property_of_an_exported_template_has_the_arm_type_of_its_api_version(
    shipped_plans: dict[str, Any], stack: str
) -> None:
    plan = shipped_plans[stack]
    document = export(plan.resources, project=plan.project, stack=plan.stack, identity=plan.identity).document
    checked, wrong = 0, []
    for entry in entries(document):
        known = arm_types().get(f"{entry['type']}@{entry['apiVersion']}".lower())
        if known is None:
            continue
        types, body = known
        checked += 1
        wrong += mistyped(
            {k: v for k, v in entry.items() if k not in ("type", "apiVersion")}, types, body, entry["name"]
        )

    assert checked > 0 and wrong == []


@pytest.mark.parametrize("stack", STACKS)
def test_no_template_holds_the_fakes_deployer_id(shipped_plans: dict[str, Any], stack: str) -> None:
    plan = shipped_plans[stack]
    text = json.dumps(export(plan.resources, project=plan.project, stack=plan.stack, identity=plan.identity).document)

    assert deployer_object_id(FakeArm()) not in text
