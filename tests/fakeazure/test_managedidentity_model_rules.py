"""A user-assigned identity as the fake ARM answers it (fakeazure/models/managedidentity.py), and as a resource that
uses it answers it, in-process (`FakeArm().put`), no plan.

Sources, observed 2026-11-27: the REST spec's example IdentityCreate (Azure/azure-rest-api-specs, specification/msi,
2023-01-31, in tests/data/azure-specs) and its answer: the read-only `principalId`, `clientId` and `tenantId`
("The id of the tenant which the identity belongs to"), each a GUID Entra ID assigns.
"""

from __future__ import annotations

import uuid

from azure_gpu_stacks.fakeazure import FAKE_TENANT_ID

from tests.conftest import arm_with_group

IDENTITY = "azure-native:managedidentity:UserAssignedIdentity"
RG = "rg-id"


def test_each_identity_answers_a_principal_and_client_id_of_its_own_in_the_subscriptions_tenant() -> None:
    arm = arm_with_group(RG)

    first, second = (
        arm.put(IDENTITY, name, {"resourceGroupName": RG, "resourceName": name, "location": "eastus"}, name).outputs
        for name in ("id-train", "id-serve")
    )

    assert first["tenantId"] == second["tenantId"] == FAKE_TENANT_ID
    ids = [first["principalId"], first["clientId"], second["principalId"], second["clientId"]]
    assert all(uuid.UUID(i) for i in ids) and len(set(ids)) == 4  # a principal is not its application's client


def test_a_resource_using_the_identity_answers_the_identitys_own_principal_and_client_ids() -> None:
    # the spec's UserAssignedIdentity (common-types v5 managedidentity.json): the principal and client id "of the
    # assigned identity", so a role assignment to the identity's principalId reaches what the resource runs as
    arm = arm_with_group(RG)
    identity = arm.put(IDENTITY, "pull", {"resourceGroupName": RG, "resourceName": "id-pull"}, "pull")
    registry = {
        "resourceGroupName": RG,
        "registryName": "acrteam1",
        "sku": {"name": "Standard"},
        "identity": {"type": "UserAssigned", "userAssignedIdentities": [identity.id]},
    }

    outputs = arm.put("azure-native:containerregistry:Registry", "acr", registry, "acr").outputs

    assert outputs["identity"]["userAssignedIdentities"][identity.id] == {
        "principalId": identity.outputs["principalId"],
        "clientId": identity.outputs["clientId"],
    }
