"""Azure limits and constants beside the size catalog: one small pydantic model and its one instance.

`LIMITS` holds the taints, node-count limits, closed choices, name rules and the Kubernetes versions
AKS supports, each section with its public source (observed 2026-11-22). Components, policies, the
fake ARM and preflight read them here instead of keeping copies; region names are normalised here
too (`normalize_region`), the one rule every layer uses. The data is Python literals validated by
the model when the module is imported, except the name rules: those are read from their one table,
catalog/arm/name_rules.json (`catalog.names`), so module constants elsewhere (a policy's config
default, a component's default taint) may be taken from it.
"""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .names import NameRule, name_rule


class LimitsModel(BaseModel):
    """Base of the limits' models: closed shape, immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Taints(LimitsModel):
    gpu: str = Field(description="The taint of AKS GPU pools, key=value:Effect.")
    spot: str = Field(description="The taint AKS puts on Spot nodes.")
    nvidia_gpu: str = Field(description="The taint NVIDIA's charts tolerate on GPU nodes, key:Effect.")
    effects: tuple[str, ...] = Field(description="Taint effects Kubernetes knows.")
    sources: tuple[str, ...] = Field(min_length=1, description="Where these come from.")


class NodeCounts(LimitsModel):
    aks_pool_max: int = Field(gt=0, description="Most nodes of one AKS agent pool (count, minCount, maxCount).")
    aks_system_pool_min: int = Field(ge=1, description="Fewest nodes of an AKS System pool.")
    aml_cluster_max: int = Field(gt=0, description="Most nodes of one AmlCompute cluster, after a support request.")
    single_placement_group_max: int = Field(gt=0, description="Most VMs of a scale set in one placement group.")
    sources: tuple[str, ...] = Field(min_length=1, description="Where these come from.")


class Choices(LimitsModel):
    availability_zones: tuple[str, ...] = Field(description="Zone names of a region with zones.")
    aks_mig_profiles: tuple[str, ...] = Field(description="AKS gpuInstanceProfile values.")
    aks_gpu_driver_modes: tuple[str, ...] = Field(description="AKS gpuProfile.driver values.")
    eviction_policies: tuple[str, ...] = Field(description="What evicting a Spot VM does.")
    aml_vm_priorities: tuple[str, ...] = Field(description="Azure ML vmPriority values.")
    budget_notifications_max: int = Field(gt=0, description="Most notifications of one consumption budget.")
    budget_threshold_percent_max: float = Field(gt=0, description="Highest threshold of a budget notification, %.")
    os_disk_gib_max: int = Field(gt=0, description="Largest managed OS disk, GiB.")
    aks_authorized_ip_ranges_max: int = Field(gt=0, description="Most IP ranges authorized on one AKS API server.")
    sources: tuple[str, ...] = Field(min_length=1, description="Where these come from.")


class Names(LimitsModel):
    """The name rules the components and the stack's config use, each read from the one table
    (catalog/arm/name_rules.json, `catalog.names`)."""

    aks_cluster: NameRule
    aks_node_pool: NameRule
    aml_compute: NameRule
    aml_workspace: NameRule
    log_analytics_workspace: NameRule
    resource_group: NameRule
    storage_account: NameRule
    key_vault: NameRule
    key_vault_secret: NameRule
    container_registry: NameRule


# Each name rule's ARM type in the table (catalog/arm/name_rules.json).
NAME_TYPES = {
    "aks_cluster": "Microsoft.ContainerService/managedClusters",
    "aks_node_pool": "Microsoft.ContainerService/managedClusters/agentPools",
    "aml_compute": "Microsoft.MachineLearningServices/workspaces/computes",
    "aml_workspace": "Microsoft.MachineLearningServices/workspaces",
    "log_analytics_workspace": "Microsoft.OperationalInsights/workspaces",
    "resource_group": "Microsoft.Resources/resourceGroups",
    "storage_account": "Microsoft.Storage/storageAccounts",
    "key_vault": "Microsoft.KeyVault/vaults",
    "key_vault_secret": "Microsoft.KeyVault/vaults/secrets",
    "container_registry": "Microsoft.ContainerRegistry/registries",
}


class KubernetesVersion(LimitsModel):
    """One Kubernetes minor version on AKS's release calendar."""

    version: str = Field(pattern=r"^1\.\d{1,2}$", description="MAJOR.MINOR.")
    ga: dt.date = Field(description="First day of the month AKS made it generally available.")
    end_of_life: dt.date = Field(description="Last day of community support on AKS.")
    lts_end_of_life: dt.date | None = Field(default=None, description="Last day of long-term support, when offered.")

    def supported_on(self, day: dt.date) -> bool:
        """Generally available and not past its end of life on `day`."""
        return self.ga <= day <= self.end_of_life


