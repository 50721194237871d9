"""The Retail Prices API rows azure-pricing-radar saved (data/prices/azure-pricing-radar-cf741f2-vm-n-series.json),
read here straight from the file for the tests that hold the catalog to them."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from typing import Any

from tests.conftest import REPO

RADAR_PRICES = REPO / "data" / "prices" / "azure-pricing-radar-cf741f2-vm-n-series.json"
RADAR_SOURCE = "azure-pricing-radar-cf741f2"


def radar_file() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(RADAR_PRICES.read_text(encoding="utf-8"))
    return data


def name_key(name: str) -> str:
    """`Standard_NC16as_T4_v3` and `NC16asT4 v3` alike: lower case, no `Standard_`, spaces or underscores."""
    return re.sub(r"[ _]", "", name.lower().removeprefix("standard_"))


def radar_linux_rows() -> dict[tuple[str, str, str], set[float]]:
    """(name key, region, "payg" | "spot" | "savingsPlan1Year") -> the prices of the Linux rows saying so."""
    rows: dict[tuple[str, str, str], set[float]] = defaultdict(set)
    for scope in radar_file()["scopes"].values():
        for row in scope.values():
            # Windows products end in " Windows" or, for some series, " Win" ("Virtual Machines NCCadsv5 Srs Win")
            if row["productName"].endswith((" Windows", " Win")) or row["skuName"].endswith(" Low Priority"):
                continue
            spot = row["skuName"].endswith(" Spot")
            key = name_key(row["skuName"].removesuffix(" Spot"))
            rows[(key, row["armRegionName"], "spot" if spot else "payg")].add(row["retailPrice"])
            if "savingsPlanPrice" in row:
                rows[(key, row["armRegionName"], "savingsPlan1Year")].add(row["savingsPlanPrice"])
    return rows


# Jumbo2020/gpu_prices's saved rows (data/prices/jumbo2020-gpu-prices-*-n-series.json): Retail Prices API rows without
# `type` or `reservationTerm`, read here by their prices as data/prices/README.md says.
PRICES = REPO / "data" / "prices"
JUMBO_FILES = {  # source key -> its excerpts (the N-series rows, and the catalog's CPU sizes' rows)
    "jumbo2020-gpu-prices-64a289f": (
        PRICES / "jumbo2020-gpu-prices-64a289f-n-series.json",
        PRICES / "jumbo2020-gpu-prices-64a289f-cpu-sizes.json",
    ),
    "jumbo2020-gpu-prices-04958df": (PRICES / "jumbo2020-gpu-prices-04958df-n-series.json",),
}
TYPED_ROWS = PRICES / "babajide-azure-prices-3f048a2-nc48ads-a100-v4.json"


def jumbo_files(source: str) -> list[dict[str, Any]]:
    return [json.loads(path.read_text(encoding="utf-8")) for path in JUMBO_FILES[source]]


def jumbo_linux_rows(source: str) -> dict[tuple[str, str, str], set[float]]:
    """(name key, region, "base" | "spot") -> the prices of the Linux rows without and with ` Spot` in their name."""
    rows: dict[tuple[str, str, str], set[float]] = defaultdict(set)
    for row in (row for data in jumbo_files(source) for row in data["rows"]):
        if row["productName"].endswith((" Windows", " Win")) or row["skuName"].endswith(" Low Priority"):
            continue
        if "Cloud Services" in row["productName"]:  # not a VM
            continue
        spot = row["skuName"].endswith(" Spot")
        rows[(name_key(row["skuName"].removesuffix(" Spot")), row["region"], "spot" if spot else "base")].add(
            row["pricePerHour"]
        )
    return rows
