"""azure-pricing-radar's saved Retail Prices API rows as a price snapshot (scripts/radar_excerpt.py saves them,
scripts/price_pages.py `read_radar_excerpt` reads them): rows shaped like the saved file's, built here."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from scripts.price_pages import RefreshError, read_radar_excerpt, read_snapshot
from scripts.radar_excerpt import excerpt
from scripts.refresh_catalog import main
from tests.saved_prices import RADAR_PRICES

NAMES = ["Standard_NC16as_T4_v3", "Standard_NCC40ads_H100_v5", "Standard_ND96isr_H100_v5", "Standard_NC24ads_A100_v4"]


def row(sku: str, price: float, product: str = "Virtual Machines NCasT4 v3 Series", **more: Any) -> dict[str, Any]:
    return {
        "armRegionName": "westeurope",
        "meterName": sku,
        "productName": product,
        "retailPrice": price,
        "skuName": sku,
        "unitOfMeasure": "1 Hour",
        "unitPrice": price,
        **more,
    }


def saved(rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "origin": "https://github.com/andy-diericks/azure-pricing-radar/tree/x/data/latest",
        "commit": "x",
        "lastChecked": {"at": "2026-08-22T20:59:40.623529+00:00"},
        "scopes": {"vm-eu-west": {f"P/{i:04d}|m{i}|Consumption|": r for i, r in enumerate(rows)}},
    }


def test_meter_style_names_are_read_under_the_sizes_arm_name_with_spot_and_the_savings_plan() -> None:
    rows = [
        row("NC16asT4 v3", 1.2, savingsPlanPrice=0.9),
        row("NC16asT4 v3 Spot", 0.3),
        row("NC16asT4 v3 Low Priority", 0.25),
        row("NC16asT4 v3", 1.75, product="Virtual Machines NCasT4 v3 Series Windows"),
    ]

    snapshot = read_radar_excerpt(Path("saved.json"), saved(rows), NAMES)
    t4 = snapshot.regions["westeurope"].sizes["standard_nc16as_t4_v3"]

    assert snapshot.observed == dt.date(2026, 8, 22)
    assert (t4.payg, t4.spot, t4.savings_plan_1y) == (1.2, 0.3, 0.9)
    assert snapshot.regions["westeurope"].counts["windows"] == 1
    assert snapshot.regions["westeurope"].counts["low_priority"] == 1


def test_a_product_ending_in_win_is_windows_and_never_the_linux_price() -> None:
    rows = [
        row("NCC40adsH100v5", 8.9, product="Virtual Machines NCCadsv5 Srs"),
        row("NCC40adsH100v5", 10.74, product="Virtual Machines NCCadsv5 Srs Win"),
    ]

    read = read_radar_excerpt(Path("saved.json"), saved(rows), NAMES).regions["westeurope"]

    assert read.sizes["standard_ncc40ads_h100_v5"].payg == 8.9


def test_rows_that_fit_no_size_or_disagree_are_counted_and_not_used() -> None:
    rows = [
        row("NC24ldsxlRTX6kv6", 2.2),  # the meter's name is not the size's (NC24lds_xl_RTXPRO6000BSE_v6)
        row("Standard_ND96isr_H100_v5", 98.32, product="Virtual Machines NDsr H100 v5 Series Linux"),
        row("ND96isr H100 v5", 90.0, product="Virtual Machines NDsr H100 v5 Series Linux"),
        row("Standard_NC24ads_A100_v4", 4.775),
        row("Standard_NC24ads_A100_v4 Spot", 4.775),  # a Spot row at the list price is no discount
    ]

    read = read_radar_excerpt(Path("saved.json"), saved(rows), NAMES).regions["westeurope"]

    assert read.counts["unknown_name"] == 1 and read.counts["ambiguous"] == 1
    assert read.sizes["standard_nd96isr_h100_v5"].payg is None
    assert read.sizes["standard_nc24ads_a100_v4"].spot is None and read.counts["spot_at_payg"] == 1


def test_the_saved_file_reads_as_a_snapshot_of_its_day(tmp_path: Path) -> None:
    snapshot = read_snapshot(RADAR_PRICES, names=NAMES)

    assert snapshot.observed == dt.date(2026, 8, 22)
    assert set(snapshot.regions) == {"westeurope", "northeurope", "francecentral", "swedencentral"}


def test_a_json_file_of_another_shape_is_one_error_line_and_nothing_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "other.json"
    bad.write_text(json.dumps({"Items": []}))
    catalog_copy = tmp_path / "vm_sizes.yaml"
    catalog_copy.write_text((Path(__file__).parents[2] / "catalog" / "vm_sizes.yaml").read_text())
    before = catalog_copy.read_text()

    code = main(["apply", "--snapshot", str(bad), "--snapshot-source", "s", "--catalog", str(catalog_copy)])

    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and str(bad) in err and "radar_excerpt" in err
    assert catalog_copy.read_text() == before
    with pytest.raises(RefreshError, match="lastChecked.at"):
        read_radar_excerpt(bad, {**saved([]), "lastChecked": {"at": "yesterday"}}, NAMES)


def test_the_excerpt_keeps_the_n_series_rows_of_each_vm_scope_unchanged_with_the_stamp(tmp_path: Path) -> None:
    repo = tmp_path / "radar"
    (repo / "data" / "latest").mkdir(parents=True)
    gpu, cpu = row("NC16asT4 v3", 1.2), row("D2s v5", 0.1)
    (repo / "data" / "latest" / "vm-eu-west.json").write_text(
        json.dumps({"a|b|Consumption|": gpu, "c|d|Consumption|": cpu})
    )
    (repo / "data" / "latest" / "storage-eu-west.json").write_text(json.dumps({"e|f|Consumption|": gpu}))
    (repo / "data" / "latest" / "last-checked.json").write_text(json.dumps({"at": "2026-08-22T20:59:40+00:00"}))
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "snapshot"], check=True)

    data = excerpt(repo, "HEAD")

    assert data["scopes"] == {"vm-eu-west": {"a|b|Consumption|": gpu}}
    assert data["lastChecked"] == {"at": "2026-08-22T20:59:40+00:00"}
    assert len(data["commit"]) == 40
