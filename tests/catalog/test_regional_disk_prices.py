"""Premium SSD disk tiers in five European regions (issue 35): catalog/charge_prices.yaml's `premiumSsdRegions` are
the Retail Prices API rows azure-pricing-radar saved on 2026-08-22 (data/prices/azure-pricing-radar-cf741f2-managed-
disks.json), and an OS disk there is priced at its tier beside the totals. Expected values are the saved rows."""

from __future__ import annotations

import json
import re
from typing import Any

from azure_gpu_stacks.catalog.pricing import estimate_resources

from tests.catalog.test_charge_prices import PRICES, res, rg
from tests.conftest import REPO

SAVED = REPO / "data" / "prices" / "azure-pricing-radar-cf741f2-managed-disks.json"


def saved_tiers() -> dict[tuple[str, str], set[float]]:
    """(region, tier) -> the monthly prices of the saved "Premium SSD Managed Disks" rows of meter "<tier> LRS Disk"."""
    found: dict[tuple[str, str], set[float]] = {}
    for rows in json.loads(SAVED.read_text(encoding="utf-8"))["scopes"].values():
        for row in rows.values():
            tier = re.fullmatch(r"(P\d+) LRS Disk", row["meterName"])
            if row["productName"] == "Premium SSD Managed Disks" and tier and row["unitOfMeasure"] == "1/Month":
                found.setdefault((row["armRegionName"], tier[1]), set()).add(row["retailPrice"])
    return found


def test_every_regional_tier_price_is_its_saved_row_and_every_tier_is_there() -> None:
    table = PRICES["premiumSsdRegions"]
    saved = saved_tiers()

    assert table["source"] == "azure-pricing-radar-cf741f2" and str(table["observed"]) == "2026-08-22"
    listed = {(region, tier): usd for region, tiers in table["usdPerMonth"].items() for tier, usd in tiers.items()}
    assert {key: {usd} for key, usd in listed.items()} == saved
    assert len(listed) == 5 * len(PRICES["premiumSsdTiers"])


def vm(location: str, size_gb: int) -> Any:
    inputs = {
        "resourceGroupName": "rg-gpu",
        "location": location,
        "storageProfile": {"osDisk": {"managedDisk": {"storageAccountType": "Premium_LRS"}, "diskSizeGB": size_gb}},
    }
    return res("azure-native:compute:VirtualMachine", "vm", inputs)


def test_a_256_gib_os_disk_in_westeurope_is_priced_as_p15() -> None:
    (charge,) = estimate_resources([rg("westeurope"), vm("westeurope", 256)]).not_counted
    (p15,) = saved_tiers()[("westeurope", "P15")]

    assert charge.estimate is not None
    assert charge.estimate.monthly_usd == p15
    assert charge.estimate.covers == "its OS disk (P15, 256 GiB)"
    assert "observed 2026-08-22" in charge.estimate.basis


def test_eastus_keeps_its_own_dated_figure_and_a_region_without_one_stays_unpriced() -> None:
    (eastus,) = estimate_resources([rg("eastus"), vm("eastus", 128)]).not_counted
    (uksouth,) = estimate_resources([rg("uksouth"), vm("uksouth", 128)]).not_counted

    assert (
        eastus.estimate is not None and eastus.estimate.monthly_usd == PRICES["prices"]["premiumSsdP10"]["usdPerMonth"]
    )
    assert (
        uksouth.estimate is None
        and uksouth.unpriced_detail == "OS disk P10 (128 GiB), no dated P10 price for uksouth here"
    )
