"""Reading what the Azure CLI saves: `az vm list-usage -o json`, `az vm list-skus --all -o json` and
`az ml compute list-usage -o json` (Azure ML's own quota, see `read_aml_usage`).

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

from pydantic import AliasChoices, BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter, ValidationError

from ..inputs.files import MAX_INT, InputFileError, load_json, shown
from . import normalize_region, normalize_size_name


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
NO_LIMIT = -1  # an Azure ML usage entry without a limit of its own (see `read_aml_usage`)


class _Record(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True)


class _UsageName(_Record):
    value: str


class _UsageRecord(_Record):
    """One entry of `az vm list-usage` (Microsoft.Compute Usage: name, currentValue, limit, unit)."""

    name: _UsageName
    current_value: Count = Field(alias="currentValue")
    limit: Count


def _validated(adapter: TypeAdapter[Any], data: Any, path: Path, expected: str, container: str = "entry ") -> Any:
    """`data` checked against the model; AzFileError naming the entry (`container[i]`), the key and the value."""
    if not isinstance(data, list):
        raise AzFileError(f"{path}: expected {expected}")
    try:
        return adapter.validate_python(data)
    except ValidationError as exc:
        error = exc.errors()[0]
        index, *keys = error["loc"]
        where = f"{container}[{index}]" + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in keys)
        if error["type"] == "missing":
            raise AzFileError(f"{path}: {where}: missing; allowed: {expected}") from None
        if error["type"].startswith("int_"):
            message = "is not a whole number; allowed: a whole number from 0 to 2^63-1"
        elif error["type"] == "greater_than_equal" and error.get("ctx", {}).get("ge") == NO_LIMIT:
            message = "is not allowed; allowed: -1 (no limit of its own) or a whole number from 0 to 2^63-1"
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


# --- Azure ML's own quota: `az ml compute list-usage` ------------------------------------------
#
# Azure ML compute draws on a quota of its own, per region and VM family, separate from the VM
# quota above (https://learn.microsoft.com/azure/machine-learning/how-to-manage-quotas, observed
# 2026-11-22). The REST list, `GET /subscriptions/{sub}/providers/Microsoft.MachineLearningServices/
# locations/{location}/usages`, answers `{"value": [Usage, ...]}` with camelCase keys
# (`ListUsagesResult`, `Usage`: id, amlWorkspaceLocation, type, unit, currentValue, limit,
# name{value, localizedValue}; Azure/azure-rest-api-specs specification/machinelearningservices/
# resource-manager/Microsoft.MachineLearningServices/stable/2024-04-01/examples/Usage/list.json).
# `az ml compute list-usage --resource-group RG --workspace-name WS -o json` prints the same entries
# as a bare list, in azure-ai-ml's snake_case (current_value, aml_workspace_location,
# name{value, localized_value}; Azure/azure-cli-extensions src/machinelearningservices/azext_mlv2/
# manual/custom/compute.py `ml_compute_list_usage`, Azure/azure-sdk-for-python sdk/ml/azure-ai-ml/
# azure/ai/ml/_schema/compute/usage.py). Both are read.
#
# Only the subscription's counters are kept: the entries whose id names a workspace or a compute
# (`.../workspaces/WS/usages/...`) repeat a family per workspace and per cluster. A limit of -1
# (every per-family LowPriority entry in the spec's example) means the entry has no limit of its
# own: low-priority nodes are held by the one regional total.

_AML_USAGE_FILE = (
    "the JSON that `az ml compute list-usage --resource-group RG --workspace-name WS -o json` writes (a list), "
    'or the REST list of Microsoft.MachineLearningServices/locations/REGION/usages ({"value": [...]})'
)
# The regional totals every Azure ML usage list carries (names as the usage list spells them).
AML_DEDICATED_TOTAL = "Total Cluster Dedicated Regional vCPUs"
AML_LOW_PRIORITY_TOTAL = "Total Cluster LowPriority Regional vCPUs"
AML_REGIONAL_TOTALS = (AML_DEDICATED_TOTAL, AML_LOW_PRIORITY_TOTAL)


class _AmlUsageName(_Record):
    value: str


class _AmlUsageRecord(_Record):
    """One Azure ML Usage, camelCase (REST) or snake_case (`az ml`)."""

    id: str | None = None
    name: _AmlUsageName
    current_value: Count = Field(validation_alias=AliasChoices("currentValue", "current_value"))
    limit: Annotated[int, BeforeValidator(_count), Field(ge=NO_LIMIT, le=MAX_INT)]


_AML_USAGE_LIST = TypeAdapter(list[_AmlUsageRecord])


def read_aml_usage(path: Path) -> dict[str, Usage]:
    """Azure ML's subscription quota counters for one region, keyed by `family_key` of their names."""
    data = _read_json(path, "usage")  # the same size cap as `az vm list-usage`
    container = "entry "
    if isinstance(data, dict) and "value" in data:
        data, container = data["value"], "value"
        if not isinstance(data, list):
            raise AzFileError(f"{path}: value: {shown(data)} is not a list; allowed: {_AML_USAGE_FILE}")
    records: list[_AmlUsageRecord] = _validated(_AML_USAGE_LIST, data, path, _AML_USAGE_FILE, container)
    counters = {
        family_key(r.name.value): Usage(r.name.value, r.current_value, r.limit)
        for r in records
        if r.limit != NO_LIMIT and "/workspaces/" not in (r.id or "").lower()
    }
    if not any(family_key(total) in counters for total in AML_REGIONAL_TOTALS):
        raise AzFileError(
            f"{path}: no Azure ML regional total ({' or '.join(AML_REGIONAL_TOTALS)}) among the subscription's "
            f"counters; allowed: {_AML_USAGE_FILE} (a file of `az vm list-usage` belongs to --usage)"
        )
    return counters


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
