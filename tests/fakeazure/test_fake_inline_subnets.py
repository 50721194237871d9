"""Subnets declared inline in a VNet's `subnets` are child resources, as Azure creates them; anything that
references `.../virtualNetworks/V/subnets/NAME` finds them (Azure's quickstart templates declare subnets
so: Azure/azure-quickstart-templates, quickstarts/microsoft.compute/vm-simple-linux/main.bicep, observed
2026-11-26). And a budget's empty `endDate` (the default of AVM's budget module,
Azure/bicep-registry-modules avm/res/consumption/budget/main.bicep: "If not provided, it will default to
10 years from the start date", observed 2026-11-26) is no end date."""

from __future__ import annotations

from typing import Any

import pytest
from azure_gpu_stacks.fakeazure import FakeArm

from tests.conftest import arm_refusal, arm_with_group

RG = "rg-inline"
VNET = "azure-native:network:VirtualNetwork"
SUBNET = "azure-native:network:Subnet"
NIC = "azure-native:network:NetworkInterface"
CLUSTER = "azure-native:containerservice:ManagedCluster"
BUDGET = "azure-native:consumption:Budget"


@pytest.fixture
def arm() -> FakeArm:
    return arm_with_group(RG)


def vnet(*subnets: dict[str, Any], space: str = "10.0.0.0/16") -> dict[str, Any]:
    return {
        "resourceGroupName": RG,
        "virtualNetworkName": "vnet1",
        "addressSpace": {"addressPrefixes": [space]},
        "subnets": list(subnets),
    }


def subnet_id(arm: FakeArm, name: str) -> str:
    group = f"/subscriptions/{arm.subscription_id}/resourceGroups/{RG}"
    return f"{group}/providers/Microsoft.Network/virtualNetworks/vnet1/subnets/{name}"


def test_a_nic_on_an_inline_subnet_is_accepted_and_gets_an_address_of_it(arm: FakeArm) -> None:
    arm.put(VNET, "vnet1", vnet({"name": "default", "addressPrefix": "10.0.1.0/24"}), "v")
    nic = {
        "resourceGroupName": RG,
        "networkInterfaceName": "n",
        "ipConfigurations": [{"name": "ip", "subnet": {"id": subnet_id(arm, "default")}}],
    }

    made = arm.put(NIC, "n", nic, "n")

    # Azure keeps the first four addresses of a subnet: the first address it hands out is .4
    assert made.outputs["ipConfigurations"][0]["privateIPAddress"] == "10.0.1.4"
    assert arm.find(subnet_id(arm, "default")) is not None


def test_an_arm_shaped_inline_subnet_is_a_child_too(arm: FakeArm) -> None:
    made = arm.put(VNET, "vnet1", vnet({"name": "snet", "properties": {"addressPrefix": "10.0.2.0/24"}}), "v")

    assert made.outputs["subnets"][0]["id"] == subnet_id(arm, "snet")
    assert arm.find(subnet_id(arm, "snet")) is not None


def test_an_aks_pool_on_an_inline_subnet_is_accepted(arm: FakeArm) -> None:
    arm.put(VNET, "vnet1", vnet({"name": "aks", "addressPrefix": "10.0.0.0/22"}), "v")
    pool = {
        "name": "system",
        "mode": "System",
        "count": 1,
        "vmSize": "Standard_D4s_v5",
        "vnetSubnetID": subnet_id(arm, "aks"),
    }
    body = {"resourceGroupName": RG, "resourceName": "aks1", "dnsPrefix": "aks1", "agentPoolProfiles": [pool]}

    arm.put(CLUSTER, "aks1", body, "aks1")


def test_a_standalone_subnet_of_the_same_name_updates_the_inline_one(arm: FakeArm) -> None:
    arm.put(VNET, "vnet1", vnet({"name": "default", "addressPrefix": "10.0.1.0/24"}), "v")
    body = {
        "resourceGroupName": RG,
        "virtualNetworkName": "vnet1",
        "subnetName": "default",
        "addressPrefix": "10.0.1.0/24",
    }

    arm.put(SUBNET, "default", body, "default")

    again = arm_refusal(lambda: arm.put(SUBNET, "default2", body, "default2"))
    assert again.code == "Conflict"


def test_get_subnet_answers_an_inline_subnet_and_only_the_declared_ones(arm: FakeArm) -> None:
    arm.put(VNET, "vnet1", vnet({"name": "default", "addressPrefix": "10.0.1.0/24"}), "v")
    args = {"resourceGroupName": RG, "virtualNetworkName": "vnet1"}

    found = arm.invoke("azure-native:network:getSubnet", {**args, "subnetName": "default"})

    assert found["id"] == subnet_id(arm, "default") and found["addressPrefix"] == "10.0.1.0/24"
    missing = arm_refusal(lambda: arm.invoke("azure-native:network:getSubnet", {**args, "subnetName": "other"}))
    assert missing.code == "ResourceNotFound"


def test_an_inline_subnet_outside_the_vnet_is_refused_with_azures_code(arm: FakeArm) -> None:
    error = arm_refusal(lambda: arm.put(VNET, "vnet1", vnet({"name": "s", "addressPrefix": "10.1.0.0/24"}), "v"))

    assert error.code == "NetcfgSubnetRangeOutsideVnet"


def test_inline_subnets_that_overlap_are_refused_with_azures_code(arm: FakeArm) -> None:
    body = vnet({"name": "a", "addressPrefix": "10.0.0.0/24"}, {"name": "b", "addressPrefix": "10.0.0.128/25"})

    error = arm_refusal(lambda: arm.put(VNET, "vnet1", body, "v"))

    assert error.code == "NetcfgSubnetRangesOverlap" and "'b'" in error.message


def test_a_budget_with_an_empty_end_date_is_accepted(arm: FakeArm) -> None:
    props = {
        "budgetName": "b",
        "scope": f"/subscriptions/{arm.subscription_id}",
        "amount": 100,
        "category": "Cost",
        "timeGrain": "Monthly",
        "timePeriod": {"startDate": f"{arm.now.date().replace(day=1)}T00:00:00Z", "endDate": ""},
    }

    arm.put(BUDGET, "b", props, "b")
