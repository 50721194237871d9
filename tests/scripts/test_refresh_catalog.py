"""The catalog refresh script on small saved files shaped like the real outputs:
Retail Prices API pages (tests/data/prices-000N.json) and `az vm list-skus --all -o json`
(tests/data/list-skus.json). Expected values are read from those fixtures and the shipped catalog.
"""

from __future__ import annotations

import contextlib
import csv
import datetime as dt
import io
import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.catalog import Catalog, catalog, load_catalog

from scripts.price_pages import RefreshError
from scripts.refresh_catalog import fetch_price_pages, main, prices_url
from tests.conftest import KARPENTER_PRICES, REPO, SKYPILOT_PRICES, karpenter_prices

DATA = REPO / "tests" / "data"
PAGES = [DATA / "prices-0001.json", DATA / "prices-0002.json"]
SKUS = DATA / "list-skus.json"
T4 = "Standard_NC4as_T4_v3"
A100 = "Standard_NC24ads_A100_v4"
NV6 = "Standard_NV6ads_A10_v5"


def items_for(size: str) -> list[dict[str, Any]]:
    return [i for i in items() if i["armSkuName"].lower() == size.lower()]


def items() -> list[dict[str, Any]]:
    return [i for p in PAGES for i in json.loads(p.read_text())["Items"]]


def price_row(size: str, sku_name: str, **match: str) -> dict[str, Any]:
    rows = [
        i for i in items()
        if i["armSkuName"] == size and i["skuName"] == sku_name and i["armRegionName"] == "eastus"
        and all(i.get(k) == v for k, v in match.items())
    ]  # fmt: skip
    return max(rows, key=lambda i: i["effectiveStartDate"])


REGION = "eastus"  # the region the saved pages are for


@pytest.fixture
def stale_catalog(tmp_path: Path) -> Path:
    path = tmp_path / "vm_sizes.yaml"
    shutil.copy(REPO / "catalog" / "vm_sizes.yaml", path)
    return path


def drop_price(catalog_file: Path, size: str, region: str) -> None:
    """The catalog without `size`'s prices in `region`: one a source may add."""
    lines = catalog_file.read_text().splitlines(keepends=True)
    start = lines.index(f"  - name: {size}\n")
    at = next(i for i in range(start, len(lines)) if lines[i].startswith(f"      {region}: {{"))
    catalog_file.write_text("".join(lines[:at] + lines[at + 1 :]))
    assert region not in load_catalog(catalog_file).get(size).prices


def apply(catalog_file: Path, *extra: str) -> int:
    return main(["apply", "--catalog", str(catalog_file), "--observed", "2026-12-01", *extra])


@dataclass(frozen=True)
class Refresh:
    """One `apply` on a copy of the shipped catalog, as several tests read it: each refresh costs about 0.4
    CPU-seconds and each read of a catalog 0.3 (PyYAML), so the tests that ask the same refresh share one."""

    code: int
    before: Catalog  # the copy as it was given to the refresh
    after: Catalog
    out: str  # what the refresh printed
    text_before: str
    text_after: str
    summary: list[str]  # the lines of --summary's file, when asked for


def refresh(directory: Path, *extra: str, dropped: tuple[tuple[str, str], ...] = ()) -> Refresh:
    """`apply ... *extra` on a copy of the shipped catalog in `directory` without the prices `dropped` names (size,
    region); `{summary}` in `extra` is a summary file in `directory`."""
    path = directory / "vm_sizes.yaml"
    shutil.copy(REPO / "catalog" / "vm_sizes.yaml", path)
    for size, region in dropped:
        drop_price(path, size, region)
    summary = directory / "summary.txt"
    text_before, before, out = path.read_text(), load_catalog(path), io.StringIO()
    with contextlib.redirect_stdout(out):
        code = apply(path, *(a.replace("{summary}", str(summary)) for a in extra))
    lines = summary.read_text().splitlines() if summary.exists() else []
    return Refresh(code, before, load_catalog(path), out.getvalue(), text_before, path.read_text(), lines)


