"""Trusted Launch per VM size: the catalog records it for every GPU size, the fake ARM refuses
`securityType: TrustedLaunch` on a size without it (VMs and scale sets) with Azure's code and words,
and GpuVm asks for Trusted Launch only where the size has it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from azure_gpu_stacks.catalog import catalog

from tests.components.test_gpu_vm import VM, build_vm
from tests.conftest import Recording, in_resource_group
from tests.fakeazure.test_fake_refusals import _vm, message_of, refusals

REFUSED = (
    "The VM size '{size}' is not supported for creation of VMs and Virtual Machine Scale Set with 'TrustedLaunch' "
    "security type. For more information, see https://aka.ms/TrustedLaunch-FAQ"
)


def test_every_gpu_size_records_trusted_launch() -> None:
    gpu = [s for s in catalog().sizes if s.is_gpu]

    assert gpu and all(s.trusted_launch is not None for s in gpu)
    # The trusted-launch page: ND A100 v4 and NDm A100 v4 "currently not supported"; the NC family supported.
    assert [
        s.supports_trusted_launch for s in map(catalog().get, ("Standard_ND96asr_v4", "Standard_ND96amsr_A100_v4"))
    ] == [False, False]
    assert catalog().get("Standard_NC24ads_A100_v4").supports_trusted_launch is True
    # Gen1-only sizes cannot run Trusted Launch, whatever is recorded.
    assert catalog().get("Standard_NC6").supports_trusted_launch is False


@pytest.mark.parametrize(("size", "refused"), [("Standard_ND96asr_v4", True), ("Standard_NC24ads_A100_v4", False)])
def test_trusted_launch_vm_on_a_size_without_it_is_bad_request(
    record: Callable[..., Recording], size: str, refused: bool
) -> None:
    rec = record(in_resource_group(lambda rg: _vm(rg, "tl", size, security_type="TrustedLaunch")))

    if not refused:
        assert refusals(rec) == []
        return
    assert refusals(rec) == [("tl", "BadRequest")]
    assert message_of(rec, "tl") == "Virtual machine 'tl': " + REFUSED.format(size=size)


def test_vm_without_a_security_type_on_that_size_is_accepted(record: Callable[..., Recording]) -> None:
    assert record(in_resource_group(lambda rg: _vm(rg, "std", "Standard_ND96asr_v4"))).refusals == []


def _scale_set(rg: Any, size: str, security_type: str | None) -> None:
    from pulumi_azure_native import compute

    compute.VirtualMachineScaleSet(
        "vmss",
        vm_scale_set_name="vmss",
        resource_group_name=rg.name,
        location="eastus",
        orchestration_mode="Uniform",
        sku=compute.SkuArgs(name=size, capacity=0),
        virtual_machine_profile=compute.VirtualMachineScaleSetVMProfileArgs(
            security_profile=compute.SecurityProfileArgs(security_type=security_type) if security_type else None,
        ),
    )


def test_trusted_launch_scale_set_on_a_size_without_it_is_bad_request(record: Callable[..., Recording]) -> None:
    rec = record(in_resource_group(lambda rg: _scale_set(rg, "Standard_ND96amsr_A100_v4", "TrustedLaunch")))

    assert refusals(rec) == [("vmss", "BadRequest")]
    assert message_of(rec, "vmss") == "Scale set 'vmss': " + REFUSED.format(size="Standard_ND96amsr_A100_v4")


@pytest.mark.parametrize(
    ("size", "security_type"), [("Standard_ND96amsr_A100_v4", None), ("Standard_ND96isr_H100_v5", "TrustedLaunch")]
)
def test_scale_set_without_trusted_launch_or_on_a_size_with_it_is_accepted(
    record: Callable[..., Recording], size: str, security_type: str | None
) -> None:
    assert record(in_resource_group(lambda rg: _scale_set(rg, size, security_type))).refusals == []


def test_gpu_vm_asks_for_trusted_launch_only_where_the_size_has_it(record: Callable[..., Recording]) -> None:
    rec = record(build_vm(vm_size="Standard_ND96asr_v4"))

    assert rec.refusals == []
    assert "securityProfile" not in rec.inputs(VM)
