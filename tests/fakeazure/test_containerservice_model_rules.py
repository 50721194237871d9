"""What the fake's AKS model (fakeazure/models/containerservice.py) checks and answers, rule by rule, as a program
sees it: the node counts of System and User pools at their bounds, the autoscaler's counts, Spot prices, the Kubernetes
version on the day of the PUT, the API server's authorized ranges, Entra ID, a cluster's read-only properties and
its credentials. In-process against `FakeArm.put` and `FakeArm.invoke`, one fake per test.

Where the expected values come from (observed 2026-11-27):
- node counts: Learn, "Quotas, virtual machine size restrictions, and region availability in AKS"
  (https://learn.microsoft.com/azure/aks/quotas-skus-regions): 0 to 1,000 nodes per User pool, System pools at
  least 1 node (https://learn.microsoft.com/azure/aks/use-system-pools), at most 100 node pools per cluster;
- Spot: the 2025-09-01 REST spec (Azure/azure-rest-api-specs, specification/containerservice/.../aks/stable/
  2025-09-01/managedClusters.json): `spotMaxPrice` "any decimal value greater than zero or -1";
- the API server's ranges: Learn, "Secure access to the API server using authorized IP address ranges"
  (https://learn.microsoft.com/azure/aks/api-server-authorized-ip-ranges): at most 200 ranges, IPv4 only,
  0.0.0.0/32 alone to block every address;
- Kubernetes versions: AKS's release calendar (https://learn.microsoft.com/azure/aks/supported-kubernetes-versions);
- read-only properties: the same spec's ManagedClusterProperties (fqdn, azurePortalFQDN, maxAgentPools,
  currentKubernetesVersion, provisioningState, powerState; the identity's principalId and tenantId), their shapes
  as the spec's example ManagedClustersCreate_GPUMIG.json answers them (`dnsprefix1-abcd1234.hcp.eastus.azmk8s.io`,
  nodeResourceGroup `MC_rg1_clustername1_location1`)."""

from __future__ import annotations

import base64
import datetime as dt
import re
import uuid
from typing import Any

import pytest
import yaml
from azure_gpu_stacks.catalog.mig import AKS_MIG_SIZES
from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.fakeazure.errors import BadRequest, ResourceNotFound

from tests.conftest import arm_refusal
from tests.fakeazure.test_fake_aks import CLUSTER, POOL, RG, cluster_props, system_pool

T4 = "Standard_NC4as_T4_v3"


def pool_props(**overrides: Any) -> dict[str, Any]:
    return {
        "resourceGroupName": RG,
        "resourceName": "aks1",
        "agentPoolName": "gpu",
        "mode": "User",
        "vmSize": T4,
        **overrides,
    }


def new_arm(day: str = "2026-11-27") -> FakeArm:
    arm = FakeArm(default_location="eastus", now=dt.datetime.fromisoformat(f"{day}T12:00:00+00:00"))
    arm.put("azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": RG, "location": "eastus"}, "rg")
    return arm


@pytest.fixture
def arm() -> FakeArm:
    return new_arm()


def resource_id(arm: FakeArm, kind: str, name: str) -> str:
    return f"/subscriptions/{arm.subscription_id}/resourceGroups/{RG}/providers/{kind}/{name}"


def put_cluster(arm: FakeArm, **overrides: Any) -> Any:
    return arm.put(CLUSTER, "aks", cluster_props(**overrides), "aks")


def put_pool(arm: FakeArm, **overrides: Any) -> Any:
    props = pool_props(**overrides)
    return arm.put(POOL, props["agentPoolName"], props, props["agentPoolName"])


# --- node counts --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pool", "message"),
    [
        (
            system_pool(count=0.0),
            "Managed cluster 'aks1': count 0 of agent pool 'system'; allowed for System pools: 1 to 1000.",
        ),
        (
            system_pool(count=1001.0),
            "Managed cluster 'aks1': count 1001 of agent pool 'system'; allowed for System pools: 1 to 1000.",
        ),
        (
            system_pool(enableAutoScaling=True, count=1.0, minCount=0.0, maxCount=3.0),
            "Managed cluster 'aks1': minCount 0 of agent pool 'system'; allowed for System pools: 1 to 1000.",
        ),
    ],
    ids=["count-0", "count-1001", "min-count-0"],
)
def test_a_system_pool_holds_1_to_1000_nodes(arm: FakeArm, pool: dict[str, Any], message: str) -> None:
    error = arm_refusal(lambda: put_cluster(arm, agentPoolProfiles=[pool]))

    assert (error.code, error.message) == ("InvalidParameter", message)