@pytest.fixture(scope="module")
def pages_applied(tmp_path_factory: pytest.TempPathFactory) -> Refresh:
    """The saved price pages applied to the shipped catalog."""
    return refresh(tmp_path_factory.mktemp("pages"), "--prices", *map(str, PAGES))


@pytest.fixture(scope="module")
def pages_and_skus_applied(tmp_path_factory: pytest.TempPathFactory) -> Refresh:
    """The saved price pages and list-skus applied, with a summary, to the shipped catalog without NV6's eastus
    price (a price the pages add)."""
    return refresh(
        tmp_path_factory.mktemp("pages-skus"),
        *("--prices", *map(str, PAGES), "--skus", str(SKUS), "--summary", "{summary}"),
        dropped=((NV6, REGION),),
    )


def test_refresh_takes_linux_consumption_prices_not_windows_devtest_or_other_regions(pages_applied: Refresh) -> None:
    assert pages_applied.code == 0

    refreshed = pages_applied.after.get(T4)
    linux = price_row(T4, "NC4as T4 v3", type="Consumption", productName="Virtual Machines NCasT4 v3 Series")
    assert refreshed.usd_per_hour(REGION) == linux["retailPrice"]
    assert refreshed.usd_per_hour(REGION, spot=True) == price_row(T4, "NC4as T4 v3 Spot")["retailPrice"]


def test_refresh_tells_low_priority_rows_from_spot_rows(pages_applied: Refresh) -> None:
    low = price_row(T4, "NC4as T4 v3 Low Priority")["retailPrice"]

    assert pages_applied.after.get(T4).usd_per_hour(REGION, spot=True) != low
    assert "1 Low Priority rows told apart and not used" in pages_applied.out


def test_refresh_latest_effective_start_date_wins(stale_catalog: Path) -> None:
    apply(stale_catalog, "--prices", str(DATA))  # a directory of saved pages reads the same

    assert (
        load_catalog(stale_catalog).get(A100).usd_per_hour(REGION)
        == price_row(A100, "NC24ads A100 v4", type="Consumption")["retailPrice"]
    )


def test_refresh_adds_a_price_the_catalog_lacked_and_keeps_fractional_gpus(pages_and_skus_applied: Refresh) -> None:
    refreshed = pages_and_skus_applied.after.get(NV6)
    assert refreshed.usd_per_hour(REGION) == price_row(NV6, "NV6ads A10 v5")["retailPrice"]
    assert refreshed.usd_per_hour(REGION, spot=True) is None  # the only Spot row is priced 0: not a price
    assert refreshed.gpus == catalog().get(NV6).gpus  # list-skus says 1 for a 1/6 GPU


def test_refresh_gives_each_fresh_price_its_date_and_source_and_keeps_the_rest_as_they_were(
    pages_applied: Refresh,
) -> None:
    stale = pages_applied.before
    assert stale.get(T4).prices[REGION].observed != dt.date(2026, 12, 1)  # an older source's

    fresh = pages_applied.after
    for price in (fresh.get(T4).price(REGION), fresh.get(T4).price(REGION, spot=True), fresh.get(A100).price(REGION)):
        assert price is not None and (price.observed, price.source) == (dt.date(2026, 12, 1), "retail-prices-api")
    api = fresh.prices.sources["retail-prices-api"]
    assert api.url == "https://prices.azure.com/api/retail/prices"
    assert api.description == "Azure Retail Prices API, pages saved 2026-12-01 (prices-0001.json, prices-0002.json)"
    untouched = [s for s in stale.sizes if s.prices and items_for(s.name) == []]
    assert untouched and all(fresh.get(s.name).prices == s.prices for s in untouched)  # old price, date and source
    other_regions = {r: p for r, p in stale.get(T4).prices.items() if r != REGION}
    assert other_regions and all(fresh.get(T4).prices[r] == p for r, p in other_regions.items())  # pages: one region


