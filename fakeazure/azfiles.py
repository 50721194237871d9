"""Reading what the Azure CLI saves: `az vm list-usage -o json` and `az vm list-skus --all -o json`.

The CLI writes usage `currentValue` and `limit` as strings, the REST API as numbers; both are
accepted. Quota family names are compared case-insensitively with spaces removed, because the
Usage API and `az vm list-skus` spell them differently (`standardNCASv3_T4Family`,
`Standard NCASv3_T4 Family`; skypilot-org/skypilot sky/catalog/data_fetchers/fetch_azure.py strips the
spaces too). Shapes: Azure/azure-cli src/azure-cli/azure/cli/command_modules/vm/_format.py and
Azure/azure-rest-api-specs specification/compute (ResourceSkus examples), observed 2026-11-22.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from azure_gpu_stacks.components.catalog import normalize_region, normalize_size_name


class AzFileError(ValueError):
    """A file that is not what the Azure CLI writes; the message names the file and the entry."""


def family_key(name: str) -> str:
    return name.replace(" ", "").lower()


@dataclass(frozen=True)
class Usage:
    """One quota counter: `limit` vCPUs, `current` already in use."""

    family: str
    current: int
    limit: int

    @property
    def free(self) -> int:
        return max(self.limit - self.current, 0)


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise AzFileError(f"{path}: cannot read: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise AzFileError(f"{path}: not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None


def _count(path: Path, index: int, key: str, value: Any) -> int:
    try:
        return int(str(value))
    except ValueError:
        raise AzFileError(f"{path}: entry [{index}].{key}: {value!r} is not a whole number") from None


def read_usage(path: Path) -> dict[str, Usage]:
    """Quota counters keyed by normalized family name (see `family_key`)."""
    data = _read_json(path)
    if not isinstance(data, list):
        raise AzFileError(f"{path}: expected the JSON list that `az vm list-usage -l REGION -o json` writes")
    usages: dict[str, Usage] = {}
    for i, item in enumerate(data):
        name = item.get("name") if isinstance(item, dict) else None
        family = name.get("value") if isinstance(name, dict) else None
        if not isinstance(family, str) or "limit" not in item or "currentValue" not in item:
            raise AzFileError(f"{path}: entry [{i}] lacks name.value, currentValue or limit")
        usages[family_key(family)] = Usage(
            family, _count(path, i, "currentValue", item["currentValue"]), _count(path, i, "limit", item["limit"])
        )
    return usages


@dataclass(frozen=True)
class SkuRestriction:
    reason: str  # NotAvailableForSubscription | QuotaId
    regions: frozenset[str]


@dataclass(frozen=True)
class SkuOffer:
    """Where a VM size is offered, and where the subscription may not use it."""

    name: str
    regions: frozenset[str]
    restrictions: tuple[SkuRestriction, ...]

    def refusal(self, region: str) -> str | None:
        """Why the size cannot be deployed in `region`, or None when it can."""
        region = normalize_region(region)
        if region not in self.regions:
            return f"not offered in {region}"
        for r in self.restrictions:
            if region in r.regions:
                return f"restricted in {region} for this subscription ({r.reason})"
        return None


def read_skus(path: Path) -> dict[str, SkuOffer]:
    """VM size offers keyed by normalized size name, from `az vm list-skus --all -o json`."""
    data = _read_json(path)
    if not isinstance(data, list):
        raise AzFileError(f"{path}: expected the JSON list that `az vm list-skus --all -o json` writes")
    offers: dict[str, SkuOffer] = {}
    for i, item in enumerate(data):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise AzFileError(f"{path}: entry [{i}] has no name")
        if item.get("resourceType", "virtualMachines") != "virtualMachines":
            continue
        regions = frozenset(normalize_region(r) for r in item.get("locations") or [])
        restrictions = tuple(
            SkuRestriction(
                str(r.get("reasonCode", "")),
                frozenset(normalize_region(v) for v in (r.get("restrictionInfo") or {}).get("locations") or r.get("values") or []),
            )
            for r in item.get("restrictions") or []
            if isinstance(r, dict) and r.get("type", "Location") == "Location"
        )
        key = normalize_size_name(item["name"])
        previous = offers.get(key)
        if previous:  # the CLI lists a size once per region
            regions |= previous.regions
            restrictions = previous.restrictions + restrictions
        offers[key] = SkuOffer(item["name"], regions, restrictions)
    return offers
