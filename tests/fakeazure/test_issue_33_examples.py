"""Issue 33's own list of the rules that live in prose, re-run as a check: each item is enforced with Azure's code
and has a single-rule mutation in tests/data/mutations that the fake refuses with that code (the mutation tests run
them), or is knowingly skipped with why. The codes are the ones the issue and each rule's public source name (the
issue: "NSG priority out of range is `SecurityRuleInvalidPriority`"; "Azure ML's validation answers `UserError`")."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
from azure_gpu_stacks.fakeazure import prose
from azure_gpu_stacks.fakeazure.model_rules import MODEL_RULES

from tests.conftest import REPO

MUTATIONS = REPO / "tests" / "data" / "mutations"
VM = "Microsoft.Compute/virtualMachines"
VMSS = "Microsoft.Compute/virtualMachineScaleSets"
AKS = "Microsoft.ContainerService/managedClusters"
POOL = "Microsoft.ContainerService/managedClusters/agentPools"

# (the words, where the rule lives, its key there, Azure's code)
PROSE_ITEMS: list[tuple[str, str, str]] = [
    ("VM osProfile: reserved admin names, 20/64-character user names", f"admin-name:{VM}", "InvalidParameter"),
    ("scale set osProfile: reserved admin names", f"admin-name:{VMSS}", "InvalidParameter"),
    ("VM computer names, 15/64 characters (Windows/Linux)", f"computer-name:{VM}", "InvalidParameter"),
    ("VM password complexity", f"password:{VM}", "InvalidParameter"),
    ("scale set password complexity", f"password:{VMSS}", "InvalidParameter"),
    ("VM customData at most 64 KiB and base64", f"custom-data:{VM}", "InvalidParameter"),
    ("scale set customData at most 64 KiB and base64", f"custom-data:{VMSS}", "InvalidParameter"),
    ("VM billingProfile.maxPrice -1 or > 0", f"max-price:{VM}", "InvalidParameter"),
    ("scale set billingProfile.maxPrice -1 or > 0", f"max-price:{VMSS}", "InvalidParameter"),
    ("VM duplicate data-disk LUNs", f"lun:{VM}", "InvalidParameter"),
    ("scale set duplicate data-disk LUNs", f"lun:{VMSS}", "InvalidParameter"),
    ("negative capacity", "capacity", "InvalidParameter"),
    ("public IP DNS label rules", "dns-label", "InvalidDomainNameLabel"),
    ("public IP idle timeout 4-30 minutes", "idle-timeout", "InvalidParameter"),
    ("Standard is static only", "standard-static", "StandardAndStandardV2SkuPublicIPAddressesMustBeStatic"),
    ("Basic retired", "basic-retired", "IPv4BasicSkuPublicIpCountLimitReached"),
    ("address prefixes without a length (`10.0.0.0` read as /32)", "prefix-format", "InvalidAddressPrefixFormat"),
    ("NSG port ranges beyond 65535", "port-range", "SecurityRuleInvalidPortRange"),
    ("NSG source prefixes Azure rejects", "address-prefix", "SecurityRuleInvalidAddressPrefix"),
    ("NIC static IPs in a subnet's reserved addresses", "static-ip", "PrivateIPAddressInReservedRange"),
    ("NIC static IPs outside the subnet", "static-ip", "PrivateIPAddressNotInSubnet"),
    ("AKS maxPods bounds per network plugin (cluster)", f"max-pods:{AKS}", "InvalidParameter"),
    ("AKS maxPods bounds per network plugin (pool)", f"max-pods:{POOL}", "InvalidParameter"),
    ("taints that are not key=value:Effect (cluster)", f"taints:{AKS}", "InvalidParameter"),
    ("taints that are not key=value:Effect (pool)", f"taints:{POOL}", "InvalidParameter"),
    ("Windows pool names at most 6 characters (cluster)", f"windows-pool-name:{AKS}", "InvalidParameter"),
    ("Windows pool names at most 6 characters (pool)", f"windows-pool-name:{POOL}", "InvalidParameter"),
    ("budget start date at most twelve months ahead", "budget-start-ahead", "InvalidParameter"),
    ("budget start within the current time grain when past", "budget-start-past", "InvalidParameter"),
    (
        "managed identity names (3-128, leading letter or digit)",
        "name:Microsoft.ManagedIdentity/userAssignedIdentities",
        "InvalidResourceName",
    ),
]
MODEL_ITEMS: list[tuple[str, str, str]] = [
    (
        "inline subnets that overlap",
        "network: NetcfgSubnetRangesOverlap: overlaps with that of an existing subnet",
        "NetcfgSubnetRangesOverlap",
    ),
    (
        "inline subnets that fall outside the VNet",
        "network: NetcfgSubnetRangeOutsideVnet: is outside the IP address range of virtual network",
        "NetcfgSubnetRangeOutsideVnet",
    ),
    (
        "NSG priority out of range is SecurityRuleInvalidPriority",
        "network: SecurityRuleInvalidPriority: Security rule has invalid Priority",
        "SecurityRuleInvalidPriority",
    ),
]
SKIPPED_ITEMS: list[tuple[str, str]] = [
    ("scale set computer names (the prefix of its instances' host names)", "computer-name-prefix"),
]


@cache
def _corpus(name: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads((MUTATIONS / name).read_text(encoding="utf-8"))
    return found


@pytest.mark.parametrize(("item", "rule_id", "code"), PROSE_ITEMS, ids=[i[0] for i in PROSE_ITEMS])
def test_each_prose_item_is_enforced_with_azures_code_and_mutated(item: str, rule_id: str, code: str) -> None:
    enforced = [r for r in prose.RULES if r.id == rule_id]
    stateful = [r for r in prose.STATEFUL_RULES if r.id == rule_id]
    mutated = [m for m in _corpus("prose.json")["mutations"] if m["rule"] == rule_id and m["code"] == code]

    assert (enforced and {r.code for r in enforced} == {code}) or (stateful and not enforced), item
    assert mutated and all(m["source"] for m in mutated), item


@pytest.mark.parametrize(("item", "rule", "code"), MODEL_ITEMS, ids=[i[0] for i in MODEL_ITEMS])
def test_each_model_item_is_enforced_with_azures_code_and_mutated(item: str, rule: str, code: str) -> None:
    rows = [r for r in MODEL_RULES if f"{r.module}: {r.code}: {r.says}" == rule]
    mutated = [m for m in _corpus("model.json")["mutations"] if m["rule"] == rule and m["code"] == code]

    assert [r.code for r in rows] == [code] and mutated, item


def test_an_nsg_rule_without_a_priority_is_security_rule_invalid_priority_too() -> None:
    mutated = [
        m
        for m in _corpus("spec.json")["mutations"]
        if m["token"] == "azure-native:network:NetworkSecurityGroup"
        and m["rule"] == 'properties.securityRules[*].properties.priority {"required": true}'
    ]

    assert [m["code"] for m in mutated] == ["SecurityRuleInvalidPriority"]


def test_azure_ml_compute_validation_answers_user_error() -> None:
    """Every mutation of an ML compute's body is answered UserError; only its name is not (InvalidParameter: no public
    source gives Azure's code for a refused compute name, as the rule table says)."""
    mutated = [
        m for m in _corpus("spec.json")["mutations"] if m["token"] == "azure-native:machinelearningservices:Compute"
    ]
    codes = {m["code"] for m in mutated if m["at"] != ["name"]}
    name_rows = [r for r in MODEL_RULES if r.says == "is not a valid compute name"]

    assert len(mutated) >= 10 and codes == {"UserError"}
    assert [r.code for r in name_rows] == ["InvalidParameter"] and "code not public" in name_rows[0].source