def test_refresh_corrects_stale_specs_from_list_skus(stale_catalog: Path) -> None:
    text = stale_catalog.read_text()
    block = text.index(f"- name: {T4}")
    stale_catalog.write_text(
        text[:block] + text[block:].replace("vcpus: 4", "vcpus: 6", 1).replace("memoryGib: 28", "memoryGib: 30", 1)
    )
    assert load_catalog(stale_catalog).get(T4).vcpus == 6
    caps = {c["name"]: c["value"] for c in json.loads(SKUS.read_text())[1]["capabilities"]}

    assert apply(stale_catalog, "--skus", str(SKUS)) == 0

    refreshed = load_catalog(stale_catalog).get(T4)
    assert (refreshed.vcpus, refreshed.memory_gib) == (int(caps["vCPUs"]), float(caps["MemoryGB"]))
    assert refreshed.observed == dt.date(2026, 12, 1)


def test_refresh_keeps_lifecycle_sources_quota_spelling_and_comments(pages_and_skus_applied: Refresh) -> None:
    before, after = pages_and_skus_applied.before, pages_and_skus_applied.after
    comments = [line for line in pages_and_skus_applied.text_before.splitlines() if line.lstrip().startswith("#")]

    assert [(s.name, s.lifecycle, s.source, s.quota_family, s.series) for s in after.sizes] == [
        (s.name, s.lifecycle, s.source, s.quota_family, s.series) for s in before.sizes
    ]
    assert [line for line in pages_and_skus_applied.text_after.splitlines() if line.lstrip().startswith("#")] == (
        comments
    )


def test_refresh_summary_lists_every_change(pages_and_skus_applied: Refresh) -> None:
    old = catalog()

    lines = pages_and_skus_applied.summary
    new_spot = price_row(T4, "NC4as T4 v3 Spot")["retailPrice"]
    old_spot = old.get(T4).prices[REGION].price(REGION, spot=True)
    assert old_spot is not None
    change = f"{old_spot.usd_per_hour} (observed {old_spot.observed_text}) -> {new_spot} (observed 2026-12-01)"
    assert f"{T4}: {REGION} spot {change}" in lines
    nv6 = price_row(NV6, "NV6ads A10 v5")["retailPrice"]
    assert f"{NV6}: {REGION} payg (none) -> {nv6} (observed 2026-12-01)" in lines
    assert (
        "in list-skus, not in the catalog (not added; need a series, lifecycle and source): Standard_D8as_v5" in lines
    )


def test_refresh_dry_run_leaves_the_catalog_alone(stale_catalog: Path) -> None:
    before = stale_catalog.read_text()

    assert apply(stale_catalog, "--prices", *map(str, PAGES), "--dry-run") == 0

    assert stale_catalog.read_text() == before


