"""Encryption at host: an opt-in option of GpuVm, TrainingCluster and AksGpuPool, set where ARM reads it
(`securityProfile.encryptionAtHost` on a VM and in a scale set's VM profile, `enableEncryptionAtHost` on an AKS
agent pool: the azure-native SDK's input types, and checkov's CKV_AZURE_97 / CKV_AZURE_227 rule texts), and never
asked of a size the catalog records as not supporting it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from azure_gpu_stacks.catalog import catalog
from azure_gpu_stacks.catalog.model import EncryptionAtHost, normalize_size_name
from azure_gpu_stacks.components import aks_gpu_pool, gpu_vm, training_cluster

from tests.components.test_aks_gpu_pool import POOL, build_pool
from tests.components.test_gpu_vm import VM, build_vm
from tests.components.test_training_cluster import VMSS, build_cluster
from tests.conftest import TEST_SSH_KEY, Recording


def test_a_gpu_vm_asks_for_encryption_at_host_only_when_told_and_keeps_trusted_launch(
    record: Callable[..., Recording],
) -> None:
    default = record(build_vm()).inputs(VM)["securityProfile"]
    asked = record(build_vm(encryption_at_host=True)).inputs(VM)["securityProfile"]

    assert "encryptionAtHost" not in default
    assert asked["encryptionAtHost"] is True
    # The NC4as_T4_v3 default supports Trusted Launch (the trusted-launch page): both settings travel together.
    assert asked["securityType"] == default["securityType"] == "TrustedLaunch"


def test_a_vm_without_trusted_launch_gets_a_security_profile_for_encryption_at_host_alone(
    record: Callable[..., Recording],
) -> None:
    # ND A100 v4 has no Trusted Launch ("currently not supported", the trusted-launch page).
    vm = record(build_vm(vm_size="Standard_ND96asr_v4", encryption_at_host=True)).inputs(VM)

    assert vm["securityProfile"] == {"encryptionAtHost": True}


def test_a_training_cluster_asks_every_node_for_encryption_at_host_only_when_told(
    record: Callable[..., Recording],
) -> None:
    default = record(build_cluster()).inputs(VMSS)["virtualMachineProfile"]
    asked = record(build_cluster(encryption_at_host=True)).inputs(VMSS)["virtualMachineProfile"]

    assert "securityProfile" not in default
    assert asked["securityProfile"] == {"encryptionAtHost": True}


def test_an_aks_gpu_pool_asks_for_encryption_at_host_only_when_told(record: Callable[..., Recording]) -> None:
    assert "enableEncryptionAtHost" not in record(build_pool()).inputs(POOL)
    assert record(build_pool(encryption_at_host=True)).inputs(POOL)["enableEncryptionAtHost"] is True


@pytest.fixture
def t4_without_encryption_at_host() -> Iterator[str]:
    """Standard_NC4as_T4_v3 as if the Resource SKUs API had said EncryptionAtHostSupported False (no shipped size
    says so, so the refusal is exercised on a stand-in)."""
    name = "Standard_NC4as_T4_v3"
    key = normalize_size_name(name)
    table = catalog()._by_key
    real = table[key]
    fact = EncryptionAtHost(supported=False, source="https://example.test/skus.json", observed="2026-11-27")
    table[key] = real.model_copy(update={"encryption_at_host": fact})
    try:
        yield name
    finally:
        table[key] = real


@pytest.mark.parametrize(
    ("check_inputs", "args"),
    [
        (gpu_vm.check_inputs, {"resource_group_name": "rg", "location": "eastus", "ssh_public_key": TEST_SSH_KEY}),
        (aks_gpu_pool.check_inputs, {"resource_group_name": "rg", "location": "eastus"}),
    ],
    ids=["GpuVm", "AksGpuPool"],
)
def test_a_size_that_cannot_is_never_asked_for_encryption_at_host(
    t4_without_encryption_at_host: str, check_inputs: Callable[..., Any], args: dict[str, Any]
) -> None:
    size = t4_without_encryption_at_host
    refused = dict(check_inputs({**args, "vm_size": size, "encryption_at_host": True}).problems)
    left_off = dict(check_inputs({**args, "vm_size": size}).problems)

    assert refused["encryption_at_host"] == (
        f"true, but {size} does not support encryption at host (the Resource SKUs API's EncryptionAtHostSupported "
        "is False: https://example.test/skus.json, observed 2026-11-27); allowed: false, or a size that supports it"
    )
    assert "encryption_at_host" not in left_off


def test_a_size_the_catalog_records_nothing_about_is_left_to_azure() -> None:
    # ND A100 v4: the saved Resource SKUs copy does not list it, so the catalog has no fact and asks nothing.
    assert catalog().get("Standard_ND96asr_v4").supports_encryption_at_host is None
    checked = training_cluster.check_inputs(
        {"resource_group_name": "rg", "location": "eastus", "ssh_public_key": TEST_SSH_KEY, "encryption_at_host": True}
    )

    assert "encryption_at_host" not in dict(checked.problems)


def test_encryption_at_host_must_be_a_boolean() -> None:
    checked = gpu_vm.check_inputs(
        {"resource_group_name": "rg", "location": "eastus", "ssh_public_key": TEST_SSH_KEY, "encryption_at_host": "yes"}
    )

    assert "encryption_at_host" in dict(checked.problems)
