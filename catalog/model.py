"""The Azure VM size catalog: the typed model over ``vm_sizes.yaml`` and its look-ups.

The data file is the single source of the facts every other part uses (size checks in the
components, refusals in the fake ARM, the policy pack's retirement rule, cost and quota).
Reading is lazy and cached: importing this module does no I/O.

Size names compare case-insensitively and the ``Standard_`` prefix may be left out, as the
Azure CLI accepts (``az vm create --size nc4as_t4_v3``).
"""

from __future__ import annotations

import datetime as dt
import difflib
import functools
from pathlib import Path
from typing import Literal

import yaml
from pydantic import Field, model_validator

from .limits import normalize_region
from .mig import mig_slices
from .prices import CatalogModel, Price, Prices, RegionPrices

DATA_FILE = Path(__file__).with_name("vm_sizes.yaml")
RETIRED_FILE = Path(__file__).with_name("retired_sizes.yaml")  # CPU series: names and lifecycle only
STANDARD_PREFIX = "standard_"
# libyaml's parser where PyYAML has it (the same safe constructors: the same data), the pure-Python one
# otherwise; the 200 KB catalog takes 0.05 s instead of 0.31 s (measured 2026-11-27), which every plan's
# process and every catalog refresh pays.
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
CLOSE_MATCHES = 3


Status = Literal["current", "capacity-restricted", "retiring", "retired"]


class Lifecycle(CatalogModel):
    """Where a size stands in Azure's lifecycle (Microsoft's stages: Current, Extended, End of Life, Retired).

    `status` is what the source said on the size's `observed` date; the state on any given day comes
    from the dates (`VmSize.status_on`), so a verdict can be computed as of any day.
    """

    status: Status = Field(
        description="current: deployable; retiring: retirement announced, deployable until `date`; "
        "capacity-restricted: End of Life with capacity growth restrictions from `restrictedFrom` (new "
        "subscriptions cannot deploy it, quota increases are refused), retired on `date`; "
        "retired: can no longer be provisioned since `date`."
    )
    date: dt.date | None = Field(
        default=None, description="Retirement date (planned for retiring and capacity-restricted, actual for retired)."
    )
    restricted_from: dt.date | None = Field(
        default=None,
        alias="restrictedFrom",
        description="First day of the capacity growth restrictions (capacity-restricted sizes only).",
    )
    replacement: str | None = Field(
        default=None, description="Suggested size to move to (every size that is not current)."
    )
    source: str | None = Field(
        default=None, description="Link to the retirement announcement, when it differs from the series source."
    )
    uncertain: str | None = Field(
        default=None,
        description="What is uncertain about these dates or this replacement, and why (sources disagree...).",
    )

    @model_validator(mode="after")
    def _date_matches_status(self) -> Lifecycle:
        if self.status == "current" and self.date is not None:
            raise ValueError("a current size has no retirement date")
        if self.status != "current" and (self.date is None or self.replacement is None):
            raise ValueError(f"a {self.status} size needs a date and a replacement")
        if (self.status == "capacity-restricted") != (self.restricted_from is not None):
            raise ValueError("restrictedFrom is required for a capacity-restricted size, and only for one")
        if self.restricted_from is not None and self.date is not None and self.restricted_from >= self.date:
            raise ValueError("restrictedFrom must come before the retirement date")
        return self


class NcclAllReduceFloor(CatalogModel):
    """The single-node NCCL all-reduce bus bandwidth a healthy node of a size reaches (nccl-tests)."""

    bus_bandwidth_gbps: float = Field(
        alias="busBandwidthGBps", gt=0, description="Floor of all_reduce_perf's average bus bandwidth, GB/s."
    )
    message_size: str = Field(
        alias="messageSize",
        pattern=r"^[1-9][0-9]*[KMG]?$",
        description="Message size the floor is measured at (-b/-e), e.g. 8G.",
    )
    source: str = Field(
        description="Where the floor comes from (Azure's node health check configuration for the size)."
    )
    observed: dt.date = Field(description="Date the floor was read from the source.")


