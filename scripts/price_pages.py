"""Azure prices for the catalog: Retail Prices API pages (fetching them to files, reading the saved
files back) and a saved snapshot of a public catalog built from that API (SkyPilot's `vms.csv`).

What counts (formats as the Retail Prices API documents them, https://learn.microsoft.com/rest/api/cost-management/retail-prices/azure-retail-prices,
observed 2026-11-22): pages of `Items` linked by `NextPageLink` (the last page's link is null). A row
counts when it is `serviceName: Virtual Machines`, `type: Consumption`, in the region, priced per
`1 Hour` above 0, and Linux: a `productName` ending in ` Windows` or ` Win` is Windows (some H100
series use the short form), `Cloud Services` is not a VM. Spot rows (`skuName` ending ` Spot`) give
the Spot price; Low Priority rows (ending ` Low Priority`) are told apart and not used, since the
catalog keeps one discounted price, the Spot one. DevTest (`DevTestConsumption`) and reservation rows
are ignored. Where several rows remain, the latest `effectiveStartDate` wins.

A SkyPilot catalog snapshot (`catalogs/v6/azure/vms.csv` of skypilot-org/skypilot-catalog, columns
`InstanceType,...,Price,SpotPrice,Region,...`; one row per size and region, Linux pay-as-you-go and
Spot USD per hour as SkyPilot's fetcher read them from the same API) gives prices for every region
it lists: an empty price is no price, and a Spot price equal to the pay-as-you-go one is not a Spot
discount (the snapshot writes the pay-as-you-go price where the API had no Spot meter), so it is left
out. The snapshot does not say when it was read: its prices are `observed: unknown`.

Azure/karpenter-provider-azure's generated price table (`pkg/providers/pricing/zz_generated.pricing.go`,
or a saved excerpt of its rows) gives each region's Linux pay-as-you-go prices as read from the same
API on the day its `// generated at` line names; it has no Spot prices (`read_karpenter_pricing`).

andy-diericks/azure-pricing-radar's saved API rows (`scripts/radar_excerpt.py`) give Linux pay-as-you-go, Spot and
the 1-year savings plan of the regions it saves, on the day of its `last-checked.json` stamp; its rows carry no
`armSkuName`, so a row is read under the catalog size its name matches (`read_radar_excerpt`).

Jumbo2020/gpu_prices's saved API rows (`scripts/gpu_prices_excerpt.py`) give Linux pay-as-you-go, Spot and both
reservation terms, on the day its workflow committed them; its rows keep neither `type` nor `reservationTerm`, so
which row is which is read from the prices themselves (`read_untyped_excerpt`).
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
import json
import re
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from azure_gpu_stacks.catalog.model import normalize_size_name
from azure_gpu_stacks.catalog.prices import reservation_usd_per_hour
from azure_gpu_stacks.inputs import files as input_files

PRICES_API = "https://prices.azure.com/api/retail/prices"
PRICES_API_VERSION = "2023-01-01-preview"  # filter values are case-sensitive from this version on
PAGE_FILE = "prices-{:04d}.json"
WINDOWS_SUFFIXES = (" Windows", " Win")
SPOT_SUFFIX = " Spot"
LOW_PRIORITY_SUFFIX = " Low Priority"


class RefreshError(Exception):
    """A saved file that is not what the Azure API or CLI writes; names the file."""


# --- fetching (network) --------------------------------------------------------------------------


# Price rows whose name is not the size's ARM name: the Retail Prices API (and so karpenter-provider-azure's
# table, data/prices/) lists Standard_NG32adms_V620 without the `_v1` that the Resource SKUs API and Learn give
# the size (https://learn.microsoft.com/azure/virtual-machines/sizes/gpu-accelerated/ngadsv620-series; karpenter's
# own SKU list and missing-price list name Standard_NG32adms_V620_v1; observed 2026-11-26), while its three
# siblings' rows carry `_v1`. Read under the catalog's name so the size is priced.
PRICE_ROW_NAMES = {"standard_ng32adms_v620": "standard_ng32adms_v620_v1"}


def price_row_key(name: str) -> str:
    """The catalog key a price row's size name is read under."""
    key = normalize_size_name(name)
    return PRICE_ROW_NAMES.get(key, key)


