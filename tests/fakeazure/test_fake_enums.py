"""Azure's published enums as an outside check: a value outside the enum pulumi-azure-native generated
from Azure's REST specs is refused with InvalidParameter, the resource, the camelCase path and the
allowed values; what the shipped stacks, examples and the team corpus send is never refused."""

from __future__ import annotations

from typing import Any

import pytest
from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.fakeazure.enums import OPEN_ENUMS, args_class, violations
from azure_gpu_stacks.fakeazure.errors import ArmError
from azure_gpu_stacks.fakeazure.models import resource_type

from tests.conftest import arm_with_group

RG = "rg-enums"
AML = {"computeType": "AmlCompute"}

# (type, body with one bad enum value, path, bad value, one allowed value)
BAD_BODIES: list[tuple[str, dict[str, Any], str, str, str]] = [
    ("compute:VirtualMachine", {"evictionPolicy": "Deallocated"}, "evictionPolicy", "Deallocated", "Deallocate"),
    ("compute:VirtualMachine", {"priority": "Spotty"}, "priority", "Spotty", "Spot"),
    (
        "compute:VirtualMachine",
        {"storageProfile": {"osDisk": {"createOption": "FromImage", "caching": "ReadWriteMany"}}},
        "storageProfile.osDisk.caching",
        "ReadWriteMany",
        "ReadWrite",
    ),
    (
        "compute:VirtualMachine",
        {
            "storageProfile": {
                "osDisk": {"createOption": "FromImage", "managedDisk": {"storageAccountType": "Premium_LRSS"}}
            }
        },
        "storageProfile.osDisk.managedDisk.storageAccountType",
        "Premium_LRSS",
        "Premium_LRS",
    ),
    (
        "compute:VirtualMachine",
        {"securityProfile": {"securityType": "Trusted"}},
        "securityProfile.securityType",
        "Trusted",
        "TrustedLaunch",
    ),
    (
        "compute:VirtualMachine",
        {"osProfile": {"linuxConfiguration": {"patchSettings": {"patchMode": "Automatic"}}}},
        "osProfile.linuxConfiguration.patchSettings.patchMode",
        "Automatic",
        "AutomaticByPlatform",
    ),
    ("compute:VirtualMachineScaleSet", {"upgradePolicy": {"mode": "Auto"}}, "upgradePolicy.mode", "Auto", "Manual"),
    ("compute:VirtualMachineScaleSet", {"orchestrationMode": "Uniformed"}, "orchestrationMode", "Uniformed", "Uniform"),
    (
        "compute:VirtualMachineScaleSet",
        {"virtualMachineProfile": {"evictionPolicy": "Deallocated"}},
        "virtualMachineProfile.evictionPolicy",
        "Deallocated",
        "Deallocate",
    ),
    (
        "network:NetworkSecurityGroup",
        {"securityRules": [{"name": "ssh", "access": "Permit"}]},
        "securityRules[0].access",
        "Permit",
        "Allow",
    ),
    (
        "network:NetworkSecurityGroup",
        {"securityRules": [{"name": "ssh", "direction": "In"}]},
        "securityRules[0].direction",
        "In",
        "Inbound",
    ),
    (
        "network:NetworkSecurityGroup",
        {"securityRules": [{"name": "ssh", "protocol": "SSH"}]},
        "securityRules[0].protocol",
        "SSH",
        "Tcp",
    ),
    ("network:PublicIPAddress", {"publicIPAllocationMethod": "Fixed"}, "publicIPAllocationMethod", "Fixed", "Static"),
    ("network:PublicIPAddress", {"sku": {"name": "Premium"}}, "sku.name", "Premium", "Standard"),
    (
        "storage:StorageAccount",
        {"kind": "StorageV3", "sku": {"name": "Standard_LRS"}},
        "kind",
        "StorageV3",
        "StorageV2",
    ),
    (
        "storage:StorageAccount",
        {"kind": "StorageV2", "sku": {"name": "Standard_LRSS"}},
        "sku.name",
        "Standard_LRSS",
        "Standard_LRS",
    ),
    (
        "keyvault:Vault",
        {"properties": {"tenantId": "t", "sku": {"family": "A", "name": "gold"}}},
        "properties.sku.name",
        "gold",
        "standard",
    ),
    (
        "containerservice:ManagedCluster",
        {"agentPoolProfiles": [{"name": "system", "mode": "Primary"}]},
        "agentPoolProfiles[0].mode",
        "Primary",
        "System",
    ),
    (
        "containerservice:ManagedCluster",
        {"identity": {"type": "SystemAssign"}},
        "identity.type",
        "SystemAssign",
        "SystemAssigned",
    ),
    (
        "containerservice:ManagedCluster",
        {"networkProfile": {"networkPlugin": "calico"}},
        "networkProfile.networkPlugin",
        "calico",
        "azure",
    ),
    ("containerservice:AgentPool", {"scaleSetPriority": "Low"}, "scaleSetPriority", "Low", "Spot"),
    (
        "containerservice:AgentPool",
        {"scaleSetEvictionPolicy": "Deallocated"},
        "scaleSetEvictionPolicy",
        "Deallocated",
        "Deallocate",
    ),
    ("consumption:Budget", {"timeGrain": "Weekly"}, "timeGrain", "Weekly", "Monthly"),
    (
        "consumption:Budget",
        {"notifications": {"actual": {"operator": "Above"}}},
        "notifications.actual.operator",
        "Above",
        "GreaterThan",
    ),
    ("devtestlab:GlobalSchedule", {"status": "On"}, "status", "On", "Enabled"),
    (
        "machinelearningservices:Compute",
        {"properties": {**AML, "properties": {"vmPriority": "Spot"}}},
        "properties.properties.vmPriority",
        "Spot",
        "LowPriority",
    ),
    (
        "machinelearningservices:Compute",
        {"properties": {**AML, "properties": {"remoteLoginPortPublicAccess": "Open"}}},
        "properties.properties.remoteLoginPortPublicAccess",
        "Open",
        "Disabled",
    ),
    ("authorization:RoleAssignment", {"principalType": "Robot"}, "principalType", "Robot", "ServicePrincipal"),
]


