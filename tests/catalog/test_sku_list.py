"""The catalog matches Azure's lists (issue 35). Every GPU name in Azure's SKU list (karpenter-provider-azure's
known_skus.yaml) and in Azure's price table (its zz_generated.pricing.go), both saved in data/prices/ at commit
2b431da, is a size of the catalog or kept under `unconfirmed` with its reason; every catalog price read from a
saved table is that table's row. The RTX PRO 6000 v6 GA names and the preview names they replace are those of
the series overview's FAQ (https://learn.microsoft.com/azure/virtual-machines/sizes/gpu-accelerated/
nc-rtxpro6000-bse-v6-series-overview, ms.date 2026-06-03, observed 2026-11-27). Expected values come from the
saved files and that page."""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

import yaml
from azure_gpu_stacks.catalog import catalog

from scripts.price_pages import PRICE_ROW_NAMES
from tests.conftest import KARPENTER_PRICES, REPO, SKYPILOT_PRICES, karpenter_prices
from tests.saved_prices import JUMBO_FILES, RADAR_SOURCE, jumbo_linux_rows, name_key, radar_linux_rows

SKU_LIST = REPO / "data" / "prices" / "karpenter-provider-azure-2b431da-known-skus-n-series.yaml"
DAY = dt.date(2026, 11, 27)
# The overview's FAQ: "Preview VM Size (Previous) | GA VM Size (New)".
PREVIEW_TO_GA = {
    "Standard_NC128ds_xl_RTXPRO6000BSE_v6": "Standard_NC144ds_xl_RTXPRO6000BSE_v6",
    "Standard_NC256ds_xl_RTXPRO6000BSE_v6": "Standard_NC288ds_xl_RTXPRO6000BSE_v6",
    "Standard_NC320ds_xl_RTXPRO6000BSE_v6": "Standard_NC288ds_xl_RTXPRO6000BSE_v6",
    "Standard_NC128lds_xl_RTXPRO6000BSE_v6": "Standard_NC144lds_xl_RTXPRO6000BSE_v6",
    "Standard_NC256lds_xl_RTXPRO6000BSE_v6": "Standard_NC288lds_xl_RTXPRO6000BSE_v6",
    "Standard_NC320lds_xl_RTXPRO6000BSE_v6": "Standard_NC288lds_xl_RTXPRO6000BSE_v6",
}


def sku_list() -> dict[str, str]:
    """Azure's SKU list, N-series rows: name -> quota family."""
    rows = yaml.safe_load(SKU_LIST.read_text(encoding="utf-8"))
    return {row["name"]: row["family"] for row in rows}


def known_to_the_catalog(name: str) -> bool:
    table_spelling = {row.lower(): arm.lower() for row, arm in PRICE_ROW_NAMES.items()}
    lower = table_spelling.get(name.lower(), name.lower())
    return any(s.name.lower() == lower for s in catalog().sizes) or catalog().unconfirmed(lower) is not None


def test_every_gpu_name_in_azures_sku_list_is_a_size_or_kept_as_unconfirmed() -> None:
    names = sku_list()

    assert len(names) == 63
    assert [name for name in names if not known_to_the_catalog(name)] == []


def test_every_gpu_name_in_azures_price_table_is_a_size_or_kept_as_unconfirmed() -> None:
    _, prices = karpenter_prices()
    names = {name for name, _ in prices}

    assert "Standard_ND96is_noIB_H100_v5" in names
    assert sorted(name for name in names if not known_to_the_catalog(name)) == []


def test_unconfirmed_names_say_where_they_were_seen_and_why_they_are_not_sizes() -> None:
    for name in ("Standard_ND96is_H100_v5", "Standard_ND96isrf_H100_v5", "Standard_NC132ds_xl_RTXPRO6000BSE_v6"):
        entry = catalog().unconfirmed(name)
        assert entry is not None and catalog().find(name) is None
        assert "price table" in entry.why and "2b431da" in entry.source