def prices_url(region: str) -> str:
    query = f"serviceName eq 'Virtual Machines' and priceType eq 'Consumption' and armRegionName eq '{region}'"
    return f"{PRICES_API}?api-version={PRICES_API_VERSION}&$filter={urllib.parse.quote(query)}"


def fetch_price_pages(region: str, out: Path, opener: Callable[[str], Any] = urllib.request.urlopen) -> list[Path]:
    """Save every page of the region's VM prices, following NextPageLink; returns the files."""
    out.mkdir(parents=True, exist_ok=True)
    url: str | None = prices_url(region)
    written: list[Path] = []
    while url:
        with opener(url) as response:
            body = response.read(input_files.MAX_BYTES["prices"] + 1)  # a page is about 100 items
        if len(body) > input_files.MAX_BYTES["prices"]:
            raise RefreshError(
                f"{url}: a page larger than {input_files.MAX_BYTES['prices']:,} bytes; "
                "allowed: a Retail Prices API page"
            )
        try:
            page = input_files.parse_json(input_files.decode(body, url), url)
        except input_files.InputFileError as exc:
            raise RefreshError(str(exc)) from None
        if not isinstance(page, dict):
            raise RefreshError(f"{url}: expected a Retail Prices API page, an object with `Items` and `NextPageLink`")
        path = out / PAGE_FILE.format(len(written) + 1)
        path.write_text(json.dumps(page, indent=1), encoding="utf-8")
        written.append(path)
        url = page.get("NextPageLink")
    return written


# --- reading prices ------------------------------------------------------------------------------


@dataclasses.dataclass
class SizePrices:
    payg: float | None = None
    spot: float | None = None
    low_priority: float | None = None
    savings_plan_1y: float | None = None  # the pay-as-you-go row's 1-year savings-plan price, where the source has it
    reservation_1y: float | None = (
        None  # a 1-year reservation's price for the whole term, one VM, where the source has it
    )
    reservation_3y: float | None = None  # a 3-year reservation's price for the whole term, one VM
    _dates: dict[str, str] = dataclasses.field(default_factory=dict)

    def offer(self, kind: str, price: float, since: str) -> None:
        """Keep the row with the latest effectiveStartDate for each kind."""
        if kind not in self._dates or since >= self._dates[kind]:
            self._dates[kind] = since
            setattr(self, kind, price)


@dataclasses.dataclass
class PriceRead:
    sizes: dict[str, SizePrices]  # normalized size name -> prices
    counts: dict[str, int]  # what was used and ignored, for the summary
    spot_listed: bool = True  # False: the source has list prices only, so a missing Spot price says nothing


def load_json(path: Path, kind: str) -> Any:
    """A saved page or SKU list read as the CLI reads its input files: in chunks up to the kind's
    cap (`input_files.MAX_BYTES`), UTF-8 only, nesting and 64-bit numbers checked; never a
    traceback or runaway memory on a file that is not what Azure writes (`/dev/zero`, a pipe)."""
    try:
        return input_files.load_json(path, kind)
    except input_files.InputFileError as exc:
        raise RefreshError(str(exc)) from None


def price_page_files(paths: Sequence[Path]) -> list[Path]:
    """Page files in order: a directory gives its prices-*.json (or *.json) sorted by name."""
    files: list[Path] = []
    for p in paths:
        if p.is_dir():
            found = sorted(p.glob("prices-*.json")) or sorted(p.glob("*.json"))
            if not found:
                raise RefreshError(f"{p}: no saved price pages (*.json)")
            files += found
        else:
            files.append(p)
    return files


def read_price_pages(paths: Sequence[Path]) -> list[dict[str, Any]]:
    """Every item of the saved pages; refuses a download that stops before the last page."""
    items: list[dict[str, Any]] = []
    files = price_page_files(paths)
    for path in files:
        page = load_json(path, "prices")
        if not isinstance(page, dict) or not isinstance(page.get("Items"), list):
            raise RefreshError(f"{path}: expected a Retail Prices API page, an object with `Items` and `NextPageLink`")
        items += [i for i in page["Items"] if isinstance(i, dict)]
    last = load_json(files[-1], "prices") if files else {}
    if last.get("NextPageLink"):
        raise RefreshError(
            f"{files[-1]}: NextPageLink is set, so the saved pages stop before the last one; fetch them all"
        )
    return items


