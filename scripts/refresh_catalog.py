"""Refresh the VM size catalog's prices and capabilities from saved real Azure data.

Fetching and reading are separate steps, so the rewrite is reproducible from files anyone can keep:

    # 1. fetch (needs the network; writes prices-0001.json, prices-0002.json, ... following NextPageLink)
    python scripts/refresh_catalog.py fetch-prices --region eastus --out data/prices
    az vm list-skus --all -o json > data/list-skus.json

    # 2. read the saved files and rewrite catalog/vm_sizes.yaml (prints a diff summary)
    python scripts/refresh_catalog.py apply --prices data/prices --skus data/list-skus.json --region eastus

What `apply` reads:
- Retail Prices API pages saved by `fetch-prices` (which rows count: `scripts/price_pages.py`). Every
  price found is rewritten with its own `observed` day (`--observed`, default today in UTC) and the
  source `retail-prices-api`; a size with no price row keeps its old price, date and source, and the
  summary names it.
- `az vm list-skus --all -o json` (https://learn.microsoft.com/cli/azure/vm#az-vm-list-skus, observed
  2026-11-22): `vCPUs`, `MemoryGB`, `GPUs`, `HyperVGenerations`, `AcceleratedNetworkingEnabled`,
  `TrustedLaunchDisabled` (capability values are strings; "True" means no Trusted Launch, an absent
  capability changes nothing), `EncryptionAtHostSupported` (written as `encryptionAtHost` with this command's page
  as its source and the `--observed` day, only where the value changes) and `family` (the quota family, kept in the
  catalog's usage-API spelling when it is the same name up to case and spaces).

- `--snapshot`: a saved public price table built from the same API (SkyPilot's `vms.csv`, karpenter-provider-azure's
  `zz_generated.pricing.go`, azure-pricing-radar's rows saved by `scripts/radar_excerpt.py`, which also carry the
  1-year savings plan, written as `savingsPlan1Year`, or Jumbo2020/gpu_prices's rows saved by
  `scripts/gpu_prices_excerpt.py`, which also carry both reservations' whole-term prices, written as
  `reservation1Year` and `reservation3Year`), each with its own date (`scripts/price_pages.py`). A file older than a
  region's prices still adds what they lack: its Spot price where theirs is older still, its reservations where they
  have none or older ones, each with its own `spotObserved`/`spotSource` or `reservationObserved`/`reservationSource`.

What it never does: blank a known fact. The SKU API reports no GPU count for some new sizes (ND
GB200/GB300 v6, the non-InfiniBand MI300X: skypilot-org/skypilot PR #10650) and whole GPUs for
partitioned ones (skypilot-org/skypilot #3708): a known GPU count is kept and the summary says so;
GPU memory and InfiniBand bandwidth are not in the SKU API and are never written (`RdmaEnabled` only
flags a disagreement for a person). It keeps lifecycle, replacements, series, GPU model, sources and
comments; sizes the catalog does not know are listed, not added. The rewritten file is validated
with the catalog's own model before it replaces the old one.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import json
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run as a file (`python scripts/refresh_catalog.py`): import the project
    sys.path.insert(0, str(REPO))

from azure_gpu_stacks.catalog.clock import utc_today  # noqa: E402
from azure_gpu_stacks.catalog.model import SAFE_LOADER, CatalogFile, normalize_size_name  # noqa: E402
from azure_gpu_stacks.catalog.prices import reservation_usd_per_hour  # noqa: E402

from scripts.price_pages import (  # noqa: E402
    PRICES_API,
    PriceRead,
    RefreshError,
    fetch_price_pages,
    linux_prices,
    load_json,
    price_page_files,
    prices_url,
    read_price_pages,
    read_snapshot,
)

__all__ = ["fetch_price_pages", "main", "prices_url", "refresh"]

CATALOG_FILE = REPO / "catalog" / "vm_sizes.yaml"
API_SOURCE = "retail-prices-api"
DEFAULTS = {"cpuArchitecture": "x64"}  # what a size without the key has (the catalog model's defaults)
# What each count of a price read says in the summary.
COUNT_LABELS = {
    "payg": "Linux pay-as-you-go rows used",
    "spot": "Spot rows used",
    "low_priority": "Low Priority rows told apart and not used",
    "spot_at_payg": "Spot prices equal to pay-as-you-go left out",
    "no_price": "rows without a price",
    "windows": "Windows rows ignored",
    "devtest": "DevTest rows ignored",
    "reservation": "reservation rows ignored",
    "other_region": "other-region rows ignored",
    "other": "other rows ignored",
    "not_hourly": "rows not priced per hour ignored",
    "unknown_name": "rows whose name is no catalog size ignored",
    "ambiguous": "rows whose name fits two sizes, or disagrees with another row of its size, ignored",
    "reservation_used": "reservation rows used (whole-term prices, 1-year and 3-year)",
}
# The Windows licence Azure adds to a VM's Linux rate, USD per vCPU an hour: the Retail Prices API's eastus
# Standard_D2as_v5 rows, Linux 0.086 and Windows 0.178 (2 vCPUs), as saved in data/prices/ (observed 2026-11-25).
# A table without an OS column (karpenter's) lets a Windows row through; one that is a known Linux price of
# another source plus this licence for the size's vCPUs is rejected, never written as the Linux price.
WINDOWS_LICENCE_USD_PER_VCPU_HOUR = 0.046
BLOCK_KEYS = ("prices",)  # written as a block, one `region: {...}` line each
PLAIN_SCALAR = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_./+-]*")  # written without quotes

# The catalog's keys in the order a size lists them (where a missing key is inserted).
KEY_ORDER = (
    "name", "series", "vcpus", "memoryGib", "gpuModel", "gpus", "gpuMemoryGb", "infinibandGbps",
    "acceleratedNetworking", "hypervGenerations", "trustedLaunch", "encryptionAtHost", "quotaFamily",
    "cpuArchitecture", "prices",
    "lifecycle", "ncclAllReduce", "source", "observed", "uncertain",
)  # fmt: skip


# --- reading list-skus ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class SkuSpecs:
    name: str
    family: str | None
    capabilities: dict[str, str]


def read_sku_specs(path: Path) -> dict[str, SkuSpecs]:
    data = load_json(path, "skus")
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
        specs[key] = SkuSpecs(
            item["name"],
            item.get("family") or (previous.family if previous else None),
            {**(previous.capabilities if previous else {}), **caps},
        )
    return specs


# --- rewriting the catalog -----------------------------------------------------------------------


def yaml_value(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {yaml_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)  # as read: a price keeps every digit
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(str(v) for v in value) + "]"
    text = str(value)
    return text if PLAIN_SCALAR.fullmatch(text) else json.dumps(text)  # a JSON string is a YAML string


def _family_key(name: str) -> str:
    return name.replace(" ", "").lower()


LIST_SKUS_DOC = "https://learn.microsoft.com/cli/azure/vm#az-vm-list-skus"  # the Resource SKUs API's CLI


def encryption_at_host_update(size: dict[str, Any], sku: SkuSpecs, observed: dt.date) -> dict[str, Any] | None:
    """The size's new `encryptionAtHost` fact from the capability `EncryptionAtHostSupported`; None when the capability
    is absent or says what the catalog already records (its source and day are then kept)."""
    value = sku.capabilities.get("EncryptionAtHostSupported")
    if value not in ("True", "False"):
        return None
    supported = value == "True"
    if (size.get("encryptionAtHost") or {}).get("supported") is supported:
        return None
    return {"supported": supported, "source": LIST_SKUS_DOC, "observed": observed.isoformat()}


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
    gpus, known = caps.get("GPUs"), float(size.get("gpus") or 0)
    if gpus is not None and gpus.isdigit() and int(gpus) > 0 and not 0 < known < 1:
        wanted["gpus"] = float(gpus)
    elif known and not (gpus or "").strip("0"):  # absent, empty or 0: the API's blank, not a fact
        notes.append(f"{size['name']}: list-skus reports no GPU count; the catalog's {known:g} GPUs are kept")
    if caps.get("HyperVGenerations"):
        wanted["hypervGenerations"] = [g.strip() for g in caps["HyperVGenerations"].split(",") if g.strip()]
    if caps.get("CpuArchitectureType") in ("x64", "Arm64"):
        wanted["cpuArchitecture"] = caps["CpuArchitectureType"]
    if caps.get("AcceleratedNetworkingEnabled") in ("True", "False"):
        wanted["acceleratedNetworking"] = caps["AcceleratedNetworkingEnabled"] == "True"
    if caps.get("TrustedLaunchDisabled") in ("True", "False"):
        wanted["trustedLaunch"] = caps["TrustedLaunchDisabled"] == "False"
    if sku.family and _family_key(sku.family) != _family_key(str(size.get("quotaFamily") or "")):
        wanted["quotaFamily"] = sku.family
    rdma = caps.get("RdmaEnabled")
    if rdma == "True" and size.get("infinibandGbps") is None:
        notes.append(
            f"{size['name']}: list-skus says RdmaEnabled but the catalog has no InfiniBand bandwidth; check by hand"
        )
    if rdma == "False" and size.get("infinibandGbps") is not None:
        notes.append(f"{size['name']}: list-skus says RdmaEnabled False but the catalog has InfiniBand; check by hand")
    changes = {k: v for k, v in wanted.items() if _differs(size.get(k, DEFAULTS.get(k)), v)}
    return changes, notes


def _shown(value: Any, price_kind: str | None = None) -> str:
    if price_kind is not None:  # one region's prices: the old price of that kind and its date
        old = value.get(price_kind) if isinstance(value, dict) else None
        when = value.get("spotObserved", value.get("observed")) if price_kind == "spot" else value.get("observed")
        return "(none)" if old is None else f"{yaml_value(old)} (observed {when})"
    return "(none)" if value is None else yaml_value(value)


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
            (
                i
                for i, line in enumerate(self.lines)
                if (m := self.SIZE_LINE.match(line)) and normalize_size_name(m[1]) == normalize_size_name(size_name)
            ),
            None,
        )
        if start is None:
            raise KeyError(size_name)
        end = start + 1
        while (
            end < len(self.lines)
            and not self.SIZE_LINE.match(self.lines[end])
            and (self.lines[end].startswith("    ") or not self.lines[end].strip())
        ):
            end += 1
        return start, end

    def set(self, size_name: str, key: str, value: Any) -> None:
        start, end = self._block(size_name)
        keys = {m[1]: i for i in range(start + 1, end) if (m := self.KEY_LINE.match(self.lines[i]))}
        if key in BLOCK_KEYS:  # a mapping of mappings: one line per entry under the key
            lines = [f"    {key}:\n"] + [f"      {k}: {yaml_value(v)}\n" for k, v in value.items()]
        else:
            lines = [f"    {key}: {yaml_value(value)}\n"]
        if key in keys:
            at = keys[key]
            stop = at + 1
            while stop < end and self.lines[stop].startswith("      "):
                stop += 1
            self.lines[at:stop] = lines  # the old trailing comment described the old value
            return
        before = KEY_ORDER[: KEY_ORDER.index(key)]
        anchor = max((keys[k] for k in before if k in keys), default=start)
        while anchor + 1 < end and self.lines[anchor + 1].startswith("      "):
            anchor += 1  # after the entries of a block key
        self.lines[anchor + 1 : anchor + 1] = lines

    def set_price_source(self, source_key: str, url: str, description: str) -> None:
        """The price source `source_key` added or replaced under `prices.sources:`."""
        start = self.lines.index("prices:\n")
        end = next(i for i in range(start + 1, len(self.lines)) if not self.lines[i].startswith("  "))
        block = self.lines[start:end]
        entry = [
            f"    {source_key}:\n",
            f"      url: {yaml_value(url)}\n",
            f"      description: {yaml_value(description)}\n",
        ]
        at = block.index(f"    {source_key}:\n") if f"    {source_key}:\n" in block else None
        if at is None:
            block[block.index("  sources:\n") + 1 : block.index("  sources:\n") + 1] = entry
        else:
            block[at : at + 3] = entry
        self.lines[start:end] = block


def _windows_rate(payg: float | None, old: Mapping[str, Any], vcpus: Any, source: str) -> bool:
    """Whether `payg` is the Windows rate of the size: another source's Linux price `old` plus the licence."""
    linux = old.get("payg")
    if payg is None or not isinstance(linux, (int, float)) or not isinstance(vcpus, int) or old.get("source") == source:
        return False
    return abs(payg - linux - vcpus * WINDOWS_LICENCE_USD_PER_VCPU_HOUR) < 0.0005


