"""The fake answers Azure's default for what a request leaves out, with Azure's value, and never over the request's.

Expected values are Azure's own: the REST spec's response examples (Azure/azure-rest-api-specs, the file and commit
named at each test) and PSRule for Azure's rule page quoting AKS's maxPods defaults; observed 2026-11-27.
"""

from __future__ import annotations

from typing import Any

from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.fakeazure.core import Resource
from azure_gpu_stacks.fakeazure.models.compute import VirtualMachineScaleSet
from azure_gpu_stacks.fakeazure.models.defaults import with_defaults

GROUP = "rg1"


def _arm() -> FakeArm:
    arm = FakeArm(default_location="eastus")
    arm.put("azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": GROUP, "location": "eastus"}, "rg")
    return arm


def _put(arm: FakeArm, token: str, inputs: dict[str, Any]) -> dict[str, Any]:
    resource = arm.put(token, "r", {"resourceGroupName": GROUP, **inputs}, f"urn:{token}:{len(arm.resources())}")
    assert arm.refusals == [] and not resource.failed
    return resource.outputs


def test_a_new_security_group_answers_azure_s_six_default_rules_and_no_rules_of_its_own() -> None:
    # NetworkSecurityGroupCreate.json (network 2024-05-01, e71bdd999732): the answer to {location: eastus}
    expected = {
        ("AllowVnetInBound", 65000, "Inbound", "Allow"),
        ("AllowAzureLoadBalancerInBound", 65001, "Inbound", "Allow"),
        ("DenyAllInBound", 65500, "Inbound", "Deny"),
        ("AllowVnetOutBound", 65000, "Outbound", "Allow"),
        ("AllowInternetOutBound", 65001, "Outbound", "Allow"),
        ("DenyAllOutBound", 65500, "Outbound", "Deny"),
    }
    out = _put(_arm(), "azure-native:network:NetworkSecurityGroup", {"networkSecurityGroupName": "testnsg"})

    rules = out["defaultSecurityRules"]
    assert {(r["name"], r["priority"], r["direction"], r["access"]) for r in rules} == expected
    assert all(r["id"].endswith(f"/networkSecurityGroups/testnsg/defaultSecurityRules/{r['name']}") for r in rules)
    assert out["securityRules"] == [] and out["flushConnection"] is False


def test_a_request_s_own_values_are_answered_not_azure_s_defaults() -> None:
    arm = _arm()
    rule = {"name": "ssh", "priority": 300, "direction": "Inbound", "access": "Allow", "protocol": "Tcp"}
    nsg = _put(
        arm, "azure-native:network:NetworkSecurityGroup", {"networkSecurityGroupName": "n", "securityRules": [rule]}
    )
    registry = _put(
        arm,
        "azure-native:containerregistry:Registry",
        {"registryName": "myregistry1", "sku": {"name": "Premium"}, "publicNetworkAccess": "Disabled"},
    )

    assert nsg["securityRules"] == [rule]
    assert registry["publicNetworkAccess"] == "Disabled"
    assert registry["zoneRedundancy"] == "Disabled"  # RegistryCreate.json (16c9ca7681ac): left out, Disabled


def test_a_public_address_answers_its_allocation_by_sku_and_azure_s_idle_timeout() -> None:
    # PublicIpAddressCreateDefaults.json (118093527e37): no SKU -> Dynamic, IPv4, 4 minutes; a Standard one is static
    arm = _arm()
    plain = _put(arm, "azure-native:network:PublicIPAddress", {"publicIpAddressName": "a"})
    standard = _put(
        arm, "azure-native:network:PublicIPAddress", {"publicIpAddressName": "b", "sku": {"name": "Standard"}}
    )

    assert (plain["publicIPAllocationMethod"], plain["publicIPAddressVersion"], plain["idleTimeoutInMinutes"]) == (
        "Dynamic",
        "IPv4",
        4,
    )
    assert standard["publicIPAllocationMethod"] == "Static"


def _pool(network_profile: dict[str, Any], pool: dict[str, Any]) -> dict[str, Any]:
    arm = _arm()
    profile = {"name": "system", "mode": "System", "count": 1, "vmSize": "Standard_D4s_v5", "osType": "Linux"}
    cluster = {
        "resourceName": "aks1",
        "dnsPrefix": "aks1",
        "kubernetesVersion": "1.34",
        "agentPoolProfiles": [profile],
        "networkProfile": network_profile,
        "identity": {"type": "SystemAssigned"},
    }
    _put(arm, "azure-native:containerservice:ManagedCluster", cluster)
    inputs = {"resourceName": "aks1", "agentPoolName": "gpu", "count": 1, "vmSize": "Standard_D4s_v5", **pool}
    return _put(arm, "azure-native:containerservice:AgentPool", inputs)


