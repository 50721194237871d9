"""What a cost says beyond its totals: the budget it reads (any time grain, several budgets, an amount not
known before deployment), each line's rounding, where its prices come from, why a line has no price, and
the warning for an Azure ML low-priority cluster.

Expected values come from the catalog's data file as written (`catalog_size`, catalog/vm_sizes.yaml) and
from Azure's contracts, never from the pricing code: a budget's `timeGrain` is one of Monthly, Quarterly,
Annually, BillingMonth, BillingQuarter, BillingAnnual (Azure/azure-rest-api-specs,
specification/consumption/resource-manager/Microsoft.Consumption/stable/2024-08-01/consumption.json,
`BudgetProperties.timeGrain`, observed 2026-11-26); low-priority VMs were retired for Azure ML on
2026-03-31 and such clusters run as Spot VMs
(https://learn.microsoft.com/azure/machine-learning/how-to-manage-optimize-cost, observed 2026-11-25).
"""

from __future__ import annotations

from typing import Any

import pytest
from azure_gpu_stacks.catalog import pricing
from azure_gpu_stacks.catalog.demand import ResourceInputs

from tests.policy_helpers import UNKNOWN, catalog_document, catalog_entries, catalog_size

T4 = "Standard_NC4as_T4_v3"
A100 = "Standard_NC24ads_A100_v4"
NO_PRICE_ANYWHERE = "Standard_ND128isr_GB300_v6"  # no price source lists it (catalog/vm_sizes.yaml: no prices)
REGION = "eastus"
BUDGET = "azure-native:consumption:Budget"
VM = "azure-native:compute:VirtualMachine"
AML = "azure-native:machinelearningservices:Compute"


def resource(type_token: str, name: str, inputs: dict[str, Any]) -> ResourceInputs:
    return ResourceInputs(f"urn:pulumi:test::azure-gpu-stacks::{type_token}::{name}", type_token, name, inputs)


def vm(size: str = T4, name: str = "vm", **inputs: Any) -> ResourceInputs:
    return resource(VM, name, {"hardwareProfile": {"vmSize": size}, **inputs})


def budget(name: str, amount: Any, grain: str | None = None, **notifications: dict[str, Any]) -> ResourceInputs:
    inputs = {"amount": amount, "category": "Cost"} | ({} if grain is None else {"timeGrain": grain})
    return resource(BUDGET, name, inputs | ({"notifications": notifications} if notifications else {}))


def notification(threshold: float, kind: str = "Actual", operator: str = "GreaterThan") -> dict[str, Any]:
    """A budget notification as the REST spec writes one (consumption.json 2024-08-01 `Notification`: enabled,
    operator, threshold, contactEmails required; thresholdType Actual or Forecasted)."""
    return {
        "enabled": True,
        "operator": operator,
        "threshold": threshold,
        "thresholdType": kind,
        "contactEmails": ["ml@example.com"],
    }


def t4_full_month() -> float:
    return float(catalog_size(T4)["prices"][REGION]["payg"]) * 730  # one T4 VM every hour, a 730-hour month


def aml_cluster(priority: str, size: str = A100, **inputs: Any) -> ResourceInputs:
    scale = {"minNodeCount": 0.0, "maxNodeCount": 2.0}
    props = {
        "computeType": "AmlCompute",
        "properties": {"vmSize": size, "vmPriority": priority, "scaleSettings": scale},
    }
    return resource(AML, "gpu-cluster", {"properties": props, **inputs})


def cost_json(*resources: ResourceInputs, region: str | None = REGION) -> dict[str, Any]:
    return pricing.estimate_resources(list(resources), region).to_json()


# --- the budget a cost states ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("grain", "months"),
    [
        (None, 1),  # Azure's default time grain is Monthly
        ("Monthly", 1),
        ("BillingMonth", 1),
        ("Quarterly", 3),
        ("BillingQuarter", 3),
        ("Annually", 12),
        ("BillingAnnual", 12),
    ],
)
def test_a_budget_is_stated_per_month_whatever_its_time_grain(grain: str | None, months: int) -> None:
    amount = 1200.0

    cost = cost_json(vm(), budget("team", amount, grain))  # the VM first: a budget is found after other resources

    assert cost["budgetMonthlyUsd"] == pytest.approx(amount / months)


def test_several_budgets_are_summed_each_per_month() -> None:
    resources = [budget("team", 100.0), vm(), budget("quarter", 900.0, "Quarterly")]

    assert cost_json(*resources)["budgetMonthlyUsd"] == pytest.approx(100.0 + 900.0 / 3)
    assert [(b.resource, b.monthly_usd) for b in pricing.budgets(resources)] == [("team", 100.0), ("quarter", 300.0)]


