"""Saved Retail Prices API rows that keep no `type` or `reservationTerm` (Jumbo2020/gpu_prices, read by
`scripts/price_pages.py` `read_untyped_excerpt` and written into the catalog by `scripts/refresh_catalog.py apply
--snapshot`): which row is pay-as-you-go, which a reservation term, is read from the prices; anything else is counted
and not used. Expected values are the crafted rows themselves and the saved files (data/prices/)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.catalog import load_catalog

from scripts.price_pages import read_snapshot
from scripts.refresh_catalog import main
from tests.conftest import KARPENTER_PRICES, REPO

T4, A100 = "Standard_NC4as_T4_v3", "Standard_NC24ads_A100_v4"
NAMES = [T4, A100, "Standard_NC8as_T4_v3"]
RADAR = REPO / "data" / "prices" / "azure-pricing-radar-cf741f2-vm-n-series.json"


def row(sku: str, price: float, product: str = "Virtual Machines NCasT4 v3 Series", region: str = "eastus") -> dict:
    return {"region": region, "skuName": sku, "productName": product, "pricePerHour": price, "currency": "USD"}


def excerpt(tmp_path: Path, rows: list[dict[str, Any]]) -> Path:
    path = tmp_path / "rows.json"
    data = {"origin": "https://example.invalid", "commit": "0" * 40, "committed": "2025-06-21T06:49:41+00:00"}
    path.write_text(json.dumps({**data, "rows": rows}), encoding="utf-8")
    return path


def test_three_linux_rows_are_pay_as_you_go_and_the_two_terms_and_the_rest_is_told_apart(tmp_path: Path) -> None:
    rows = [
        row("NC4as T4 v3", 0.526), row("NC4as T4 v3", 5198.0), row("NC4as T4 v3", 2709.0),
        row("NC4as T4 v3 Spot", 0.145176), row("NC4as T4 v3 Low Priority", 0.105),
        row("NC4as T4 v3", 0.71, product="Virtual Machines NCasT4 v3 Series Windows"),
        row("Standard_NC24ads_A100_v4", 3.673), row("Standard_NC24ads_A100_v4", 21033.0),  # two: which term?
        row("NC8as T4 v3", 0.752, region="westus2"), row("ND96asr_A100_v4", 27.197),  # no such catalog size
        row("NC4as T4 v3", 0.71, product="NCasT4 v3 Series Cloud Services"),  # not a VM
    ]  # fmt: skip

    snapshot = read_snapshot(excerpt(tmp_path, rows), NAMES)

    t4 = snapshot.regions["eastus"].sizes["standard_nc4as_t4_v3"]
    assert (t4.payg, t4.spot, t4.reservation_1y, t4.reservation_3y) == (0.526, 0.145176, 2709.0, 5198.0)
    assert "standard_nc24ads_a100_v4" not in snapshot.regions["eastus"].sizes
    assert snapshot.regions["westus2"].sizes["standard_nc8as_t4_v3"].payg == 0.752
    counts = snapshot.regions["eastus"].counts
    assert (counts["windows"], counts["low_priority"], counts["ambiguous"], counts["unknown_name"]) == (1, 1, 2, 1)
    assert counts["other"] == 1
    assert str(snapshot.observed) == "2025-06-21"


def test_term_prices_that_would_not_be_a_discount_are_not_read_as_terms(tmp_path: Path) -> None:
    # a 1-year price above a year of pay-as-you-go (0.5 x 8,760 = 4,380) cannot be a reservation
    rows = [row("NC4as T4 v3", 0.5), row("NC4as T4 v3", 9000.0), row("NC4as T4 v3", 12000.0)]

    snapshot = read_snapshot(excerpt(tmp_path, rows), NAMES)

    assert snapshot.regions["eastus"].sizes == {} and snapshot.regions["eastus"].counts["ambiguous"] == 3


def test_a_row_without_a_price_is_refused_in_one_line_and_the_catalog_is_left(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog_file = tmp_path / "vm_sizes.yaml"
    shutil.copy(REPO / "catalog" / "vm_sizes.yaml", catalog_file)
    before = catalog_file.read_text()
    bad = excerpt(tmp_path, [row("NC4as T4 v3", 0.526), {"region": "eastus", "skuName": "NC4as T4 v3"}])

    assert main(["apply", "--catalog", str(catalog_file), "--snapshot", str(bad), "--snapshot-source", "x"]) == 2

    err = capsys.readouterr().err
    assert err == f"refresh_catalog: error: {bad}: rows[1]: not a USD price row with region and pricePerHour\n"
    assert catalog_file.read_text() == before


def test_newer_sources_applied_again_keep_the_reservations_and_spot_with_their_own_date(tmp_path: Path) -> None:
    catalog_file = tmp_path / "vm_sizes.yaml"
    shutil.copy(REPO / "catalog" / "vm_sizes.yaml", catalog_file)
    before = load_catalog(catalog_file)

    for source, path in (("karpenter-azure-2b431da", KARPENTER_PRICES), ("azure-pricing-radar-cf741f2", RADAR)):
        assert (
            main(["apply", "--catalog", str(catalog_file), "--snapshot", str(path), "--snapshot-source", source]) == 0
        )

    after = load_catalog(catalog_file)
    for name, region in ((T4, "eastus"), (A100, "eastus"), (A100, "westeurope")):
        old, new = before.get(name).prices[region], after.get(name).prices[region]
        assert new.reservation_1y == old.reservation_1y is not None and new.reservation_3y == old.reservation_3y
        assert str(new.reservation_observed) == "2025-06-21" and new.reservation_source.startswith("jumbo2020")
    assert after.get(T4).prices["eastus"].spot_source == "jumbo2020-gpu-prices-64a289f"


def test_an_older_file_adds_reservations_to_newer_prices_but_never_a_spot_price_they_lack(tmp_path: Path) -> None:
    h200, region = "Standard_ND96isr_H200_v5", "northeurope"
    catalog_file = tmp_path / "vm_sizes.yaml"
    lines = (REPO / "catalog" / "vm_sizes.yaml").read_text().splitlines(keepends=True)
    at = next(i for i in range(lines.index(f"  - name: {h200}\n"), len(lines)) if f" {region}: {{" in lines[i])
    lines[at] = lines[at].split(", reservation1Year")[0] + "}\n"  # the newer source's prices alone
    text = "".join(lines).replace("  sources:\n", "  sources:\n    old:\n      url: u\n      description: d\n", 1)
    catalog_file.write_text(text)
    newer = load_catalog(catalog_file).get(h200).prices[region]
    assert newer.spot is None and newer.reservation_1y is None and newer.payg is not None  # a newer source, no Spot
    product = "Virtual Machines NDsrH200v5 Series"
    rows = [
        row("ND96isr H200 v5", newer.payg, product, region),
        row("ND96isr H200 v5", 500000.0, product, region),
        row("ND96isr H200 v5", 1000000.0, product, region),
        row("ND96isr H200 v5 Spot", newer.payg / 5, product, region),
    ]
    older = excerpt(tmp_path, rows)  # committed 2025-06-21, before the catalog's price

    assert main(["apply", "--catalog", str(catalog_file), "--snapshot", str(older), "--snapshot-source", "old"]) == 0

    after = load_catalog(catalog_file).get(h200).prices[region]
    assert (after.payg, after.observed, after.source) == (newer.payg, newer.observed, newer.source)
    assert after.spot is None  # a newer source that lists Spot found none: an older Spot price is not added
    assert (after.reservation_1y, after.reservation_3y) == (500000.0, 1000000.0)
    assert (str(after.reservation_observed), after.reservation_source) == ("2025-06-21", "old")


def test_a_size_with_two_meter_names_is_priced_only_where_both_meters_agree(tmp_path: Path) -> None:
    nd96, product = "Standard_ND96asr_v4", "Virtual Machines NDasr A100 v4 Series"
    both = [27.197, 164936.0, 285893.0]
    rows = [row(meter, price, product) for meter in ("ND96asr_A100_v4", "ND96asrA100v4_NU") for price in both]
    rows += [row("ND96asr_A100_v4", price, product, "westus3") for price in both]  # one meter only
    rows += [row("ND96asr_A100_v4", price, product, "westus2") for price in both]
    rows += [row("ND96asrA100v4_NU", price, product, "westus2") for price in (27.197, 160000.0, 285893.0)]

    snapshot = read_snapshot(excerpt(tmp_path, rows), [nd96])

    eastus = snapshot.regions["eastus"].sizes["standard_nd96asr_v4"]
    assert (eastus.payg, eastus.reservation_1y, eastus.reservation_3y) == tuple(both)
    assert snapshot.regions["westus3"].sizes == {} and snapshot.regions["westus2"].sizes == {}
    assert snapshot.regions["westus2"].counts["ambiguous"] == 6
