"""An Application Insights component as the fake ARM judges and answers it (fakeazure/models/applicationinsights.py),
in-process (`FakeArm().put`), no plan.

Sources, observed 2026-11-27: the spec marks `kind` and `Application_Type` required (catalog/arm/constraints.json,
from Azure/azure-rest-api-specs' applicationinsights components); a workspace-based component names its Log Analytics
workspace in `WorkspaceResourceId`; its connection string reads `InstrumentationKey=<key>;IngestionEndpoint=
https://<region>-<n>.in.applicationinsights.azure.com/` (the form the portal copies, e.g. `IngestionEndpoint=
https://eastus-8.in.applicationinsights.azure.com/` in public configuration files).
"""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from azure_gpu_stacks.fakeazure import FakeArm

from tests.conftest import arm_refusal, arm_with_group

COMPONENT = "azure-native:applicationinsights:Component"
RG = "rg-appi"


@pytest.fixture
def arm() -> FakeArm:
    arm = arm_with_group(RG)
    logs = {"resourceGroupName": RG, "workspaceName": "log-ml", "sku": {"name": "PerGB2018"}}
    arm.put("azure-native:operationalinsights:Workspace", "logs", logs, "logs")
    return arm


def group_id(arm: FakeArm) -> str:
    return f"/subscriptions/{arm.subscription_id}/resourceGroups/{RG}"


def component(arm: FakeArm, name: str = "appi-ml", **changes: Any) -> dict[str, Any]:
    props = {
        "resourceGroupName": RG,
        "resourceName": name,
        "kind": "web",
        "applicationType": "web",
        "workspaceResourceId": f"{group_id(arm)}/providers/Microsoft.OperationalInsights/workspaces/log-ml",
        **changes,
    }
    return {k: v for k, v in props.items() if v is not None}


def test_a_workspace_based_component_answers_its_keys_and_connection_string(arm: FakeArm) -> None:
    first = arm.put(COMPONENT, "appi", component(arm), "appi").outputs
    second = arm.put(COMPONENT, "appi2", component(arm, "appi-other"), "appi2").outputs

    key = first["instrumentationKey"]
    assert uuid.UUID(key) and uuid.UUID(first["appId"]) and key != first["appId"]
    assert re.fullmatch(
        rf"InstrumentationKey={key};IngestionEndpoint=https://eastus-[0-9]+\.in\.applicationinsights\.azure\.com/",
        first["connectionString"],
    )
    assert first["provisioningState"] == "Succeeded"
    assert (second["instrumentationKey"], second["appId"]) != (key, first["appId"])  # each component its own
    assert second["instrumentationKey"] != key and second["appId"] != first["appId"]


def test_a_classic_component_without_a_workspace_is_accepted(arm: FakeArm) -> None:
    arm.put(COMPONENT, "appi", component(arm, workspaceResourceId=None), "appi")

    assert arm.refusals == []


@pytest.mark.parametrize("missing", ["kind", "applicationType"])
def test_a_component_without_kind_or_application_type_is_refused(arm: FakeArm, missing: str) -> None:
    error = arm_refusal(lambda: arm.put(COMPONENT, "appi", component(arm, **{missing: None}), "appi"))

    assert (error.code, error.message) == (
        "InvalidParameter",
        "Application Insights component 'appi-ml' needs kind and applicationType.",
    )


def test_a_workspace_that_does_not_exist_is_refused_naming_the_property(arm: FakeArm) -> None:
    gone = f"{group_id(arm)}/providers/Microsoft.OperationalInsights/workspaces/gone"

    error = arm_refusal(lambda: arm.put(COMPONENT, "appi", component(arm, workspaceResourceId=gone), "appi"))

    assert error.code == "ResourceNotFound" and "(workspaceResourceId)" in error.message


def test_a_workspace_id_naming_another_type_is_refused_naming_both_types(arm: FakeArm) -> None:
    error = arm_refusal(lambda: arm.put(COMPONENT, "appi", component(arm, workspaceResourceId=group_id(arm)), "appi"))

    assert error.code == "InvalidParameter"
    assert error.message == (
        f"workspaceResourceId: '{group_id(arm)}' is a Microsoft.Resources/resourceGroups, not a "
        "Microsoft.OperationalInsights/workspaces."
    )
