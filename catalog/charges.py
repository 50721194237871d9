"""What a stack is billed for that its cost does not count: each such resource named, so a total that
leaves it out says it is a lower bound and names what is missing (`not_counted`).

The cost (`catalog.pricing`) prices VM nodes only. The resource types below bill on their own, by a
meter the catalog has no dated price for yet; each row says what is billed and where Azure publishes
its price. Disks: a managed disk is billed on its provisioned size, rounded up to the next disk tier
(https://learn.microsoft.com/azure/virtual-machines/disks-understand-billing, observed 2026-11-27).
AKS: cluster management is free in the Free tier and billed per cluster in Standard and Premium
(https://learn.microsoft.com/azure/aks/free-standard-pricing-tiers, MicrosoftDocs/azure-aks-docs;
ManagedClusterSKUTier in the REST spec: "Free: The cluster management is free, but charged for VM,
storage, and networking usage"; observed 2026-11-27). The other rows name Azure's pricing page for the
meter; their figures were not read (no dated copy of those pages or of the Retail Prices API rows was
reachable on 2026-11-27), so a stack with them is a lower bound, never guessed at.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .demand import RecordedResource

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
    "azure-native:monitor:AzureMonitorWorkspace": ("Managed Prometheus ingestion and queries (usage-based)", MONITOR),
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
    """One resource billed for something the cost does not count."""

    resource: str
    type: str
    what: str
    source: str

    def __str__(self) -> str:
        return f"{self.resource} ({self.what})"

    def to_json(self) -> dict[str, str]:
        return {"resource": self.resource, "type": self.type, "billedFor": self.what, "priceSource": self.source}


def _counted_out(resource: RecordedResource) -> bool:
    """Whether the resource's inputs remove its only uncounted charge: an AKS pool on an ephemeral OS disk."""
    if resource.type == "azure-native:containerservice:AgentPool":
        return resource.plain_inputs().get("osDiskType") == "Ephemeral"
    return False


def not_counted(resources: Sequence[RecordedResource]) -> tuple[NotCounted, ...]:
    """Each resource billed for something the cost does not count, in the resources' order."""
    found = []
    for r in resources:
        row = NOT_COUNTED.get(r.type)
        if row is None or _counted_out(r):
            continue
        found.append(NotCounted(r.name, r.type, *row))
    return tuple(found)