def _row_kind(item: dict[str, Any]) -> str:
    sku = str(item.get("skuName") or "")
    meter = str(item.get("meterName") or "")
    if sku.endswith(SPOT_SUFFIX) or meter.endswith(SPOT_SUFFIX):
        return "spot"
    if sku.endswith(LOW_PRIORITY_SUFFIX) or meter.endswith(LOW_PRIORITY_SUFFIX):
        return "low_priority"
    return "payg"


def linux_prices(items: Iterable[dict[str, Any]], region: str) -> PriceRead:
    sizes: dict[str, SizePrices] = {}
    counts = dict.fromkeys(
        ("payg", "spot", "low_priority", "windows", "devtest", "reservation", "other_region", "other"), 0
    )
    for item in items:
        product = str(item.get("productName") or "")
        kind_of_price = str(item.get("type") or "")
        price = item.get("retailPrice", item.get("unitPrice"))
        if kind_of_price == "DevTestConsumption":
            counts["devtest"] += 1
        elif kind_of_price == "Reservation":
            counts["reservation"] += 1
        elif str(item.get("armRegionName") or "") != region:
            counts["other_region"] += 1
        elif product.endswith(WINDOWS_SUFFIXES) or " Windows " in product:
            counts["windows"] += 1
        elif (
            kind_of_price != "Consumption"
            or item.get("serviceName") != "Virtual Machines"
            or "Cloud Services" in product
            or item.get("unitOfMeasure") != "1 Hour"
            or not isinstance(price, (int, float))
            or price <= 0
            or not item.get("armSkuName")
        ):
            counts["other"] += 1
        else:
            kind = _row_kind(item)
            counts[kind] += 1
            entry = sizes.setdefault(price_row_key(str(item["armSkuName"])), SizePrices())
            entry.offer(kind, float(price), str(item.get("effectiveStartDate") or ""))
    return PriceRead(sizes, counts)


# --- reading a SkyPilot catalog snapshot ---------------------------------------------------------

SNAPSHOT_COLUMNS = ("InstanceType", "Price", "SpotPrice", "Region")


def _snapshot_price(value: str, path: Path, line: int, column: str) -> float | None:
    if not value.strip():
        return None
    try:
        price = float(value)
    except ValueError:
        raise RefreshError(f"{path}: line {line}: {column} {value!r} is not a number; allowed: USD per hour") from None
    if not 0 < price < float("inf"):
        raise RefreshError(f"{path}: line {line}: {column} {value!r}; allowed: a price above 0")
    return price


def read_snapshot_csv(path: Path, text: str) -> dict[str, PriceRead]:
    """Region -> the Linux prices a SkyPilot `vms.csv` snapshot gives there (see the module docstring)."""
    rows = csv.DictReader(io.StringIO(text))
    missing = [c for c in SNAPSHOT_COLUMNS if c not in (rows.fieldnames or ())]
    if missing:
        raise RefreshError(f"{path}: no column {', '.join(missing)}; allowed: a SkyPilot azure vms.csv")
    regions: dict[str, PriceRead] = {}
    for line, row in enumerate(rows, start=2):
        region = str(row["Region"] or "").strip()
        name = str(row["InstanceType"] or "").strip()
        if not region or not name:
            raise RefreshError(f"{path}: line {line}: a row without InstanceType or Region")
        read = regions.setdefault(region, PriceRead({}, dict.fromkeys(("payg", "spot", "no_price", "spot_at_payg"), 0)))
        payg = _snapshot_price(row["Price"] or "", path, line, "Price")
        spot = _snapshot_price(row["SpotPrice"] or "", path, line, "SpotPrice")
        if payg is None:
            read.counts["no_price"] += 1
            continue
        entry = read.sizes.setdefault(price_row_key(name), SizePrices())
        entry.payg = payg
        read.counts["payg"] += 1
        if spot is not None and spot != payg:
            entry.spot = spot
            read.counts["spot"] += 1
        elif spot is not None:
            read.counts["spot_at_payg"] += 1
    return regions


