"""warn-incoherent-budgets: a budget between the covered VMs' idle and full-scale monthly cost passes; below the
idle cost it fires every month, far above the full-scale cost it can never fire. Prices come from the catalog's
data file as written (`catalog_size`), in the VM's region; one change per test."""

from __future__ import annotations

from typing import Any

import pytest
from azure_gpu_stacks.catalog import catalog

from tests.policy_helpers import Res, catalog_size, found

POLICY = "warn-incoherent-budgets"
SUB = "/subscriptions/00000000-0000-0000-0000-0000000000aa"
RG_SCOPE = f"{SUB}/resourceGroups/rg-gpu"
T4 = "Standard_NC4as_T4_v3"
REGION = "eastus"
MONTH = 730  # hours, as the pricing calculator counts a month


def t4_month(region: str = REGION) -> float:
    return float(catalog_size(T4)["prices"][region]["payg"]) * MONTH


def observed() -> str:
    return str(catalog_size(T4)["prices"][REGION]["observed"])


def rg(location: str = REGION) -> Res:
    return Res("azure-native:resources:ResourceGroup", "pass_rg", {"resourceGroupName": "rg-gpu", "location": location})


def cluster(min_nodes: float = 0.0, max_nodes: float = 2.0) -> Res:
    """An Azure ML cluster of T4 nodes in rg-gpu: idle at min_nodes, full scale at max_nodes."""
    scale = {"minNodeCount": min_nodes, "maxNodeCount": max_nodes}
    props = {"computeType": "AmlCompute", "properties": {"vmSize": T4, "scaleSettings": scale}}
    return Res(
        "azure-native:machinelearningservices:Compute", "gpu", {"resourceGroupName": "rg-gpu", "properties": props}
    )


def budget(amount: float, grain: str = "Monthly", scope: Any = RG_SCOPE, name: str = "fail_budget") -> Res:
    props = {"scope": scope, "amount": amount, "category": "Cost", "timeGrain": grain}
    return Res("azure-native:consumption:Budget", name, props, ["pass_rg"])


@pytest.mark.parametrize("share_of_full_scale", [0.5, 1.0, 2.9])
def test_budget_between_idle_and_full_scale_passes(share_of_full_scale: float) -> None:
    amount = share_of_full_scale * 2 * t4_month()

    assert found([rg(), cluster(), budget(amount, name="pass_budget")], POLICY) == []


def test_budget_below_the_idle_cost_fires_every_month() -> None:
    idle = t4_month()  # one node kept up

    [(level, name, message)] = found([rg(), cluster(min_nodes=1), budget(100.0)], POLICY)

    assert (level, name) == ("advisory", "fail_budget")
    assert message == (
        f"budget 'fail_budget': fires every month: the budget (100.00 USD a month) is below the idle cost "
        f"({idle:,.2f} USD a month) even when nothing runs (resources counted: gpu; oldest price observed: "
        f"{observed()}); raise it above the idle cost or cut what runs idle"
    )


def test_budget_far_above_the_full_scale_cost_can_never_fire() -> None:
    full = 2 * t4_month()
    amount = round(3 * full + 1)

    [(_, _, message)] = found([rg(), cluster(), budget(amount)], POLICY)

    assert message.startswith(f"budget 'fail_budget': can never fire: the budget ({amount:,.2f} USD a month)")
    assert f"the full-scale cost ({full:,.2f} USD a month, so at most {3 * full:,.2f})" in message


def test_margin_is_configurable() -> None:
    amount = 1.5 * 2 * t4_month()  # 50% above full scale

    assert found([rg(), cluster(), budget(amount)], POLICY) == []
    [(_, _, message)] = found([rg(), cluster(), budget(amount)], POLICY, {POLICY: {"aboveFullScaleMargin": 0.2}})
    assert "can never fire" in message and "more than 20% above" in message


def test_level_can_be_raised_to_mandatory() -> None:
    config = {POLICY: {"enforcementLevel": "mandatory"}}

    [(level, _, _)] = found([rg(), cluster(min_nodes=1), budget(100.0)], POLICY, config)

    assert level == "mandatory"


def test_quarterly_budget_is_judged_per_month() -> None:
    idle = t4_month()

    assert found([rg(), cluster(min_nodes=1), budget(3 * idle + 3, "Quarterly", name="pass_budget")], POLICY) == []
    assert len(found([rg(), cluster(min_nodes=1), budget(3 * idle - 3, "Quarterly")], POLICY)) == 1


def test_central_budget_in_the_policy_config_is_judged_the_same_way() -> None:
    central = {"scope": SUB, "amount": 100.0, "timeGrain": "Monthly"}

    [(_, name, message)] = found([rg(), cluster(min_nodes=1)], POLICY, {POLICY: {"centralBudgets": [central]}})

    assert name == "(stack)"  # no resource of the stack is the budget
    assert message.startswith(f"central budget on {SUB}: fires every month")


def test_budget_on_another_resource_group_counts_none_of_these_vms() -> None:
    other = budget(1.0, scope=f"{SUB}/resourceGroups/rg-other", name="pass_budget")

    assert found([rg(), cluster(min_nodes=1), other], POLICY) == []


def test_region_without_a_price_is_never_called_too_high() -> None:
    priced = catalog_size(T4)["prices"]
    uncovered = next(r for r in catalog().regions if r not in priced)  # no source lists T4 there

    assert found([rg(uncovered), cluster(), budget(1_000_000.0, name="pass_budget")], POLICY) == []


def test_a_lower_bound_estimate_never_says_can_never_fire() -> None:
    """Half the covered GPUs priced, half with no price in the region: the full-scale cost counted is a lower
    bound, so even a budget 100 times it may fire and is not called too high (the same budget over the
    priced cluster alone is)."""
    unpriced = "Standard_NCC40ads_H100_v5"
    assert REGION not in catalog_size(unpriced)["prices"]  # the catalog has no eastus price for it
    props = {"computeType": "AmlCompute", "properties": {"vmSize": unpriced, "scaleSettings": {"maxNodeCount": 1}}}
    h100 = Res(
        "azure-native:machinelearningservices:Compute", "h100", {"resourceGroupName": "rg-gpu", "properties": props}
    )
    amount = 100 * 2 * t4_month()

    assert found([rg(), cluster(), h100, budget(amount, name="pass_budget")], POLICY) == []
    [(_, _, message)] = found([rg(), cluster(), budget(amount)], POLICY)
    assert "can never fire" in message
