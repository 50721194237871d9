"""warn-incoherent-budgets: a budget between the covered VMs' idle and full-scale monthly cost passes; below the
idle cost it fires every month, far above the full-scale cost it can never fire. Prices come from the catalog's
data file as written (`catalog_size`), in the VM's region; one change per test."""

from __future__ import annotations

from typing import Any

import pytest
from azure_gpu_stacks.catalog import catalog

from tests.policy_helpers import UNKNOWN, Res, catalog_size, found

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


# --- each notification, and the edges ----------------------------------------------------------------
# warn-incoherent-budgets judges each notification of a budget at amount x its threshold %, and the edges of
# "fires every month" and "can never fire".
#
# Azure's contract for a notification: "Notification is sent when the cost exceeded the threshold. It is always
# percent and has to be between 0 and 1000"; `thresholdType` Actual (the default) or Forecasted; `enabled`
# (Azure/azure-rest-api-specs, specification/consumption/resource-manager/Microsoft.Consumption/stable/2024-08-01/
# consumption.json, `Notification`, observed 2026-11-26). Prices come from the catalog's data file as written
# (`catalog_size`); a month is 730 hours, as Azure's pricing calculator counts it. In-process, one change per test.

NO_PRICE_ANYWHERE = "Standard_ND128isr_GB300_v6"  # catalog/vm_sizes.yaml lists no price for it
NO_EASTUS_PRICE = "Standard_NCC40ads_H100_v5"  # priced, but not in eastus


def t4_payg() -> float:
    return float(catalog_size(T4)["prices"][REGION]["payg"])


def notified_cluster(
    name: str = "gpu", size: str = T4, min_nodes: float = 1.0, max_nodes: float = 2.0, **aml: Any
) -> Res:
    scale = {"minNodeCount": min_nodes, "maxNodeCount": max_nodes}
    props = {"computeType": "AmlCompute", "properties": {"vmSize": size, "scaleSettings": scale, **aml}}
    return Res(
        "azure-native:machinelearningservices:Compute", name, {"resourceGroupName": "rg-gpu", "properties": props}
    )


def notified_budget(amount: float, notifications: dict[str, Any] | None = None, name: str = "fail_budget") -> Res:
    props: dict[str, Any] = {"scope": RG_SCOPE, "amount": amount, "category": "Cost", "timeGrain": "Monthly"}
    if notifications is not None:
        props["notifications"] = notifications
    return Res("azure-native:consumption:Budget", name, props, ["pass_rg"])


def alert(threshold: Any, kind: str | None = None, **more: Any) -> dict[str, Any]:
    return {"threshold": threshold, "contactEmails": ["gpu-team@example.com"], "operator": "GreaterThan", **more} | (
        {} if kind is None else {"thresholdType": kind}
    )


def messages(resources: list[Res], config: dict[str, Any] | None = None) -> list[str]:
    return [message for _, _, message in found(resources, POLICY, config)]


def basis() -> str:
    return f"resources counted: gpu; oldest price observed: {catalog_size(T4)['prices'][REGION]['observed']}"


def test_a_notification_below_the_idle_cost_fires_every_month_and_is_named() -> None:
    """One T4 node idle, two at full scale; a budget at the full-scale cost with alerts at 40 % (below one
    node's month) and 100 % (at two nodes' month): only the 40 % alert is reported, at amount x 40 %."""
    idle, amount = t4_payg() * MONTH, 2 * t4_payg() * MONTH
    notifications = {"early": alert(40), "full": alert(100, "Forecasted")}

    assert messages([rg(), notified_cluster(), notified_budget(amount, notifications)]) == [
        f"budget 'fail_budget', notification 'early' (Actual, 40 % of {amount:,.2f} USD a month): fires every month: "
        f"it ({0.4 * amount:,.2f} USD a month) is below the idle cost ({idle:,.2f} USD a month) even when nothing "
        f"runs ({basis()}); raise it above the idle cost or cut what runs idle"
    ]


