"""warn-gpu-host-without-identity: from a GPU VM with a system-assigned identity, one change per test."""

from __future__ import annotations

from typing import Any

import pytest

from tests.policy_helpers import UNKNOWN, Res, changed, found

POLICY = "warn-gpu-host-without-identity"
VM = "azure-native:compute:VirtualMachine"
VMSS = "azure-native:compute:VirtualMachineScaleSet"
GPU = "Standard_NC4as_T4_v3"
HOST = {"resourceGroupName": "rg", "hardwareProfile": {"vmSize": GPU}, "identity": {"type": "SystemAssigned"}}


def without(shown: str, path: str = "hardwareProfile.vmSize") -> str:
    return (
        f"{path} '{GPU}' runs without a managed identity (identity.type is {shown}): its jobs could reach storage, "
        "registries and Key Vault only with keys copied onto the host; set identity.type to SystemAssigned (or "
        "UserAssigned) and grant it roles."
    )


def test_passes_a_gpu_vm_with_an_identity() -> None:
    assert found([Res(VM, "vm", HOST)], POLICY) == []


@pytest.mark.parametrize(("value", "shown"), [(..., "not set"), ("None", "None")], ids=["left-out", "none"])
def test_reports_a_gpu_vm_without_one(value: Any, shown: str) -> None:
    props = changed(HOST, ("identity",), ...) if value is ... else changed(HOST, ("identity", "type"), value)

    assert found([Res(VM, "vm", props)], POLICY) == [("advisory", "vm", without(shown))]


def test_reports_a_gpu_scale_set_without_one() -> None:
    scale_set = Res(VMSS, "nodes", {"resourceGroupName": "rg", "sku": {"name": GPU, "capacity": 2}})

    assert found([scale_set], POLICY) == [("advisory", "nodes", without("not set", "sku.name"))]


def test_cpu_hosts_user_assigned_and_unknowns_are_left() -> None:
    cpu = Res(VM, "cpu", changed(changed(HOST, ("identity",), ...), ("hardwareProfile", "vmSize"), "Standard_D4s_v5"))
    user = Res(VM, "user", changed(HOST, ("identity", "type"), "UserAssigned"))
    unknown = Res(VM, "unknown", changed(HOST, ("identity", "type"), UNKNOWN))

    assert found([cpu, user, unknown], POLICY) == []
