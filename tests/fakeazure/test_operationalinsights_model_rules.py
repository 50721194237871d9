"""A Log Analytics workspace as the fake ARM judges and answers it (fakeazure/models/operationalinsights.py),
in-process (`FakeArm().put`), no plan.

Sources, observed 2026-11-27: the REST spec's example WorkspacesCreate (Azure/azure-rest-api-specs,
specification/operationalinsights, 2023-09-01, in tests/data/azure-specs: `retentionInDays` 30, sku PerGB2018);
Learn, "Configure data retention" (https://learn.microsoft.com/azure/azure-monitor/logs/data-retention-configure):
a workspace keeps analytics data 30 to 730 days; a workspace's name is 4 to 63 letters, digits and '-', a letter or
digit first and last (Learn's resource-name-rules, the one name table catalog/arm/name_rules.json).
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from azure_gpu_stacks.catalog.arm.bodies import from_arm_body
from azure_gpu_stacks.fakeazure import FakeArm

from tests.conftest import REPO, arm_refusal

WORKSPACE = "azure-native:operationalinsights:Workspace"
SPECS = REPO / "tests" / "data" / "azure-specs" / "operationalinsights"
RG = "rg-logs"


def _example() -> dict[str, Any]:
    for path in SPECS.rglob("examples.json"):
        for found in json.loads(path.read_text(encoding="utf-8"))["examples"]:
            if found["title"] == "WorkspacesCreate":
                return from_arm_body(WORKSPACE, found["body"])
    raise LookupError("WorkspacesCreate")


@pytest.fixture
def arm() -> FakeArm:
    arm = FakeArm(default_location="australiasoutheast")
    arm.put("azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": RG, "location": "eastus"}, "rg")
    return arm


def workspace(name: str = "oiautorest6685", **changes: Any) -> dict[str, Any]:
    return {**_example(), "resourceGroupName": RG, "workspaceName": name, **changes}


def test_the_spec_example_answers_a_customer_id_of_its_own(arm: FakeArm) -> None:
    first = arm.put(WORKSPACE, "logs", workspace(), "logs").outputs
    second = arm.put(WORKSPACE, "logs2", workspace("oiautorest6686"), "logs2").outputs

    assert uuid.UUID(first["customerId"]) and first["customerId"] != second["customerId"]
    assert first["provisioningState"] == "Succeeded"


@pytest.mark.parametrize("days", [30, 730])
def test_a_retention_from_30_to_730_days_is_accepted(arm: FakeArm, days: int) -> None:
    arm.put(WORKSPACE, "logs", workspace(retentionInDays=days), "logs")

    assert arm.refusals == []


@pytest.mark.parametrize("days", [29, 731])
def test_a_retention_outside_30_to_730_days_is_refused_naming_it(arm: FakeArm, days: int) -> None:
    error = arm_refusal(lambda: arm.put(WORKSPACE, "logs", workspace(retentionInDays=days), "logs"))

    assert (error.code, error.message) == ("InvalidParameter", f"retentionInDays {days}; allowed: 30 to 730.")


@pytest.mark.parametrize("name", ["log", "-logs", "logs_ml"])
def test_a_name_azure_does_not_take_is_refused_naming_what_is_allowed(arm: FakeArm, name: str) -> None:
    error = arm_refusal(lambda: arm.put(WORKSPACE, "logs", workspace(name), "logs"))

    assert error.code == "InvalidParameter"
    assert error.message.startswith(f"'{name}' is not a valid Log Analytics workspace name; allowed: 4 to 63 ")