def _age(observed: Any) -> dt.date:
    """A price's observed day for comparing ages; an unknown date is older than any known one."""
    return dt.date.fromisoformat(str(observed)) if observed not in (None, "unknown") else dt.date.min


def _kept_spot(old: Mapping[str, Any], payg: float | None) -> dict[str, Any]:
    """The old Spot price with its own date and source, for a source with list prices only; none
    when there was none or it is no discount on the new pay-as-you-go price."""
    spot = old.get("spot")
    if spot is None or (payg is not None and spot >= payg):
        return {}
    return {
        "spot": spot,
        "spotObserved": old.get("spotObserved", old.get("observed")),
        "spotSource": old.get("spotSource", old.get("source")),
    }


RESERVATION_KEYS = ("reservation1Year", "reservation3Year")
RESERVATION_TERMS = {"reservation1Year": "1 Year", "reservation3Year": "3 Years"}


def _cheaper_than(payg: Any, key: str, term_usd: float) -> bool:
    """Whether a reservation's whole-term price is a discount on the pay-as-you-go rate (the catalog's rule)."""
    return not isinstance(payg, (int, float)) or reservation_usd_per_hour(term_usd, RESERVATION_TERMS[key]) < payg


def _kept_reservations(old: Mapping[str, Any], payg: float | None) -> dict[str, Any]:
    """The old reservations with their own date and source, for a source without reservation rows; none when there
    were none or one is no discount on the new pay-as-you-go price."""
    kept = {k: old[k] for k in RESERVATION_KEYS if old.get(k) is not None}
    if not kept or not all(_cheaper_than(payg, k, v) for k, v in kept.items()):
        return {}
    return {
        **kept,
        "reservationObserved": old.get("reservationObserved", old.get("observed")),
        "reservationSource": old.get("reservationSource", old.get("source")),
    }