# --- reading Azure/karpenter-provider-azure's generated price table ------------------------------

KARPENTER_MARK = "initialOnDemandPrices["
KARPENTER_STAMP = re.compile(r"^// generated at (\d{4}-\d{2}-\d{2})T[0-9:]+Z$")
KARPENTER_REGION = re.compile(r'^\s*initialOnDemandPrices\["([a-z0-9]+)"\] = map\[string\]float64\{$')
KARPENTER_ROW = re.compile(r'^\s*"([^"]+)":\s*(\S+),\s*$')
KARPENTER_SKIP = re.compile(r"^\s*(//.*|\}|)$")


@dataclasses.dataclass(frozen=True)
class Snapshot:
    """Prices of every region a saved public catalog lists, and the day they were read ("unknown")."""

    regions: dict[str, PriceRead]
    observed: dt.date | str


def is_karpenter_pricing(text: str) -> bool:
    return KARPENTER_MARK in text


def read_karpenter_pricing(path: Path, text: str) -> Snapshot:
    """Region -> Linux pay-as-you-go prices of karpenter-provider-azure's `zz_generated.pricing.go`
    (or the saved excerpt of its rows), observed on the day its `// generated at` line gives.

    Its generator (hack/code/prices_gen/main.go) reads the Retail Prices API for each region
    (`priceType`, `currencyCode` USD, `serviceFamily` Compute, `serviceName` Virtual Machines), drops
    rows whose `productName` ends in " Windows" and Low Priority meters, and writes the pay-as-you-go
    price of each `armSkuName` (Spot prices are read but not written): list prices only, so a size's
    Spot price is not in it."""
    observed: dt.date | None = None
    region: str | None = None
    regions: dict[str, PriceRead] = {}
    body = False
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not body:
            if stamp := KARPENTER_STAMP.match(line):
                observed = dt.date.fromisoformat(stamp[1])
            body = line.startswith("func init() {")
            continue
        if m := KARPENTER_REGION.match(line):
            region = m[1]
            regions[region] = PriceRead({}, dict.fromkeys(("payg",), 0), spot_listed=False)
        elif m := KARPENTER_ROW.match(line):
            if region is None:
                raise RefreshError(f"{path}: line {line_no}: a price before any region's map")
            price = _snapshot_price(m[2], path, line_no, m[1])
            if price is not None:
                regions[region].sizes.setdefault(price_row_key(m[1].strip()), SizePrices()).payg = price
                regions[region].counts["payg"] += 1
        elif not KARPENTER_SKIP.match(line):
            raise RefreshError(
                f"{path}: line {line_no}: {line.strip()[:60]!r}; allowed: karpenter-provider-azure's "
                "zz_generated.pricing.go rows"
            )
    if observed is None:
        raise RefreshError(f"{path}: no `// generated at YYYY-MM-DDTHH:MM:SSZ` line; allowed: zz_generated.pricing.go")
    return Snapshot(regions, observed)


# --- reading andy-diericks/azure-pricing-radar's saved API rows ------------------------------------

RADAR_KEYS = ("origin", "commit", "lastChecked", "scopes")
RADAR_KINDS = ("payg", "spot", "spot_at_payg", "low_priority", "windows", "not_hourly", "unknown_name", "ambiguous")


def compact_size_name(name: str) -> str:
    """A size name without `Standard_`, case, spaces and underscores: how a meter-style `skuName` (`NC16asT4 v3`,
    `ND96isr H100 v5`) and the size's ARM name (`Standard_NC16as_T4_v3`) are matched, character for character."""
    return re.sub(r"[\s_]", "", name.strip().lower().removeprefix("standard_"))


def is_radar_excerpt(data: Any) -> bool:
    return isinstance(data, dict) and all(k in data for k in RADAR_KEYS)