class KubernetesVersions(LimitsModel):
    source: str
    versions: tuple[KubernetesVersion, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _ordered(self) -> KubernetesVersions:
        keys = [tuple(int(p) for p in v.version.split(".")) for v in self.versions]
        if keys != sorted(set(keys)):
            raise ValueError("kubernetesVersions must be listed once each, oldest first")
        return self


class AzureLimits(LimitsModel):
    """Every Azure limit and constant the toolkit relies on."""

    observed: dt.date = Field(description="When the sources were read.")
    taints: Taints
    node_counts: NodeCounts
    choices: Choices
    names: Names
    kubernetes_versions: KubernetesVersions

    def kubernetes_version(self, version: str) -> KubernetesVersion | None:
        """The calendar entry of a MAJOR.MINOR or MAJOR.MINOR.PATCH version; None when not listed."""
        minor = ".".join(version.split(".")[:2])
        return next((v for v in self.kubernetes_versions.versions if v.version == minor), None)

    def supported_kubernetes_versions(self, day: dt.date) -> list[str]:
        """MAJOR.MINOR versions AKS supports on `day`, oldest first."""
        return [v.version for v in self.kubernetes_versions.versions if v.supported_on(day)]


def normalize_region(location: str) -> str:
    """ARM accepts display names too: `East US` is `eastus`."""
    return location.replace(" ", "").lower()


def _month_end(year: int, month: int) -> dt.date:
    """The last day of a month: the AKS calendar's "Mar 2026" means 2026-03-31."""
    first_of_next = dt.date(year + month // 12, month % 12 + 1, 1)
    return first_of_next - dt.timedelta(days=1)


def _aks(version: str, ga: tuple[int, int], end: tuple[int, int], lts_end: tuple[int, int]) -> KubernetesVersion:
    return KubernetesVersion(
        version=version, ga=dt.date(*ga, 1), end_of_life=_month_end(*end), lts_end_of_life=_month_end(*lts_end)
    )


_NAMES = Names(**{field: name_rule(arm_type) for field, arm_type in NAME_TYPES.items()})

LIMITS = AzureLimits(
    observed=dt.date(2026, 11, 22),
    taints=Taints(
        gpu="sku=gpu:NoSchedule",  # what the AKS GPU docs put on GPU pools, so pods that need no GPU stay off
        spot="kubernetes.azure.com/scalesetpriority=spot:NoSchedule",  # what AKS puts on every Spot node
        # what the GPU Operator's operands and NVIDIA's AKS recipes tolerate (gpu-operator values.yaml
        # `daemonsets.tolerations`; NVIDIA/aicr aks-gpu-setup.md `--accelerated-node-toleration`, 2026-11-25)
        nvidia_gpu="nvidia.com/gpu:NoSchedule",
        effects=("NoSchedule", "PreferNoSchedule", "NoExecute"),
        sources=(
            "https://learn.microsoft.com/azure/aks/use-nvidia-gpu",
            "https://learn.microsoft.com/azure/aks/spot-node-pool",
            "https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/",
        ),
    ),
    node_counts=NodeCounts(
        aks_pool_max=1000,  # count, minCount, maxCount: 0..1000 for User pools, 1..1000 for System pools
        aks_system_pool_min=1,
        aml_cluster_max=65_000,  # one AmlCompute cluster even after a support request (the default limit is 100)
        single_placement_group_max=100,  # singlePlacementGroup true, which InfiniBand needs
        sources=(
            "https://learn.microsoft.com/azure/aks/quotas-skus-regions",
            "https://learn.microsoft.com/azure/machine-learning/how-to-manage-quotas",
            "https://learn.microsoft.com/azure/virtual-machine-scale-sets/virtual-machine-scale-sets-placement-groups",
        ),
    ),
    choices=Choices(
        availability_zones=("1", "2", "3"),
        aks_mig_profiles=("MIG1g", "MIG2g", "MIG3g", "MIG4g", "MIG7g"),
        aks_gpu_driver_modes=("Install", "None"),
        eviction_policies=("Deallocate", "Delete"),
        aml_vm_priorities=("Dedicated", "LowPriority"),
        budget_notifications_max=5,
        budget_threshold_percent_max=1000,  # a budget notification's threshold: percent, above 0, at most 1000
        os_disk_gib_max=4095,  # a managed OS disk's maximum capacity (managed disks overview, OS disk; 2026-11-25)
        aks_authorized_ip_ranges_max=200,  # "The upper limit for the number of IP ranges you can specify is 200."
        sources=(
            "https://learn.microsoft.com/azure/reliability/availability-zones-overview",
            "https://learn.microsoft.com/azure/aks/gpu-multi-instance",
            "https://learn.microsoft.com/azure/aks/use-nvidia-gpu",
            "https://learn.microsoft.com/azure/virtual-machines/spot-vms",
            "https://learn.microsoft.com/rest/api/consumption/budgets/create-or-update",
            "https://learn.microsoft.com/azure/aks/api-server-authorized-ip-ranges",
            "https://learn.microsoft.com/azure/virtual-machines/managed-disks-overview#os-disk",
        ),
    ),
    names=_NAMES,
    # The AKS release calendar (MicrosoftDocs/azure-aks-docs articles/aks/supported-kubernetes-versions.md,
    # ms.date 2026-08-05): GA month, end of life, LTS end of life; a month there means its last day.
    kubernetes_versions=KubernetesVersions(
        source="https://learn.microsoft.com/azure/aks/supported-kubernetes-versions",
        versions=(
            _aks("1.32", (2025, 4), (2026, 3), (2027, 3)),
            _aks("1.33", (2025, 6), (2026, 7), (2027, 7)),
            _aks("1.34", (2025, 11), (2026, 11), (2027, 11)),
            _aks("1.35", (2026, 3), (2027, 3), (2028, 3)),
            _aks("1.36", (2026, 6), (2027, 6), (2028, 6)),
            _aks("1.37", (2026, 10), (2027, 10), (2028, 10)),
        ),
    ),
)