def _what_an_older_file_adds(old: Mapping[str, Any], found: Any, price_date: str, price_source: str) -> dict[str, Any]:
    """What an older source still adds to a region's newer prices: its Spot price where the entry's Spot price is
    older still (or of unknown date), and its reservations where the entry has none or older ones; each with its own
    date and source, and only where it is a discount on the entry's pay-as-you-go price. A Spot price is never added
    where the entry has none: a newer source that lists Spot may have found none (a Spot row at the list price)."""
    added: dict[str, Any] = {}
    payg = old.get("payg")
    if found.spot is not None and old.get("spot") is not None and isinstance(payg, (int, float)) and found.spot < payg:
        if _age(price_date) > _age(old.get("spotObserved", old.get("observed"))):
            added |= {"spot": found.spot, "spotObserved": price_date, "spotSource": price_source}
    terms = {"reservation1Year": found.reservation_1y, "reservation3Year": found.reservation_3y}
    terms = {k: v for k, v in terms.items() if v is not None and _cheaper_than(payg, k, v)}
    has_terms = any(old.get(k) is not None for k in RESERVATION_KEYS)
    terms_day = old.get("reservationObserved", old.get("observed"))
    if terms and (not has_terms or _age(price_date) > _age(terms_day)):
        added |= {**terms, "reservationObserved": price_date, "reservationSource": price_source}
    return added


