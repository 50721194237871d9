"""aks-gpu-driver-ownership: each test starts from a compliant cluster and changes one thing.

Compliant: a T4 pool tainted sku=gpu:NoSchedule with the AKS driver and NVIDIA's device plugin
tolerating the taint. The values that make a mode (driver/toolkit enabled) are NVIDIA's (aicr's AKS
profiles), written here as NVIDIA writes them.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.policy_helpers import Res, found

POLICY = "aks-gpu-driver-ownership"
POOL = "azure-native:containerservice:AgentPool"
DAEMONSET = "kubernetes:apps/v1:DaemonSet"
RELEASE = "kubernetes:helm.sh/v3:Release"
SKU_GPU = {"key": "sku", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}
SPOT = {"key": "kubernetes.azure.com/scalesetpriority", "operator": "Equal", "value": "spot", "effect": "NoSchedule"}


def pool(**overrides: Any) -> Res:
    name = overrides.pop("name", "gpu-pool")
    props = {
        "resourceGroupName": "rg",
        "resourceName": "aks",
        "agentPoolName": "gpu",
        "vmSize": "Standard_NC4as_T4_v3",
        "nodeTaints": ["sku=gpu:NoSchedule"],
        "gpuProfile": {"driver": "Install"},
        **overrides,
    }
    return Res(POOL, name, props)


def plugin(*, tolerations: list[dict[str, str]] | None = None, env: list[dict[str, str]] | None = None) -> Res:
    container = {"name": "ctr", "image": "nvcr.io/nvidia/k8s-device-plugin:v0.18.0", "env": env or []}
    spec = {"tolerations": [SKU_GPU] if tolerations is None else tolerations, "containers": [container]}
    return Res(DAEMONSET, "device-plugin", {"spec": {"template": {"spec": spec}}})


def operator(values: dict[str, Any], name: str = "gpu-operator") -> Res:
    return Res(RELEASE, name, {"chart": "gpu-operator", "version": "v26.7.1", "values": values})


def operator_values(driver: bool, **extra: Any) -> dict[str, Any]:
    values = {
        "driver": {"enabled": driver},
        "toolkit": {"enabled": driver},
        "daemonsets": {"tolerations": [SKU_GPU]},
        "node-feature-discovery": {"worker": {"tolerations": [SKU_GPU]}},
    }
    values.update(copy.deepcopy(extra))
    return values


def messages(resources: list[Res]) -> list[str]:
    return [message for _, _, message in found(resources, POLICY)]


def test_compliant_aks_driver_with_one_tolerating_device_plugin_passes() -> None:
    assert messages([pool(), plugin()]) == []


@pytest.mark.parametrize(
    ("driver", "values"),
    [("Install", operator_values(False)), ("None", operator_values(True))],
)
def test_each_mode_with_a_matching_operator_passes(driver: str, values: dict[str, Any]) -> None:
    assert messages([pool(gpuProfile={"driver": driver}), operator(values)]) == []


def test_a_second_advertiser_is_reported_naming_both() -> None:
    [message] = messages([pool(), plugin(), operator(operator_values(False))])

    assert "2 GPU advertisers" in message and "device-plugin" in message and "gpu-operator" in message


def test_an_operator_without_its_device_plugin_is_not_a_second_advertiser() -> None:
    values = operator_values(False, devicePlugin={"enabled": False})

    assert messages([pool(), plugin(), operator(values)]) == []


def test_an_operator_owning_the_driver_on_an_aks_driver_pool_is_reported() -> None:
    [message] = messages([pool(), operator(operator_values(True))])

    assert "driver.enabled=True, toolkit.enabled=True" in message and "AKS-managed driver" in message


def test_an_operator_left_at_the_chart_defaults_owns_the_driver_and_is_reported_on_an_aks_driver_pool() -> None:
    values = operator_values(True)
    del values["driver"], values["toolkit"]

    assert any("driver.enabled=True" in m for m in messages([pool(), operator(values)]))


def test_an_operator_that_leaves_the_driver_to_a_pool_without_one_is_reported() -> None:
    [message] = messages([pool(gpuProfile={"driver": "None"}), operator(operator_values(False))])

    assert "driver.enabled=False, toolkit.enabled=False" in message and "operator-managed driver" in message


def test_a_pool_without_a_driver_and_without_an_operator_is_reported() -> None:
    [message] = messages([pool(gpuProfile={"driver": "None"}), plugin()])

    assert "gpuProfile.driver None" in message and "nothing installs the NVIDIA driver" in message


def test_pools_of_both_modes_under_one_operator_are_reported() -> None:
    pools = [pool(), pool(name="gpu2-pool", agentPoolName="gpu2", gpuProfile={"driver": "None"})]

    assert any("serves pools of both driver modes" in m for m in messages([*pools, operator(operator_values(True))]))


def test_a_mig_pool_whose_device_plugin_has_no_strategy_is_reported() -> None:
    mig = pool(vmSize="Standard_NC24ads_A100_v4", gpuInstanceProfile="MIG1g")

    [message] = messages([mig, plugin()])
    assert "splits its GPUs (MIG1g)" in message
    assert messages([mig, plugin(env=[{"name": "MIG_STRATEGY", "value": "mixed"}])]) == []


def test_an_advertiser_that_does_not_tolerate_the_pool_taint_is_reported() -> None:
    [message] = messages([pool(), plugin(tolerations=[])])

    assert "does not tolerate sku=gpu:NoSchedule" in message


def test_a_spot_pool_needs_the_spot_toleration_on_the_operator_and_its_feature_discovery() -> None:
    spot = pool(scaleSetPriority="Spot")
    found_messages = messages([spot, operator(operator_values(False))])

    assert len(found_messages) == 2
    assert all("kubernetes.azure.com/scalesetpriority=spot:NoSchedule" in m for m in found_messages)
    tolerant = operator_values(
        False,
        daemonsets={"tolerations": [SKU_GPU, SPOT]},
        **{"node-feature-discovery": {"worker": {"tolerations": [SKU_GPU, SPOT]}}},
    )
    assert messages([spot, operator(tolerant)]) == []


def test_a_cpu_pool_and_objects_without_gpu_pools_are_left_alone() -> None:
    assert messages([pool(vmSize="Standard_D4s_v5", gpuProfile={"driver": "None"}), plugin(tolerations=[])]) == []
