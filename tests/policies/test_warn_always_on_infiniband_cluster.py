"""warn-always-on-infiniband-cluster: an InfiniBand GPU cluster with no way to idle at zero is named,
with what it costs per idle day (from the catalog's prices as the data file writes them) and how to park it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.policy_helpers import Res, catalog_entries, catalog_size, found

POLICY = "warn-always-on-infiniband-cluster"
VMSS = "azure-native:compute:VirtualMachineScaleSet"
AUTOSCALE = "azure-native:monitor:AutoscaleSetting"
ND = "Standard_ND96asr_v4"
HOW_TO_PARK = (
    "park it between runs with trainingCluster.nodeCount: 0 and `pulumi up` (the network, placement group and "
    "scale set stay; set the count back and `pulumi up` to start it), or scale it to 0 nodes outside working "
    "hours with trainingCluster.workingHours."
)


REGION = "eastus"  # where the test's scale sets run; the violation prices them there


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


def always_on(name: str, count: int, size: str, price: float | None, kind: str = "pay-as-you-go") -> str:
    if price is None:
        return (
            f"'{name}' runs {count} x {size} around the clock, at full price on every day nothing trains; {HOW_TO_PARK}"
        )
    return (
        f"'{name}' runs {count} x {size} around the clock: about {count * 24 * price:,.2f} USD for every day nothing "
        f"trains ({count} x {price:g} USD/h x 24 h, the catalog's approximate {kind} price in {REGION}); {HOW_TO_PARK}"
    )


def test_always_on_cluster_names_its_idle_day_cost_and_how_to_park_it() -> None:
    price = catalog_size(ND)["prices"][REGION]["payg"]

    assert found([scale_set("fail_vmss")], POLICY) == [("advisory", "fail_vmss", always_on("fail_vmss", 2, ND, price))]


def test_always_on_spot_cluster_is_costed_at_the_spot_price() -> None:
    price = catalog_size(ND)["prices"][REGION]["spot"]
    spot = scale_set("fail_vmss", virtualMachineProfile={"priority": "Spot"})

    assert found([spot], POLICY) == [("advisory", "fail_vmss", always_on("fail_vmss", 2, ND, price, kind="Spot"))]


def test_always_on_cluster_without_a_price_still_says_how_to_park_it() -> None:
    unpriced = next(
        e["name"]
        for e in catalog_entries()
        if e["gpus"] and e.get("infinibandGbps") and "payg" not in e.get("prices", {}).get(REGION, {})
    )

    assert found([scale_set("fail_vmss", size=unpriced, capacity=1.0)], POLICY) == [
        ("advisory", "fail_vmss", always_on("fail_vmss", 1, unpriced, None))
    ]


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
    price = catalog_size(ND)["prices"][REGION]["payg"]

    assert found([scale_set("fail_vmss"), setting], POLICY) == [
        ("advisory", "fail_vmss", always_on("fail_vmss", 2, ND, price))
    ]


def target_uri(name: str) -> str:
    return f"/subscriptions/x/resourceGroups/rg/providers/Microsoft.Compute/virtualMachineScaleSets/{name}"


def test_every_always_on_cluster_is_named_whatever_comes_before_it() -> None:
    # a schedule, a scheduled cluster and a cluster without InfiniBand before the one left on
    price = catalog_size(ND)["prices"][REGION]["payg"]
    resources = [
        schedule("pass_vmss"),
        scale_set("pass_vmss"),
        scale_set("pass_a100", size="Standard_NC24ads_A100_v4"),
        scale_set("fail_vmss"),
    ]

    assert found(resources, POLICY) == [("advisory", "fail_vmss", always_on("fail_vmss", 2, ND, price))]


def test_a_schedule_naming_one_cluster_does_not_park_another() -> None:
    price = catalog_size(ND)["prices"][REGION]["payg"]
    resources = [
        scale_set("pass_vmss", vmScaleSetName="train-a"),
        scale_set("fail_vmss", vmScaleSetName="train-b"),
        schedule("pass_vmss", depends=False, uri=target_uri("train-a")),
    ]

    assert found(resources, POLICY) == [("advisory", "fail_vmss", always_on("fail_vmss", 2, ND, price))]


def test_a_schedule_naming_a_cluster_by_its_name_property_parks_it() -> None:
    named = scale_set("pass_vmss")
    named.props["name"] = "train-a"

    assert found([named, schedule("pass_vmss", depends=False, uri=target_uri("train-a"))], POLICY) == []


def test_a_cluster_in_its_groups_region_is_named_without_a_price() -> None:
    # without `location` the scale set is where its resource group is, which the policy cannot see
    in_group = scale_set("fail_vmss")
    del in_group.props["location"]

    assert found([in_group], POLICY) == [("advisory", "fail_vmss", always_on("fail_vmss", 2, ND, None))]