@pytest.mark.parametrize("count", [1.0, 1000.0])
def test_a_system_pool_of_1_or_1000_nodes_is_accepted(arm: FakeArm, count: float) -> None:
    assert put_cluster(arm, agentPoolProfiles=[system_pool(count=count)]).outputs["provisioningState"] == "Succeeded"


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"count": -1.0}, "count -1 of agent pool 'gpu'; allowed for User pools: 0 to 1000."),
        ({"count": 1001.0}, "count 1001 of agent pool 'gpu'; allowed for User pools: 0 to 1000."),
        (
            {"enableAutoScaling": True, "minCount": -1.0, "maxCount": 2.0},
            "minCount -1 of agent pool 'gpu'; allowed for User pools: 0 to 1000.",
        ),
    ],
    ids=["count-minus-1", "count-1001", "min-count-minus-1"],
)
def test_a_user_pool_holds_0_to_1000_nodes(arm: FakeArm, overrides: dict[str, Any], message: str) -> None:
    put_cluster(arm)
    error = arm_refusal(lambda: put_pool(arm, **overrides))

    assert (error.code, error.message) == ("InvalidParameter", f"Managed cluster 'aks1': {message}")


@pytest.mark.parametrize(
    "overrides",
    [
        {"count": 0.0},
        {"count": 1000.0, "vmSize": "Standard_D2s_v5"},
        {"enableAutoScaling": True, "count": 0.0, "minCount": 0.0, "maxCount": 1000.0, "vmSize": "Standard_D2s_v5"},
        {"enableAutoScaling": True, "count": 2.0, "minCount": 2.0, "maxCount": 2.0},
        {"enableAutoScaling": True, "minCount": 1.0, "maxCount": 3.0},  # no count: AKS starts at minCount
    ],
    ids=["count-0", "count-1000", "autoscale-0-to-1000", "min-equals-max-equals-count", "no-count"],
)
def test_a_user_pool_at_its_bounds_is_accepted(arm: FakeArm, overrides: dict[str, Any]) -> None:
    put_cluster(arm)

    out = put_pool(arm, **overrides).outputs

    assert (out["provisioningState"], out["powerState"]) == ("Succeeded", {"code": "Running"})


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (
            {"enableAutoScaling": True, "count": 1.0, "maxCount": 3.0},
            "agent pool 'gpu' enables the autoscaler without minCount and maxCount.",
        ),
        (
            {"enableAutoScaling": True, "count": 1.0, "minCount": 0.0},
            "agent pool 'gpu' enables the autoscaler without minCount and maxCount.",
        ),
        (
            {"enableAutoScaling": True, "minCount": 3.0, "maxCount": 2.0},
            "minCount 3 of agent pool 'gpu' is greater than maxCount 2.",
        ),
        (
            {"enableAutoScaling": True, "count": 4.0, "minCount": 1.0, "maxCount": 3.0},
            "count 4 of agent pool 'gpu' is outside minCount..maxCount.",
        ),
        (
            {"enableAutoScaling": True, "count": 0.0, "minCount": 1.0, "maxCount": 3.0},
            "count 0 of agent pool 'gpu' is outside minCount..maxCount.",
        ),
    ],
    ids=["no-min-count", "no-max-count", "min-over-max", "count-over-max", "count-under-min"],
)
def test_the_autoscaler_needs_count_within_min_and_max(arm: FakeArm, overrides: dict[str, Any], message: str) -> None:
    put_cluster(arm)
    error = arm_refusal(lambda: put_pool(arm, **overrides))

    assert (error.code, error.message) == ("InvalidParameter", f"Managed cluster 'aks1': {message}")


def test_min_and_max_count_without_the_autoscaler_are_not_judged_against_count(arm: FakeArm) -> None:
    put_cluster(arm)

    assert put_pool(arm, count=5.0, minCount=1.0, maxCount=3.0).outputs["provisioningState"] == "Succeeded"