def test_a_forecasted_notification_far_above_full_scale_can_never_fire() -> None:
    full = 2 * t4_payg() * MONTH

    [message] = messages([rg(), notified_cluster(), notified_budget(full, {"far": alert(1000, "Forecasted")})])

    assert message == (
        f"budget 'fail_budget', notification 'far' (Forecasted, 1000 % of {full:,.2f} USD a month): can never fire: "
        f"it ({10 * full:,.2f} USD a month) is more than 200% above the full-scale cost ({full:,.2f} USD a month, "
        f"so at most {3 * full:,.2f}) ({basis()}); lower it to about the full-scale cost"
    )


def test_every_notification_is_judged_after_a_disabled_or_unknown_one() -> None:
    """A disabled notification is not judged, nor one whose threshold is not known before deployment; the
    ones after them are."""
    amount = 2 * t4_payg() * MONTH
    notifications = {
        "off": alert(1, enabled=False),
        "later": alert(UNKNOWN),
        "early": alert(40),
        "again": alert(30),
    }

    reported = messages([rg(), notified_cluster(), notified_budget(amount, notifications)])

    assert sorted(m.split("'")[3] for m in reported) == ["again", "early"]


def test_notifications_between_idle_and_full_scale_pass() -> None:
    amount = 2 * t4_payg() * MONTH
    notifications = {"half": alert(50), "full": alert(100), "forecast": alert(120, "Forecasted")}

    assert messages([rg(), notified_cluster(), notified_budget(amount, notifications, name="pass_budget")]) == []


def test_a_zero_percent_alert_on_a_cluster_that_scales_to_zero_does_not_fire_every_month() -> None:
    """Nothing runs idle (0 USD): a 0 % alert fires once anything runs, which is not every month."""
    amount = 2 * t4_payg() * MONTH

    assert (
        messages([rg(), notified_cluster(min_nodes=0), notified_budget(amount, {"any": alert(0)}, name="pass_budget")])
        == []
    )


def test_a_budget_exactly_at_the_full_scale_cost_can_fire_with_no_margin() -> None:
    """With `aboveFullScaleMargin: 0`, a budget equal to the full-scale cost fires when everything runs."""
    full = t4_payg() * 2 * MONTH
    config = {POLICY: {"aboveFullScaleMargin": 0}}

    assert messages([rg(), notified_cluster(min_nodes=0), notified_budget(full, name="pass_budget")], config) == []
    assert "can never fire" in messages([rg(), notified_cluster(min_nodes=0), notified_budget(full + 1)], config)[0]


def test_a_budget_over_a_parked_cluster_is_not_called_can_never_fire() -> None:
    """A cluster parked at 0 nodes costs nothing even at full scale: the budget is for when it is unparked,
    and "lower it to about the full-scale cost" (0 USD) would be no advice."""
    assert (
        messages([rg(), notified_cluster(min_nodes=0, max_nodes=0), notified_budget(1000.0, name="pass_budget")]) == []
    )


def test_a_spot_priced_cluster_names_its_spot_prices_own_date() -> None:
    """An Azure ML low-priority cluster is priced at the Spot rate, whose source and date are its own (in eastus the
    Spot price is read apart from the pay-as-you-go one: `spotObserved`)."""
    prices = catalog_size(T4)["prices"][REGION]
    assert prices["spotObserved"] != prices["observed"]

    [message] = messages([rg(), notified_cluster(vmPriority="LowPriority", min_nodes=2), notified_budget(1.0)])

    assert f"(resources counted: gpu; oldest price observed: {prices['spotObserved']})" in message


def test_a_lower_bound_names_every_size_without_a_price_and_what_was_counted() -> None:
    idle = t4_payg() * MONTH
    resources = [
        rg(),
        notified_cluster(),
        notified_cluster("gb300", NO_PRICE_ANYWHERE, min_nodes=1),
        notified_cluster("h100", NO_EASTUS_PRICE, min_nodes=1),
        notified_budget(100.0),
    ]

    [message] = messages(resources)

    assert message == (
        f"budget 'fail_budget': fires every month: the budget (100.00 USD a month) is below the idle cost "
        f"({idle:,.2f} USD a month) even when nothing runs (resources counted: gpu, gb300, h100; oldest price "
        f"observed: {catalog_size(T4)['prices'][REGION]['observed']}; a lower bound, no price for "
        f"{NO_EASTUS_PRICE} in {REGION}, {NO_PRICE_ANYWHERE} in {REGION}); raise it above the idle cost or cut "
        "what runs idle"
    )