def read_radar_excerpt(path: Path, data: dict[str, Any], names: Iterable[str]) -> Snapshot:
    """Region -> Linux pay-as-you-go, Spot and 1-year savings-plan prices of the Retail Prices API rows that
    andy-diericks/azure-pricing-radar saved (`scripts/radar_excerpt.py`), observed on the day of its
    `last-checked.json` stamp.

    Its rows carry no `armSkuName`: a row is read under the size of `names` (the catalog's) whose name equals its
    `skuName` (without ` Spot` or ` Low Priority`) up to `Standard_`, case, spaces and underscores; a name that
    fits no size, or two, is counted and not used, and so are two Linux rows of one kind with different prices.
    Windows rows are told apart by `productName` as for API pages; every row is `type: Consumption`. A Spot row at
    the pay-as-you-go price is left out, as in a SkyPilot snapshot."""
    stamp = data["lastChecked"].get("at") if isinstance(data["lastChecked"], dict) else None
    try:
        observed = dt.date.fromisoformat(str(stamp)[:10])
    except ValueError:
        raise RefreshError(f"{path}: lastChecked.at {stamp!r}; allowed: the ISO time last-checked.json gives") from None
    by_compact: dict[str, list[str]] = {}
    for name in names:
        by_compact.setdefault(compact_size_name(name), []).append(price_row_key(name))
    regions: dict[str, PriceRead] = {}
    seen: dict[tuple[str, str, str], set[float]] = {}
    for scope, rows in sorted(data["scopes"].items()):
        if not isinstance(rows, dict):
            raise RefreshError(f"{path}: scopes.{scope} is not an object of price rows")
        for key, row in rows.items():
            region = str(row.get("armRegionName") or "") if isinstance(row, dict) else ""
            if not region or key.split("|")[2:3] != ["Consumption"]:
                raise RefreshError(f"{path}: scopes.{scope}.{key}: not a Consumption row with armRegionName")
            read = regions.setdefault(region, PriceRead({}, dict.fromkeys(RADAR_KINDS, 0)))
            product = str(row.get("productName") or "")
            price = row.get("retailPrice")
            sku = str(row.get("skuName") or "")
            kind = _row_kind(row)
            base = sku.removesuffix(SPOT_SUFFIX).removesuffix(LOW_PRIORITY_SUFFIX)
            matches = by_compact.get(compact_size_name(base), [])
            if product.endswith(WINDOWS_SUFFIXES) or " Windows " in product:
                read.counts["windows"] += 1
            elif row.get("unitOfMeasure") != "1 Hour" or not isinstance(price, (int, float)) or price <= 0:
                read.counts["not_hourly"] += 1
            elif kind == "low_priority":
                read.counts["low_priority"] += 1
            elif len(matches) != 1:
                read.counts["unknown_name" if not matches else "ambiguous"] += 1
            else:
                read.counts[kind] += 1
                entry = read.sizes.setdefault(matches[0], SizePrices())
                setattr(entry, kind, float(price))
                seen.setdefault((region, matches[0], kind), set()).add(float(price))
                plan = row.get("savingsPlanPrice")
                if kind == "payg" and isinstance(plan, (int, float)) and 0 < plan < price:
                    entry.savings_plan_1y = float(plan)
    for (region, size, kind), prices in seen.items():
        if len(prices) > 1:  # two meters of one size disagree: neither is the size's price
            setattr(regions[region].sizes[size], kind, None)
            if kind == "payg":
                regions[region].sizes[size].savings_plan_1y = None
            regions[region].counts["ambiguous"] += 1
    for read in regions.values():
        for entry in read.sizes.values():
            if entry.spot is not None and entry.payg is not None and entry.spot >= entry.payg:
                entry.spot = None  # as in a SkyPilot snapshot: a Spot row at the list price is no Spot discount
                read.counts["spot"] -= 1
                read.counts["spot_at_payg"] += 1
    return Snapshot(regions, observed)


# --- reading Jumbo2020/gpu_prices's saved API rows, which keep no `type` ------------------------------

UNTYPED_KEYS = ("origin", "commit", "committed", "rows")
UNTYPED_KINDS = (
    "payg", "spot", "reservation_used", "spot_at_payg", "low_priority", "windows", "other", "unknown_name", "ambiguous",
)  # fmt: skip