@pytest.mark.parametrize(("item", "rule_id"), SKIPPED_ITEMS, ids=[i[0] for i in SKIPPED_ITEMS])
def test_each_skipped_item_says_why(item: str, rule_id: str) -> None:
    skipped = [r for r in prose.SKIPPED if r.id == rule_id]

    assert skipped and skipped[0].why and skipped[0].source, item


def test_a_scale_set_on_a_subnet_declared_inline_in_its_vnet_is_accepted() -> None:
    """The issue's first false red, for the scale set it names (the NIC and the AKS pool are
    tests/fakeazure/test_fake_inline_subnets.py's): Azure's own templates declare subnets inline and reference them by
    id (Azure/azure-quickstart-templates, quickstarts/microsoft.compute/vm-simple-linux/main.bicep)."""
    from azure_gpu_stacks.fakeazure import FakeArm

    arm = FakeArm(default_location="eastus")
    arm.put("azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": "rg", "location": "eastus"}, "rg")
    vnet = {
        "resourceGroupName": "rg",
        "virtualNetworkName": "vnet1",
        "addressSpace": {"addressPrefixes": ["10.0.0.0/16"]},
        "subnets": [{"name": "default", "addressPrefix": "10.0.1.0/24"}],
    }
    arm.put("azure-native:network:VirtualNetwork", "vnet1", vnet, "vnet1")
    subnet = (
        f"/subscriptions/{arm.subscription_id}/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/vnet1"
        "/subnets/default"
    )
    ssh = {"path": "/home/azureuser/.ssh/authorized_keys", "keyData": "ssh-rsa AAAA"}
    scale_set = {
        "resourceGroupName": "rg",
        "vmScaleSetName": "ss",
        "sku": {"name": "Standard_NC4as_T4_v3", "capacity": 1},
        "upgradePolicy": {"mode": "Manual"},
        "virtualMachineProfile": {
            "storageProfile": {
                "imageReference": {
                    "publisher": "Canonical",
                    "offer": "ubuntu-24_04-lts",
                    "sku": "server",
                    "version": "latest",
                },
                "osDisk": {"createOption": "FromImage"},
            },
            "osProfile": {
                "computerNamePrefix": "ss",
                "adminUsername": "azureuser",
                "linuxConfiguration": {"disablePasswordAuthentication": True, "ssh": {"publicKeys": [ssh]}},
            },
            "networkProfile": {
                "networkInterfaceConfigurations": [
                    {"name": "nic", "primary": True, "ipConfigurations": [{"name": "ip", "subnet": {"id": subnet}}]}
                ]
            },
        },
    }

    made = arm.put("azure-native:compute:VirtualMachineScaleSet", "ss", scale_set, "ss")

    assert made.id.endswith("/virtualMachineScaleSets/ss") and arm.find(subnet) is not None
