"""A container registry as the fake ARM judges and answers it (fakeazure/models/containerregistry.py), in-process
(`FakeArm().put`), no plan.

Sources, observed 2026-11-27: the REST spec's example RegistryCreate (Azure/azure-rest-api-specs, specification/
containerregistry, 2023-01-01-preview, in tests/data/azure-specs: a Standard registry); the spec's required `sku`
(catalog/arm/constraints.json); a registry's name is 5 to 50 letters and digits (Learn's resource-name-rules, the one
name table catalog/arm/name_rules.json) and its login server is `<name>.azurecr.io` in lower case (Learn, "About
registries, repositories, and artifacts": "myregistry.azurecr.io"; registry names are case-insensitive there).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from azure_gpu_stacks.catalog.arm.bodies import from_arm_body
from azure_gpu_stacks.fakeazure import FakeArm

from tests.conftest import REPO, arm_refusal, arm_with_group

REGISTRY = "azure-native:containerregistry:Registry"
SPECS = REPO / "tests" / "data" / "azure-specs" / "containerregistry_0"
RG = "rg-acr"


def _example() -> dict[str, Any]:
    for path in SPECS.rglob("examples.json"):
        for found in json.loads(path.read_text(encoding="utf-8"))["examples"]:
            if found["title"] == "RegistryCreate":
                return from_arm_body(REGISTRY, found["body"])
    raise LookupError("RegistryCreate")


@pytest.fixture
def arm() -> FakeArm:
    return arm_with_group(RG, "westus")


def registry(**changes: Any) -> dict[str, Any]:
    props = {**_example(), "resourceGroupName": RG, "registryName": "myRegistry1", **changes}
    return {k: v for k, v in props.items() if v is not None}


def test_the_spec_example_answers_its_login_server_in_lower_case(arm: FakeArm) -> None:
    outputs = arm.put(REGISTRY, "acr", registry(), "acr").outputs

    assert arm.refusals == []
    assert (outputs["loginServer"], outputs["provisioningState"]) == ("myregistry1.azurecr.io", "Succeeded")


@pytest.mark.parametrize("name", ["acr1", "my-registry", "r" * 51])
def test_a_name_azure_does_not_take_is_refused_naming_what_is_allowed(arm: FakeArm, name: str) -> None:
    error = arm_refusal(lambda: arm.put(REGISTRY, "acr", registry(registryName=name), "acr"))

    assert error.code == "InvalidParameter"
    assert error.message == f"'{name}' is not a valid container registry name; allowed: 5 to 50 letters and digits."


@pytest.mark.parametrize("sku", [None, {}, {"tier": "Standard"}], ids=["no-sku", "empty-sku", "no-sku-name"])
def test_a_registry_without_a_sku_name_is_refused(arm: FakeArm, sku: Any) -> None:
    error = arm_refusal(lambda: arm.put(REGISTRY, "acr", registry(sku=sku), "acr"))

    assert (error.code, error.message) == ("InvalidParameter", "Container registry 'myRegistry1' needs sku.name.")
