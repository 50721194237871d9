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
