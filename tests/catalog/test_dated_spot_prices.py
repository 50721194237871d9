"""Dated Spot prices and 1-year savings-plan rates (issue 35): the catalog's prices in westeurope, northeurope,
francecentral and swedencentral are the Retail Prices API rows azure-pricing-radar saved on 2026-08-22
(data/prices/azure-pricing-radar-cf741f2-vm-n-series.json, data/prices/README.md). Expected values are the saved
rows, read straight from the file (tests/saved_prices.py), and three rows copied from it by hand."""

from __future__ import annotations

import datetime as dt

from azure_gpu_stacks.catalog import catalog

from tests.conftest import karpenter_prices
from tests.saved_prices import RADAR_SOURCE, name_key, radar_file, radar_linux_rows

READ_ON = dt.date(2026, 8, 22)


def radar_priced() -> list[tuple[str, str, object]]:
    return [
        (size.name, region, prices)
        for size in catalog().sizes
        for region, prices in size.prices.items()
        if prices.source == RADAR_SOURCE
    ]


def test_the_saved_rows_are_the_repositorys_at_a_commit_read_on_its_stamp() -> None:
    saved = radar_file()

    assert saved["commit"] == "cf741f25c50759745f8eb5dcaf6c3746669c8f31"
    assert saved["lastChecked"]["at"].startswith("2026-08-22")
    assert sorted(saved["scopes"]) == [
        "vm-belgium",
        "vm-eu-west",
        "vm-francecentral",
        "vm-northeurope",
        "vm-swedencentral",
    ]


def test_every_spot_and_savings_plan_price_from_the_saved_rows_is_that_rows_linux_price() -> None:
    rows = radar_linux_rows()
    differs, spot, plans = [], 0, 0
    for name, region, prices in radar_priced():
        for kind, value in (("spot", prices.spot), ("savingsPlan1Year", prices.savings_plan_1y)):
            if value is None:
                continue
            spot += kind == "spot"
            plans += kind == "savingsPlan1Year"
            if rows.get((name_key(name), region, kind)) != {value}:
                differs.append(f"{name} {region} {kind}: {value} ({rows.get((name_key(name), region, kind))})")

    assert differs == []
    assert spot >= 100 and plans >= 100
    assert {region for _, region, _ in radar_priced()} == {
        "westeurope",
        "northeurope",
        "francecentral",
        "swedencentral",
    }


def test_a_spot_price_in_westeurope_carries_its_day_and_source() -> None:
    a100 = catalog().get("Standard_NC24ads_A100_v4")
    # the saved Linux rows "Standard_NC24ads_A100_v4" (retailPrice 4.775, savingsPlanPrice 3.97471) and
    # "Standard_NC24ads_A100_v4 Spot" (1.097295) of product "NCads A100 v4 Series Linux"
    spot = a100.price("westeurope", spot=True)
    regular = a100.price("westeurope")

    assert spot is not None and regular is not None
    assert (spot.usd_per_hour, spot.observed, spot.source) == (1.097295, READ_ON, RADAR_SOURCE)
    assert (regular.usd_per_hour, regular.observed) == (4.775, READ_ON)
    assert a100.prices["westeurope"].savings_plan_1y == 3.97471


def test_ncc40ads_h100_v5_in_westeurope_is_the_linux_row_not_the_one_named_srs_win() -> None:
    # The saved rows: "Virtual Machines NCCadsv5 Srs" 8.9 and "Virtual Machines NCCadsv5 Srs Win" 10.74 (8.9 plus
    # the Windows licence for 40 vCPUs); karpenter's table, which drops only product names ending in " Windows",
    # has the 10.74.
    _, karpenter = karpenter_prices()
    size = catalog().get("Standard_NCC40ads_H100_v5")

    assert karpenter[("Standard_NCC40ads_H100_v5", "westeurope")] == 10.74
    assert size.prices["westeurope"].payg == 8.9
    assert size.prices["westeurope"].spot == 1.64472


def test_every_spot_price_and_plan_is_below_its_pay_as_you_go_price() -> None:
    for name, region, p in radar_priced():
        assert p.payg is not None, (name, region)
        assert p.spot is None or p.spot < p.payg, (name, region)
        assert p.savings_plan_1y is None or p.savings_plan_1y < p.payg, (name, region)


def test_gb300_stays_unpriced_no_saved_row_names_it() -> None:
    rows = [row for scope in radar_file()["scopes"].values() for row in scope.values()]

    assert rows and not any("GB300" in row["skuName"] or "GB300" in row["meterName"] for row in rows)
    assert catalog().get("Standard_ND128isr_GB300_v6").prices == {}