# --- Spot ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("price", ["0.5", -2.0, -0.5])
def test_a_spot_max_price_is_a_number_above_zero_or_minus_1(arm: FakeArm, price: Any) -> None:
    put_cluster(arm)
    error = arm_refusal(lambda: put_pool(arm, scaleSetPriority="Spot", spotMaxPrice=price))

    assert error.code == "InvalidParameter"
    assert error.message == (
        f"Managed cluster 'aks1': spotMaxPrice {price!r} of agent pool 'gpu'; allowed: a price greater than zero, or "
        "-1 (code and wording not public)."
    )


@pytest.mark.parametrize("price", [-1.0, -1, 0.01, 3])
def test_a_spot_max_price_above_zero_or_minus_1_is_accepted(arm: FakeArm, price: float) -> None:
    put_cluster(arm)

    assert put_pool(arm, scaleSetPriority="Spot", spotMaxPrice=price).outputs["provisioningState"] == "Succeeded"


def test_an_eviction_policy_without_spot_is_refused_naming_the_pool(arm: FakeArm) -> None:
    put_cluster(arm)
    error = arm_refusal(lambda: put_pool(arm, scaleSetPriority="Regular", scaleSetEvictionPolicy="Deallocate"))

    assert (error.code, error.message) == (
        "InvalidParameter",
        "Managed cluster 'aks1': agent pool 'gpu' sets scaleSetEvictionPolicy without scaleSetPriority Spot "
        "(code and wording not public).",
    )


def test_a_system_pool_on_spot_is_refused_in_full(arm: FakeArm) -> None:
    error = arm_refusal(lambda: put_cluster(arm, agentPoolProfiles=[system_pool(scaleSetPriority="Spot")]))

    assert (error.code, error.message) == (
        "InvalidParameter",
        "Managed cluster 'aks1': agent pool 'system' is a System pool on Spot; System pools must use Regular priority "
        "(only User pools can be Spot).",
    )


def test_a_user_pool_on_spot_is_accepted(arm: FakeArm) -> None:
    put_cluster(arm)

    assert put_pool(arm, scaleSetPriority="Spot", count=1.0).outputs["provisioningState"] == "Succeeded"


# --- MIG ----------------------------------------------------------------------------------------------------------


def test_a_mig_profile_on_a_size_aks_does_not_split_lists_the_mig_sizes(arm: FakeArm) -> None:
    put_cluster(arm)
    error = arm_refusal(lambda: put_pool(arm, gpuInstanceProfile="MIG1g"))

    found = re.fullmatch(
        rf"Managed cluster 'aks1': gpuInstanceProfile MIG1g is not supported on VM size '{T4}' "
        r"\(MIG node pools: (.*); code and wording not public\)\.",
        error.message,
    )
    assert found, error.message
    # the catalog's MIG sizes (catalog/mig.py, from Learn's gpu-multi-instance page), in order
    assert found.group(1).split(", ") == sorted(AKS_MIG_SIZES)


def test_an_inline_pool_is_judged_with_the_day_and_catalog_of_the_put() -> None:
    arm = new_arm("2026-12-01")
    late = arm_refusal(lambda: put_cluster(arm, agentPoolProfiles=[system_pool(orchestratorVersion="1.34")]))
    mig = arm_refusal(lambda: put_cluster(arm, agentPoolProfiles=[system_pool(vmSize=T4, gpuInstanceProfile="MIG1g")]))

    assert late.code == "AgentPoolK8sVersionNotSupported"
    assert late.message.startswith("Managed cluster 'aks1': agent pool 'system': version 1.34 is not supported")
    assert mig.message.startswith(
        f"Managed cluster 'aks1': gpuInstanceProfile MIG1g is not supported on VM size '{T4}'"
    )


def test_an_inline_pool_without_a_name_is_refused_naming_no_name(arm: FakeArm) -> None:
    unnamed = {key: value for key, value in system_pool().items() if key != "name"}
    error = arm_refusal(lambda: put_cluster(arm, agentPoolProfiles=[unnamed]))

    assert error.code == "InvalidParameter"
    assert error.message.startswith("Managed cluster 'aks1': agent pool name '' must be ")