def test_every_price_read_from_a_saved_table_is_that_tables_row() -> None:
    _, karpenter = karpenter_prices()
    with SKYPILOT_PRICES.open(encoding="utf-8") as fh:
        skypilot = {(r["InstanceType"], r["Region"]): float(r["Price"]) for r in csv.DictReader(fh) if r["Price"]}
    tables = {
        "karpenter-azure-2b431da": {(n.lower(), r): usd for (n, r), usd in karpenter.items()},
        "skypilot-v6-098741e": {(n.lower(), r): usd for (n, r), usd in skypilot.items()},
    }
    radar = radar_linux_rows()
    untyped = {source: jumbo_linux_rows(source) for source in JUMBO_FILES}
    row_name = {arm: row for row, arm in PRICE_ROW_NAMES.items()}
    differs, checked = [], 0
    for size in catalog().sizes:
        if not size.name.startswith("Standard_N"):
            continue  # the saved files keep the N-series rows only (data/prices/README.md)
        name = row_name.get(size.name.lower(), size.name.lower())
        for region, price in size.prices.items():
            checked += 1
            if price.source == RADAR_SOURCE:  # its rows carry no armSkuName: read by name up to case and separators
                rows = radar.get((name_key(name), region, "payg"), set())
                row = next(iter(rows)) if len(rows) == 1 else None
            elif price.source in untyped:  # no armSkuName and no type: pay-as-you-go is the lowest of the base rows
                rows = untyped[price.source].get((name_key(name), region, "base"), set())
                row = min(rows) if len(rows) in (1, 3) else None
            else:
                row = tables[price.source].get((name, region))
            if price.payg != row:
                differs.append(f"{size.name} {region}: {price.payg} ({price.source}: {row})")

    assert checked > 900
    assert differs == []


def test_the_karpenter_table_is_the_saved_file_and_its_day() -> None:
    day, _ = karpenter_prices()

    assert day == "2026-06-18"
    assert KARPENTER_PRICES.name.startswith("karpenter-provider-azure-2b431da")


def test_the_rtx_pro_ga_sizes_are_current_with_the_sku_lists_family_and_the_tables_prices() -> None:
    _, prices = karpenter_prices()
    listed = sku_list()
    ga = sorted({name for name in listed if "RTXPRO6000BSE" in name})

    assert len(ga) == 9
    for name in ga:
        size = catalog().get(name)
        assert size.status_on(DAY) == "current"
        assert size.quota_family.lower() == listed[name].lower()
        assert {r: p.payg for r, p in size.prices.items()} == {r: usd for (n, r), usd in prices.items() if n == name}
    # the overview: generally available in West US 2 and Southeast Asia
    assert all({"westus2", "southeastasia"} <= catalog().get(name).prices.keys() for name in ga)


def test_a_quarter_and_a_half_gpu_are_fractions_of_one_96_gb_card() -> None:
    listed = sku_list()  # read once, not once per catalog size
    shares = {s.name: (s.gpus, s.gpu_memory_gb) for s in catalog().sizes if s.name in listed and "RTXPRO" in s.name}

    assert shares["Standard_NC36ds_xl_RTXPRO6000BSE_v6"] == (0.25, 24)
    assert shares["Standard_NC72ds_xl_RTXPRO6000BSE_v6"] == (0.5, 48)
    assert shares["Standard_NC144ds_xl_RTXPRO6000BSE_v6"] == (1, 96)
    assert shares["Standard_NC288ds_xl_RTXPRO6000BSE_v6"] == (2, 192)


def test_the_preview_rtx_pro_sizes_are_retired_and_replaced_by_the_faqs_ga_size() -> None:
    for preview, ga in PREVIEW_TO_GA.items():
        size = catalog().get(preview)
        assert size.status_on(DAY) == "retired"
        assert size.lifecycle.replacement == ga
        assert catalog().get(ga).status_on(DAY) == "current"


def test_the_saved_sku_list_is_the_n_series_of_the_file_at_its_commit() -> None:
    text = Path(SKU_LIST).read_text(encoding="utf-8")

    assert "2b431da153a6a92b705c18046512c60b1631b682" in text
    assert all(name.startswith("Standard_N") for name in sku_list())