# A size whose price rows carry other meter names than its ARM name, read from untyped rows only where every one of
# the meters is there with the same prices. Standard_ND96asr_v4: karpenter-provider-azure's table (keyed by
# `armSkuName`, data/prices/) prices Standard_ND96asr_v4 and Standard_ND96asr_A100_v4 alike in every region it lists
# both (eastus, westus2, southcentralus, westeurope, italynorth), and the API's rows there name two meters,
# `ND96asr_A100_v4` and `ND96asrA100v4_NU`, whose Linux rows (pay-as-you-go, Spot, both reservations) are the same
# prices in every region Jumbo2020/gpu_prices saved them (eastus, westus2, westeurope): whichever meter is the size's,
# its prices are those. A region with one meter only (karpenter's westus3 lists Standard_ND96asr_A100_v4 alone), or
# where they differ, gives the size nothing.
SHARED_METERS = {"standard_nd96asr_v4": ("nd96asra100v4", "nd96asra100v4nu")}


def is_untyped_excerpt(data: Any) -> bool:
    return isinstance(data, dict) and all(k in data for k in UNTYPED_KEYS)


def _untyped_base_prices(values: set[float]) -> SizePrices | None:
    """A size's Linux rows without a suffix, told apart by their prices: one price is pay-as-you-go; three are
    pay-as-you-go (the lowest) and the whole-term prices of the 1-year (the middle) and 3-year (the highest)
    reservations, kept only when each term costs less an hour than the shorter one (a longer term is never dearer an
    hour, and a term's price is far above an hour's). Any other shape says nothing certain: None."""
    ordered = sorted(values)
    if len(ordered) == 1:
        return SizePrices(payg=ordered[0])
    if len(ordered) != 3:
        return None
    payg, one_year, three_years = ordered
    hourly_1y, hourly_3y = (
        reservation_usd_per_hour(one_year, "1 Year"),
        reservation_usd_per_hour(three_years, "3 Years"),
    )
    if not hourly_3y < hourly_1y < payg:
        return None
    return SizePrices(payg=payg, reservation_1y=one_year, reservation_3y=three_years)