def test_a_mig_profile_on_azure_linux_is_refused_in_full(arm: FakeArm) -> None:
    put_cluster(arm)
    error = arm_refusal(
        lambda: put_pool(arm, vmSize="Standard_NC24ads_A100_v4", gpuInstanceProfile="MIG1g", osSKU="AzureLinux")
    )

    assert (error.code, error.message) == (
        "InvalidParameter",
        "Managed cluster 'aks1': gpuInstanceProfile MIG1g is not supported with osSKU AzureLinux (Learn "
        "gpu-multi-instance: no MIG node pools on Azure Linux; code and wording not public).",
    )


def test_a_mig_profile_on_ubuntu_of_a_mig_size_is_accepted(arm: FakeArm) -> None:
    put_cluster(arm)
    pool = put_pool(arm, vmSize="Standard_NC24ads_A100_v4", gpuInstanceProfile="MIG7g", osSKU="Ubuntu")

    assert pool.outputs["provisioningState"] == "Succeeded"


# --- the cluster: system pool, names, Entra ID, versions -------------------------------------------------------


def test_a_cluster_needs_a_system_pool_among_its_pools(arm: FakeArm) -> None:
    user = system_pool(name="user", mode="User")
    error = arm_refusal(lambda: put_cluster(arm, agentPoolProfiles=[user]))

    assert (error.code, error.message) == (
        "InvalidParameter",
        "Managed cluster 'aks1': there has to be at least one System agent pool (agentPoolProfiles[].mode).",
    )
    assert put_cluster(arm, agentPoolProfiles=[user, system_pool()]).outputs["provisioningState"] == "Succeeded"


def test_a_cluster_without_pools_is_refused(arm: FakeArm) -> None:
    error = arm_refusal(lambda: put_cluster(arm, agentPoolProfiles=[]))

    assert "there has to be at least one System agent pool" in error.message


def test_each_inline_pool_is_checked_not_only_the_first(arm: FakeArm) -> None:
    bad = system_pool(name="second", mode="User", count=1001.0)
    error = arm_refusal(lambda: put_cluster(arm, agentPoolProfiles=[system_pool(), bad]))

    assert error.message == (
        "Managed cluster 'aks1': count 1001 of agent pool 'second'; allowed for User pools: 0 to 1000."
    )


def test_an_inline_pool_with_an_invalid_name_is_refused_naming_it(arm: FakeArm) -> None:
    error = arm_refusal(lambda: put_cluster(arm, agentPoolProfiles=[system_pool(name="System-Pool")]))

    assert error.code == "InvalidParameter"
    assert error.message.startswith("Managed cluster 'aks1': agent pool name 'System-Pool' must be ")


def test_two_inline_pools_of_one_name_are_an_advisory(arm: FakeArm) -> None:
    put_cluster(arm, agentPoolProfiles=[system_pool(), system_pool(mode="User")])

    assert arm.advisories == [
        "Managed cluster 'aks1': two agent pools are named 'system' (no public source for Azure's refusal: an advisory)"
    ]


def test_pools_of_distinct_names_are_no_advisory(arm: FakeArm) -> None:
    put_cluster(arm, agentPoolProfiles=[system_pool(), system_pool(name="system2")])

    assert arm.advisories == []


def test_a_cluster_without_a_dns_prefix_or_subdomain_is_an_advisory(arm: FakeArm) -> None:
    put_cluster(arm, dnsPrefix=None)

    assert arm.advisories == [
        "Managed cluster 'aks1': has neither dnsPrefix nor fqdnSubdomain (no public source for Azure's refusal: an "
        "advisory)"
    ]


def test_a_cluster_with_an_fqdn_subdomain_only_is_no_advisory(arm: FakeArm) -> None:
    put_cluster(arm, dnsPrefix=None, fqdnSubdomain="aks1sub")

    assert arm.advisories == []


