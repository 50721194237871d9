"""A new AKS cluster's secure defaults beyond Entra ID: the Key Vault provider for the Secrets Store CSI Driver with
secret rotation, and an auto-upgrade channel; each with its opt-out, the stack key, and the refusal of a value AKS
does not know. Expected values are ARM's, as Learn's csi-secrets-store-configuration-options page shows them
(`addonProfiles.azureKeyvaultSecretsProvider.config.enableSecretRotation: "true"`) and the REST spec's
UpgradeChannel enum (rapid, stable, patch, node-image, none; ARM's default none), observed 2026-11-27."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from azure_gpu_stacks.components.checks import ComponentInputError
from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.stack.config import PROJECT, load_stack_config

from tests.components.test_aks_gpu_pool import CLUSTER, EXISTING_ID, build_pool, existing_cluster_program
from tests.conftest import Recording

SPEC_UPGRADE_CHANNELS = "rapid, stable, patch, node-image, none"


def test_a_new_cluster_mounts_key_vault_secrets_with_rotation_and_takes_patches_by_default(
    record: Callable[..., Recording],
) -> None:
    cluster = record(build_pool()).inputs(CLUSTER)

    assert cluster["addonProfiles"] == {
        "azureKeyvaultSecretsProvider": {"enabled": True, "config": {"enableSecretRotation": "true"}}
    }
    assert cluster["autoUpgradeProfile"] == {"upgradeChannel": "patch"}


def test_each_default_has_its_opt_out(record: Callable[..., Recording]) -> None:
    cluster = record(build_pool(key_vault_secrets_provider=False, upgrade_channel="none")).inputs(CLUSTER)

    assert "addonProfiles" not in cluster
    assert cluster["autoUpgradeProfile"] == {"upgradeChannel": "none"}


def test_an_upgrade_channel_aks_does_not_know_is_refused_before_anything_is_registered(
    record: Callable[..., Recording], fake_arm: FakeArm
) -> None:
    with pytest.raises(ComponentInputError) as err:
        record(build_pool(upgrade_channel="weekly"))

    assert f"upgrade_channel: 'weekly'; allowed: {SPEC_UPGRADE_CHANNELS}" in str(err.value)
    assert [r.type for r in fake_arm.resources()] == ["Microsoft.Resources/resourceGroups"]


@pytest.mark.parametrize("key", ["key_vault_secrets_provider", "upgrade_channel"])
def test_they_shape_only_a_new_cluster(record: Callable[..., Recording], key: str) -> None:
    value = {"key_vault_secrets_provider": False, "upgrade_channel": "stable"}[key]
    with pytest.raises(ComponentInputError, match=f"{key}: only shapes a new cluster"):
        record(existing_cluster_program({"id": EXISTING_ID}, **{key: value}))


def test_the_stack_keys_are_camel_case() -> None:
    section = {"keyVaultSecretsProvider": False, "upgradeChannel": "stable"}
    config = load_stack_config(
        {"azure-native:location": "eastus", f"{PROJECT}:aksGpuPool": json.dumps(section)}, source="Pulumi.x.yaml"
    )

    assert config.aks_gpu_pool == {"key_vault_secrets_provider": False, "upgrade_channel": "stable"}
