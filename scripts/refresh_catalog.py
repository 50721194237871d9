"""Refresh the VM size catalog's prices and capabilities from saved real Azure data.

Fetching and reading are separate steps, so the rewrite is reproducible from files anyone can keep:

    # 1. fetch (needs the network; writes prices-0001.json, prices-0002.json, ... following NextPageLink)
    python scripts/refresh_catalog.py fetch-prices --region eastus --out data/prices
    az vm list-skus --all -o json > data/list-skus.json

    # 2. read the saved files and rewrite components/catalog/vm_sizes.yaml (prints a diff summary)
    python scripts/refresh_catalog.py apply --prices data/prices --skus data/list-skus.json --region eastus

What `apply` reads (observed 2026-11-22: https://learn.microsoft.com/rest/api/cost-management/retail-prices/azure-retail-prices
and Azure/azure-rest-api-specs specification/compute, ResourceSkus examples):
- Azure Retail Prices API pages (`Items`, `NextPageLink`; the last page's link is null). A row
  counts when it is `serviceName: Virtual Machines`, `type: Consumption`, in `--region`, priced per
  `1 Hour` above 0, and Linux: a `productName` ending in ` Windows` or ` Win` is Windows (some H100
  series use the short form), `Cloud Services` is not a VM. Spot rows (`skuName` ending ` Spot`)
  give `spotUsdPerHour`; Low Priority rows (ending ` Low Priority`) are told apart and not used,
  since the catalog keeps one discounted price, the Spot one. DevTest (`DevTestConsumption`) and
  reservation rows are ignored. Where several rows remain, the latest `effectiveStartDate` wins.
- `az vm list-skus --all -o json`: `vCPUs`, `MemoryGB`, `GPUs`, `HyperVGenerations`,
  `AcceleratedNetworkingEnabled` (capability values are strings) and `family` (the quota family,
  kept in the catalog's usage-API spelling when it is the same name up to case and spaces).
  Fractional GPUs stay as the catalog has them: list-skus reports 1 GPU for partitioned sizes
  (https://learn.microsoft.com/azure/virtual-machines/sizes/gpu-accelerated/nvadsa10v5-series). `RdmaEnabled` has no bandwidth, so InfiniBand is only flagged for a person.

What it keeps: lifecycle, replacements, series, GPU model, sources and comments; sizes the catalog
does not know are listed, not added (their series, lifecycle and source need a person). A size
with no price row keeps its old price, and the summary says so. The rewritten file is validated
with the catalog's own model before it replaces the old one.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import json
import re
import sys
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run as a file (`python scripts/refresh_catalog.py`): import the project
    sys.path.insert(0, str(REPO))

from azure_gpu_stacks.components.catalog.model import CatalogFile, normalize_size_name  # noqa: E402

CATALOG_FILE = REPO / "components" / "catalog" / "vm_sizes.yaml"
PRICES_API = "https://prices.azure.com/api/retail/prices"
PRICES_API_VERSION = "2023-01-01-preview"  # filter values are case-sensitive from this version on
PAGE_FILE = "prices-{:04d}.json"
WINDOWS_SUFFIXES = (" Windows", " Win")
SPOT_SUFFIX = " Spot"
LOW_PRIORITY_SUFFIX = " Low Priority"
PLAIN_SCALAR = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_./+-]*")  # written without quotes

# The catalog's keys in the order a size lists them (where a missing key is inserted).
KEY_ORDER = (
    "name", "series", "vcpus", "memoryGib", "gpuModel", "gpus", "gpuMemoryGb", "infinibandGbps",
    "acceleratedNetworking", "hypervGenerations", "quotaFamily", "paygUsdPerHour", "spotUsdPerHour",
    "lifecycle", "ncclAllReduce", "source", "observed",
)  # fmt: skip


class RefreshError(Exception):
    """A saved file that is not what the Azure API or CLI writes; names the file."""


# --- fetching (network) --------------------------------------------------------------------------


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
            page = json.loads(response.read().decode("utf-8"))
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


def _load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RefreshError(f"{path}: cannot read: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise RefreshError(f"{path}: not JSON (line {exc.lineno}: {exc.msg})") from None


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
        page = _load_json(path)
        if not isinstance(page, dict) or not isinstance(page.get("Items"), list):
            raise RefreshError(f"{path}: expected a Retail Prices API page, an object with `Items` and `NextPageLink`")
        items += [i for i in page["Items"] if isinstance(i, dict)]
    last = _load_json(files[-1]) if files else {}
    if last.get("NextPageLink"):
        raise RefreshError(f"{files[-1]}: NextPageLink is set, so the saved pages stop before the last one; fetch them all")
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
    counts = dict.fromkeys(("payg", "spot", "low_priority", "windows", "devtest", "reservation", "other_region", "other"), 0)
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
            entry = sizes.setdefault(normalize_size_name(str(item["armSkuName"])), SizePrices())
            entry.offer(kind, float(price), str(item.get("effectiveStartDate") or ""))
    return PriceRead(sizes, counts)


# --- reading list-skus ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class SkuSpecs:
    name: str
    family: str | None
    capabilities: dict[str, str]


def read_sku_specs(path: Path) -> dict[str, SkuSpecs]:
    data = _load_json(path)
    if not isinstance(data, list):
        raise RefreshError(f"{path}: expected the JSON list that `az vm list-skus --all -o json` writes")
    specs: dict[str, SkuSpecs] = {}
    for i, item in enumerate(data):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise RefreshError(f"{path}: entry [{i}] has no name")
        if item.get("resourceType") != "virtualMachines":
            continue
        caps = {str(c.get("name")): str(c.get("value")) for c in item.get("capabilities") or [] if isinstance(c, dict)}
        key = normalize_size_name(item["name"])
        previous = specs.get(key)  # one entry per region; capabilities are the same in each
        specs[key] = SkuSpecs(item["name"], item.get("family") or (previous.family if previous else None), {**(previous.capabilities if previous else {}), **caps})
    return specs


# --- rewriting the catalog -----------------------------------------------------------------------


def yaml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(round(value, 6))
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(str(v) for v in value) + "]"
    text = str(value)
    return text if PLAIN_SCALAR.fullmatch(text) else json.dumps(text)  # a JSON string is a YAML string


def _family_key(name: str) -> str:
    return name.replace(" ", "").lower()


def spec_updates(size: dict[str, Any], sku: SkuSpecs) -> tuple[dict[str, Any], list[str]]:
    """Catalog keys to change for one size from its list-skus entry, and notes for a person."""
    caps = sku.capabilities
    wanted: dict[str, Any] = {}
    notes: list[str] = []
    if caps.get("vCPUs", "").isdigit():
        wanted["vcpus"] = int(caps["vCPUs"])
    try:
        wanted["memoryGib"] = float(caps["MemoryGB"])
    except (KeyError, ValueError):
        pass
    gpus = caps.get("GPUs")
    if gpus is not None and gpus.isdigit() and not 0 < float(size.get("gpus") or 0) < 1:
        wanted["gpus"] = float(gpus)
    if caps.get("HyperVGenerations"):
        wanted["hypervGenerations"] = [g.strip() for g in caps["HyperVGenerations"].split(",") if g.strip()]
    if caps.get("AcceleratedNetworkingEnabled") in ("True", "False"):
        wanted["acceleratedNetworking"] = caps["AcceleratedNetworkingEnabled"] == "True"
    if sku.family and _family_key(sku.family) != _family_key(str(size.get("quotaFamily") or "")):
        wanted["quotaFamily"] = sku.family
    rdma = caps.get("RdmaEnabled")
    if rdma == "True" and size.get("infinibandGbps") is None:
        notes.append(f"{size['name']}: list-skus says RdmaEnabled but the catalog has no InfiniBand bandwidth; check by hand")
    if rdma == "False" and size.get("infinibandGbps") is not None:
        notes.append(f"{size['name']}: list-skus says RdmaEnabled False but the catalog has InfiniBand; check by hand")
    changes = {k: v for k, v in wanted.items() if _differs(size.get(k), v)}
    return changes, notes


def _differs(old: Any, new: Any) -> bool:
    if isinstance(new, list):
        return list(old or []) != new
    if isinstance(new, float) and isinstance(old, (int, float)) and not isinstance(old, bool):
        return abs(float(old) - new) > 1e-9
    return old != new


class CatalogText:
    """The catalog file as lines, edited in place so that its comments and layout survive."""

    SIZE_LINE = re.compile(r"^  - name: (\S+)")
    KEY_LINE = re.compile(r"^    (\w+):")

    def __init__(self, text: str):
        self.lines = text.splitlines(keepends=True)

    def text(self) -> str:
        return "".join(self.lines)

    def _block(self, size_name: str) -> tuple[int, int]:
        start = next(
            (i for i, line in enumerate(self.lines) if (m := self.SIZE_LINE.match(line)) and normalize_size_name(m[1]) == normalize_size_name(size_name)),
            None,
        )
        if start is None:
            raise KeyError(size_name)
        end = start + 1
        while end < len(self.lines) and not self.SIZE_LINE.match(self.lines[end]) and (
            self.lines[end].startswith("    ") or not self.lines[end].strip()
        ):
            end += 1
        return start, end

    def set(self, size_name: str, key: str, value: Any) -> None:
        start, end = self._block(size_name)
        keys = {m[1]: i for i in range(start + 1, end) if (m := self.KEY_LINE.match(self.lines[i]))}
        line = f"    {key}: {yaml_value(value)}\n"
        if key in keys:
            self.lines[keys[key]] = line  # the old trailing comment described the old value
            return
        before = KEY_ORDER[: KEY_ORDER.index(key)]
        anchor = max((keys[k] for k in before if k in keys), default=start)
        self.lines.insert(anchor + 1, line)

    def set_prices_block(self, **values: Any) -> None:
        start = self.lines.index("prices:\n")
        for i in range(start + 1, len(self.lines)):
            line = self.lines[i]
            if not line.startswith("  "):
                break
            key = line.strip().split(":", 1)[0]
            if key in values:
                self.lines[i] = f"  {key}: {yaml_value(values[key])}\n"


@dataclasses.dataclass
class Refresh:
    text: str
    summary: list[str]


def refresh(
    catalog_text: str,
    prices: PriceRead | None,
    skus: dict[str, SkuSpecs] | None,
    *,
    region: str,
    observed: dt.date,
    prices_source: str,
) -> Refresh:
    """The rewritten catalog and a summary of every change; the catalog's model validates it."""
    data = yaml.safe_load(catalog_text)
    doc = CatalogText(catalog_text)
    summary: list[str] = []
    notes: list[str] = []
    known = {normalize_size_name(s["name"]) for s in data["sizes"]}
    unpriced: list[str] = []
    for size in data["sizes"]:
        name = size["name"]
        key = normalize_size_name(name)
        changes: dict[str, Any] = {}
        if skus is not None and key in skus:
            spec_changes, spec_notes = spec_updates(size, skus[key])
            changes.update(spec_changes)
            notes += spec_notes
        if prices is not None:
            found = prices.sizes.get(key)
            if found is None or (found.payg is None and found.spot is None):
                unpriced.append(name)
            else:
                for field_name, value in (("paygUsdPerHour", found.payg), ("spotUsdPerHour", found.spot)):
                    if value is not None and _differs(size.get(field_name), value):
                        changes[field_name] = value
        for field_name, value in changes.items():
            doc.set(name, field_name, value)
            summary.append(f"{name}: {field_name} {yaml_value(size.get(field_name)) if size.get(field_name) is not None else '(none)'} -> {yaml_value(value)}")
        if any(k not in ("paygUsdPerHour", "spotUsdPerHour") for k in changes):
            doc.set(name, "observed", observed.isoformat())
    if prices is not None:
        doc.set_prices_block(region=region, source=prices_source, observed=observed.isoformat())
        c = prices.counts
        summary.append(
            f"prices: {c['payg']} Linux pay-as-you-go and {c['spot']} Spot rows used; {c['low_priority']} Low Priority rows "
            f"told apart and not used; ignored {c['windows']} Windows, {c['devtest']} DevTest, {c['reservation']} "
            f"reservation, {c['other_region']} other-region and {c['other']} other rows"
        )
        if unpriced:
            summary.append(f"no price row, old price kept: {', '.join(unpriced)}")
    if skus is not None:
        new = sorted(s.name for k, s in skus.items() if k not in known)
        if new:
            summary.append(f"in list-skus, not in the catalog (not added; need a series, lifecycle and source): {', '.join(new)}")
    summary += notes
    text = doc.text()
    CatalogFile.model_validate(yaml.safe_load(text))  # never write a catalog the library cannot read
    return Refresh(text, summary)