@pytest.mark.parametrize(
    ("overrides", "accepted"),
    [
        ({"aadProfile": {"enableAzureRBAC": True}}, False),
        ({"aadProfile": {"managed": False, "enableAzureRBAC": True}}, False),
        ({"disableLocalAccounts": True, "aadProfile": {"managed": False}}, False),
        ({"aadProfile": {"managed": True, "enableAzureRBAC": True}}, True),
        ({"disableLocalAccounts": True, "aadProfile": {"managed": True}}, True),
        ({"disableLocalAccounts": False, "aadProfile": {"enableAzureRBAC": False}}, True),
    ],
    ids=["rbac-unmanaged", "rbac-managed-false", "no-local-unmanaged", "rbac-managed", "no-local-managed", "neither"],
)
def test_azure_rbac_and_no_local_accounts_need_aks_managed_entra_id(
    arm: FakeArm, overrides: dict[str, Any], accepted: bool
) -> None:
    if accepted:
        assert put_cluster(arm, **overrides).outputs["provisioningState"] == "Succeeded"
        return
    error = arm_refusal(lambda: put_cluster(arm, **overrides))
    assert (error.code, error.message) == (
        "InvalidParameter",
        "Managed cluster 'aks1': disableLocalAccounts and aadProfile.enableAzureRBAC need AKS-managed Entra ID "
        "(aadProfile.managed).",
    )


# AKS's calendar: 1.34 supported to the end of November 2026, 1.33 to the end of July 2026, 1.37 from October 2026
@pytest.mark.parametrize(
    ("day", "version", "supported"),
    [
        ("2026-11-27", "1.34.1", True),
        ("2026-11-30", "1.34", True),
        ("2026-12-01", "1.34", False),
        ("2026-11-27", "1.33.5", False),
        ("2026-11-27", "1.37", True),
        ("2026-09-30", "1.37", False),
        ("2026-11-27", "1.99", False),
        ("2026-11-27", "", True),
    ],
)
def test_a_pool_version_is_judged_on_the_day_of_the_put(day: str, version: str, supported: bool) -> None:
    arm = new_arm(day)
    put_cluster(arm)
    if supported:
        assert put_pool(arm, orchestratorVersion=version).outputs["provisioningState"] == "Succeeded"
        return
    error = arm_refusal(lambda: put_pool(arm, orchestratorVersion=version))
    assert error.code == "AgentPoolK8sVersionNotSupported"
    assert error.message.startswith(
        f"Managed cluster 'aks1': agent pool 'gpu': version {version} is not supported in this region. Please use "
        "[az aks get-versions] command to get the supported version list in this region (supported on "
    )


def test_the_refusal_of_a_version_lists_those_supported_that_day() -> None:
    arm = new_arm("2026-12-01")
    error = arm_refusal(lambda: put_cluster(arm, kubernetesVersion="1.34"))

    assert error.message.endswith("(supported on 2026-12-01: 1.35, 1.36, 1.37).")


# --- the API server's authorized ranges ---------------------------------------------------------------------------


def ranges(count: int) -> list[str]:
    return [f"20.{n // 256}.{n % 256}.0/24" for n in range(count)]


@pytest.mark.parametrize(
    "profile",
    [
        {"authorizedIPRanges": ranges(200)},
        {"authorizedIPRanges": ["0.0.0.0/32"]},
        {"authorizedIPRanges": ["20.1.2.3"]},  # one address, as the Azure CLI takes it
        {"authorizedIPRanges": ["20.1.2.3/24"]},  # host bits set: AKS keeps the range
        {"enablePrivateCluster": True},
        {"enablePrivateCluster": True, "authorizedIPRanges": []},
    ],
    ids=["200-ranges", "block-all", "one-address", "host-bits", "private", "private-no-ranges"],
)
def test_authorized_ranges_aks_takes_are_accepted(arm: FakeArm, profile: dict[str, Any]) -> None:
    assert put_cluster(arm, apiServerAccessProfile=profile).outputs["provisioningState"] == "Succeeded"