class EncryptionAtHost(CatalogModel):
    """Whether ARM takes `securityProfile.encryptionAtHost: true` on a size: the Resource SKUs API's capability
    `EncryptionAtHostSupported`, as a saved public copy of the API's answer gives it."""

    supported: bool = Field(description="The capability's value: True or False.")
    source: str = Field(description="Link to the saved copy of the Resource SKUs API's answer it was read from.")
    observed: dt.date = Field(description="Date it was read from the source.")


class VmSize(CatalogModel):
    """One Azure VM size with the facts the toolkit decides by."""

    name: str = Field(description="ARM size name, e.g. Standard_NC4as_T4_v3.")
    series: str = Field(description="Series as Microsoft's docs name it, e.g. NCasT4_v3.")
    vcpus: int = Field(gt=0, description="vCPUs; what quota is counted in.")
    memory_gib: float = Field(alias="memoryGib", gt=0, description="Memory in GiB as the docs state it.")
    gpu_model: str | None = Field(default=None, alias="gpuModel", description="GPU model; None for CPU sizes.")
    gpus: float = Field(
        default=0, ge=0, description="GPUs per VM; fractional for partitioned GPUs (NVadsA10_v5: 1/6 = 0.1667)."
    )
    gpu_memory_gb: float = Field(default=0, alias="gpuMemoryGb", ge=0, description="GPU memory per VM, GB.")
    infiniband_gbps: int | None = Field(
        default=None, alias="infinibandGbps", description="InfiniBand bandwidth per VM in Gb/s; None without IB."
    )
    accelerated_networking: bool = Field(alias="acceleratedNetworking", description="Accelerated networking supported.")
    hyperv_generations: tuple[Literal["V1", "V2"], ...] = Field(
        alias="hypervGenerations", min_length=1, description="Hyper-V generations the size boots."
    )
    trusted_launch: bool | None = Field(
        default=None,
        alias="trustedLaunch",
        description="ARM accepts securityType TrustedLaunch on it; None: not recorded (every GPU size records it).",
    )
    encryption_at_host: EncryptionAtHost | None = Field(
        default=None,
        alias="encryptionAtHost",
        description="Whether the size supports encryption at host, with its source; None: not recorded.",
    )
    quota_family: str = Field(alias="quotaFamily", description="Quota family as `az vm list-usage` names it.")
    prices: dict[str, RegionPrices] = Field(
        default_factory=dict,
        description="Region (ARM `location`) -> Linux pay-as-you-go and Spot prices there, with date and source; "
        "a region its price source does not cover is absent.",
    )
    cpu_architecture: Literal["x64", "Arm64"] = Field(
        default="x64", alias="cpuArchitecture", description="CPU architecture; images must match it."
    )
    lifecycle: Lifecycle = Field(description="Retirement status.")
    nccl_all_reduce: NcclAllReduceFloor | None = Field(
        default=None,
        alias="ncclAllReduce",
        description="Single-node NCCL all-reduce floor the node health check holds a node to; None: not checked.",
    )
    source: str = Field(description="Link to the documentation the specs come from.")
    observed: dt.date = Field(description="Date the specs were read from the source.")
    uncertain: str | None = Field(
        default=None, description="What in this entry is uncertain and why (preview names, sources that disagree...)."
    )

    def price(self, region: str, spot: bool = False) -> Price | None:
        """The Linux price per hour in `region` (Spot or pay-as-you-go), or None where the catalog has none."""
        found = self.prices.get(region)
        return None if found is None else found.price(region, spot)

    def usd_per_hour(self, region: str, spot: bool = False) -> float | None:
        price = self.price(region, spot)
        return None if price is None else price.usd_per_hour

    @property
    def is_gpu(self) -> bool:
        return self.gpus > 0

    @property
    def has_infiniband(self) -> bool:
        return self.infiniband_gbps is not None

    def status_on(self, day: dt.date) -> Status:
        """The lifecycle on `day`, from the dates: retired from the retirement date on, capacity-restricted
        from `restrictedFrom` on, and retiring before that once a retirement is announced."""
        lc = self.lifecycle
        if lc.status == "current" or lc.date is None:
            return "current"
        if lc.date <= day:
            return "retired"
        if lc.restricted_from is not None and lc.restricted_from <= day:
            return "capacity-restricted"
        return "retiring"

    @property
    def supports_trusted_launch(self) -> bool | None:
        """Whether ARM takes securityType TrustedLaunch on this size: never on a Gen1-only size (Trusted Launch
        is Gen2's); otherwise what the catalog records, None when it records nothing."""
        return False if "V2" not in self.hyperv_generations else self.trusted_launch

    @property
    def supports_encryption_at_host(self) -> bool | None:
        """Whether ARM takes encryption at host on this size; None when the catalog records nothing."""
        return None if self.encryption_at_host is None else self.encryption_at_host.supported

    @model_validator(mode="after")
    def _gpu_sizes_record_trusted_launch(self) -> VmSize:
        if self.is_gpu and self.trusted_launch is None:
            raise ValueError(f"{self.name}: a GPU size must record trustedLaunch (true or false)")
        return self

    @property
    def is_nvidia(self) -> bool:
        return (self.gpu_model or "").startswith("NVIDIA")

    @property
    def supports_mig(self) -> bool:
        """Its GPUs can be split into Multi-Instance GPU slices (NVIDIA's table in catalog/mig.py)."""
        return self.is_nvidia and bool(mig_slices(self.gpu_model))


