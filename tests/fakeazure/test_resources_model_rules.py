"""A resource group as the fake ARM judges and answers it (fakeazure/models/resources.py), in-process
(`FakeArm().put`), no plan.

Sources, observed 2026-11-27: the REST spec's example "Create or update a resource group" (Azure/azure-rest-api-specs,
specification/resources, 2024-03-01) and its answer's `properties.provisioningState` "Succeeded"; a group's name is
1 to 90 letters, digits, '_', '-', '.', '(' and ')', not ending in '.' (Learn's resource-name-rules, the one name
table catalog/arm/name_rules.json).
"""

from __future__ import annotations

import pytest
from azure_gpu_stacks.fakeazure import FakeArm

from tests.conftest import arm_refusal

GROUP = "azure-native:resources:ResourceGroup"


def test_a_new_group_answers_succeeded() -> None:
    outputs = FakeArm().put(GROUP, "rg", {"resourceGroupName": "my-resource-group", "location": "eastus"}, "rg").outputs

    assert outputs["properties"] == {"provisioningState": "Succeeded"}


@pytest.mark.parametrize("name", ["rg-dev.", "rg dev", "r" * 91])
def test_a_name_azure_does_not_take_is_refused_naming_what_is_allowed(name: str) -> None:
    error = arm_refusal(lambda: FakeArm().put(GROUP, "rg", {"resourceGroupName": name, "location": "eastus"}, "rg"))

    assert error.code == "InvalidParameter"
    assert error.message.startswith(f"'{name}' is not a valid resource group name; allowed: 1 to 90 ")