@dataclasses.dataclass
class Refresh:
    text: str
    summary: list[str]


def refresh(
    catalog_text: str,
    prices: Mapping[str, PriceRead] | None,
    skus: dict[str, SkuSpecs] | None,
    *,
    observed: dt.date,
    pages: Sequence[str] = (),
    price_source: str = API_SOURCE,
    prices_observed: str | None = None,
) -> Refresh:
    """The rewritten catalog and a summary of every change; the catalog's model validates it.

    `prices` maps each region to the prices read for it: every price found is written for its
    region with `prices_observed` (default `observed`) and `price_source`; a region without a row
    for a size keeps what the catalog had there."""
    data = yaml.load(catalog_text, Loader=SAFE_LOADER)
    doc = CatalogText(catalog_text)
    summary: list[str] = []
    notes: list[str] = []
    known = {normalize_size_name(s["name"]) for s in data["sizes"]}
    unpriced: list[str] = []
    kept_newer: list[str] = []
    windows_rows: list[str] = []
    price_date = prices_observed or observed.isoformat()
    for size in data["sizes"]:
        name = size["name"]
        key = normalize_size_name(name)
        changes: dict[str, Any] = {}
        if skus is not None and key in skus:
            spec_changes, spec_notes = spec_updates(size, skus[key])
            changes.update(spec_changes)
            if (fact := encryption_at_host_update(size, skus[key], observed)) is not None:
                changes["encryptionAtHost"] = fact
            notes += spec_notes
        if prices is not None:
            old_prices: dict[str, dict[str, Any]] = dict(size.get("prices") or {})
            new_prices = dict(old_prices)
            for region, read in prices.items():
                found = read.sizes.get(key)
                if found is None or (found.payg is None and found.spot is None):
                    continue
                old = old_prices.get(region) or {}
                if _windows_rate(found.payg, old, size.get("vcpus"), price_source):
                    windows_rows.append(f"{name} in {region} ({yaml_value(found.payg)}; Linux {old['payg']})")
                    continue
                if old and _age(price_date) < _age(old.get("observed")):
                    added = _what_an_older_file_adds(old, found, price_date, price_source)
                    if not added:
                        kept_newer.append(f"{name} in {region} (observed {old.get('observed')})")
                        continue
                    new_prices[region] = {**old, **added}
                    for kind, value in added.items():
                        if kind in ("spot", *RESERVATION_KEYS):
                            change = f"{_shown(old, kind)} -> {yaml_value(value)} (observed {price_date})"
                            summary.append(f"{name}: {region} {kind} {change}")
                    continue
                read_prices = (
                    ("payg", found.payg),
                    ("spot", found.spot),
                    ("savingsPlan1Year", found.savings_plan_1y),
                    ("reservation1Year", found.reservation_1y),
                    ("reservation3Year", found.reservation_3y),
                )
                entry = {k: v for k, v in read_prices if v is not None}
                new_prices[region] = {**entry, "observed": price_date, "source": price_source}
                if not read.spot_listed:
                    new_prices[region].update(_kept_spot(old, found.payg))
                if found.reservation_1y is None and found.reservation_3y is None:
                    new_prices[region].update(_kept_reservations(old, found.payg))
                for kind, value in entry.items():
                    if old.get(kind) != value:  # same price, newer date: not worth a summary line
                        change = f"{_shown(old, kind)} -> {yaml_value(value)} (observed {price_date})"
                        summary.append(f"{name}: {region} {kind} {change}")
            if new_prices == old_prices and not any(key in read.sizes for read in prices.values()):
                kept = sorted(old_prices)
                unpriced.append(f"{name} (kept: {', '.join(kept)})" if kept else f"{name} (no price)")
            if new_prices != old_prices:
                doc.set(name, "prices", dict(sorted(new_prices.items())))
        for field_name, value in changes.items():
            doc.set(name, field_name, value)
            summary.append(f"{name}: {field_name} {_shown(size.get(field_name))} -> {_shown(value)}")
        if changes:
            doc.set(name, "observed", observed.isoformat())
    if prices is not None:
        if price_source == API_SOURCE:
            pages_text = ", ".join(pages) or "saved pages"
            doc.set_price_source(
                API_SOURCE, PRICES_API, f"Azure Retail Prices API, pages saved {observed} ({pages_text})"
            )
        for region, read in sorted(prices.items()):
            counts = "; ".join(f"{n} {COUNT_LABELS[kind]}" for kind, n in read.counts.items() if n)
            summary.append(f"prices in {region}: {counts or 'no rows'}")
        if unpriced:
            summary.append(f"no price row, the catalog's prices kept: {', '.join(unpriced)}")
        if windows_rows:
            summary.append(
                f"Windows rates rejected (a Linux price plus {WINDOWS_LICENCE_USD_PER_VCPU_HOUR} USD per vCPU an "
                f"hour), the catalog's Linux price kept: {', '.join(windows_rows)}"
            )
        if kept_newer:
            when = "of unknown date" if price_date == "unknown" else f"observed {price_date}"
            summary.append(f"the catalog's newer prices kept over these {when}: {', '.join(kept_newer)}")
    if skus is not None:
        new = sorted(s.name for k, s in skus.items() if k not in known)
        if new:
            summary.append(
                f"in list-skus, not in the catalog (not added; need a series, lifecycle and source): {', '.join(new)}"
            )
    summary += notes
    text = doc.text()
    CatalogFile.model_validate(yaml.load(text, Loader=SAFE_LOADER))  # never write a catalog the library cannot read
    return Refresh(text, summary)


