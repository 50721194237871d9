"""Reading what the Azure CLI saves: `az vm list-usage -o json` and `az vm list-skus --all -o json`.

The CLI writes usage `currentValue` and `limit` as strings, the REST API as numbers; both are
accepted. Quota family names are compared case-insensitively with spaces removed, because the
Usage API and `az vm list-skus` spell them differently (`standardNCASv3_T4Family`,
`Standard NCASv3_T4 Family`). Sources (read 2026-11-22): `az vm list-usage`,
https://learn.microsoft.com/en-us/cli/azure/vm#az-vm-list-usage; the Usage and ResourceSku shapes,
https://learn.microsoft.com/en-us/rest/api/compute/usage/list and
https://learn.microsoft.com/en-us/rest/api/compute/resource-skus/list.

Each file is read with a size cap and checked entry by entry against a model of what the CLI
writes (pydantic), so a string where a list belongs (`"locations": "eastus"`), a list where an
object belongs or a negative count is refused with the entry, the key and the value, never trusted.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter, ValidationError

from azure_gpu_stacks.components.catalog import normalize_region, normalize_size_name
from azure_gpu_stacks.components.input_files import MAX_INT, InputFileError, load_json, shown


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


_USAGE_FILE = "the JSON list that `az vm list-usage -l REGION -o json` writes"
_SKUS_FILE = "the JSON list that `az vm list-skus --all -o json` writes"


def _count(value: Any) -> Any:
    """The CLI writes counts as strings ("3"), the REST API as numbers; true/false is neither."""
    if isinstance(value, bool):
        raise ValueError("is not a whole number")
    return value


Count = Annotated[int, BeforeValidator(_count), Field(ge=0, le=MAX_INT)]


class _Record(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True)


class _UsageName(_Record):
    value: str


class _UsageRecord(_Record):
    """One entry of `az vm list-usage` (Microsoft.Compute Usage: name, currentValue, limit, unit)."""

    name: _UsageName
    current_value: Count = Field(alias="currentValue")
    limit: Count


def _validated(adapter: TypeAdapter[Any], data: Any, path: Path, expected: str) -> Any:
    """`data` checked against the model; AzFileError naming the entry, the key and the value."""
    if not isinstance(data, list):
        raise AzFileError(f"{path}: expected {expected}")
    try:
        return adapter.validate_python(data)
    except ValidationError as exc:
        error = exc.errors()[0]
        index, *keys = error["loc"]
        where = f"entry [{index}]" + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in keys)
        if error["type"] == "missing":
            raise AzFileError(f"{path}: {where}: missing; allowed: {expected}") from None
        if error["type"].startswith("int_"):
            message = "is not a whole number; allowed: a whole number from 0 to 2^63-1"
        else:
            problem = str(error["msg"]).removeprefix("Value error, ").split(" or instance of ")[0]
            message = f"is not allowed: {problem}; allowed: {expected}"
        raise AzFileError(f"{path}: {where}: {shown(error['input'])} {message}") from None


def _read_json(path: Path, kind: str) -> Any:
    try:
        return load_json(path, kind)
    except InputFileError as exc:
        raise AzFileError(str(exc)) from None


_USAGE_LIST = TypeAdapter(list[_UsageRecord])


def read_usage(path: Path) -> dict[str, Usage]:
    """Quota counters keyed by normalized family name (see `family_key`)."""
    records: list[_UsageRecord] = _validated(_USAGE_LIST, _read_json(path, "usage"), path, _USAGE_FILE)
    if not records:
        raise AzFileError(f"{path}: no quota counters; allowed: {_USAGE_FILE}, which lists at least `cores`")
    return {family_key(r.name.value): Usage(r.name.value, r.current_value, r.limit) for r in records}


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


class _RestrictionInfo(_Record):
    locations: list[str] | None = None
    zones: list[str] | None = None


class _Restriction(_Record):
    type: str = "Location"
    reason_code: str = Field("", alias="reasonCode")
    values: list[str] | None = None
    restriction_info: _RestrictionInfo | None = Field(None, alias="restrictionInfo")

    def regions(self) -> frozenset[str]:
        info = self.restriction_info.locations if self.restriction_info else None
        return frozenset(normalize_region(v) for v in info or self.values or [])


class _SkuRecord(_Record):
    """One entry of `az vm list-skus` (Microsoft.Compute ResourceSku)."""

    name: str
    resource_type: str = Field("virtualMachines", alias="resourceType")
    locations: list[str] | None = None
    restrictions: list[_Restriction] | None = None


_SKU_LIST = TypeAdapter(list[_SkuRecord])


def read_skus(path: Path) -> dict[str, SkuOffer]:
    """VM size offers keyed by normalized size name, from `az vm list-skus --all -o json`."""
    records: list[_SkuRecord] = _validated(_SKU_LIST, _read_json(path, "skus"), path, _SKUS_FILE)
    offers: dict[str, SkuOffer] = {}
    for item in records:
        if item.resource_type != "virtualMachines":
            continue
        regions = frozenset(normalize_region(r) for r in item.locations or [])
        restrictions = tuple(
            SkuRestriction(r.reason_code, r.regions()) for r in item.restrictions or [] if r.type == "Location"
        )
        key = normalize_size_name(item.name)
        previous = offers.get(key)
        if previous:  # the CLI lists a size once per region
            regions |= previous.regions
            restrictions = previous.restrictions + restrictions
        offers[key] = SkuOffer(item.name, regions, restrictions)
    return offers