class UnconfirmedSize(CatalogModel):
    """A size seen in Azure's SKU list whose facts no Microsoft size page confirms: kept, never judged."""

    name: str = Field(description="ARM size name as the SKU API lists it.")
    series: str = Field(description="Series it seems to belong to.")
    quota_family: str | None = Field(default=None, alias="quotaFamily", description="Quota family, when listed.")
    why: str = Field(description="What is missing before it can become a size of the catalog.")
    source: str = Field(description="Where the name was seen.")
    observed: dt.date = Field(description="Date it was seen there.")


class RetiredSeries(CatalogModel):
    """A retired (or retiring) series of sizes outside the toolkit's subject (CPU sizes): the names and the
    lifecycle only, a lighter entry than a size's, so that Azure's refusal of them is known offline."""

    series: str = Field(description="Series as Microsoft's retirement page names it, e.g. Av1.")
    sizes: tuple[str, ...] = Field(min_length=1, description="ARM size names of the series.")
    status: Literal["retiring", "retired"] = Field(description="What the source said when observed.")
    date: dt.date = Field(description="Retirement date: from this day on Azure refuses the sizes.")
    replacement: str = Field(description="What Microsoft's page says to move to.")
    source: str = Field(description="Link to the retirement announcement.")
    observed: dt.date = Field(description="Date it was read from the source.")

    def status_on(self, day: dt.date) -> Status:
        return "retired" if self.date <= day else "retiring"


class CatalogFile(CatalogModel):
    """The whole data file."""

    prices: Prices = Field(description="Provenance of the prices.")
    regions: tuple[str, ...] = Field(min_length=1, description="Azure region names (ARM `location` values).")
    sizes: tuple[VmSize, ...] = Field(min_length=1, description="Every size the toolkit knows.")
    unconfirmed: tuple[UnconfirmedSize, ...] = Field(
        default=(), description="Sizes in the SKU API without a size page: listed, not deployable through the toolkit."
    )
    retired_series: tuple[RetiredSeries, ...] = Field(
        default=(),
        alias="retiredSeries",
        description="Retired or retiring series of CPU sizes, names and lifecycle only (no specs or prices).",
    )

    @model_validator(mode="after")
    def _price_sources_exist(self) -> CatalogFile:
        for size in self.sizes:
            for region, price in size.prices.items():
                for source in price.sources:
                    if source not in self.prices.sources:
                        raise ValueError(
                            f"{size.name}: prices.{region}: source {source!r} is not in prices.sources "
                            f"({', '.join(self.prices.sources)})"
                        )
                if region not in self.regions:
                    raise ValueError(f"{size.name}: prices.{region}: not a region of the catalog's `regions`")
        return self