def test_an_agent_pool_answers_azure_s_max_pods_for_its_cluster_s_network_plugin() -> None:
    # PSRule Azure.AKS.NodeMinPods: kubenet 110, Azure CNI 30; no plugin named: 110 (AgentPoolsCreate_OSSKU.json)
    assert _pool({"networkPlugin": "kubenet"}, {})["maxPods"] == 110
    assert _pool({"networkPlugin": "azure"}, {})["maxPods"] == 30
    assert _pool({}, {})["maxPods"] == 110
    assert _pool({"networkPlugin": "azure"}, {"maxPods": 50})["maxPods"] == 50
    assert "maxPods" not in _pool({"networkPlugin": "azure", "networkPluginMode": "overlay"}, {})  # no public default


def test_an_agent_pool_without_a_version_runs_its_control_plane_s() -> None:
    assert _pool({}, {})["currentOrchestratorVersion"] == "1.34"
    assert _pool({}, {"orchestratorVersion": "1.35"})["currentOrchestratorVersion"] == "1.35"


def _account(arm: FakeArm, name: str, sku: str, location: str) -> dict[str, Any]:
    return _put(
        arm,
        "azure-native:storage:StorageAccount",
        {"accountName": name, "sku": {"name": sku}, "kind": "StorageV2", "location": location},
    )


def test_a_geo_redundant_account_answers_its_region_s_pair_as_its_secondary() -> None:
    # Learn's "Azure regions list" (MicrosoftDocs/reliability-docs regions-list.md, 01021ab80d1a): West Europe's
    # paired region is North Europe, West US 3's is East US (one way); StorageAccountCreate.json (b923d8e70889)
    # answers a Standard_GRS account's secondary with statusOfSecondary "available"
    arm = _arm()
    grs = _account(arm, "geowe", "Standard_GRS", "westeurope")
    ragzrs = _account(arm, "geowus3", "Standard_RAGZRS", "westus3")

    assert (grs["secondaryLocation"], grs["statusOfSecondary"]) == ("northeurope", "available")
    assert ragzrs["secondaryLocation"] == "eastus"


def test_an_account_without_a_second_region_answers_none() -> None:
    # LRS keeps its copies in one region; Italy North has no pair in Learn's list (N/A): Azure's choice is not known
    arm = _arm()
    lrs = _account(arm, "localwe", "Standard_LRS", "westeurope")
    unpaired = _account(arm, "geoitn", "Standard_GRS", "italynorth")

    assert "secondaryLocation" not in lrs and "statusOfSecondary" not in lrs
    assert "secondaryLocation" not in unpaired and "statusOfSecondary" not in unpaired


def test_a_uniform_scale_set_answers_a_single_placement_group_and_a_flexible_one_no_guess() -> None:
    # Learn, "Virtual Machine Scale Sets and placement groups" (Uniform orchestration): singlePlacementGroup's
    # "default value of true"; no page read states a Flexible set's
    arm = _arm()
    answers = {}
    for mode in (None, "Uniform", "Flexible"):
        props = {"orchestrationMode": mode} if mode else {}
        res = Resource(f"/subscriptions/s/resourceGroups/{GROUP}/x/{mode}", VirtualMachineScaleSet.arm_type, "s", GROUP,
                       "eastus", props)  # fmt: skip
        answers[mode] = with_defaults(arm, VirtualMachineScaleSet.token, res, {}).get("singlePlacementGroup")

    assert answers == {None: True, "Uniform": True, "Flexible": None}


def test_an_application_insights_component_answers_the_spec_s_defaults() -> None:
    # components_API.json (applicationinsights 2020-02-02, 0c3c7e2f4f03): ApplicationId "mirrors the 'Name' field",
    # IngestionMode's default LogAnalytics, PublicNetworkAccessType's "By default it is Enabled"; ComponentsCreate.json
    # (04c2cb7bb789) answers SamplingPercentage 100 and DisableIpMasking false to a request without them
    arm = _arm()
    _put(arm, "azure-native:operationalinsights:Workspace", {"workspaceName": "logs1"})
    group = f"/subscriptions/{arm.subscription_id}/resourceGroups/{GROUP}"
    logs = f"{group}/providers/Microsoft.OperationalInsights/workspaces/logs1"
    out = _put(
        arm,
        "azure-native:applicationinsights:Component",
        {"resourceName": "my-component", "kind": "web", "applicationType": "web", "workspaceResourceId": logs},
    )

    assert (out["applicationId"], out["ingestionMode"], out["samplingPercentage"], out["disableIpMasking"]) == (
        "my-component",
        "LogAnalytics",
        100.0,
        False,
    )
    assert out["publicNetworkAccessForIngestion"] == out["publicNetworkAccessForQuery"] == "Enabled"
    assert out["tenantId"] == arm.tenant_id