# --- command line --------------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="refresh_catalog", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    fetch = sub.add_parser("fetch-prices", help="save the Retail Prices API pages of a region (network)")
    fetch.add_argument("--region", default="eastus")
    fetch.add_argument("--out", type=Path, required=True, help="directory for prices-0001.json, ...")
    apply = sub.add_parser("apply", help="rewrite the catalog from saved files and print what changed")
    apply.add_argument("--prices", type=Path, nargs="+", help="saved price pages, or directories of them")
    apply.add_argument("--skus", type=Path, help="saved `az vm list-skus --all -o json`")
    apply.add_argument("--region", default="eastus", help="region the prices are taken for (default: eastus)")
    apply.add_argument("--catalog", type=Path, default=CATALOG_FILE)
    apply.add_argument("--observed", type=dt.date.fromisoformat, default=None, help="date the data was saved (default: today)")
    apply.add_argument("--summary", type=Path, help="also write the summary to this file")
    apply.add_argument("--dry-run", action="store_true", help="print the summary, leave the catalog as it is")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "fetch-prices":
            for path in fetch_price_pages(args.region, args.out):
                print(path)
            return 0
        if not args.prices and not args.skus:
            raise RefreshError("apply needs --prices PAGES, --skus FILE or both")
        prices = linux_prices(read_price_pages(args.prices), args.region) if args.prices else None
        skus = read_sku_specs(args.skus) if args.skus else None
        source = f"{PRICES_API} (saved pages: {', '.join(p.name for p in price_page_files(args.prices))})" if args.prices else ""
        result = refresh(
            args.catalog.read_text(encoding="utf-8"),
            prices,
            skus,
            region=args.region,
            observed=args.observed or dt.datetime.now(dt.timezone.utc).date(),
            prices_source=source,
        )
    except (RefreshError, OSError) as exc:
        print(f"refresh_catalog: error: {exc}", file=sys.stderr)
        return 2
    except (ValueError, yaml.YAMLError) as exc:  # the rewritten catalog does not validate
        print(f"refresh_catalog: error: the refreshed catalog would not be valid: {exc}", file=sys.stderr)
        return 2
    text = "\n".join(result.summary) if result.summary else "no changes"
    print(text)
    if args.summary:
        args.summary.write_text(text + "\n", encoding="utf-8")
    if not args.dry_run:
        args.catalog.write_text(result.text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
