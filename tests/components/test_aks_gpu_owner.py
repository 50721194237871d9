"""AksGpuPool with exactly one owner of the NVIDIA stack: the AKS driver with our device plugin or with
the GPU Operator, or the GPU Operator owning the driver; MIG strategies; what a pod must ask for.

The referees are NVIDIA's published values (NVIDIA/aicr docs/integrator/aks-gpu-setup.md, the GPU
Operator's AKS values, the MIG user guide's profile names), written here as NVIDIA writes them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from azure_gpu_stacks.components.checks import ComponentInputError
from azure_gpu_stacks.fakeazure import FakeArm

from tests.components.test_aks_gpu_pool import (
    DAEMONSET,
    EXISTING_ID,
    K8S_PROVIDER,
    POOL,
    build_pool,
    daemonset_pod_spec,
    existing_cluster,
)
from tests.conftest import TEST_RG, Recording

RELEASE = "kubernetes:helm.sh/v3:Release"
SKU_GPU = {"key": "sku", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}
SPOT = {"key": "kubernetes.azure.com/scalesetpriority", "operator": "Equal", "value": "spot", "effect": "NoSchedule"}
NVIDIA_GPU = {"key": "nvidia.com/gpu", "operator": "Exists", "value": "", "effect": "NoSchedule"}


def operator_values(rec: Recording) -> dict[str, Any]:
    return rec.one(RELEASE).plain_inputs()["values"]


def test_operator_with_the_aks_driver_leaves_driver_and_toolkit_to_the_node_image(
    record: Callable[..., Recording],
) -> None:
    rec = record(build_pool(gpu_operator=True))
    release = rec.one(RELEASE).plain_inputs()
    values = release["values"]

    assert (release["chart"], release["repositoryOpts"]["repo"]) == (
        "gpu-operator",
        "https://helm.ngc.nvidia.com/nvidia",
    )
    assert release["version"].startswith("v")  # pinned, never "latest"
    assert (values["driver"]["enabled"], values["toolkit"]["enabled"]) == (False, False)
    assert values["operator"]["runtimeClass"] == "nvidia-container-runtime"
    assert rec.of_type(DAEMONSET) == []  # the operator's device plugin, never ours beside it
    assert rec.inputs(POOL)["gpuProfile"] == {"driver": "Install"}


def test_operator_owning_the_driver_installs_driver_and_toolkit_on_a_pool_without_one(
    record: Callable[..., Recording],
) -> None:
    rec = record(build_pool(gpu_operator=True, gpu_driver="None"))
    values = operator_values(rec)

    assert (values["driver"]["enabled"], values["toolkit"]["enabled"]) == (True, True)
    assert values["operator"]["runtimeClass"] == "nvidia"
    assert rec.inputs(POOL)["gpuProfile"] == {"driver": "None"}
    assert rec.of_type(DAEMONSET) == []


def test_operator_operands_and_feature_discovery_tolerate_every_taint_of_a_spot_pool(
    record: Callable[..., Recording],
) -> None:
    values = operator_values(record(build_pool(gpu_operator=True, spot=True)))

    for tolerations in (values["daemonsets"]["tolerations"], values["node-feature-discovery"]["worker"]["tolerations"]):
        assert SKU_GPU in tolerations and SPOT in tolerations and NVIDIA_GPU in tolerations


def test_operator_on_a_mig_pool_sets_the_strategy_and_leaves_partitioning_to_aks(
    record: Callable[..., Recording],
) -> None:
    rec = record(
        build_pool(gpu_operator=True, vm_size="Standard_NC24ads_A100_v4", mig_profile="MIG2g", mig_strategy="mixed")
    )
    values = operator_values(rec)

    assert values["mig"] == {"strategy": "mixed"}
    assert values["migManager"] == {"enabled": False}
    assert rec.inputs(POOL)["gpuInstanceProfile"] == "MIG2g"


def test_device_plugin_tolerates_the_nvidia_gpu_taint_too(record: Callable[..., Recording]) -> None:
    assert NVIDIA_GPU in daemonset_pod_spec(record(build_pool()))["tolerations"]


@pytest.mark.parametrize(
    ("vm_size", "profile", "slice_name"),
    [
        # NVIDIA MIG user guide, "Supported MIG Profiles": names follow each GPU's memory
        ("Standard_NC24ads_A100_v4", "MIG3g", "3g.40gb"),  # A100 80GB
        ("Standard_ND96asr_v4", "MIG1g", "1g.5gb"),  # A100 40GB
        ("Standard_NC40ads_H100_v5", "MIG1g", "1g.12gb"),  # H100 NVL, 94GB
        ("Standard_ND96isr_H100_v5", "MIG7g", "7g.80gb"),  # H100 80GB
    ],
)
def test_mixed_strategy_pods_request_the_slice_the_gpu_model_has(
    record: Callable[..., Recording], vm_size: str, profile: str, slice_name: str
) -> None:
    rec = record(build_pool(vm_size=vm_size, mig_profile=profile, mig_strategy="mixed"))
    resource = f"nvidia.com/mig-{slice_name}"

    assert rec.outputs["podScheduling"]["resources"] == {"requests": {resource: 1}, "limits": {resource: 1}}
    assert {"name": "MIG_STRATEGY", "value": "mixed"} in daemonset_pod_spec(rec)["containers"][0]["env"]


def test_single_strategy_pods_keep_requesting_whole_gpus(record: Callable[..., Recording]) -> None:
    rec = record(build_pool(vm_size="Standard_NC24ads_A100_v4", mig_profile="MIG3g"))

    assert rec.outputs["podScheduling"]["resources"]["requests"] == {"nvidia.com/gpu": 1}
    assert {"name": "MIG_STRATEGY", "value": "single"} in daemonset_pod_spec(rec)["containers"][0]["env"]


def test_a_pool_without_the_aks_driver_and_without_the_operator_warns_that_no_gpu_is_advertised(
    record: Callable[..., Recording],
) -> None:
    rec = record(build_pool(gpu_driver="None"))

    assert rec.of_type(RELEASE) == [] and rec.of_type(DAEMONSET) == [] and rec.of_type(K8S_PROVIDER) == []
    assert any("advertise no GPUs" in log.message and "gpu_operator: true" in log.message for log in rec.result.logs)


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"gpu_operator": True, "install_device_plugin": True}, "install_device_plugin: true with gpu_operator true"),
        ({"mig_strategy": "mixed"}, "mig_strategy: 'mixed' without mig_profile"),
        (
            {"vm_size": "Standard_NC24ads_A100_v4", "mig_profile": "MIG1g", "mig_strategy": "both"},
            "mig_strategy: 'both'; allowed: single, mixed",
        ),
        # H200 can be split (NVIDIA), but AKS offers MIG pools only on its listed sizes
        ({"vm_size": "Standard_ND96isr_H200_v5", "mig_profile": "MIG1g"}, "AKS splits GPUs only on"),
    ],
)
def test_combinations_that_cannot_work_are_refused_before_anything_is_registered(
    record: Callable[..., Recording], fake_arm: FakeArm, overrides: dict[str, Any], expected: str
) -> None:
    with pytest.raises(ComponentInputError, match=expected):
        record(build_pool(**overrides))

    assert [r.type for r in fake_arm.resources()] == ["Microsoft.Resources/resourceGroups"]


@pytest.mark.parametrize(
    ("gpu_model", "slices"),
    [
        # NVIDIA MIG user guide, "Supported MIG Profiles" (MIG1g ... MIG7g, instances per GPU)
        ("NVIDIA A100 40GB SXM", [("1g.5gb", 7), ("2g.10gb", 3), ("3g.20gb", 2), ("4g.20gb", 1), ("7g.40gb", 1)]),
        ("NVIDIA A100 80GB PCIe", [("1g.10gb", 7), ("2g.20gb", 3), ("3g.40gb", 2), ("4g.40gb", 1), ("7g.80gb", 1)]),
        ("NVIDIA H100", [("1g.10gb", 7), ("2g.20gb", 3), ("3g.40gb", 2), ("4g.40gb", 1), ("7g.80gb", 1)]),
        ("NVIDIA H200", [("1g.18gb", 7), ("2g.35gb", 3), ("3g.71gb", 2), ("4g.71gb", 1), ("7g.141gb", 1)]),
        ("NVIDIA T4", []),
    ],
)
def test_catalog_names_each_gpu_models_slices(gpu_model: str, slices: list[tuple[str, int]]) -> None:
    from azure_gpu_stacks.catalog.mig import mig_slices

    assert [(s.device, s.per_gpu) for s in mig_slices(gpu_model)] == slices


def test_every_catalog_gpu_model_with_slices_is_a_model_of_the_catalog() -> None:
    from azure_gpu_stacks.catalog import catalog
    from azure_gpu_stacks.catalog.mig import AKS_MIG_SIZES, mig_models

    models = {size.gpu_model for size in catalog().sizes}
    assert set(mig_models()) <= models
    assert all(catalog().get(name).supports_mig for name in AKS_MIG_SIZES)


def two_pools_on_one_cluster(second: dict[str, Any], first: dict[str, Any] | None = None) -> Callable[[], None]:
    """Two AksGpuPools a program adds to the same existing cluster (by id, then by name)."""

    def program() -> None:
        from azure_gpu_stacks.components.aks_gpu_pool import AksGpuPool

        AksGpuPool("t4", {"existing_cluster": {"id": EXISTING_ID}, "pool_name": "t4", **(first or {})})
        AksGpuPool(
            "a100",
            {
                "existing_cluster": {"name": "SHARED-aks", "resource_group_name": TEST_RG},
                "pool_name": "a100",
                "vm_size": "Standard_NC24ads_A100_v4",
                **second,
            },
        )

    return program


@pytest.mark.parametrize("first", [{}, {"gpu_operator": True}])
def test_a_further_pool_on_the_same_cluster_deploys_no_second_advertiser(
    record: Callable[..., Recording], fake_arm: FakeArm, first: dict[str, Any]
) -> None:
    existing_cluster(fake_arm)
    rec = record(two_pools_on_one_cluster({}, first))

    assert len(rec.of_type(POOL)) == 2
    assert len(rec.of_type(DAEMONSET)) + len(rec.of_type(RELEASE)) == 1
    assert [r.parent for r in rec.of_type(K8S_PROVIDER)] == [r.parent for r in rec.of_type(POOL)][:1]


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        ({}, {"gpu_operator": True}, "gpu_operator: true, but cluster shared-aks already has the device plugin"),
        ({}, {"install_device_plugin": True}, "install_device_plugin: true, but cluster shared-aks already has"),
        (
            {"gpu_operator": True},
            {"gpu_driver": "None"},
            "gpu_driver: None, but cluster shared-aks already has the GPU",
        ),
        (
            {},
            {"node_taints": ["sku=gpu:NoSchedule", "team=a:NoSchedule"]},
            "node_taints: team=a:NoSchedule not tolerated",
        ),
    ],
)
def test_a_further_pool_that_needs_another_owner_is_refused(
    record: Callable[..., Recording], fake_arm: FakeArm, first: dict[str, Any], second: dict[str, Any], expected: str
) -> None:
    existing_cluster(fake_arm)

    with pytest.raises(ComponentInputError, match=f"(?i){expected}"):  # the cluster's name as the pool wrote it
        record(two_pools_on_one_cluster(second, first))
