"""A corpus of single-rule mutations: a valid body per modelled type, mutated one prose rule at a time, each
expecting Azure's code (issue 33). Each mutation names the source of its rule (the rule's own `source`, from
the spec's description, Learn, or where Azure's error was seen); the controls must stay accepted. The coverage
test asks a mutation of every rule the fake enforces."""

from __future__ import annotations

import copy
import datetime as dt
import json
from collections.abc import Callable
from typing import Any

import pytest
from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.fakeazure.errors import ArmError
from azure_gpu_stacks.fakeazure.prose import RULES, STATEFUL_RULES

from tests.conftest import REPO, arm_with_group

RG = "rg-prose"
SUB = "00000000-0000-0000-0000-0000000000aa"
NET = f"/subscriptions/{SUB}/resourceGroups/{RG}/providers/Microsoft.Network"
SUBNET_ID = f"{NET}/virtualNetworks/vnet1/subnets/default"
TOKENS = {
    "Microsoft.Network/virtualNetworks": "azure-native:network:VirtualNetwork",
    "Microsoft.Network/virtualNetworks/subnets": "azure-native:network:Subnet",
    "Microsoft.Network/networkSecurityGroups": "azure-native:network:NetworkSecurityGroup",
    "Microsoft.Network/publicIPAddresses": "azure-native:network:PublicIPAddress",
    "Microsoft.Network/networkInterfaces": "azure-native:network:NetworkInterface",
    "Microsoft.Compute/virtualMachines": "azure-native:compute:VirtualMachine",
    "Microsoft.Compute/virtualMachineScaleSets": "azure-native:compute:VirtualMachineScaleSet",
    "Microsoft.ManagedIdentity/userAssignedIdentities": "azure-native:managedidentity:UserAssignedIdentity",
    "Microsoft.Consumption/budgets": "azure-native:consumption:Budget",
    "Microsoft.ContainerService/managedClusters": "azure-native:containerservice:ManagedCluster",
    "Microsoft.ContainerService/managedClusters/agentPools": "azure-native:containerservice:AgentPool",
}
NAME_INPUTS = {
    "Microsoft.Network/virtualNetworks": "virtualNetworkName",
    "Microsoft.Network/virtualNetworks/subnets": "subnetName",
    "Microsoft.Network/networkSecurityGroups": "networkSecurityGroupName",
    "Microsoft.Network/publicIPAddresses": "publicIpAddressName",
    "Microsoft.Network/networkInterfaces": "networkInterfaceName",
    "Microsoft.Compute/virtualMachines": "vmName",
    "Microsoft.Compute/virtualMachineScaleSets": "vmScaleSetName",
    "Microsoft.ManagedIdentity/userAssignedIdentities": "resourceName",
    "Microsoft.Consumption/budgets": "budgetName",
    "Microsoft.ContainerService/managedClusters": "resourceName",
    "Microsoft.ContainerService/managedClusters/agentPools": "agentPoolName",
}
IMAGE = {"publisher": "Canonical", "offer": "ubuntu-24_04-lts", "sku": "server", "version": "latest"}
LINUX = {"disablePasswordAuthentication": False}
OS = {
    "computerName": "gpu-node",
    "adminUsername": "azureuser",
    "adminPassword": "Sup3r-secret!",
    "linuxConfiguration": LINUX,
}
NIC_ID = f"{NET}/networkInterfaces/nic-base"
# The fake runs on today's date (as Azure does): a budget starts in the current month, the previous one is past.
THIS_MONTH = dt.datetime.now(dt.timezone.utc).date().replace(day=1)
LAST_MONTH = (THIS_MONTH - dt.timedelta(days=1)).replace(day=1)