def read_untyped_excerpt(path: Path, data: dict[str, Any], names: Iterable[str]) -> Snapshot:
    """Region -> Linux pay-as-you-go, Spot and reservation prices of the Retail Prices API rows Jumbo2020/gpu_prices's
    workflow saved (`scripts/gpu_prices_excerpt.py`), observed on the day it committed them (`committed`).

    Its rows keep `region`, `skuName`, `productName` and `pricePerHour` only (the API's `retailPrice`), not `type` or
    `reservationTerm`. Names are matched to `names` (the catalog's sizes) as azure-pricing-radar's are; Windows, Cloud
    Services and Low Priority rows are told apart as for API pages. A Linux `... Spot` row is the Spot price (one
    price per size, else ambiguous). The Linux rows without a suffix hold the pay-as-you-go price and, where the size
    has them, the two reservations' whole-term prices (no DevTest row is Linux: DevTest rates are listed under Windows
    products); which is which is read from the prices (`_untyped_base_prices`), and a size whose rows fit no shape is
    counted as ambiguous and not used."""
    try:
        observed = dt.date.fromisoformat(str(data["committed"])[:10])
    except ValueError:
        raise RefreshError(f"{path}: committed {data['committed']!r}; allowed: the commit's ISO time") from None
    if not isinstance(data["rows"], list):
        raise RefreshError(f"{path}: rows is not a list of price rows")
    by_compact: dict[str, list[str]] = {}
    for name in names:
        by_compact.setdefault(compact_size_name(name), []).append(price_row_key(name))
    sizes = {key for keys in by_compact.values() for key in keys}
    shared = {meter: size for size, meters in SHARED_METERS.items() if size in sizes for meter in meters}
    regions: dict[str, PriceRead] = {}
    seen: dict[tuple[str, str, str], set[float]] = {}
    seen_shared: dict[tuple[str, str, str], dict[str, set[float]]] = {}
    for at, row in enumerate(data["rows"]):
        region = str(row.get("region") or "") if isinstance(row, dict) else ""
        price = row.get("pricePerHour") if isinstance(row, dict) else None
        if not region or not isinstance(price, (int, float)) or price <= 0 or row.get("currency") != "USD":
            raise RefreshError(f"{path}: rows[{at}]: not a USD price row with region and pricePerHour")
        read = regions.setdefault(region, PriceRead({}, dict.fromkeys(UNTYPED_KINDS, 0)))
        product, sku = str(row.get("productName") or ""), str(row.get("skuName") or "")
        kind = _row_kind(row)
        meter = compact_size_name(sku.removesuffix(SPOT_SUFFIX).removesuffix(LOW_PRIORITY_SUFFIX))
        matches = by_compact.get(meter, [])
        if product.endswith(WINDOWS_SUFFIXES) or " Windows " in product:
            read.counts["windows"] += 1
        elif "Cloud Services" in product:  # not a VM (eastus Standard_D2as_v5: "Dasv5 Series Cloud Services" 0.178)
            read.counts["other"] += 1
        elif kind == "low_priority":
            read.counts["low_priority"] += 1
        elif meter in shared:
            seen_shared.setdefault((region, shared[meter], kind), {}).setdefault(meter, set()).add(float(price))
        elif len(matches) != 1:
            read.counts["unknown_name" if not matches else "ambiguous"] += 1
        else:
            seen.setdefault((region, matches[0], kind), set()).add(float(price))
    for (region, size, kind), by_meter in seen_shared.items():
        first = next(iter(by_meter.values()))
        if sorted(by_meter) == sorted(SHARED_METERS[size]) and all(v == first for v in by_meter.values()):
            seen[(region, size, kind)] = set(first)
        else:
            regions[region].counts["ambiguous"] += sum(len(v) for v in by_meter.values())
    for (region, size, kind), values in sorted(seen.items()):  # "payg" before "spot" for each size
        read = regions[region]
        base = _untyped_base_prices(values) if kind == "payg" else None
        if base is not None:
            read.sizes[size] = base
            read.counts["payg"] += 1
            read.counts["reservation_used"] += 2 if base.reservation_1y is not None else 0
        elif kind == "spot" and len(values) == 1 and size in read.sizes:
            spot = min(values)
            if spot < (read.sizes[size].payg or 0):
                read.sizes[size].spot = spot
                read.counts["spot"] += 1
            else:  # as in a SkyPilot snapshot: a Spot row at the list price is no Spot discount
                read.counts["spot_at_payg"] += 1
        else:  # rows that fit no shape, or a Spot price without the size's pay-as-you-go price to be a discount on
            read.counts["ambiguous"] += len(values)
    return Snapshot(regions, observed)


def read_snapshot(path: Path, names: Iterable[str] = ()) -> Snapshot:
    """A saved public catalog built from the Retail Prices API: karpenter-provider-azure's generated
    price table (dated by its own stamp), azure-pricing-radar's or Jumbo2020/gpu_prices's saved rows (dated by their
    stamp or commit; their names are read against `names`, the catalog's sizes) or a SkyPilot `vms.csv` (date
    unknown)."""
    try:
        text = input_files.read_text(path, "prices")
    except input_files.InputFileError as exc:
        raise RefreshError(str(exc)) from None
    if is_karpenter_pricing(text):
        return read_karpenter_pricing(path, text)
    if text.lstrip().startswith("{"):
        try:
            data = input_files.parse_json(text, str(path))
        except input_files.InputFileError as exc:
            raise RefreshError(str(exc)) from None
        if is_untyped_excerpt(data):
            return read_untyped_excerpt(path, data, names)
        if not is_radar_excerpt(data):
            raise RefreshError(
                f"{path}: a JSON file without {', '.join(RADAR_KEYS)}; allowed: scripts/radar_excerpt.py or "
                "scripts/gpu_prices_excerpt.py"
            )
        return read_radar_excerpt(path, data, names)
    return Snapshot(read_snapshot_csv(path, text), "unknown")
