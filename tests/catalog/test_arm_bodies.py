"""The ARM body mapping (catalog/arm/mapping.json) against Azure's spec examples and the installed SDK.

Every PUT example of the saved spec data (tests/data/azure-specs/*/examples.json, autorest.bicep's
samples of Azure/azure-rest-api-specs' x-ms-examples) for each type the fake models, turned into
pulumi-azure-native inputs and back, is the same body; and the inputs it turns into are inputs the
SDK's own Args class declares, so the flattening is azure-native's and not a guess of ours.
"""

from __future__ import annotations

import importlib
import inspect
import json
from typing import Any

import pytest
from azure_gpu_stacks.catalog.arm.bodies import arm_type, from_arm_body, to_arm_body, tokens
from azure_gpu_stacks.sdk.internals import getter_name

from scripts import read_specs
from tests.conftest import REPO

SAVED = REPO / "tests" / "data" / "azure-specs"
TOKEN_OF = {arm_type(t).arm_type.lower(): t for t in tokens()}  # type: ignore[union-attr]


def _examples() -> list[tuple[str, str, dict[str, Any]]]:
    found = []
    for path in sorted(SAVED.rglob("examples.json")):
        for example in json.loads(path.read_text(encoding="utf-8"))["examples"]:
            found.append((TOKEN_OF[example["type"].lower()], example["title"], example["body"]))
    return found


EXAMPLES = _examples()


def _sdk_inputs(token: str) -> set[str]:
    _, module, kind = token.split(":")
    package = importlib.import_module(f"pulumi_azure_native.{module}")
    cls = getattr(package, f"{kind}InitArgs", None) or getattr(package, f"{kind}Args")
    return {name for attr in vars(cls).values() if isinstance(attr, property) if (name := getter_name(attr.fget))}


def test_every_modelled_type_has_examples_or_is_listed() -> None:
    covered = {token for token, _, _ in EXAMPLES}
    # the spec has no PUT example for Application Insights components at 2020-02-02 (samples.md lists none)
    assert set(tokens()) - covered == {"azure-native:applicationinsights:Component"}


@pytest.mark.parametrize(("token", "title", "body"), EXAMPLES, ids=[f"{t.split(':')[2]}-{n}" for t, n, _ in EXAMPLES])
def test_spec_example_round_trips_through_azure_native_inputs(token: str, title: str, body: dict[str, Any]) -> None:
    found = arm_type(token)
    assert found is not None
    inputs = from_arm_body(token, body)

    assert to_arm_body(token, inputs) == {"type": found.arm_type, "apiVersion": found.api_version, **body}
    assert "properties" not in inputs or "properties" in _sdk_inputs(token)
    assert set(inputs) <= _sdk_inputs(token)


@pytest.mark.parametrize("token", tokens())
def test_every_sdk_input_has_a_place_in_the_body_or_the_url(token: str) -> None:
    found = arm_type(token)
    assert found is not None
    entry = json.loads((REPO / "catalog" / "arm" / "mapping.json").read_text(encoding="utf-8"))["types"][token]
    placed = set(found.path_inputs) | set(entry.get("notInSpec", ()))
    body = to_arm_body(token, {name: "x" for name in _sdk_inputs(token) - placed})

    assert found.name_input in found.path_inputs
    _, module, kind = token.split(":")
    source = inspect.getsource(
        importlib.import_module(getattr(importlib.import_module(f"pulumi_azure_native.{module}"), kind).__module__)
    )
    assert f"Uses Azure REST API version {found.api_version}." in source
    # nothing but the envelope stays outside `properties` where azure-native flattened it
    if "lifted" in found.body:
        outside = set(body) - {"type", "apiVersion", "name", "properties"}
        assert outside <= set(found.body["envelope"])


def test_mapping_is_what_the_script_generates_from_the_saved_specs() -> None:
    for name, text in read_specs.generate().items():
        assert (REPO / "catalog" / "arm" / name).read_text(encoding="utf-8") == text, (
            "rerun scripts/read_specs.py write"
        )


def test_flattened_inputs_go_under_properties_and_path_parameters_leave() -> None:
    token = "azure-native:network:VirtualNetwork"
    example = next(body for t, _, body in EXAMPLES if t == token and body["properties"].get("subnets"))
    subnet = example["properties"]["subnets"][0]
    inputs = {
        "resourceGroupName": "rg",
        "virtualNetworkName": example["name"],
        "location": example["location"],
        "addressSpace": example["properties"]["addressSpace"],
        "subnets": [{"name": subnet["name"], **subnet["properties"]}],
    }

    body = to_arm_body(token, inputs)

    assert body["name"] == example["name"] and "resourceGroupName" not in body and "virtualNetworkName" not in body
    assert body["properties"]["addressSpace"] == example["properties"]["addressSpace"]
    assert body["properties"]["subnets"][0] == {"name": subnet["name"], "properties": subnet["properties"]}
    assert from_arm_body(token, body, {"resourceGroupName": "rg"}) == inputs


def test_renamed_inputs_take_the_wire_name() -> None:
    token = "azure-native:storage:StorageAccount"
    example = next(
        body for t, _, body in EXAMPLES if t == token and "supportsHttpsTrafficOnly" in body.get("properties", {})
    )
    inputs = from_arm_body(token, example)

    assert inputs["enableHttpsTrafficOnly"] == example["properties"]["supportsHttpsTrafficOnly"]
    assert "supportsHttpsTrafficOnly" not in inputs