def test_refresh_refuses_pages_that_stop_before_the_last(
    stale_catalog: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = stale_catalog.read_text()

    assert apply(stale_catalog, "--prices", str(PAGES[0])) == 2

    assert capsys.readouterr().err == (
        f"refresh_catalog: error: {PAGES[0]}: NextPageLink is set, so the saved pages stop before the last one; "
        "fetch them all\n"
    )
    assert stale_catalog.read_text() == before


def test_refresh_refuses_a_file_that_is_not_a_price_page(
    stale_catalog: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert apply(stale_catalog, "--prices", str(SKUS)) == 2
    assert "expected a Retail Prices API page, an object with `Items` and `NextPageLink`" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("option", "content", "problem"),
    [
        ("--prices", b"\xff\xfe{}", "UTF-16 text (it starts with a UTF-16 byte-order mark); allowed: UTF-8 text"),
        (
            "--prices",
            b'{"Items": [], "NextPageLink": null, "n": 1e999999}',
            "n: 1e999999 is not allowed; allowed: finite numbers",
        ),
        ("--prices", b"[" * 100 + b"]" * 100, "nested deeper than 64 levels; allowed: at most 64"),
        ("--skus", b"{not json", "not JSON (line 1, column 2"),
    ],
    ids=["utf-16", "unbounded-number", "deep", "broken"],
)
def test_refresh_refuses_a_hostile_input_file_in_one_line_and_leaves_the_catalog(
    stale_catalog: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, content: bytes, problem: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    before = stale_catalog.read_text()

    assert apply(stale_catalog, option, str(bad)) == 2

    err = capsys.readouterr().err
    assert err.startswith(f"refresh_catalog: error: {bad}: ") and problem in err and err.count("\n") == 1
    assert stale_catalog.read_text() == before


def test_refresh_refuses_an_endless_device_unread(stale_catalog: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert apply(stale_catalog, "--prices", "/dev/zero") == 2

    assert capsys.readouterr().err == (
        "refresh_catalog: error: /dev/zero: is a character device, not a regular file; allowed: a regular file\n"
    )


def test_fetch_refuses_an_answer_that_is_not_a_page(tmp_path: Path) -> None:
    def opener(url: str) -> FakeResponse:
        return FakeResponse(b"[1, 2]")

    with pytest.raises(
        RefreshError, match="expected a Retail Prices API page, an object with `Items` and `NextPageLink`"
    ):
        fetch_price_pages("eastus", tmp_path / "prices", opener)

    assert not list((tmp_path / "prices").glob("*.json"))


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


GB200 = "Standard_ND128isr_NDR_GB200_v6"
GB200_SKUS = (
    DATA / "list-skus-gb200.json"
)  # shaped as the SKU API reports GB200: no GPUs capability (skypilot PR #10650)


@pytest.mark.parametrize("gpus", [None, "0"], ids=["no-GPUs-capability", "GPUs-0"])
def test_refresh_never_blanks_known_gpu_or_infiniband_facts_with_the_sku_apis_blanks(
    stale_catalog: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], gpus: str | None
) -> None:
    record = json.loads(GB200_SKUS.read_text())
    if gpus is not None:
        record[0]["capabilities"].append({"name": "GPUs", "value": gpus})
    skus = tmp_path / "skus.json"
    skus.write_text(json.dumps(record))
    before = load_catalog(stale_catalog).get(GB200)

    assert apply(stale_catalog, "--skus", str(skus)) == 0

    after = load_catalog(stale_catalog).get(GB200)
    assert (after.gpus, after.gpu_memory_gb, after.infiniband_gbps, after.gpu_model) == (4, 768, 1600, before.gpu_model)
    assert (after.cpu_architecture, after.memory_gib) == ("Arm64", 864)  # what the API does report is taken
    assert f"{GB200}: list-skus reports no GPU count; the catalog's 4 GPUs are kept" in capsys.readouterr().out


def test_refresh_takes_trusted_launch_from_the_trusted_launch_disabled_capability(
    stale_catalog: Path, tmp_path: Path
) -> None:
    text = stale_catalog.read_text()
    block = text.index("- name: Standard_ND96asr_v4")
    stale_catalog.write_text(text[:block] + text[block:].replace("trustedLaunch: false", "trustedLaunch: true", 1))
    assert load_catalog(stale_catalog).get("Standard_ND96asr_v4").trusted_launch is True
    records = json.loads(SKUS.read_text())
    for record in records:
        if record["name"] == "Standard_ND96asr_v4":
            record["capabilities"].append({"name": "TrustedLaunchDisabled", "value": "True"})
    skus = tmp_path / "skus.json"
    skus.write_text(json.dumps(records))

    assert apply(stale_catalog, "--skus", str(skus)) == 0

    after = load_catalog(stale_catalog)
    assert after.get("Standard_ND96asr_v4").trusted_launch is False
    assert after.get(A100).trusted_launch is True  # no capability in its record: unchanged


# --- a saved SkyPilot snapshot: every region it lists -------------------------------------------

SNAPSHOT = SKYPILOT_PRICES
SNAPSHOT_SOURCE = "skypilot-v6-098741e"


def snapshot_rows(size: str) -> list[dict[str, str]]:
    with SNAPSHOT.open(encoding="utf-8") as fh:
        return [r for r in csv.DictReader(fh) if r["InstanceType"] == size]


@pytest.fixture(scope="module")
def snapshot_applied(tmp_path_factory: pytest.TempPathFactory) -> Refresh:
    """The saved SkyPilot snapshot applied to the shipped catalog without T4's westus2 price."""
    return refresh(
        tmp_path_factory.mktemp("snapshot"),
        *("--snapshot", str(SNAPSHOT), "--snapshot-source", SNAPSHOT_SOURCE),
        dropped=((T4, "westus2"),),
    )


def test_refresh_from_a_snapshot_of_unknown_date_fills_what_is_missing_and_keeps_every_dated_price(
    snapshot_applied: Refresh,
) -> None:
    dated = {r: p for r, p in snapshot_applied.before.get(T4).prices.items() if p.observed != "unknown"}
    assert dated

    assert snapshot_applied.code == 0

    refreshed = snapshot_applied.after.get(T4)
    row = next(r for r in snapshot_rows(T4) if r["Region"] == "westus2")
    assert refreshed.usd_per_hour("westus2") == float(row["Price"])
    assert refreshed.prices["westus2"].observed == "unknown"  # the snapshot gives no date
    assert {r: refreshed.prices[r] for r in dated} == dated  # never replaced by a price of unknown date
    assert f"{T4} in eastus (observed {dated['eastus'].observed})" in snapshot_applied.out


def test_refresh_from_a_dated_list_price_table_keeps_the_older_spot_price_with_its_own_date(
    stale_catalog: Path, tmp_path: Path
) -> None:
    day, _ = karpenter_prices()
    lines = KARPENTER_PRICES.read_text().replace(f"generated at {day}", "generated at 2026-12-01").splitlines()
    eastus = lines.index('\tinitialOnDemandPrices["eastus"] = map[string]float64{')
    t4 = next(i for i in range(eastus, len(lines)) if f'"{T4}":' in lines[i])
    lines[t4] = f'\t\t"{T4}": 9.500000,'  # a newer table with a new eastus price
    table = tmp_path / "zz_generated.pricing.go"
    table.write_text("\n".join(lines) + "\n")
    before = load_catalog(stale_catalog).get(T4).price("eastus", spot=True)
    assert before is not None

    assert apply(stale_catalog, "--snapshot", str(table), "--snapshot-source", "karpenter-azure-2b431da") == 0

    refreshed = load_catalog(stale_catalog).get(T4)
    payg = refreshed.price("eastus")
    assert payg is not None and (payg.usd_per_hour, payg.observed) == (9.5, dt.date(2026, 12, 1))
    assert refreshed.price("eastus", spot=True) == before  # list prices only: Spot keeps its price, date, source


def test_refresh_leaves_out_a_snapshot_spot_price_equal_to_pay_as_you_go(snapshot_applied: Refresh) -> None:
    h100 = "Standard_ND96isr_H100_v5"
    rows = snapshot_rows(h100)
    assert rows and all(r["SpotPrice"] == r["Price"] for r in rows)  # no Spot meter: the snapshot repeats payg

    assert all(snapshot_applied.after.get(h100).usd_per_hour(r["Region"], spot=True) is None for r in rows)


def test_refresh_refuses_a_snapshot_price_that_is_not_a_number_in_one_line(
    stale_catalog: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "vms.csv"
    bad.write_text("InstanceType,Price,SpotPrice,Region\nStandard_NC4as_T4_v3,cheap,,eastus\n", encoding="utf-8")
    before = stale_catalog.read_text()

    assert apply(stale_catalog, "--snapshot", str(bad), "--snapshot-source", SNAPSHOT_SOURCE) == 2

    assert capsys.readouterr().err == (
        f"refresh_catalog: error: {bad}: line 2: Price 'cheap' is not a number; allowed: USD per hour\n"
    )
    assert stale_catalog.read_text() == before
