"""warn-gpu-host-without-encryption-at-host: from GPU hosts with encryption at host on, one change per test.

Where each type keeps the setting is ARM's (and the azure-native SDK's) property path, the one checkov 3.3.30 reads:
CKV_AZURE_97 `securityProfile/encryptionAtHost` (VMs and scale sets' `virtualMachineProfile`), CKV_AZURE_227
`enableEncryptionAtHost` (AKS agent pools and a cluster's `agentPoolProfiles`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from azure_gpu_stacks.catalog import catalog
from azure_gpu_stacks.catalog.model import EncryptionAtHost, normalize_size_name

from tests.policy_helpers import UNKNOWN, Res, catalog_entries, changed, found

POLICY = "warn-gpu-host-without-encryption-at-host"
VM = "azure-native:compute:VirtualMachine"
VMSS = "azure-native:compute:VirtualMachineScaleSet"
POOL = "azure-native:containerservice:AgentPool"
CLUSTER = "azure-native:containerservice:ManagedCluster"
# The saved Resource SKUs copy says EncryptionAtHostSupported True for NC24ads_A100_v4 and lists no NC4as_T4_v3.
RECORDED = "Standard_NC24ads_A100_v4"
UNRECORDED = "Standard_NC4as_T4_v3"
VM_ON = {"hardwareProfile": {"vmSize": RECORDED}, "securityProfile": {"encryptionAtHost": True}}
VMSS_ON = {"sku": {"name": RECORDED}, "virtualMachineProfile": {"securityProfile": {"encryptionAtHost": True}}}
POOL_ON = {"vmSize": RECORDED, "enableEncryptionAtHost": True}
CLUSTER_ON = {
    "agentPoolProfiles": [
        {"name": "system", "vmSize": "Standard_D4s_v5", "mode": "System"},
        {"name": "gpu", "vmSize": RECORDED, "enableEncryptionAtHost": True},
    ]
}


def without(size_path: str, setting: str, size: str = RECORDED, shown: str = "not set") -> str:
    unsure = (
        ""
        if size == RECORDED
        else f" (the catalog does not record whether {size} supports it: `az vm list-skus --size {size}` shows "
        "EncryptionAtHostSupported)"
    )
    return (
        f"{size_path} '{size}' runs without encryption at host ({setting} is {shown}): its temporary disk and disk "
        f"caches stay unencrypted on the host{unsure}; set {setting} to true once the subscription has registered "
        "Microsoft.Compute/EncryptionAtHost."
    )


def test_passes_gpu_hosts_with_encryption_at_host() -> None:
    hosts = [
        Res(VM, "vm", VM_ON),
        Res(VMSS, "vmss", VMSS_ON),
        Res(POOL, "pool", POOL_ON),
        Res(CLUSTER, "aks", CLUSTER_ON),
    ]

    assert found(hosts, POLICY) == []


@pytest.mark.parametrize(("value", "shown"), [(..., "not set"), (False, "false")], ids=["left-out", "false"])
def test_reports_a_gpu_vm_without_it(value: Any, shown: str) -> None:
    props = changed(VM_ON, ("securityProfile", "encryptionAtHost"), value)

    assert found([Res(VM, "vm", props)], POLICY) == [
        ("advisory", "vm", without("hardwareProfile.vmSize", "securityProfile.encryptionAtHost", shown=shown))
    ]


def test_reports_a_gpu_scale_set_without_it() -> None:
    props = changed(VMSS_ON, ("virtualMachineProfile", "securityProfile"), ...)

    assert found([Res(VMSS, "nodes", props)], POLICY) == [
        ("advisory", "nodes", without("sku.name", "virtualMachineProfile.securityProfile.encryptionAtHost"))
    ]


def test_reports_an_aks_gpu_pool_and_the_gpu_pool_of_a_cluster_but_not_its_cpu_pool() -> None:
    pool = Res(POOL, "gpu", changed(POOL_ON, ("enableEncryptionAtHost",), ...))
    cluster = Res(CLUSTER, "aks", changed(CLUSTER_ON, ("agentPoolProfiles", 1, "enableEncryptionAtHost"), False))

    assert found([pool, cluster], POLICY) == [
        ("advisory", "gpu", without("vmSize", "enableEncryptionAtHost")),
        (
            "advisory",
            "aks",
            without("agentPoolProfiles[1].vmSize", "agentPoolProfiles[1].enableEncryptionAtHost", shown="false"),
        ),
    ]


def test_a_size_the_catalog_does_not_record_is_reported_with_how_to_check_it() -> None:
    props = changed(changed(VM_ON, ("securityProfile",), ...), ("hardwareProfile", "vmSize"), UNRECORDED)

    assert found([Res(VM, "vm", props)], POLICY) == [
        ("advisory", "vm", without("hardwareProfile.vmSize", "securityProfile.encryptionAtHost", size=UNRECORDED))
    ]


@pytest.fixture
def recorded_as_unable() -> Iterator[str]:
    """NC24ads_A100_v4 as if the Resource SKUs API had said EncryptionAtHostSupported False."""
    key = normalize_size_name(RECORDED)
    table = catalog()._by_key
    real = table[key]
    fact = EncryptionAtHost(supported=False, source="https://example.test/skus.json", observed="2026-11-27")
    table[key] = real.model_copy(update={"encryption_at_host": fact})
    try:
        yield RECORDED
    finally:
        table[key] = real


def test_a_size_that_cannot_is_never_asked_to(recorded_as_unable: str) -> None:
    props = changed(VM_ON, ("securityProfile",), ...)

    assert found([Res(VM, "vm", props)], POLICY) == []


def test_cpu_hosts_retired_sizes_and_unknowns_are_left() -> None:
    cpu = Res(VM, "cpu", {"hardwareProfile": {"vmSize": "Standard_D4s_v5"}})
    # Standard_NC6 was retired on 2023-09-06 (the catalog's lifecycle): disallow-retired-vm-sizes asks for a new size.
    retired = Res(VM, "retired", {"hardwareProfile": {"vmSize": "Standard_NC6"}})
    unknown = Res(VM, "unknown", changed(VM_ON, ("securityProfile", "encryptionAtHost"), UNKNOWN))

    assert found([cpu, retired, unknown], POLICY) == []


def test_mandatory_when_configured() -> None:
    props = changed(VM_ON, ("securityProfile",), ...)

    [(level, _, _)] = found([Res(VM, "vm", props)], POLICY, {POLICY: "mandatory"})

    assert level == "mandatory"


# Standard_NC6 (K80) is retired in the catalog: disallow-retired-vm-sizes names it, this policy does not.
RETIRED = next(
    e["name"] for e in catalog_entries() if e["name"] == "Standard_NC6" and e["lifecycle"]["status"] == "retired"
)


@pytest.mark.parametrize(
    "first",
    [
        {"vmSize": RETIRED},
        {"vmSize": RECORDED, "enableEncryptionAtHost": True},
        {"vmSize": RECORDED, "enableEncryptionAtHost": UNKNOWN},
    ],
    ids=["retired", "on", "unknown"],
)
def test_a_cluster_s_pool_without_it_is_named_after_any_pool_before_it(first: dict[str, Any]) -> None:
    pools = [{"name": "first", **first}, {"name": "gpu", "vmSize": RECORDED}]

    assert found([Res(CLUSTER, "aks", {"resourceGroupName": "rg", "agentPoolProfiles": pools})], POLICY) == [
        ("advisory", "aks", without("agentPoolProfiles[1].vmSize", "agentPoolProfiles[1].enableEncryptionAtHost"))
    ]


def test_a_gpu_size_of_a_type_without_the_setting_is_left_alone() -> None:
    # A Batch pool (Microsoft.Batch, pools) has no encryption-at-host property (its diskEncryptionConfiguration is
    # another setting): nothing to ask for.
    pool = {"resourceGroupName": "rg", "accountName": "batch", "vmSize": RECORDED}

    assert found([Res("azure-native:batch:Pool", "pass_pool", pool)], POLICY) == []
