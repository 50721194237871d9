"""What the fake ARM answers for a property a request leaves out (fakeazure/models/defaults.py), field by field, as
the REST spec's response examples answer it (Azure/azure-rest-api-specs, the file and commit at each test; observed
2026-11-27), in process.
"""

from __future__ import annotations

import json

from tests.conftest import REPO
from tests.fakeazure.test_fake_answer_defaults import GROUP, _arm, _put  # one group, every answer accepted

# NetworkSecurityGroupCreate.json (network 2024-05-01, e71bdd999732), saved as published: a request of only a location
NSG_EXAMPLE = json.loads((REPO / "tests/data/azure-responses/examples/NetworkSecurityGroupCreate.json").read_text())


def test_a_security_group_s_default_rules_are_the_example_s_field_by_field() -> None:
    arm = _arm()
    out = _put(arm, "azure-native:network:NetworkSecurityGroup", {"networkSecurityGroupName": "testnsg"})
    answered = NSG_EXAMPLE["example"]["responses"]["201"]["body"]
    group = f"/subscriptions/{arm.subscription_id}/resourceGroups/{GROUP}"
    ours = f"{group}/providers/Microsoft.Network/networkSecurityGroups/testnsg"
    # each rule as the SDK reads it: its name and id (under this test's group) beside its properties
    expected = [
        {"name": rule["name"], "id": rule["id"].replace(answered["id"], ours), **rule["properties"]}
        for rule in answered["properties"]["defaultSecurityRules"]
    ]

    assert len(expected) == 6 and out["defaultSecurityRules"] == expected


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