def test_a_budget_whose_scope_is_known_at_deployment_covers_the_group_it_depends_on() -> None:
    # `pulumi preview` of a new stack: the scope is its resource group's id, not known yet; the budget depends on
    # rg-gpu, which holds nothing, so the cluster kept up in rg-other is not its business
    other = Res(
        "azure-native:resources:ResourceGroup", "pass_other", {"resourceGroupName": "rg-other", "location": REGION}
    )
    elsewhere = cluster(min_nodes=1)
    elsewhere.props["resourceGroupName"] = "rg-other"

    assert found([rg(), other, elsewhere, budget(100.0, scope=UNKNOWN, name="pass_budget")], POLICY) == []


def test_every_budget_is_judged_whatever_comes_before_it() -> None:
    unknown_amount = budget(100.0, name="pass_unknown")
    unknown_amount.props["amount"] = UNKNOWN
    one_vm = budget(100.0, scope=f"{RG_SCOPE}/providers/Microsoft.Compute/virtualMachines/gpu", name="pass_vm_scope")

    found_names = [
        name for _, name, _ in found([rg(), cluster(min_nodes=1), unknown_amount, one_vm, budget(100.0)], POLICY)
    ]
    assert found_names == ["fail_budget"]


def central_config(*centrals: Any) -> dict[str, Any]:
    return {POLICY: {"centralBudgets": list(centrals)}}


def test_every_central_budget_is_judged_whatever_comes_before_it() -> None:
    # not an object, no amount, no scope: none can be judged, and the one after them still is
    centrals = ["a budget", {"scope": SUB}, {"amount": 100.0}, {"scope": SUB, "amount": 100.0}]

    [message] = messages([rg(), cluster(min_nodes=1)], central_config(*centrals))
    assert message.startswith(f"central budget on {SUB}: fires every month")


def test_a_central_quarterly_budget_is_judged_per_month() -> None:
    idle = t4_month()
    central = {"scope": SUB, "amount": 3 * idle - 3, "timeGrain": "Quarterly"}

    [message] = messages([rg(), cluster(min_nodes=1)], central_config(central))
    assert message.startswith(f"central budget on {SUB}: fires every month: the budget ({idle - 1:,.2f} USD a month)")


def test_a_central_budgets_notifications_are_judged_as_a_budgets_are() -> None:
    amount = 2 * t4_payg() * MONTH  # the full-scale cost: the budget itself is coherent
    central = {"scope": SUB, "amount": amount, "notifications": {"early": alert(40)}}

    [message] = messages([rg(), notified_cluster()], central_config(central))
    assert message.startswith(f"central budget on {SUB}, notification 'early' (Actual, 40 % of {amount:,.2f} USD")


def test_a_budget_on_another_group_does_not_count_a_cluster_that_names_its_own_region() -> None:
    priced = cluster(min_nodes=1)
    priced.props["location"] = REGION  # priced by its own region, not its group's
    other = budget(1.0, scope=f"{SUB}/resourceGroups/rg-other", name="pass_budget")

    assert found([rg(), priced, other], POLICY) == []


def test_a_central_budget_of_a_time_grain_budgets_do_not_have_is_not_judged() -> None:
    # timeGrain: Monthly, Quarterly, Annually, BillingMonth, BillingQuarter, BillingAnnual (this policy's schema)
    central = {"scope": SUB, "amount": 1.0, "timeGrain": "Weekly"}

    assert found([rg(), cluster(min_nodes=1)], POLICY, central_config(central)) == []


def test_a_central_budget_far_above_full_scale_can_never_fire() -> None:
    full = 2 * t4_month()
    central = {"scope": SUB, "amount": round(3 * full + 1)}

    [message] = messages([rg(), cluster()], central_config(central))
    assert message.startswith(f"central budget on {SUB}: can never fire")