@pytest.mark.parametrize(
    ("profile", "message"),
    [
        (
            {"authorizedIPRanges": ranges(201)},
            "Managed cluster 'aks1': 201 apiServerAccessProfile.authorizedIPRanges; at most 200 are allowed.",
        ),
        (
            {"authorizedIPRanges": ["73.140.245.0/24", "0.0.0.0/32"]},
            "Setting apiServerAuthorizedIPRange to 0.0.0.0/32 is not allowed with other IP ranges. "
            "Refer to https://aka.ms/aks/auth-ip-ranges for more details",
        ),
        (
            {"authorizedIPRanges": ["73.140.245.0/24", "office"]},
            "Managed cluster 'aks1': apiServerAccessProfile.authorizedIPRanges 'office' is not an IPv4 CIDR.",
        ),
        (
            {"authorizedIPRanges": ["::/0"]},
            "Managed cluster 'aks1': apiServerAccessProfile.authorizedIPRanges '::/0' is not an IPv4 CIDR.",
        ),
        (
            {"enablePrivateCluster": True, "authorizedIPRanges": ["73.140.245.0/24"]},
            "Managed cluster 'aks1': apiServerAccessProfile.authorizedIPRanges are not supported for private cluster.",
        ),
    ],
    ids=["201-ranges", "block-all-with-others", "no-address", "ipv6", "private"],
)
def test_authorized_ranges_aks_refuses(arm: FakeArm, profile: dict[str, Any], message: str) -> None:
    error = arm_refusal(lambda: put_cluster(arm, apiServerAccessProfile=profile))

    assert (error.code, error.message) == ("InvalidParameter", message)


# --- what a cluster answers ---------------------------------------------------------------------------------------


def test_a_cluster_answers_its_read_only_properties_as_aks_does(arm: FakeArm) -> None:
    cluster = put_cluster(arm, kubernetesVersion="1.35.2")
    out = cluster.outputs

    found = re.fullmatch(r"aks1-([0-9a-f]{8})\.hcp\.eastus\.azmk8s\.io", out["fqdn"])
    assert found, out["fqdn"]
    assert out["azurePortalFQDN"] == f"aks1-{found.group(1)}.portal.hcp.eastus.azmk8s.io"
    assert out["nodeResourceGroup"] == f"MC_{RG}_aks1_eastus"
    assert out["provisioningState"] == "Succeeded"
    assert out["powerState"] == {"code": "Running"}
    assert out["maxAgentPools"] == 100  # Learn, quotas-skus-regions: 100 node pools per cluster
    assert out["currentKubernetesVersion"] == "1.35.2"
    [pool] = out["agentPoolProfiles"]
    assert (
        pool.items() >= {**system_pool(), "provisioningState": "Succeeded", "powerState": {"code": "Running"}}.items()
    )
    assert "identity" not in out


def test_each_inline_pool_answers_its_state(arm: FakeArm) -> None:
    pools = [system_pool(), system_pool(name="user", mode="User", count=0.0)]
    out = put_cluster(arm, agentPoolProfiles=pools).outputs

    assert [(p["name"], p["provisioningState"], p["powerState"]) for p in out["agentPoolProfiles"]] == [
        ("system", "Succeeded", {"code": "Running"}),
        ("user", "Succeeded", {"code": "Running"}),
    ]


def test_two_clusters_have_distinct_fqdns(arm: FakeArm) -> None:
    first = put_cluster(arm).outputs["fqdn"]
    second = arm.put(CLUSTER, "aks2", cluster_props(resourceName="aks2", dnsPrefix="aks1"), "aks2").outputs["fqdn"]

    assert first != second
    assert second.startswith("aks1-")


def test_a_cluster_named_by_its_fqdn_subdomain_answers_it_in_its_fqdn(arm: FakeArm) -> None:
    out = put_cluster(arm, dnsPrefix=None, fqdnSubdomain="team1").outputs

    assert re.fullmatch(r"team1-[0-9a-f]{8}\.hcp\.eastus\.azmk8s\.io", out["fqdn"])
    assert re.fullmatch(r"team1-[0-9a-f]{8}\.portal\.hcp\.eastus\.azmk8s\.io", out["azurePortalFQDN"])


def test_a_node_resource_group_given_is_kept(arm: FakeArm) -> None:
    assert put_cluster(arm, nodeResourceGroup="nodes-aks1").outputs["nodeResourceGroup"] == "nodes-aks1"


def test_no_kubernetes_version_answers_no_current_version(arm: FakeArm) -> None:
    assert "currentKubernetesVersion" not in put_cluster(arm, kubernetesVersion="").outputs


