"""warn-always-on-infiniband-cluster: an InfiniBand GPU cluster with no way to idle at zero is named,
with what it costs per idle day (from the catalog's prices) and how to park it."""

from __future__ import annotations

from typing import Any

import pytest
from azure_gpu_stacks.catalog import catalog

from tests.policy_helpers import Res, found

POLICY = "warn-always-on-infiniband-cluster"
VMSS = "azure-native:compute:VirtualMachineScaleSet"
AUTOSCALE = "azure-native:monitor:AutoscaleSetting"
ND = "Standard_ND96asr_v4"
HOW_TO_PARK = (
    "park it between runs with trainingCluster.nodeCount: 0 and `pulumi up` (the network, placement group and "
    "scale set stay; set the count back and `pulumi up` to start it), or scale it to 0 nodes outside working "
    "hours with trainingCluster.workingHours."
)


REGION = "eastus"


def scale_set(name: str, size: str = ND, capacity: float = 2.0, **extra: Any) -> Res:
    return Res(
        VMSS,
        name,
        {
            "resourceGroupName": "rg",
            "location": REGION,
            "sku": {"name": size, "capacity": capacity, "tier": "Standard"},
            **extra,
        },
    )


def schedule(target: str, minimum: str = "0", enabled: bool = True, depends: bool = True, uri: str = "") -> Res:
    profiles = [
        {"name": "working-hours", "capacity": {"minimum": "2", "maximum": "2", "default": "2"}, "rules": []},
        {
            "name": "outside-working-hours",
            "capacity": {"minimum": minimum, "maximum": minimum, "default": minimum},
            "rules": [],
        },
    ]
    props = {"resourceGroupName": "rg", "enabled": enabled, "targetResourceUri": uri or "[id]", "profiles": profiles}
    return Res(AUTOSCALE, f"{target}-autoscale", props, depends_on=(target,) if depends else ())


def test_always_on_cluster_names_its_idle_day_cost_and_how_to_park_it() -> None:
    price = catalog().get(ND).usd_per_hour(REGION)
    assert price is not None

    assert found([scale_set("fail_vmss")], POLICY) == [
        (
            "advisory",
            "fail_vmss",
            f"'fail_vmss' runs 2 x {ND} around the clock: about {2 * 24 * price:,.2f} USD for every day nothing "
            f"trains (2 x {price:g} USD/h x 24 h, the catalog's approximate pay-as-you-go price in {REGION}); {HOW_TO_PARK}",
        )
    ]
    assert f"{2 * 24 * price:,.2f}" == "1,305.46"  # the README's "about 1,300 USD a day"


def test_always_on_spot_cluster_is_costed_at_the_spot_price() -> None:
    price = catalog().get(ND).usd_per_hour(REGION, spot=True)
    assert price is not None

    [(_, _, message)] = found([scale_set("fail_vmss", virtualMachineProfile={"priority": "Spot"})], POLICY)

    assert f"about {2 * 24 * price:,.2f} USD for every day nothing trains" in message
    assert f"approximate Spot price in {REGION}" in message


def test_always_on_cluster_without_a_price_still_says_how_to_park_it() -> None:
    [(_, _, message)] = found([scale_set("fail_vmss", size="Standard_ND96isr_H200_v5", capacity=1.0)], POLICY)

    assert message == (
        f"'fail_vmss' runs 1 x Standard_ND96isr_H200_v5 around the clock, at full price on every day nothing trains; {HOW_TO_PARK}"
    )


@pytest.mark.parametrize(
    "resources",
    [
        [scale_set("pass_vmss", capacity=0.0)],  # parked
        [scale_set("pass_vmss"), schedule("pass_vmss")],  # scaled to zero outside working hours
        [
            scale_set("pass_vmss", vmScaleSetName="train-vmss1"),
            schedule(
                "pass_vmss",
                depends=False,
                uri="/subscriptions/x/resourceGroups/rg/providers/Microsoft.Compute/virtualMachineScaleSets/train-vmss1",
            ),
        ],
        [scale_set("pass_vmss", size="Standard_NC24ads_A100_v4")],  # no InfiniBand
        [scale_set("pass_vmss", size="Standard_HB120rs_v3")],  # InfiniBand, no GPU
    ],
    ids=["parked", "scheduled", "scheduled-by-target-id", "no-infiniband", "no-gpu"],
)
def test_parked_or_scheduled_or_non_ib_gpu_scale_sets_pass(resources: list[Res]) -> None:
    assert found(resources, POLICY) == []


@pytest.mark.parametrize(
    "setting",
    [schedule("fail_vmss", enabled=False), schedule("fail_vmss", minimum="1")],
    ids=["disabled", "never-zero"],
)
def test_schedule_that_never_reaches_zero_nodes_is_no_idle_plan(setting: Res) -> None:
    assert len(found([scale_set("fail_vmss"), setting], POLICY)) == 1