def test_a_budget_whose_amount_is_unknown_before_deployment_is_not_counted() -> None:
    assert cost_json(vm(), budget("team", UNKNOWN))["budgetMonthlyUsd"] is None


def test_a_stack_without_a_budget_states_none_not_zero() -> None:
    assert cost_json(vm())["budgetMonthlyUsd"] is None


# --- each line and where its prices come from -------------------------------------------------------


def test_a_lines_hourly_cost_is_shown_to_four_decimal_places() -> None:
    region, spot = next(
        (region, float(price["spot"]))
        for region, price in catalog_size(T4)["prices"].items()
        if "spot" in price and round(float(price["spot"]), 4) != round(float(price["spot"]), 5)
    )  # a Spot price with a fifth decimal

    [line] = cost_json(vm(priority="Spot", location=region))["resources"]

    assert (line["hourlyUsd"], line["idleHourlyUsd"]) == (round(spot, 4), round(spot, 4))


def test_a_cost_names_its_price_source_and_says_spot_only_when_something_runs_as_spot() -> None:
    source = catalog_size(T4)["prices"][REGION]["source"]
    described = catalog_document()["prices"]["sources"][source]

    on_demand = cost_json(vm())
    spot = cost_json(vm(priority="Spot"))

    assert (on_demand["pricesSource"], on_demand["pricesSourceDescription"]) == (
        described["url"],
        described["description"],
    )
    assert on_demand["spotCaveat"] is None
    assert spot["spotCaveat"] is not None and "evicted" in spot["spotCaveat"]


def test_a_vm_without_a_location_is_priced_in_the_stacks_region() -> None:
    [line] = cost_json(vm(), region=REGION)["resources"]

    assert line["region"] == REGION
    assert line["hourlyUsd"] == pytest.approx(float(catalog_size(T4)["prices"][REGION]["payg"]))


def test_a_vm_stacks_cost_is_a_lower_bound_naming_the_vms_disks() -> None:
    """A managed disk is billed on its provisioned size, which no price here counts
    (https://learn.microsoft.com/azure/virtual-machines/disks-understand-billing, observed 2026-11-27)."""
    cost = cost_json(vm())

    assert (cost["complete"], cost["lowerBound"], cost["vmsComplete"]) == (False, True, True)
    assert [(n["resource"], n["type"]) for n in cost["notCounted"]] == [("vm", VM)]
    assert "disks" in cost["notCounted"][0]["billedFor"]


# --- a budget's notifications -----------------------------------------------------------------------


def test_a_budgets_notifications_are_read_past_a_disabled_or_unknown_one() -> None:
    """Azure's `Notification`: `threshold` in percent, `thresholdType` Actual (the default) or Forecasted,
    `enabled` (consumption.json 2024-08-01, observed 2026-11-26). A disabled one is not judged, nor one whose
    threshold is not known before deployment; the ones after them are."""
    raw = {
        "off": {"enabled": False, "threshold": 10.0},
        "later": {"threshold": UNKNOWN},
        "early": {"enabled": True, "threshold": 40.0},
        "forecast": {"threshold": 120.0, "thresholdType": "Forecasted"},
    }

    assert pricing.budget_notifications(raw) == [
        pricing.BudgetNotification("early", 40.0, "Actual"),
        pricing.BudgetNotification("forecast", 120.0, "Forecasted"),
    ]


def test_each_budget_is_in_the_json_with_where_each_notification_fires_to_the_cent() -> None:
    # 10 % of 333.33 fires at 33.333 a month, shown as 33.33; 120 % at 399.996, shown as 400.00
    team = budget("team", 333.33, "Monthly", early=notification(10), late=notification(120, "Forecasted"))

    budgets = cost_json(vm(), team)["budgets"]

    assert t4_full_month() > 33.333 and t4_full_month() < 399.996
    assert budgets == [
        {
            "resource": "team",
            "monthlyUsd": 333.33,
            "notifications": [
                {
                    "name": "early",
                    "thresholdPercent": 10.0,
                    "thresholdType": "Actual",
                    "firesAtMonthlyUsd": 33.33,
                    "reachedAtFullScale": True,
                },
                {
                    "name": "late",
                    "thresholdPercent": 120.0,
                    "thresholdType": "Forecasted",
                    "firesAtMonthlyUsd": 400.0,
                    "reachedAtFullScale": False,
                },
            ],
        }
    ]


