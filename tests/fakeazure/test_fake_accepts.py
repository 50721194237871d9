"""What Azure accepts, the fake accepts; where Azure refuses with its own code, the fake uses that code.

Each case cites what it matched: the spec's own examples (tests/data/azure-specs), the SDK's typing,
Azure's answers quoted in public issues, and Microsoft Learn's budget rules.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from typing import Any

import pytest
from azure_gpu_stacks.catalog.az_files import Usage, family_key
from azure_gpu_stacks.fakeazure import FAKE_TENANT_ID, FakeArm

from tests.conftest import REPO, Recording, arm_refusal, arm_with_group, in_resource_group

SAVED = REPO / "tests" / "data" / "azure-specs"
RG = "rg-accepts"
CLUSTER = "azure-native:containerservice:ManagedCluster"
POOL = "azure-native:containerservice:AgentPool"
BUDGET = "azure-native:consumption:Budget"
GPU = "Standard_NC4as_T4_v3"


@pytest.fixture
def arm() -> FakeArm:
    return arm_with_group(RG)


def aks_examples() -> list[dict[str, Any]]:
    path = next(SAVED.rglob("microsoft.containerservice/2025-09-01/examples.json"))
    return [e["body"] for e in json.loads(path.read_text(encoding="utf-8"))["examples"]]


def cluster(**overrides: Any) -> dict[str, Any]:
    pool = {"name": "system", "mode": "System", "count": 1.0, "vmSize": GPU}
    return {
        "resourceGroupName": RG,
        "resourceName": "aks1",
        "dnsPrefix": "aks1",
        "agentPoolProfiles": [pool],
        **overrides,
    }


def test_the_specs_aks_examples_send_empty_versions() -> None:
    versions = [
        v
        for body in aks_examples()
        for v in [
            body.get("properties", {}).get("kubernetesVersion"),
            body.get("properties", {}).get("orchestratorVersion"),
        ]
        if v is not None
    ]
    assert versions.count("") > len(versions) / 2  # most send "" (a few older ones pin 1.9.6, 1.23.x)


def test_an_empty_kubernetes_version_is_azures_default(arm: FakeArm) -> None:
    arm.put(CLUSTER, "aks", cluster(kubernetesVersion=""), "aks")
    pool = {"resourceGroupName": RG, "resourceName": "aks1", "agentPoolName": "gpu", "mode": "User", "vmSize": GPU}
    arm.put(POOL, "gpu", {**pool, "count": 1.0, "orchestratorVersion": ""}, "gpu")

    assert arm.refusals == []


def test_a_budget_scope_without_the_leading_slash_is_the_same_scope(arm: FakeArm) -> None:
    budget = {
        "amount": 100.0,
        "category": "Cost",
        "timeGrain": "Monthly",
        "timePeriod": {"startDate": f"{NEXT_MONTH}T00:00:00Z"},
    }
    scope = f"subscriptions/{arm.subscription_id}/resourceGroups/{RG}"
    without = arm.put(BUDGET, "b1", {**budget, "budgetName": "b1", "scope": scope}, "b1")
    with_slash = arm.put(BUDGET, "b2", {**budget, "budgetName": "b2", "scope": f"/{scope}"}, "b2")

    assert without.id == f"/{scope}/providers/Microsoft.Consumption/budgets/b1"
    assert with_slash.id.rsplit("/", 1)[0] == without.id.rsplit("/", 1)[0]
    missing = arm_refusal(lambda: arm.put(BUDGET, "b3", {**budget, "budgetName": "b3", "scope": scope + "x"}, "b3"))
    assert missing.code == "ResourceNotFound"


# Budgets are judged on today's date, as Azure judges them: next month is a valid start.
NEXT_MONTH = (dt.datetime.now(dt.timezone.utc).date().replace(day=1) + dt.timedelta(days=32)).replace(day=1)


@pytest.mark.parametrize(
    ("grain", "start", "end", "why"),
    [
        # billing-period grains are not judged by the time-grain rule: the 2017 floor answers
        ("BillingMonth", "2017-05-01T00:00:00Z", None, "must be on or after June 1, 2017"),
        ("Monthly", "2017-06-01T00:00:00Z", None, "past start date should be selected within the timegrain period"),
        ("Monthly", f"{NEXT_MONTH}T00:00:00Z", f"{NEXT_MONTH}T00:00:00Z", "should be less than the end date"),
        (
            "Monthly",
            f"{NEXT_MONTH}T00:00:00Z",
            f"{NEXT_MONTH.replace(day=2) - dt.timedelta(days=40)}",
            "should be less than the end date",
        ),
    ],
)
def test_budget_dates_follow_learns_rules(arm: FakeArm, grain: str, start: str, end: str | None, why: str) -> None:
    period = {"startDate": start, **({"endDate": end} if end else {})}
    props = {
        "budgetName": "b",
        "scope": f"/subscriptions/{arm.subscription_id}",
        "amount": 10.0,
        "category": "Cost",
        "timeGrain": grain,
        "timePeriod": period,
    }

    error = arm_refusal(lambda: arm.put(BUDGET, "b", props, "b"))

    assert error.code == "InvalidParameter" and why in error.message
    this_month = f"{arm.now.date().replace(day=1)}T00:00:00Z"
    arm.put(BUDGET, "ok", {**props, "budgetName": "ok", "timePeriod": {"startDate": this_month}}, "ok")


def test_a_subnet_given_address_prefixes_is_accepted_and_checked(arm: FakeArm) -> None:
    # A VNet's name is 2 to 64 characters (Learn's resource-name-rules, observed 2026-11-26)
    vnet = {"resourceGroupName": RG, "virtualNetworkName": "vn", "addressSpace": {"addressPrefixes": ["10.0.0.0/16"]}}
    arm.put("azure-native:network:VirtualNetwork", "vn", vnet, "vn")
    subnet = {"resourceGroupName": RG, "virtualNetworkName": "vn"}

    arm.put("azure-native:network:Subnet", "s", {**subnet, "subnetName": "s", "addressPrefixes": ["10.0.1.0/24"]}, "s")
    outside = arm_refusal(
        lambda: arm.put(
            "azure-native:network:Subnet", "t", {**subnet, "subnetName": "t", "addressPrefixes": ["10.1.0.0/24"]}, "t"
        )
    )

    assert outside.code == "NetcfgSubnetRangeOutsideVnet"


def test_aks_basic_sku_is_sku_not_available_in_azures_words(arm: FakeArm) -> None:
    error = arm_refusal(lambda: arm.put(CLUSTER, "aks", cluster(sku={"name": "Basic", "tier": "Free"}), "aks"))

    assert error.code == "SkuNotAvailable"
    assert error.message == (
        "Basic managed cluster SKU name is invalid. 'Basic' has been replaced by 'Base' since v2023-02-01."
    )


def test_an_aks_pool_beyond_quota_is_aks_quota_exceeded(arm: FakeArm) -> None:
    family = arm.catalog.get(GPU).quota_family
    arm.usage = {family_key(family): Usage(family, 0, 4)}

    two_nodes = [{"name": "system", "mode": "System", "count": 2.0, "vmSize": GPU}]  # 2 x 4 vCPUs over a limit of 4

    error = arm_refusal(lambda: arm.put(CLUSTER, "aks", cluster(agentPoolProfiles=two_nodes), "aks"))

    assert error.code == "QuotaExceeded"
    assert error.message.startswith(
        f"Provisioning of resource(s) for container service aks1 in resource group {RG} failed."
    )
    assert "exceeding approved" in error.message


def test_a_typed_program_with_a_user_assigned_identity_plans(record: Callable[..., Recording]) -> None:
    def build(rg: Any) -> None:
        import pulumi
        from pulumi_azure_native import applicationinsights, keyvault, managedidentity, storage
        from pulumi_azure_native import machinelearningservices as ml

        uai = managedidentity.UserAssignedIdentity("uai", resource_group_name=rg.name)
        st = storage.StorageAccount(
            "st",
            account_name="stuai001",
            resource_group_name=rg.name,
            kind="StorageV2",
            sku=storage.SkuArgs(name="Standard_LRS"),
        )
        kv = keyvault.Vault(
            "kv",
            vault_name="kv-uai-001",
            resource_group_name=rg.name,
            properties=keyvault.VaultPropertiesArgs(
                tenant_id=FAKE_TENANT_ID, sku=keyvault.SkuArgs(family="A", name="standard")
            ),
        )
        appi = applicationinsights.Component(
            "appi", resource_name_="appi-uai", resource_group_name=rg.name, kind="web", application_type="web"
        )
        ws = ml.Workspace(
            "ws",
            workspace_name="ws-uai",
            resource_group_name=rg.name,
            identity=ml.ManagedServiceIdentityArgs(type="UserAssigned", user_assigned_identities=[uai.id]),
            primary_user_assigned_identity=uai.id,
            storage_account=st.id,
            key_vault=kv.id,
            application_insights=appi.id,
        )
        pulumi.export("uai", uai.id)
        pulumi.export("identity", ws.identity)

    rec = record(in_resource_group(build))

    assert rec.refusals == []
    # An export reaches the engine with the wire's (camelCase) names, as `pulumi stack output` shows it.
    answered = rec.outputs["identity"]["userAssignedIdentities"]
    assert list(answered) == [rec.outputs["uai"]]