# --- command line --------------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="refresh_catalog", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    fetch = sub.add_parser("fetch-prices", help="save the Retail Prices API pages of a region (network)")
    fetch.add_argument("--region", default="eastus")
    fetch.add_argument("--out", type=Path, required=True, help="directory for prices-0001.json, ...")
    apply = sub.add_parser("apply", help="rewrite the catalog from saved files and print what changed")
    apply.add_argument("--prices", type=Path, nargs="+", help="saved price pages, or directories of them")
    apply.add_argument("--skus", type=Path, help="saved `az vm list-skus --all -o json`")
    apply.add_argument("--region", default="eastus", help="region the saved pages are for (default: eastus)")
    apply.add_argument(
        "--snapshot",
        type=Path,
        help="a saved public price catalog: SkyPilot's azure vms.csv (date unknown) or karpenter-provider-azure's "
        "zz_generated.pricing.go (pay-as-you-go only, dated by its `generated at` line) or azure-pricing-radar's rows "
        "saved by scripts/radar_excerpt.py (pay-as-you-go, Spot and 1-year savings plan, dated by its stamp) or "
        "Jumbo2020/gpu_prices's rows saved by scripts/gpu_prices_excerpt.py (pay-as-you-go, Spot and reservations, "
        "dated by its commit); every region it lists",
    )
    apply.add_argument(
        "--snapshot-source", help="key of the snapshot's entry in prices.sources (its URL at a fixed commit)"
    )
    apply.add_argument("--catalog", type=Path, default=CATALOG_FILE)
    apply.add_argument(
        "--observed", type=dt.date.fromisoformat, default=None, help="date the data was saved (default: today)"
    )
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
        if not args.prices and not args.skus and not args.snapshot:
            raise RefreshError("apply needs --prices PAGES, --snapshot CSV, --skus FILE or some of them")
        if args.prices and args.snapshot:
            raise RefreshError("apply takes --prices or --snapshot, not both: each price names one source")
        if args.snapshot and not args.snapshot_source:
            raise RefreshError("--snapshot needs --snapshot-source KEY, the snapshot's entry in prices.sources")
        prices: dict[str, PriceRead] | None = None
        if args.prices:
            prices = {args.region: linux_prices(read_price_pages(args.prices), args.region)}
        elif args.snapshot:
            catalog_data = yaml.load(args.catalog.read_text(encoding="utf-8"), Loader=SAFE_LOADER)
            snapshot = read_snapshot(args.snapshot, names=[s["name"] for s in catalog_data["sizes"]])
            prices = snapshot.regions
        skus = read_sku_specs(args.skus) if args.skus else None
        observed = args.observed or utc_today()
        result = refresh(
            args.catalog.read_text(encoding="utf-8"),
            prices,
            skus,
            observed=observed,
            pages=[p.name for p in price_page_files(args.prices)] if args.prices else [],
            price_source=args.snapshot_source if args.snapshot else API_SOURCE,
            prices_observed=str(snapshot.observed) if args.snapshot else None,  # its own stamp, or "unknown"
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