# One valid body per modelled type (the controls).
BASES: dict[str, dict[str, Any]] = {
    "Microsoft.Network/virtualNetworks": {
        "addressSpace": {"addressPrefixes": ["10.1.0.0/16"]},
        "subnets": [{"name": "a", "addressPrefix": "10.1.0.0/24"}],
    },
    "Microsoft.Network/virtualNetworks/subnets": {"virtualNetworkName": "vnet1", "addressPrefix": "10.0.9.0/24"},
    "Microsoft.Network/networkSecurityGroups": {
        "securityRules": [
            {
                "name": "ssh",
                "priority": 300,
                "direction": "Inbound",
                "access": "Allow",
                "protocol": "Tcp",
                "sourcePortRange": "*",
                "destinationPortRange": "22",
                "sourceAddressPrefix": "203.0.113.0/24",
                "destinationAddressPrefix": "*",
            }
        ]
    },
    "Microsoft.Network/publicIPAddresses": {
        "sku": {"name": "Standard"},
        "publicIPAllocationMethod": "Static",
        "idleTimeoutInMinutes": 4,
        "dnsSettings": {"domainNameLabel": "gpu-node-1"},
    },
    "Microsoft.Network/networkInterfaces": {
        "ipConfigurations": [
            {
                "name": "ip",
                "subnet": {"id": SUBNET_ID},
                "privateIPAllocationMethod": "Static",
                "privateIPAddress": "10.0.1.4",
            }
        ]
    },
    "Microsoft.Compute/virtualMachines": {
        "hardwareProfile": {"vmSize": "Standard_D4s_v5"},
        "osProfile": OS,
        "storageProfile": {
            "imageReference": IMAGE,
            "dataDisks": [{"lun": 0, "createOption": "Empty", "diskSizeGB": 64}],
        },
        "networkProfile": {"networkInterfaces": [{"id": NIC_ID}]},
        "priority": "Spot",
        "evictionPolicy": "Deallocate",
        "billingProfile": {"maxPrice": -1},
    },
    "Microsoft.Compute/virtualMachineScaleSets": {
        "sku": {"name": "Standard_D4s_v5", "capacity": 1},
        "orchestrationMode": "Uniform",
        "upgradePolicy": {"mode": "Manual"},
        "virtualMachineProfile": {
            "osProfile": {"computerNamePrefix": "gpu", "adminUsername": "azureuser", "adminPassword": "Sup3r-secret!"},
            "storageProfile": {
                "imageReference": IMAGE,
                "dataDisks": [{"lun": 0, "createOption": "Empty", "diskSizeGB": 64}],
            },
            "networkProfile": {
                "networkInterfaceConfigurations": [
                    {"name": "nic", "primary": True, "ipConfigurations": [{"name": "ip", "subnet": {"id": SUBNET_ID}}]}
                ]
            },
            "priority": "Spot",
            "evictionPolicy": "Delete",
            "billingProfile": {"maxPrice": 0.5},
        },
    },
    "Microsoft.ManagedIdentity/userAssignedIdentities": {},
    "Microsoft.Consumption/budgets": {
        "scope": f"/subscriptions/{SUB}",
        "amount": 100,
        "category": "Cost",
        "timeGrain": "Monthly",
        "timePeriod": {"startDate": f"{THIS_MONTH}T00:00:00Z"},
    },
    "Microsoft.ContainerService/managedClusters": {
        "dnsPrefix": "aks1",
        "agentPoolProfiles": [{"name": "system", "mode": "System", "count": 1, "vmSize": "Standard_D4s_v5"}],
    },
}
BASES["Microsoft.ContainerService/managedClusters/agentPools"] = {
    "resourceName": "aks-base",
    "mode": "User",
    "count": 1,
    "vmSize": "Standard_D4s_v5",
    "osType": "Linux",
    "maxPods": 30,
    "nodeTaints": ["sku=gpu:NoSchedule"],
}
GOOD_NAMES = {
    "Microsoft.ContainerService/managedClusters/agentPools": "gpu",
    "Microsoft.Consumption/budgets": "budget_1",
    "Microsoft.ManagedIdentity/userAssignedIdentities": "id-gpu",
}


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def mutate(body: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = body
        for key in parents:
            node = node[int(key)] if key.isdigit() else node.setdefault(key, {})
        if isinstance(node, list) and int(last) == len(node):
            node.append(value)
        else:
            node[int(last) if last.isdigit() else last] = value

    return mutate


CORPUS = REPO / "tests" / "data" / "mutations" / "prose.json"
# rule id or `id:ARM type` -> its single-rule mutation (a bad name, or values set on the base body), with the code
# Azure answers and the rule's source (tests/data/mutations/prose.json)
MUTATIONS: dict[str, dict[str, Any]] = {
    m["mutation"]: m for m in json.loads(CORPUS.read_text(encoding="utf-8"))["mutations"]
}


def _value(value: Any) -> Any:
    """A corpus value: a long string as `$repeat`, a date as `$monthStart` months from today's."""
    if isinstance(value, dict) and "$repeat" in value:
        return value["$repeat"] * value["times"]
    if isinstance(value, dict) and "$monthStart" in value:
        month = THIS_MONTH.month - 1 + value["$monthStart"]
        return f"{dt.date(THIS_MONTH.year + month // 12, month % 12 + 1, 1)}T00:00:00Z"
    return value


def key(rule_id: str, arm_type: str) -> str:
    return rule_id if rule_id in MUTATIONS else f"{rule_id}:{arm_type}"


STATEFUL = {k: m for k, m in MUTATIONS.items() if m["rule"] in {s.id for s in STATEFUL_RULES}}


@pytest.fixture
def arm() -> FakeArm:
    arm = arm_with_group(RG)
    vnet = {
        "resourceGroupName": RG,
        "virtualNetworkName": "vnet1",
        "addressSpace": {"addressPrefixes": ["10.0.0.0/16"]},
        "subnets": [{"name": "default", "addressPrefix": "10.0.1.0/24"}],
    }
    arm.put(TOKENS["Microsoft.Network/virtualNetworks"], "vnet1", vnet, "vnet1")
    nic = {
        "resourceGroupName": RG,
        "networkInterfaceName": "nic-base",
        "ipConfigurations": [{"name": "ip", "subnet": {"id": SUBNET_ID}}],
    }
    arm.put(TOKENS["Microsoft.Network/networkInterfaces"], "nic-base", nic, "nic-base")
    cluster = {
        **BASES["Microsoft.ContainerService/managedClusters"],
        "resourceGroupName": RG,
        "resourceName": "aks-base",
    }
    arm.put(TOKENS["Microsoft.ContainerService/managedClusters"], "aks-base", cluster, "aks-base")
    return arm


def put(arm: FakeArm, arm_type: str, body: dict[str, Any], name: str) -> Any:
    props = {NAME_INPUTS[arm_type]: name, **body}
    if arm_type != "Microsoft.Consumption/budgets":
        props["resourceGroupName"] = RG
    return arm.put(TOKENS[arm_type], name, props, name)


def good_name(arm_type: str) -> str:
    return GOOD_NAMES.get(arm_type, "gpu-node-2")


@pytest.mark.parametrize("arm_type", sorted(BASES))
def test_the_valid_base_body_of_each_type_is_accepted(arm: FakeArm, arm_type: str) -> None:
    put(arm, arm_type, copy.deepcopy(BASES[arm_type]), good_name(arm_type))


CASES = [(key(r.id, r.arm_type), r.arm_type, r.code, r.source) for r in RULES] + [
    (k, m["armType"], m["code"], next(s.source for s in STATEFUL_RULES if s.id == m["rule"]))
    for k, m in STATEFUL.items()
]


@pytest.mark.parametrize(("mutation", "arm_type", "code", "source"), CASES, ids=[f"{c[0]}@{c[1]}" for c in CASES])
def test_each_single_rule_mutation_gets_azures_code(
    arm: FakeArm, mutation: str, arm_type: str, code: str, source: str
) -> None:
    entry = MUTATIONS[mutation]
    assert source and entry["source"] == source  # the corpus names the rule's source
    assert entry["code"] == code
    body = copy.deepcopy(BASES[arm_type])
    name = entry.get("name", good_name(arm_type))
    for path, value in entry.get("set", []):
        _set(path, _value(value))(body)

    with pytest.raises(ArmError) as caught:
        put(arm, arm_type, body, name)

    assert caught.value.code == entry["code"], caught.value.message
    rule = next((r for r in RULES if key(r.id, r.arm_type) == mutation), None)
    if rule is not None:  # refused by this rule, not another one the mutation happened to break
        assert rule.check(name, {NAME_INPUTS[arm_type]: name, **body}) == caught.value.message


def test_every_rule_in_the_table_has_a_mutation() -> None:
    keys = {key(r.id, r.arm_type) for r in RULES} | {s.id for s in STATEFUL_RULES}

    assert keys == set(MUTATIONS) - set(STATEFUL) | {m["rule"] for m in STATEFUL.values()}


def test_a_refused_password_is_never_printed(arm: FakeArm) -> None:
    body = copy.deepcopy(BASES["Microsoft.Compute/virtualMachines"])
    body["osProfile"] = {**OS, "adminPassword": "onlylowercaseletters"}

    with pytest.raises(ArmError) as caught:
        put(arm, "Microsoft.Compute/virtualMachines", body, "gpu-node-2")

    assert "onlylowercaseletters" not in caught.value.message


def test_windows_limits_are_the_windows_ones(arm: FakeArm) -> None:
    body = copy.deepcopy(BASES["Microsoft.Compute/virtualMachines"])
    windows_os = {"computerName": "c" * 16, "adminUsername": "azureuser", "adminPassword": "Sup3r-secret!"}
    body["osProfile"] = {**windows_os, "windowsConfiguration": {"provisionVMAgent": True}}

    with pytest.raises(ArmError) as caught:
        put(arm, "Microsoft.Compute/virtualMachines", body, "gpu-node-2")

    assert caught.value.code == "InvalidParameter" and "more than 15 characters" in caught.value.message


def test_a_vm_resource_name_with_an_underscore_is_accepted(arm: FakeArm) -> None:
    # Learn's resource-name-rules: the virtualMachines row's character rules "are for the host name. The actual
    # resource name can have up to 64 characters"; a VM named with `_` through the API is created
    # (Azure/azure-rest-api-specs issue 13271, hashicorp/terraform-provider-azurerm issue 19158).
    put(arm, "Microsoft.Compute/virtualMachines", copy.deepcopy(BASES["Microsoft.Compute/virtualMachines"]), "gpu_vm_1")


@pytest.mark.parametrize(
    ("computer_name", "windows"),
    [("gpu_node", False), ("gpu-node.", False), ("gpu node", False), ("gpu.node", True), ("12345", True)],
)
def test_host_names_azure_refuses_are_refused(arm: FakeArm, computer_name: str, windows: bool) -> None:
    body = copy.deepcopy(BASES["Microsoft.Compute/virtualMachines"])
    body["osProfile"] = {**OS, "computerName": computer_name}
    if windows:
        body["osProfile"] = {**OS, "computerName": computer_name, "windowsConfiguration": {"provisionVMAgent": True}}
        del body["osProfile"]["linuxConfiguration"]

    with pytest.raises(ArmError) as caught:
        put(arm, "Microsoft.Compute/virtualMachines", body, "gpu-node-2")

    assert caught.value.code == "InvalidParameter" and "osProfile.computerName" in caught.value.message


def test_a_linux_host_name_with_a_period_inside_is_accepted(arm: FakeArm) -> None:
    body = copy.deepcopy(BASES["Microsoft.Compute/virtualMachines"])
    body["osProfile"] = {**OS, "computerName": "gpu.node-1"}

    put(arm, "Microsoft.Compute/virtualMachines", body, "gpu-node-2")


@pytest.mark.parametrize("grain", ["Quarterly", "Annually", "BillingMonth"])
def test_a_last_month_start_is_within_the_longer_grains(arm: FakeArm, grain: str) -> None:
    body = copy.deepcopy(BASES["Microsoft.Consumption/budgets"])
    body["timeGrain"] = grain
    body["timePeriod"] = {"startDate": f"{LAST_MONTH}T00:00:00Z"}

    put(arm, "Microsoft.Consumption/budgets", body, "budget_1")
