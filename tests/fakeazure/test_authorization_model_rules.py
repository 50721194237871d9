"""A role assignment and the deploying identity as the fake ARM judges and answers them
(fakeazure/models/authorization.py), in-process (`FakeArm().put` and `invoke`), no plan.

Each case starts from the REST spec's example "Create role assignment for resource group" (Azure/azure-rest-api-specs,
specification/authorization/resource-manager/Microsoft.Authorization/stable/2022-04-01, in tests/data/azure-specs)
and its RoleAssignmentProperties (authorization-RoleAssignmentsCalls.json, observed 2026-11-27): `roleDefinitionId`
and `principalId` are required, `principalType` is one of User, Group, ServicePrincipal, ForeignGroup with the
default "User", `createdOn` is the read-only time it was created. The codes for a role definition or principal id
that is not one (InvalidRoleDefinitionId, InvalidPrincipalId) and the deployer's type mismatch
(UnmatchedPrincipalType, Azure/modern-web-app-pattern-dotnet#129) are those fakeazure/models/authorization.py cites.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from typing import Any

import pytest
from azure_gpu_stacks.catalog.arm.bodies import from_arm_body
from azure_gpu_stacks.fakeazure import FAKE_SUBSCRIPTION_ID, FAKE_TENANT_ID, FakeArm
from azure_gpu_stacks.fakeazure.backend import FAKE_CLIENT_ID

from tests.conftest import REPO, arm_refusal

ASSIGNMENT = "azure-native:authorization:RoleAssignment"
SPECS = REPO / "tests" / "data" / "azure-specs" / "authorization" / "microsoft.authorization" / "2022-04-01"
RG = "rg-rbac"
SCOPE = f"/subscriptions/{FAKE_SUBSCRIPTION_ID}/resourceGroups/{RG}"
# Reader's role definition (a built-in role's id is the same in every subscription)
NAME = str(uuid.uuid5(uuid.NAMESPACE_URL, "ra"))  # "The name of the role assignment. It can be any valid GUID."
READER = (
    f"/subscriptions/{FAKE_SUBSCRIPTION_ID}/providers/Microsoft.Authorization/roleDefinitions/"
    "acdd72a7-3385-48ef-bd42-f606fba81ae7"
)


def _example() -> dict[str, Any]:
    examples = json.loads((SPECS / "examples.json").read_text(encoding="utf-8"))["examples"]
    [body] = [e["body"] for e in examples if e["title"] == "Create role assignment for resource group"]
    return from_arm_body(ASSIGNMENT, body)


def _arm(**options: Any) -> FakeArm:
    arm = FakeArm(default_location="eastus", **options)
    arm.put("azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": RG, "location": "eastus"}, "rg")
    return arm


def assignment(**changes: Any) -> dict[str, Any]:
    """The spec's example at this subscription's resource group, `roleAssignmentName` a GUID; a change to None drops
    the key."""
    props = {**_example(), "scope": SCOPE, "roleAssignmentName": NAME, **changes}
    return {k: v for k, v in props.items() if v is not None}


def deployer(arm: FakeArm) -> str:
    return arm.invoke("azure-native:authorization:getClientConfig", {})["objectId"]


def test_the_spec_example_is_accepted_and_answers_its_type_and_when_it_was_created() -> None:
    now = dt.datetime(2026, 11, 27, 9, 30, tzinfo=dt.timezone.utc)
    arm = _arm(now=now)

    outputs = arm.put(ASSIGNMENT, "ra", assignment(), "ra").outputs

    assert arm.refusals == []
    assert outputs["principalType"] == "User" and dt.datetime.fromisoformat(outputs["createdOn"]) == now


def test_a_principal_type_left_out_is_the_spec_default_user_whoever_deploys() -> None:
    arm = _arm(deployer_principal_type="ServicePrincipal")  # the example's principal is not the deployer

    outputs = arm.put(ASSIGNMENT, "ra", assignment(principalType=None), "ra").outputs

    assert outputs["principalType"] == "User"


def test_an_assignment_to_a_group_answers_group() -> None:
    arm = _arm()

    outputs = arm.put(ASSIGNMENT, "ra", assignment(principalType="Group"), "ra").outputs

    assert outputs["principalType"] == "Group"


def test_the_deployers_own_assignment_without_a_type_answers_the_deployers_type() -> None:
    arm = _arm(deployer_principal_type="ServicePrincipal")

    outputs = arm.put(ASSIGNMENT, "ra", assignment(principalId=deployer(arm), principalType=None), "ra").outputs

    assert outputs["principalType"] == "ServicePrincipal"


@pytest.mark.parametrize(
    ("role", "shown"),
    [("Reader", "'Reader'"), ("acdd72a7-3385-48ef-bd42-f606fba81ae7", "'acdd72a7-"), (None, "''")],
    ids=["a-role-name", "a-bare-guid", "none"],
)
def test_a_role_definition_id_that_is_not_one_is_refused_naming_it(role: Any, shown: str) -> None:
    arm = _arm()

    error = arm_refusal(lambda: arm.put(ASSIGNMENT, "ra", assignment(roleDefinitionId=role), "ra"))

    assert error.code == "InvalidRoleDefinitionId"
    assert error.message.startswith(f"The role definition ID {shown}") and f"role assignment '{NAME}'" in error.message
    assert error.message.endswith("a /providers/Microsoft.Authorization/roleDefinitions/<guid> id).")  # what is allowed


def test_a_built_in_role_definition_id_is_accepted() -> None:
    arm = _arm()

    arm.put(ASSIGNMENT, "ra", assignment(roleDefinitionId=READER), "ra")

    assert arm.refusals == []


@pytest.mark.parametrize("principal", ["alice@contoso.com", None], ids=["a-user-name", "none"])
def test_a_principal_id_that_is_no_object_id_is_refused_naming_it(principal: Any) -> None:
    arm = _arm()

    error = arm_refusal(lambda: arm.put(ASSIGNMENT, "ra", assignment(principalId=principal), "ra"))

    assert error.code == "InvalidPrincipalId"
    assert error.message.startswith(f"The Principal ID '{principal}' is not valid (role assignment '{NAME}'")


@pytest.mark.parametrize(("wanted", "refused"), [("Group", True), ("ServicePrincipal", False), (None, False)])
def test_the_deployer_is_refused_only_under_another_principal_type(wanted: str | None, refused: bool) -> None:
    arm = _arm(deployer_principal_type="ServicePrincipal")
    props = assignment(principalId=deployer(arm), principalType=wanted)

    if refused:
        error = arm_refusal(lambda: arm.put(ASSIGNMENT, "ra", props, "ra"))
        assert error.code == "UnmatchedPrincipalType"
        assert f"has type 'ServicePrincipal' , which is different from specified PrincipalType '{wanted}'" in (
            error.message
        )
    else:
        arm.put(ASSIGNMENT, "ra", props, "ra")
        assert arm.refusals == []


def test_another_principal_is_not_judged_by_the_deployers_type() -> None:
    arm = _arm(deployer_principal_type="ServicePrincipal")

    arm.put(ASSIGNMENT, "ra", assignment(principalType="Group"), "ra")

    assert arm.refusals == []


def test_get_client_config_answers_the_fakes_identity_with_an_object_id_of_its_own() -> None:
    config = FakeArm().invoke("azure-native:authorization:getClientConfig", {})

    assert {k: config[k] for k in ("clientId", "subscriptionId", "tenantId")} == {
        "clientId": FAKE_CLIENT_ID,
        "subscriptionId": FAKE_SUBSCRIPTION_ID,
        "tenantId": FAKE_TENANT_ID,
    }
    object_id = uuid.UUID(config["objectId"])  # an object id is a GUID, not the client id
    assert str(object_id) not in (FAKE_CLIENT_ID, FAKE_TENANT_ID)
    assert FakeArm().invoke("azure-native:authorization:getClientConfig", {})["objectId"] == config["objectId"]
