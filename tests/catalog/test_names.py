"""Name and length rules have one home: catalog/arm/name_rules.json, built from Learn's resource-name-rules page
(https://learn.microsoft.com/azure/azure-resource-manager/management/resource-name-rules) and the pages its rows name.
The components, the stack's config, the fake's types and its prose rules read it through `catalog.names`."""

from __future__ import annotations

import copy
import re

import pytest
from azure_gpu_stacks.catalog.limits import LIMITS, NAME_TYPES
from azure_gpu_stacks.catalog.names import name_rule, name_table
from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.fakeazure.errors import ArmError
from azure_gpu_stacks.fakeazure.models import RESOURCE_TYPES

from tests.conftest import REPO
from tests.fakeazure.test_fake_prose_rules import BASES, put

PACKAGE_ROOMS = ("catalog", "components", "engine", "fakeazure", "inputs", "policies", "sdk", "stack")


def test_every_modelled_type_has_a_name_rule_or_says_why_not() -> None:
    table = name_table()
    modelled = {t.arm_type for t in RESOURCE_TYPES.values()}
    said = set(table["rules"]) | set(table["skipped"]) | set(table["withoutRow"])

    assert sorted(modelled - said) == []
    assert all(table["withoutRow"].values()) and all(r["why"] for r in table["skipped"].values())


def test_no_name_rule_is_written_anywhere_but_the_table() -> None:
    written = [
        str(path.relative_to(REPO))
        for room in PACKAGE_ROOMS
        for path in (REPO / room).rglob("*.py")
        if re.search(r"\bNameRule\(", path.read_text(encoding="utf-8")) and path.name != "names.py"
    ]

    assert written == []


@pytest.mark.parametrize(("field", "arm_type"), sorted(NAME_TYPES.items()))
def test_the_limits_name_rules_are_the_tables(field: str, arm_type: str) -> None:
    assert getattr(LIMITS.names, field) == name_rule(arm_type)


# Learn's rows, as the issue names them (resource-name-rules, observed 2026-11-26)
@pytest.mark.parametrize(
    ("arm_type", "good", "bad"),
    [
        ("Microsoft.ManagedIdentity/userAssignedIdentities", "id1", "id"),  # 3-128
        ("Microsoft.ManagedIdentity/userAssignedIdentities", "i" * 128, "i" * 129),
        ("Microsoft.ManagedIdentity/userAssignedIdentities", "1-id_a", "-id1"),  # a letter or digit first
        ("Microsoft.Resources/resourceGroups", "r", "rg."),  # 1-90, not ending in a period
        ("Microsoft.Storage/storageAccounts", "abc123", "Abc123"),
        ("Microsoft.KeyVault/vaults", "kv-team-1", "kv--team"),
        ("Microsoft.Network/virtualNetworks", "vn", "v"),  # 2-64
    ],
)
def test_learns_rows_accept_and_refuse(arm_type: str, good: str, bad: str) -> None:
    rule = name_rule(arm_type)

    assert (rule.matches(good), rule.matches(bad)) == (True, False)


def test_a_one_character_resource_group_is_a_name_the_stack_and_the_fake_both_take() -> None:
    # Learn: resourcegroups 1-90; before, the limits asked for 2 while the fake took 1
    assert LIMITS.names.resource_group.matches("r")
    FakeArm(default_location="eastus").put(
        "azure-native:resources:ResourceGroup", "r", {"resourceGroupName": "r", "location": "eastus"}, "r"
    )


@pytest.fixture
def arm() -> FakeArm:
    from tests.fakeazure.test_fake_prose_rules import arm as make_arm

    return make_arm.__wrapped__()  # type: ignore[attr-defined]


@pytest.mark.parametrize(("name", "refused"), [("gpuwin", False), ("gpuwin1", True)])
def test_a_windows_pool_name_is_at_most_six_characters(arm: FakeArm, name: str, refused: bool) -> None:
    assert name_table()["rules"]["Microsoft.ContainerService/managedClusters/agentPools"]["windowsMax"] == 6
    body = {**copy.deepcopy(BASES["Microsoft.ContainerService/managedClusters/agentPools"]), "osType": "Windows"}
    body.pop("nodeTaints")
    if not refused:
        put(arm, "Microsoft.ContainerService/managedClusters/agentPools", body, name)
        return
    with pytest.raises(ArmError) as caught:
        put(arm, "Microsoft.ContainerService/managedClusters/agentPools", body, name)
    assert caught.value.code == "InvalidParameter" and "longer than 6" in caught.value.message


@pytest.mark.parametrize(("windows", "longest"), [(True, 15), (False, 64)])
def test_a_vm_host_name_is_at_most_15_windows_or_64_linux_characters(arm: FakeArm, windows: bool, longest: int) -> None:
    body = copy.deepcopy(BASES["Microsoft.Compute/virtualMachines"])
    os_profile = {**body["osProfile"]}
    if windows:
        os_profile.pop("linuxConfiguration")
        os_profile["windowsConfiguration"] = {"provisionVMAgent": True}
    body["osProfile"] = {**os_profile, "computerName": "h" * longest}
    put(arm, "Microsoft.Compute/virtualMachines", body, "vm-ok")
    body["osProfile"] = {**os_profile, "computerName": "h" * (longest + 1)}

    with pytest.raises(ArmError) as caught:
        put(arm, "Microsoft.Compute/virtualMachines", body, "vm-long")

    assert caught.value.code == "InvalidParameter" and "osProfile.computerName" in caught.value.message