def test_a_system_assigned_identity_answers_a_principal_and_the_tenant(arm: FakeArm) -> None:
    out = put_cluster(arm, identity={"type": "SystemAssigned"}).outputs
    other = arm.put(
        CLUSTER, "aks2", cluster_props(resourceName="aks2", identity={"type": "SystemAssigned"}), "aks2"
    ).outputs

    assert out["identity"]["type"] == "SystemAssigned"
    assert out["identity"]["tenantId"] == arm.tenant_id
    assert uuid.UUID(out["identity"]["principalId"])
    assert out["identity"]["principalId"] != other["identity"]["principalId"]


def test_a_user_assigned_identity_answers_no_principal(arm: FakeArm) -> None:
    identity_id = resource_id(arm, "Microsoft.ManagedIdentity/userAssignedIdentities", "id1")
    arm.put(
        "azure-native:managedidentity:UserAssignedIdentity",
        "id1",
        {"resourceGroupName": RG, "resourceName": "id1"},
        "id1",
    )
    out = put_cluster(arm, identity={"type": "UserAssigned", "userAssignedIdentities": [identity_id]}).outputs

    assert out["identity"]["type"] == "UserAssigned"
    assert "principalId" not in out["identity"]  # the identity's own principal is in userAssignedIdentities


# --- agent pools on their own -------------------------------------------------------------------------------------


def test_an_agent_pool_is_checked_as_an_inline_one(arm: FakeArm) -> None:
    put_cluster(arm)
    error = arm_refusal(lambda: put_pool(arm, mode="System", count=0.0))

    assert error.message == "Managed cluster 'aks1': count 0 of agent pool 'gpu'; allowed for System pools: 1 to 1000."


# --- credentials --------------------------------------------------------------------------------------------------

USER_CREDENTIALS = "azure-native:containerservice:listManagedClusterUserCredentials"
ADMIN_CREDENTIALS = "azure-native:containerservice:listManagedClusterAdminCredentials"
CLUSTER_ARGS = {"resourceGroupName": RG, "resourceName": "aks1"}


def kubeconfig_of(answer: dict[str, Any]) -> dict[str, Any]:
    [entry] = answer["kubeconfigs"]
    return dict(yaml.safe_load(base64.b64decode(entry["value"])))


@pytest.mark.parametrize("function", [USER_CREDENTIALS, ADMIN_CREDENTIALS])
def test_credentials_are_a_kubeconfig_whose_context_reaches_the_cluster(arm: FakeArm, function: str) -> None:
    fqdn = put_cluster(arm).outputs["fqdn"]
    config = kubeconfig_of(arm.invoke(function, CLUSTER_ARGS))

    assert config["apiVersion"] == "v1"
    assert config["kind"] == "Config"
    assert config["clusters"] == [{"cluster": {"server": f"https://{fqdn}:443"}, "name": "aks1"}]
    assert config["contexts"] == [{"context": {"cluster": "aks1", "user": "clusterUser_aks1"}, "name": "aks1"}]
    assert config["current-context"] == "aks1"
    [user] = config["users"]
    assert user["name"] == "clusterUser_aks1"
    assert set(user["user"]) == {"token"}


@pytest.mark.parametrize("function", [USER_CREDENTIALS, ADMIN_CREDENTIALS])
def test_credentials_of_a_cluster_that_does_not_exist_are_resource_not_found(arm: FakeArm, function: str) -> None:
    put_cluster(arm)
    missing = {"resourceGroupName": RG, "resourceName": "nope"}
    with pytest.raises(ResourceNotFound) as error:
        arm.invoke(function, missing)

    assert error.value.message == (
        f"The Resource '/subscriptions/{arm.subscription_id}/resourceGroups/{RG}/providers/"
        "Microsoft.ContainerService/managedClusters/nope' was not found."
    )


def test_admin_credentials_of_a_cluster_without_local_accounts_are_refused(arm: FakeArm) -> None:
    put_cluster(arm, disableLocalAccounts=True, aadProfile={"managed": True})
    with pytest.raises(BadRequest) as error:
        arm.invoke(ADMIN_CREDENTIALS, CLUSTER_ARGS)

    assert error.value.message == (
        "Getting static credential is not allowed because this cluster is set to disable local accounts."
    )
    assert kubeconfig_of(arm.invoke(USER_CREDENTIALS, CLUSTER_ARGS))["current-context"] == "aks1"
