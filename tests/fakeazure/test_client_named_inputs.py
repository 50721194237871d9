"""Inputs pulumi-azure-native names after the swagger's `x-ms-client-name`, sent under Azure's wire name.

A storage account's virtual network rule: the SDK's `virtual_network_resource_id` is the spec's required `id`
(specification/storage/resource-manager/Microsoft.Storage/stable/2024-01-01/storage.json, VirtualNetworkRule,
"x-ms-client-name": "VirtualNetworkResourceId"; Azure PowerShell's -VirtualNetworkResourceId). It was dropped,
so the fake refused the account: "Required parameter 'properties.networkAcls.virtualNetworkRules[0].id' is
missing", a false red on the usual way to close an account to one subnet.
"""

from __future__ import annotations

from azure_gpu_stacks.catalog.arm.bodies import to_arm_body


def test_a_virtual_network_rules_subnet_is_sent_as_its_id() -> None:
    subnet = "/subscriptions/s1/resourceGroups/g1/providers/Microsoft.Network/virtualNetworks/vnet1/subnets/subnet1"
    body = to_arm_body(
        "azure-native:storage:StorageAccount",
        {
            "accountName": "sa1",
            "resourceGroupName": "g1",
            "kind": "StorageV2",
            "sku": {"name": "Standard_LRS"},
            "networkRuleSet": {
                "defaultAction": "Deny",
                "virtualNetworkRules": [{"virtualNetworkResourceId": subnet, "action": "Allow"}],
            },
        },
    )

    assert body["properties"]["networkAcls"]["virtualNetworkRules"] == [{"id": subnet, "action": "Allow"}]


def test_an_account_closed_to_one_subnet_is_accepted(record) -> None:  # type: ignore[no-untyped-def]
    from pulumi_azure_native import network, resources, storage

    def program() -> None:
        rg = resources.ResourceGroup("rg", location="westus3")
        vnet = network.VirtualNetwork(
            "vnet", resource_group_name=rg.name, address_space={"address_prefixes": ["10.1.0.0/16"]}
        )
        subnet = network.Subnet(
            "snet",
            resource_group_name=rg.name,
            virtual_network_name=vnet.name,
            address_prefix="10.1.1.0/24",
            service_endpoints=[{"service": "Microsoft.Storage"}],
        )
        storage.StorageAccount(
            "sa",
            resource_group_name=rg.name,
            kind="StorageV2",
            sku={"name": "Standard_LRS"},
            network_rule_set={
                "default_action": "Deny",
                "virtual_network_rules": [{"virtual_network_resource_id": subnet.id}],
            },
        )

    assert record(program).refusals == []
