"""require-infiniband-scale-set-placement: from a Uniform, single-group InfiniBand scale set in a proximity
placement group, one change per test."""

from __future__ import annotations

from typing import Any

import pytest

from tests.policy_helpers import Res, changed, found

POLICY = "require-infiniband-scale-set-placement"
VMSS = "azure-native:compute:VirtualMachineScaleSet"
IB_SIZE = "Standard_ND96asr_v4"
COMPLIANT = {
    "resourceGroupName": "rg",
    "sku": {"name": IB_SIZE, "capacity": 2.0},
    "orchestrationMode": "Uniform",
    "singlePlacementGroup": True,
    "proximityPlacementGroup": {
        "id": "/subscriptions/x/resourceGroups/rg/providers/Microsoft.Compute/proximityPlacementGroups/ppg"
    },
    "overprovision": False,
}
# the remedy for each property, after "<property> is <value>; "
REMEDIES = {
    "proximityPlacementGroup": f"put the {IB_SIZE} scale set in a proximity placement group.",
    "singlePlacementGroup": "set it to true, InfiniBand spans one placement group only.",
    "orchestrationMode": "set it to Uniform, Flexible scale sets have no InfiniBand.",
}


@pytest.mark.parametrize(
    ("key", "value", "shown"),
    [
        ("proximityPlacementGroup", ..., "not set"),
        ("singlePlacementGroup", False, "False"),
        ("singlePlacementGroup", ..., "not set"),
        ("orchestrationMode", "Flexible", "'Flexible'"),
        ("orchestrationMode", ..., "not set"),
    ],
    ids=["no-ppg", "multi-group", "group-unset", "flexible", "mode-unset"],
)
def test_refuses_each_missing_piece(key: str, value: Any, shown: str) -> None:
    vmss = Res(VMSS, "fail_vmss", changed(COMPLIANT, (key,), value))

    assert found([vmss], POLICY) == [("mandatory", "fail_vmss", f"{key} is {shown}; {REMEDIES[key]}")]


def test_passes_the_compliant_scale_set() -> None:
    assert found([Res(VMSS, "pass_vmss", COMPLIANT)], POLICY) == []


def test_ignores_sizes_without_infiniband_and_accepts_odd_casing() -> None:
    t4 = Res(
        VMSS, "pass_t4", changed(COMPLIANT, ("sku", "name"), "Standard_NC4as_T4_v3") | {"orchestrationMode": "Flexible"}
    )
    odd = Res(
        VMSS, "pass_odd", changed(COMPLIANT, ("orchestrationMode",), "uniform") | {"sku": {"name": IB_SIZE.lower()}}
    )

    assert found([t4, odd], POLICY) == []
