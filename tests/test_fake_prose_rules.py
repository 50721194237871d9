"""A corpus of single-rule mutations: a valid body per modelled type, mutated one prose rule at a time, each
expecting Azure's code (issue 33). Each mutation names the source of its rule (the rule's own `source`, from
the spec's description, Learn, or where Azure's error was seen); the controls must stay accepted. The coverage
test asks a mutation of every rule the fake enforces."""

from __future__ import annotations

import base64
import copy
import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.fakeazure.errors import ArmError
from azure_gpu_stacks.fakeazure.prose import RULES, STATEFUL_RULES

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


BIG = base64.b64encode(b"x" * 65536).decode()
VMP = "virtualMachineProfile."
# rule id -> (a bad name, or a mutation of the body); each breaks that rule only.
MUTATIONS: dict[str, str | Callable[[dict[str, Any]], None]] = {
    "name:Microsoft.Network/virtualNetworks": "v",
    "name:Microsoft.Network/virtualNetworks/subnets": "snet-",
    "name:Microsoft.Network/networkSecurityGroups": "n" * 81,
    "name:Microsoft.Network/publicIPAddresses": "-pip",
    "name:Microsoft.Network/networkInterfaces": "nic$1",
    "name:Microsoft.Compute/virtualMachines": "v" * 65,
    "name:Microsoft.Compute/virtualMachineScaleSets": "vmss.",
    "name:Microsoft.ManagedIdentity/userAssignedIdentities": "-id",
    "name:Microsoft.Consumption/budgets": "budget.monthly",
    "name:Microsoft.ContainerService/managedClusters": "aks_",
    "admin-name:Microsoft.Compute/virtualMachines": _set("osProfile.adminUsername", "admin"),
    "admin-name:Microsoft.Compute/virtualMachineScaleSets": _set(VMP + "osProfile.adminUsername", "u" * 65),
    "password:Microsoft.Compute/virtualMachines": _set("osProfile.adminPassword", "alllowercase"),
    "password:Microsoft.Compute/virtualMachineScaleSets": _set(VMP + "osProfile.adminPassword", "P@ssw0rd"),
    "custom-data:Microsoft.Compute/virtualMachines": _set("osProfile.customData", "not base64!"),
    "custom-data:Microsoft.Compute/virtualMachineScaleSets": _set(VMP + "osProfile.customData", BIG),
    "max-price:Microsoft.Compute/virtualMachines": _set("billingProfile.maxPrice", 0),
    "max-price:Microsoft.Compute/virtualMachineScaleSets": _set(VMP + "billingProfile.maxPrice", -2),
    "lun:Microsoft.Compute/virtualMachines": _set(
        "storageProfile.dataDisks.1", {"lun": 0, "createOption": "Empty", "diskSizeGB": 8}
    ),
    "lun:Microsoft.Compute/virtualMachineScaleSets": _set(
        VMP + "storageProfile.dataDisks.1", {"lun": 0, "createOption": "Empty", "diskSizeGB": 8}
    ),
    "computer-name:Microsoft.Compute/virtualMachines": _set("osProfile.computerName", "c" * 65),
    "dns-label": _set("dnsSettings.domainNameLabel", "Gpu-Node"),
    "idle-timeout": _set("idleTimeoutInMinutes", 31),
    "standard-static": _set("publicIPAllocationMethod", "Dynamic"),
    "basic-retired": _set("sku.name", "Basic"),
    "prefix-format:Microsoft.Network/virtualNetworks": _set("addressSpace.addressPrefixes", ["10.1.0.0"]),
    "prefix-format:Microsoft.Network/virtualNetworks/subnets": _set("addressPrefix", "10.0.9.0"),
    "prefix-host-bits:Microsoft.Network/virtualNetworks": _set("subnets.0.addressPrefix", "10.1.0.1/24"),
    "prefix-host-bits:Microsoft.Network/virtualNetworks/subnets": _set("addressPrefix", "10.0.9.0/16"),
    "port-range": _set("securityRules.0.destinationPortRange", "22-65536"),
    "address-prefix": _set("securityRules.0.sourceAddressPrefix", "20.20.20.20/16"),
    "max-pods:Microsoft.ContainerService/managedClusters": _set("agentPoolProfiles.0.maxPods", 251),
    "max-pods:Microsoft.ContainerService/managedClusters/agentPools": _set("maxPods", 5),
    "taints:Microsoft.ContainerService/managedClusters": _set("agentPoolProfiles.0.nodeTaints", ["sku=gpu"]),
    "taints:Microsoft.ContainerService/managedClusters/agentPools": _set("nodeTaints", ["sku:NoSchedule=gpu"]),
    "windows-pool-name:Microsoft.ContainerService/managedClusters": _set(
        "agentPoolProfiles.1",
        {"name": "winpool1", "mode": "User", "osType": "Windows", "count": 1, "vmSize": "Standard_D4s_v5"},
    ),
    "windows-pool-name:Microsoft.ContainerService/managedClusters/agentPools": lambda body: body.update(
        osType="Windows", agentPoolName="winpool1"
    ),
    "budget-start-ahead:far": _set("timePeriod.startDate", "2099-01-01T00:00:00Z"),
    "budget-start-past:last-month": _set("timePeriod.startDate", f"{LAST_MONTH}T00:00:00Z"),
    "static-ip:reserved": _set("ipConfigurations.0.privateIPAddress", "10.0.1.3"),
    "static-ip:outside": _set("ipConfigurations.0.privateIPAddress", "10.0.2.10"),
}
EXPECTED_STATEFUL = {
    "static-ip:reserved": "PrivateIPAddressInReservedRange",
    "static-ip:outside": "PrivateIPAddressNotInSubnet",
    "budget-start-ahead:far": "InvalidParameter",
    "budget-start-past:last-month": "InvalidParameter",
}


def key(rule_id: str, arm_type: str) -> str:
    return rule_id if rule_id in MUTATIONS else f"{rule_id}:{arm_type}"


@pytest.fixture
def arm() -> FakeArm:
    arm = FakeArm(default_location="eastus")
    arm.put("azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": RG, "location": "eastus"}, "rg")
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


CASES = [(r.id, r.arm_type, r.code, r.source) for r in RULES] + [
    (k, s.arm_type, EXPECTED_STATEFUL[k], s.source)
    for s in STATEFUL_RULES
    for k in EXPECTED_STATEFUL
    if k.split(":")[0] == s.id
]


@pytest.mark.parametrize(("rule_id", "arm_type", "code", "source"), CASES, ids=[f"{c[0]}@{c[1]}" for c in CASES])
def test_each_single_rule_mutation_gets_azures_code(
    arm: FakeArm, rule_id: str, arm_type: str, code: str, source: str
) -> None:
    assert source  # every rule names where it was seen
    mutation = MUTATIONS[key(rule_id, arm_type)]
    body = copy.deepcopy(BASES[arm_type])
    name = good_name(arm_type)
    if isinstance(mutation, str):
        name = mutation
    else:
        mutation(body)

    with pytest.raises(ArmError) as caught:
        put(arm, arm_type, body, name)

    assert caught.value.code == code, caught.value.message
    rule = next((r for r in RULES if (r.id, r.arm_type) == (rule_id, arm_type)), None)
    if rule is not None:  # refused by this rule, not another one the mutation happened to break
        assert rule.check(name, {NAME_INPUTS[arm_type]: name, **body}) == caught.value.message


def test_every_rule_in_the_table_has_a_mutation() -> None:
    keys = {key(r.id, r.arm_type) for r in RULES} | set(EXPECTED_STATEFUL)

    assert keys == set(MUTATIONS)


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