class UnknownVmSize(LookupError):
    """A size name the catalog does not know; the message lists close matches."""

    def __init__(self, name: str, suggestions: list[str]):
        self.name = name
        self.suggestions = suggestions
        hint = f"; did you mean {', '.join(suggestions)}?" if suggestions else ""
        super().__init__(f"unknown VM size '{name}'{hint}")

    def __str__(self) -> str:  # LookupError would quote the message
        return str(self.args[0])


def normalize_size_name(name: str) -> str:
    """Lower-case key with the `Standard_` prefix, so `nc4as_t4_v3` finds Standard_NC4as_T4_v3."""
    key = name.strip().lower()
    return key if key.startswith(STANDARD_PREFIX) or key.startswith("basic_") else STANDARD_PREFIX + key


class Catalog:
    """Look-ups over the catalog's sizes and regions."""

    def __init__(self, data: CatalogFile):
        self.data = data
        self._by_key = {normalize_size_name(s.name): s for s in data.sizes}
        if len(self._by_key) != len(data.sizes):
            raise ValueError("the catalog lists a size twice")
        self._retired = {normalize_size_name(n): r for r in data.retired_series for n in r.sizes}
        if set(self._retired) & set(self._by_key):
            raise ValueError("a size is both a catalog size and in a retired series")
        self._regions = frozenset(data.regions)

    @property
    def sizes(self) -> tuple[VmSize, ...]:
        return self.data.sizes

    @property
    def prices(self) -> Prices:
        return self.data.prices

    @property
    def regions(self) -> tuple[str, ...]:
        return self.data.regions

    def find(self, name: str) -> VmSize | None:
        """The size named `name` (any casing, prefix optional), or None."""
        return self._by_key.get(normalize_size_name(name))

    def retired_series(self, name: str) -> RetiredSeries | None:
        """The retired (or retiring) series a CPU size named `name` belongs to, or None."""
        return self._retired.get(normalize_size_name(name))

    def unconfirmed(self, name: str) -> UnconfirmedSize | None:
        """The unconfirmed entry named `name`, or None."""
        key = normalize_size_name(name)
        return next((u for u in self.data.unconfirmed if normalize_size_name(u.name) == key), None)

    def get(self, name: str) -> VmSize:
        """The size named `name`; raises UnknownVmSize listing close matches."""
        size = self.find(name)
        if size is None:
            raise UnknownVmSize(name, self.close_matches(name))
        return size

    def close_matches(self, name: str) -> list[str]:
        # Compare without the shared `standard_` prefix, which would make every name look close.
        bare = {key.removeprefix(STANDARD_PREFIX): key for key in self._by_key}
        wanted = normalize_size_name(name).removeprefix(STANDARD_PREFIX)
        keys = difflib.get_close_matches(wanted, bare, n=CLOSE_MATCHES, cutoff=0.6)
        return [self._by_key[bare[k]].name for k in keys]

    def is_region(self, location: str) -> bool:
        return normalize_region(location) in self._regions

    def close_regions(self, location: str) -> list[str]:
        return difflib.get_close_matches(normalize_region(location), self._regions, n=CLOSE_MATCHES, cutoff=0.6)


def load_catalog(path: Path, retired: Path | None = None) -> Catalog:
    """Read and validate a catalog data file, with the retired CPU series of `retired` (a second file) added."""
    with path.open(encoding="utf-8") as fh:
        raw = yaml.load(fh, Loader=SAFE_LOADER)
    if retired is not None:
        with retired.open(encoding="utf-8") as fh:
            series = yaml.load(fh, Loader=SAFE_LOADER)["retiredSeries"]
        raw = {**raw, "retiredSeries": [*raw.get("retiredSeries", ()), *series]}
    return Catalog(CatalogFile.model_validate(raw))


@functools.cache
def catalog() -> Catalog:
    """The shipped catalog, read once on first use."""
    return load_catalog(DATA_FILE, RETIRED_FILE)
