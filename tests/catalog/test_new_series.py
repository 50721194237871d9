"""Each GPU series added in the catalog's second review, through every component that takes a size:
accepted where the component can run it, refused with a clear message where it cannot (an x64 image
on GB200/GB300's Arm CPUs, an InfiniBand cluster on a size without InfiniBand, the NVIDIA driver on
AMD GPUs, an NVIDIA-only AKS pool on AMD GPUs). Sizes Azure lists without a size page are unknown.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from azure_gpu_stacks.catalog import catalog
from azure_gpu_stacks.components.checks import ComponentInputError
from azure_gpu_stacks.fakeazure import FakeArm

from tests.components.test_aks_gpu_pool import POOL, build_pool
from tests.components.test_aml_cluster import COMPUTE
from tests.components.test_aml_cluster import build_cluster as build_aml
from tests.components.test_gpu_vm import VM, build_vm
from tests.components.test_training_cluster import build_cluster as build_training
from tests.conftest import Recording

GB200 = "Standard_ND128isr_NDR_GB200_v6"
GB300 = "Standard_ND128isr_GB300_v6"
V710 = "Standard_NV24ads_V710_v5"
RTX = "Standard_NC144ds_xl_RTXPRO6000BSE_v6"
A10_V4 = "Standard_NC8ads_A10_v4"  # in the SKU API, no size page: unconfirmed
HUBUNTU = "Canonical:0001-com-ubuntu-server-jammy:22_04-lts-gen2"


def refusal(record: Callable[..., Recording], fake_arm: FakeArm, program: Callable[[], None]) -> str:
    """The component's error; asserts nothing but the resource group was registered."""
    with pytest.raises(ComponentInputError) as err:
        record(program)
    assert [r.type for r in fake_arm.resources()] == ["Microsoft.Resources/resourceGroups"]
    return str(err.value)


# --- the catalog's facts ---------------------------------------------------------------------------


def test_gb200_and_gb300_have_arm_cpus_infiniband_and_gen2_only() -> None:
    for name, ib in ((GB200, 1600), (GB300, 3200)):
        size = catalog().get(name)
        assert (size.cpu_architecture, size.infiniband_gbps, size.hyperv_generations, size.gpus) == (
            "Arm64",
            ib,
            ("V2",),
            4,
        )


def test_every_x64_size_is_the_default_and_only_grace_sizes_are_arm() -> None:
    assert {s.name for s in catalog().sizes if s.cpu_architecture == "Arm64"} == {GB200, GB300}


def test_v710_sizes_are_fractions_of_one_amd_gpu() -> None:
    fractions = {s.name: s.gpus for s in catalog().sizes if s.series == "NVads_V710_v5"}
    assert fractions == {
        "Standard_NV4ads_V710_v5": 0.1667, "Standard_NV8ads_V710_v5": 0.3333, "Standard_NV12ads_V710_v5": 0.5,
        "Standard_NV24ads_V710_v5": 1, "Standard_NV28adms_V710_v5": 1,
    }  # fmt: skip


def test_preview_rtx_pro_sizes_are_marked_uncertain_as_names_the_sku_api_does_not_list() -> None:
    preview = [s for s in catalog().sizes if s.series == "NC_RTXPRO6000BSE_v6" and s.lifecycle.status == "retired"]
    assert len(preview) == 6
    assert all(s.uncertain and "the Resource SKUs API does not" in s.uncertain for s in preview)


def test_sizes_without_a_size_page_are_kept_as_unconfirmed_not_as_sizes() -> None:
    assert catalog().find(A10_V4) is None
    entry = catalog().unconfirmed(A10_V4)
    assert (
        entry is not None and entry.quota_family == "standardNCADSA10v4Family" and "no Microsoft size page" in entry.why
    )


# --- GpuVm: an x64 Ubuntu image and the NVIDIA driver extension -------------------------------------


@pytest.mark.parametrize("size", [GB200, GB300])
def test_gpu_vm_refuses_grace_sizes_for_its_x64_image(
    record: Callable[..., Recording], fake_arm: FakeArm, size: str
) -> None:
    message = refusal(record, fake_arm, build_vm(vm_size=size))
    assert f"vm_size: '{size}' has Arm64 CPUs and cannot boot the x64 image {HUBUNTU}" in message


def test_gpu_vm_refuses_the_nvidia_driver_on_amd_v710(record: Callable[..., Recording], fake_arm: FakeArm) -> None:
    message = refusal(record, fake_arm, build_vm(vm_size=V710))
    assert f"install_gpu_driver: true, but '{V710}' has AMD Radeon PRO V710 GPUs" in message


@pytest.mark.parametrize(("size", "overrides"), [(V710, {"install_gpu_driver": False}), (RTX, {})])
def test_gpu_vm_takes_v710_without_the_driver_and_rtx_pro(
    record: Callable[..., Recording], size: str, overrides: dict[str, Any]
) -> None:
    rec = record(build_vm(vm_size=size, **overrides))
    assert rec.inputs(VM)["hardwareProfile"]["vmSize"] == size
    assert rec.refusals == []


# --- TrainingCluster: InfiniBand, NVIDIA, x64 HPC image ---------------------------------------------


@pytest.mark.parametrize("size", [GB200, GB300])
def test_training_cluster_refuses_grace_sizes_for_its_x64_images(
    record: Callable[..., Recording], fake_arm: FakeArm, size: str
) -> None:
    message = refusal(record, fake_arm, build_training(vm_size=size))
    assert f"vm_size: '{size}' has Arm64 CPUs and cannot boot the x64 image microsoft-dsvm:ubuntu-hpc:2204" in message


@pytest.mark.parametrize("size", [V710, RTX])
def test_training_cluster_refuses_sizes_without_infiniband(
    record: Callable[..., Recording], fake_arm: FakeArm, size: str
) -> None:
    message = refusal(record, fake_arm, build_training(vm_size=size))
    assert f"vm_size: '{size}' has no InfiniBand; allowed: a GPU size with InfiniBand" in message


# --- AksGpuPool: NVIDIA only; AKS picks the node image for the size's architecture -------------------


@pytest.mark.parametrize("size", [GB200, GB300, RTX])
def test_aks_gpu_pool_takes_nvidia_sizes_of_either_architecture(record: Callable[..., Recording], size: str) -> None:
    rec = record(build_pool(vm_size=size))
    assert rec.inputs(POOL)["vmSize"] == size
    assert rec.refusals == []


def test_aks_gpu_pool_refuses_amd_v710(record: Callable[..., Recording], fake_arm: FakeArm) -> None:
    message = refusal(record, fake_arm, build_pool(vm_size=V710))
    assert f"'{V710}'" in message and "AMD Radeon PRO V710" in message


# --- AmlCluster: any GPU size; Azure ML picks the node image -----------------------------------------


@pytest.mark.parametrize("size", [GB200, GB300, V710, RTX])
def test_aml_cluster_takes_every_new_gpu_series(record: Callable[..., Recording], size: str) -> None:
    rec = record(build_aml(vm_size=size))
    assert rec.inputs(COMPUTE)["properties"]["properties"]["vmSize"] == size
    assert rec.refusals == []


# --- unconfirmed sizes are unknown everywhere ---------------------------------------------------------


@pytest.mark.parametrize("build", [build_vm, build_training, build_pool, build_aml])
def test_every_component_refuses_an_unconfirmed_size_as_unknown(
    record: Callable[..., Recording], fake_arm: FakeArm, build: Callable[..., Callable[[], None]]
) -> None:
    message = refusal(record, fake_arm, build(vm_size=A10_V4))
    assert f"vm_size: unknown VM size '{A10_V4}'" in message
