"""What the fake ARM answers for a property a request leaves out (fakeazure/models/defaults.py), field by field, as
the REST spec's response examples answer it (Azure/azure-rest-api-specs, the file and commit at each test; observed
2026-11-27), in process.
"""

from __future__ import annotations

from tests.fakeazure.test_fake_answer_defaults import GROUP, _arm, _put  # one group, every answer accepted

# NetworkSecurityGroupCreate.json (network 2024-05-01, e71bdd999732): each default rule's properties, as the example
# answers them to a request of only a location (name, description, source and destination prefixes, access, priority,
# direction; every one for any protocol and port)
EXAMPLE_RULES = [
    ("AllowVnetInBound", "Allow inbound traffic from all VMs in VNET", "VirtualNetwork", "VirtualNetwork", "Allow",
     65000, "Inbound"),
    ("AllowAzureLoadBalancerInBound", "Allow inbound traffic from azure load balancer", "AzureLoadBalancer", "*",
     "Allow", 65001, "Inbound"),
    ("DenyAllInBound", "Deny all inbound traffic", "*", "*", "Deny", 65500, "Inbound"),
    ("AllowVnetOutBound", "Allow outbound traffic from all VMs to all VMs in VNET", "VirtualNetwork", "VirtualNetwork",
     "Allow", 65000, "Outbound"),
    ("AllowInternetOutBound", "Allow outbound traffic from all VMs to Internet", "*", "Internet", "Allow", 65001,
     "Outbound"),
    ("DenyAllOutBound", "Deny all outbound traffic", "*", "*", "Deny", 65500, "Outbound"),
]  # fmt: skip


def test_a_security_group_s_default_rules_are_the_example_s_field_by_field() -> None:
    arm = _arm()
    out = _put(arm, "azure-native:network:NetworkSecurityGroup", {"networkSecurityGroupName": "testnsg"})
    group = f"/subscriptions/{arm.subscription_id}/resourceGroups/{GROUP}"
    expected = [
        {
            "name": name,
            "id": f"{group}/providers/Microsoft.Network/networkSecurityGroups/testnsg/defaultSecurityRules/{name}",
            "description": description,
            "protocol": "*",
            "sourcePortRange": "*",
            "destinationPortRange": "*",
            "sourceAddressPrefix": source,
            "destinationAddressPrefix": destination,
            "access": access,
            "priority": priority,
            "direction": direction,
            "provisioningState": "Succeeded",
        }
        for name, description, source, destination, access, priority, direction in EXAMPLE_RULES
    ]

    assert out["defaultSecurityRules"] == expected


def test_a_secret_is_answered_in_its_vault_s_region() -> None:
    # createSecret.json (keyvault 2024-11-01, 315e54b73595): a request without a location is answered with the
    # vault's (westus, createVault.json's region), here a vault outside the subscription's default region
    arm = _arm()
    vault = {"tenantId": arm.tenant_id, "sku": {"family": "A", "name": "standard"}}
    _put(arm, "azure-native:keyvault:Vault", {"vaultName": "sample-vault", "location": "westus", "properties": vault})
    secret = _put(
        arm,
        "azure-native:keyvault:Secret",
        {"vaultName": "sample-vault", "secretName": "secret-name", "properties": {"value": "secret-value"}},
    )

    assert secret["location"] == "westus"
    assert secret["properties"]["attributes"] == {"enabled": True}