def test_a_notification_at_exactly_the_full_scale_cost_is_reached_as_its_operator_compares() -> None:
    """Azure's operators: an alert when the evaluated cost is "greater than", "greater than or equal to" or "the same
    as" the threshold (Learn, Azure.ResourceManager.Consumption NotificationAlertTriggerType, observed 2026-11-27).
    A budget of exactly one T4 VM's full month (383.98 USD): each 100 % notification fires at the full-scale cost."""
    full = t4_full_month()
    assert full == 383.98  # the catalog's 0.526 USD an hour x 730
    limits = {
        "over": notification(100, operator="GreaterThan"),
        "at-or-over": notification(100, operator="GreaterThanOrEqualTo"),
        "at": notification(100, operator="EqualTo"),
        "half-over": notification(50, operator="GreaterThan"),
        "half-at": notification(50, operator="EqualTo"),
    }
    resources = [vm(), budget("team", full, **limits)]

    [team] = cost_json(*resources)["budgets"]
    reached = {n["name"]: n["reachedAtFullScale"] for n in team["notifications"]}
    crossed = [n.name for _, n in pricing.estimate_resources(resources, REGION).crossed()]

    assert reached == {"over": False, "at-or-over": True, "at": True, "half-over": True, "half-at": False}
    assert sorted(crossed) == ["at", "at-or-over", "half-over"]  # what limit-stack-cost's withinBudgetThresholds names


def test_an_operator_not_known_before_deployment_is_read_as_greater_than() -> None:
    # GreaterThan: "the recommended OperatorType", and the one CostAlert sets (components/cost_alert.py)
    later = notification(100, operator=UNKNOWN)

    [team] = cost_json(vm(), budget("team", t4_full_month(), later=later))["budgets"]

    assert [n["reachedAtFullScale"] for n in team["notifications"]] == [False]  # at the threshold, not above it


def test_a_budget_without_notifications_is_shown_as_its_amount_alone() -> None:
    plain, alerted = (
        pricing.estimate_resources([vm(), b], REGION).budgets[0].text()
        for b in (budget("team", 500.0), budget("team", 500.0, early=notification(50)))
    )

    assert (plain, alerted) == ("500.00", "500.00 (actual 50 %: 250.00)")


def test_a_budget_judged_on_a_price_of_unknown_date_says_its_date_is_unknown() -> None:
    size, region = "Standard_NCC40ads_H100_v5", "eastus2"
    observed = catalog_size(size)["prices"][region]["observed"]  # a snapshot that does not say when
    cost = pricing.estimate_resources([vm(size, location=region)], region)

    [problem] = pricing.budget_problems("team", 10.0, cost)

    assert observed == "unknown"
    assert "fires every month" in problem and f"oldest price observed: {observed})" in problem


# --- why a line has no price ------------------------------------------------------------------------


def test_a_size_no_source_prices_says_no_region_is_priced() -> None:
    assert not catalog_size(NO_PRICE_ANYWHERE).get("prices")

    [line] = cost_json(vm(NO_PRICE_ANYWHERE))["resources"]

    assert line["unpriced"] == f"the catalog has no price for {NO_PRICE_ANYWHERE} in {REGION} (priced regions: none)"


def test_a_region_without_a_price_lists_the_regions_that_have_one() -> None:
    regions = sorted(catalog_size(A100)["prices"])
    elsewhere = next(entry for entry in catalog_entries() if set(entry.get("prices") or {}) - set(regions))
    uncovered = sorted(set(elsewhere["prices"]) - set(regions))[0]

    [line] = cost_json(vm(A100, location=uncovered))["resources"]

    assert line["unpriced"] == (
        f"the catalog has no price for {A100} in {uncovered} (priced regions: {', '.join(regions)})"
    )


def test_every_priced_region_has_a_pay_as_you_go_price() -> None:
    """The data rule that makes a missing price always a missing region or a missing Spot price (so no line
    says "no pay-as-you-go price"): docs/mutation.md counts the mutants of that message as equivalent."""
    missing = [
        (entry["name"], region)
        for entry in catalog_entries()
        for region, price in (entry.get("prices") or {}).items()
        if "payg" not in price
    ]

    assert missing == []


# --- Azure ML low priority --------------------------------------------------------------------------


def test_a_low_priority_aml_cluster_is_warned_about_naming_its_size_and_region() -> None:
    low = pricing.estimate_resources([aml_cluster("LowPriority", location=REGION)])
    dedicated = pricing.estimate_resources([aml_cluster("Dedicated", location=REGION)])

    [warning] = pricing.low_priority_warnings(low)

    assert warning.startswith(
        "gpu-cluster: vmPriority LowPriority: low-priority VMs were retired for Azure ML on 2026-03-31"
    )
    assert f"billed at the variable Spot rate of {A100} in {REGION} up to the pay-as-you-go price" in warning
    assert pricing.low_priority_warnings(dedicated) == []


def test_a_low_priority_cluster_without_a_region_is_warned_about_its_region() -> None:
    cost = pricing.estimate_resources([aml_cluster("LowPriority")])

    [warning] = pricing.low_priority_warnings(cost)

    assert f"the variable Spot rate of {A100} in its region up to" in warning