def test_the_table_spans_at_least_20_bodies_and_8_types() -> None:
    assert len(BAD_BODIES) >= 20 and len({t for t, *_ in BAD_BODIES}) >= 8


@pytest.fixture
def arm() -> FakeArm:
    return arm_with_group(RG)


@pytest.mark.parametrize(
    ("kind", "body", "path", "value", "allowed"), BAD_BODIES, ids=[f"{b[0]}:{b[2]}" for b in BAD_BODIES]
)
def test_a_value_outside_azures_enum_is_invalid_parameter(
    arm: FakeArm, kind: str, body: dict[str, Any], path: str, value: str, allowed: str
) -> None:
    token = f"azure-native:{kind}"
    props = {
        "resourceGroupName": RG,
        "location": "eastus",
        "scope": f"/subscriptions/{arm.subscription_id}/resourceGroups/{RG}",
        **body,
    }

    with pytest.raises(ArmError) as refused:
        arm.put(token, "bad", props, "bad")

    assert refused.value.code == "InvalidParameter"
    message = refused.value.message
    assert message.startswith(f"The value '{value}' of {path} is not valid for ")
    assert f" is not valid for {resource_type(token).arm_type} 'bad" in message and message.endswith(".")
    assert allowed in message.removesuffix(".").split("; allowed: ")[1].split(", ")


def test_enum_values_compare_case_insensitively_as_arm_compares_them() -> None:
    assert violations("azure-native:compute:VirtualMachine", {"priority": "spot", "evictionPolicy": "DEALLOCATE"}) == []


def test_a_union_member_is_picked_by_its_discriminator() -> None:
    # ComputeInstance has no vmPriority; the AmlCompute member, named by computeType, does.
    assert [
        v.path
        for v in violations(
            "azure-native:machinelearningservices:Compute", {"properties": {**AML, "properties": {"vmPriority": "x"}}}
        )
    ] == ["properties.properties.vmPriority"]


def test_open_enums_are_not_checked() -> None:
    assert "VirtualMachineSizeTypes" in OPEN_ENUMS
    assert (
        violations("azure-native:compute:VirtualMachine", {"hardwareProfile": {"vmSize": "Standard_ND96isr_H200_v5"}})
        == []
    )


def test_the_map_is_derived_from_the_installed_sdk() -> None:
    import pulumi_azure_native.compute as compute

    assert args_class("azure-native:compute:VirtualMachine") is compute.VirtualMachineArgs
    assert args_class("azure-native:nosuch:Thing") is None
    assert violations("azure-native:nosuch:Thing", {"x": "y"}) == []


def test_without_the_check_the_same_body_is_accepted(arm: FakeArm) -> None:
    arm.check_enums = False
    arm.put(
        "azure-native:devtestlab:GlobalSchedule",
        "s",
        {
            "resourceGroupName": RG,
            "location": "eastus",
            "status": "On",
            "targetResourceId": "/subscriptions/11111111-2222-3333-4444-555555555555/resourceGroups/other"
            "/providers/Microsoft.Compute/virtualMachines/v",
        },
        "s",
    )


def test_a_resource_whose_args_name_an_input_type_is_checked_with_its_own_args() -> None:
    import pulumi_azure_native.network as network

    assert args_class("azure-native:network:Subnet") is network.SubnetInitArgs
    assert [
        v.path for v in violations("azure-native:network:Subnet", {"privateEndpointNetworkPolicies": "Sometimes"})
    ] == ["privateEndpointNetworkPolicies"]
