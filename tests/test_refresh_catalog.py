"""The catalog refresh script on small saved files shaped like the real outputs:
Retail Prices API pages (tests/data/prices-000N.json) and `az vm list-skus --all -o json`
(tests/data/list-skus.json). Expected values are read from those fixtures and the shipped catalog.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from azure_gpu_stacks.components.catalog import catalog, load_catalog
from scripts.refresh_catalog import fetch_price_pages, main, prices_url
from tests.conftest import REPO

DATA = REPO / "tests" / "data"
PAGES = [DATA / "prices-0001.json", DATA / "prices-0002.json"]
SKUS = DATA / "list-skus.json"
T4 = "Standard_NC4as_T4_v3"
A100 = "Standard_NC24ads_A100_v4"
NV6 = "Standard_NV6ads_A10_v5"


def items() -> list[dict[str, Any]]:
    return [i for p in PAGES for i in json.loads(p.read_text())["Items"]]


def price_row(size: str, sku_name: str, **match: str) -> dict[str, Any]:
    rows = [
        i for i in items()
        if i["armSkuName"] == size and i["skuName"] == sku_name and i["armRegionName"] == "eastus"
        and all(i.get(k) == v for k, v in match.items())
    ]  # fmt: skip
    return max(rows, key=lambda i: i["effectiveStartDate"])


@pytest.fixture
def stale_catalog(tmp_path: Path) -> Path:
    path = tmp_path / "vm_sizes.yaml"
    shutil.copy(REPO / "components" / "catalog" / "vm_sizes.yaml", path)
    return path


def apply(catalog_file: Path, *extra: str) -> int:
    return main(["apply", "--catalog", str(catalog_file), "--observed", "2026-12-01", *extra])


def test_refresh_takes_linux_consumption_prices_not_windows_devtest_or_other_regions(stale_catalog: Path) -> None:
    assert apply(stale_catalog, "--prices", *map(str, PAGES)) == 0

    refreshed = load_catalog(stale_catalog).get(T4)
    linux = price_row(T4, "NC4as T4 v3", type="Consumption", productName="Virtual Machines NCasT4 v3 Series")
    assert refreshed.payg_usd_per_hour == linux["retailPrice"]
    assert refreshed.spot_usd_per_hour == price_row(T4, "NC4as T4 v3 Spot")["retailPrice"]


def test_refresh_tells_low_priority_rows_from_spot_rows(stale_catalog: Path, capsys: pytest.CaptureFixture[str]) -> None:
    low = price_row(T4, "NC4as T4 v3 Low Priority")["retailPrice"]

    apply(stale_catalog, "--prices", *map(str, PAGES))

    assert load_catalog(stale_catalog).get(T4).spot_usd_per_hour != low
    assert "1 Low Priority rows told apart and not used" in capsys.readouterr().out


def test_refresh_latest_effective_start_date_wins(stale_catalog: Path) -> None:
    apply(stale_catalog, "--prices", str(DATA))  # a directory of saved pages reads the same

    assert load_catalog(stale_catalog).get(A100).payg_usd_per_hour == price_row(A100, "NC24ads A100 v4", type="Consumption")["retailPrice"]


def test_refresh_adds_a_price_the_catalog_lacked_and_keeps_fractional_gpus(stale_catalog: Path) -> None:
    assert catalog().get(NV6).payg_usd_per_hour is None

    apply(stale_catalog, "--prices", *map(str, PAGES), "--skus", str(SKUS))

    refreshed = load_catalog(stale_catalog).get(NV6)
    assert refreshed.payg_usd_per_hour == price_row(NV6, "NV6ads A10 v5")["retailPrice"]
    assert refreshed.spot_usd_per_hour is None  # the only Spot row is priced 0: not a price
    assert refreshed.gpus == catalog().get(NV6).gpus  # list-skus says 1 for a 1/6 GPU


def test_refresh_records_where_and_when_prices_were_read(stale_catalog: Path) -> None:
    apply(stale_catalog, "--prices", *map(str, PAGES))

    prices = load_catalog(stale_catalog).prices
    assert prices.observed == dt.date(2026, 12, 1)
    assert prices.source == "https://prices.azure.com/api/retail/prices (saved pages: prices-0001.json, prices-0002.json)"
    assert prices.region == "eastus"


def test_refresh_corrects_stale_specs_from_list_skus(stale_catalog: Path) -> None:
    text = stale_catalog.read_text()
    block = text.index(f"- name: {T4}")
    stale_catalog.write_text(text[:block] + text[block:].replace("vcpus: 4", "vcpus: 6", 1).replace("memoryGib: 28", "memoryGib: 30", 1))
    assert load_catalog(stale_catalog).get(T4).vcpus == 6
    caps = {c["name"]: c["value"] for c in json.loads(SKUS.read_text())[1]["capabilities"]}

    assert apply(stale_catalog, "--skus", str(SKUS)) == 0

    refreshed = load_catalog(stale_catalog).get(T4)
    assert (refreshed.vcpus, refreshed.memory_gib) == (int(caps["vCPUs"]), float(caps["MemoryGB"]))
    assert refreshed.observed == dt.date(2026, 12, 1)


def test_refresh_keeps_lifecycle_sources_quota_spelling_and_comments(stale_catalog: Path) -> None:
    before = load_catalog(stale_catalog)
    comments = [line for line in stale_catalog.read_text().splitlines() if line.lstrip().startswith("#")]

    apply(stale_catalog, "--prices", *map(str, PAGES), "--skus", str(SKUS))

    after = load_catalog(stale_catalog)
    assert [(s.name, s.lifecycle, s.source, s.quota_family, s.series) for s in after.sizes] == [
        (s.name, s.lifecycle, s.source, s.quota_family, s.series) for s in before.sizes
    ]
    assert [line for line in stale_catalog.read_text().splitlines() if line.lstrip().startswith("#")] == comments


def test_refresh_summary_lists_every_change(stale_catalog: Path, tmp_path: Path) -> None:
    summary = tmp_path / "summary.txt"
    old = catalog()

    apply(stale_catalog, "--prices", *map(str, PAGES), "--skus", str(SKUS), "--summary", str(summary))

    lines = summary.read_text().splitlines()
    new_spot = price_row(T4, "NC4as T4 v3 Spot")["retailPrice"]
    assert f"{T4}: spotUsdPerHour {old.get(T4).spot_usd_per_hour} -> {new_spot}" in lines
    assert f"{NV6}: paygUsdPerHour (none) -> {price_row(NV6, 'NV6ads A10 v5')['retailPrice']}" in lines
    assert "in list-skus, not in the catalog (not added; need a series, lifecycle and source): Standard_D8as_v5" in lines


def test_refresh_dry_run_leaves_the_catalog_alone(stale_catalog: Path) -> None:
    before = stale_catalog.read_text()

    assert apply(stale_catalog, "--prices", *map(str, PAGES), "--dry-run") == 0

    assert stale_catalog.read_text() == before


def test_refresh_refuses_pages_that_stop_before_the_last(stale_catalog: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = stale_catalog.read_text()

    assert apply(stale_catalog, "--prices", str(PAGES[0])) == 2

    assert capsys.readouterr().err == (
        f"refresh_catalog: error: {PAGES[0]}: NextPageLink is set, so the saved pages stop before the last one; fetch them all\n"
    )
    assert stale_catalog.read_text() == before


def test_refresh_refuses_a_file_that_is_not_a_price_page(stale_catalog: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert apply(stale_catalog, "--prices", str(SKUS)) == 2
    assert "expected a Retail Prices API page, an object with `Items` and `NextPageLink`" in capsys.readouterr().err


class FakeResponse(io.BytesIO):
    def __enter__(self) -> FakeResponse:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def test_fetch_follows_next_page_link_and_saves_each_page(tmp_path: Path) -> None:
    first, second = (json.loads(p.read_text()) for p in PAGES)
    answers = {prices_url("eastus"): first, first["NextPageLink"]: second}
    asked: list[str] = []

    def opener(url: str) -> FakeResponse:
        asked.append(url)
        return FakeResponse(json.dumps(answers[url]).encode())

    written = fetch_price_pages("eastus", tmp_path / "prices", opener)

    assert asked == [prices_url("eastus"), first["NextPageLink"]]
    assert [json.loads(p.read_text()) for p in written] == [first, second]
    assert [p.name for p in written] == ["prices-0001.json", "prices-0002.json"]
    assert "armRegionName%20eq%20%27eastus%27" in prices_url("eastus")
