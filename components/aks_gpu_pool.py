"""GPU capacity on AKS, the way the AKS documentation prescribes, idle at zero cost by default.

Builds: (a new cluster with a small CPU system pool, managed identity, Azure RBAC for Kubernetes
and local accounts disabled, plus a role assignment letting the deploying identity manage it; or
an existing cluster, by id or by name and resource group) -> a user-mode GPU agent pool tainted
`sku=gpu:NoSchedule`, labelled with its accelerator, autoscaled from 0 nodes -> exactly one owner of
the NVIDIA stack, deployed through pulumi-kubernetes with the cluster's kubeconfig: the NVIDIA device
plugin (a pinned DaemonSet in `gpu-resources` that tolerates the pool's taints), or with
`gpu_operator` the NVIDIA GPU Operator configured for the pool's driver owner and MIG strategy, or
neither when another tool manages it (docs/aks-gpu-modes.md).

GPU pods need the taint's toleration and a GPU request (`nvidia.com/gpu`, or `nvidia.com/mig-<slice>`
under the mixed MIG strategy): `AksGpuPool.pod_scheduling()` returns both and a node selector
(`gpu_pod_scheduling()` in `azure_gpu_stacks.components.aks_gpu_scheduling` builds them). The
cluster is `azure_gpu_stacks.components.aks_cluster`, the device plugin
`azure_gpu_stacks.components.nvidia_device_plugin`.

Running it for real: the kubeconfig of a cluster with Entra ID uses `kubelogin`, which must be on
the PATH of whoever runs `pulumi up`, with a non-interactive login method (e.g. the environment
variable AAD_LOGIN_METHOD=azurecli, or workloadidentity in CI; UNVERIFIED here: no cluster). Azure
role assignments take a few minutes to apply, so the first `pulumi up` of a new cluster may be
refused by the Kubernetes API until the deployer's role is active; run it again.

Azure docs: https://learn.microsoft.com/azure/aks/use-nvidia-gpu (taint, driver, device plugin),
https://learn.microsoft.com/azure/aks/spot-node-pool, https://learn.microsoft.com/azure/aks/manage-azure-rbac
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any, Literal, NotRequired, TypedDict

import pulumi
from pulumi_azure_native import containerservice

from ..catalog import catalog
from ..catalog.defaults import DEFAULT_CPU_VM_SIZE, DEFAULT_GPU_VM_SIZE
from ..catalog.limits import LIMITS
from ..catalog.mig import AKS_MIG_SIZES, MIG_STRATEGIES, mig_slice, mig_slices
from ..catalog.spot import SPOT_NO_PRICE_CAP
from . import encryption_at_host
from .aks_cluster import (
    DEFAULT_UPGRADE_CHANNEL,
    UPGRADE_CHANNELS,
    check_authorized_ip_ranges,
    create_cluster,
    create_deployer_role,
    existing_cluster,
    user_kubeconfig,
)
from .aks_cluster_owner import claim
from .aks_gpu_metrics import (
    DEFAULT_IDLE_HOURS,
    DEFAULT_IDLE_PERCENT,
    DEFAULT_TEMPERATURE_CELSIUS,
    check_metrics_inputs,
    create_gpu_metrics,
)
from .aks_gpu_scheduling import (
    GPU_RESOURCE,
    GPU_TAINT,
    SPOT_TAINT,
    GpuPodScheduling,
    gpu_pod_scheduling,
)
from .args import Checked, check_shape
from .checks import (
    Problems,
    aks_cluster_id,
    aks_cluster_name,
    aks_pool_name,
    cpu_size,
    deployment_day,
    gpu_pool_taints,
    guid,
    kubernetes_version,
    node_taint,
    nvidia_gpu_size,
    raise_problems,
    spot_max_price,
)
from .nvidia_device_plugin import (
    ACCELERATOR_LABEL,
    create_device_plugin,
    kubernetes_provider,
)
from .nvidia_gpu_operator import create_gpu_operator, gpu_operator_values

TYPE_TOKEN = "azure-gpu-stacks:index:AksGpuPool"

GPU_MODEL_LABEL = "gpu-model"  # e.g. nvidia-t4: lets a pod pick a GPU model
DEFAULT_POOL_NAME = "gpu"
DEFAULT_SYSTEM_NODE_COUNT = 2  # one node down (upgrade, failure) leaves CoreDNS and the API proxies running
DEFAULT_MIN_COUNT = 0  # idle costs nothing: the autoscaler adds GPU nodes only for pending GPU pods
DEFAULT_MAX_COUNT = 2
MAX_POOL_NODES = LIMITS.node_counts.aks_pool_max  # count, minCount and maxCount
MIG_PROFILES = LIMITS.choices.aks_mig_profiles
GPU_DRIVER_MODES = LIMITS.choices.aks_gpu_driver_modes
EVICTION_POLICIES = LIMITS.choices.eviction_policies
# Args that only shape a new cluster; with an existing cluster they would be silently ignored.
NEW_CLUSTER_ARGS = (
    "cluster_name",
    "kubernetes_version",
    "system_vm_size",
    "system_node_count",
    "admin_group_object_ids",
    "grant_deployer_admin",
    "deployer_principal_type",
    "api_server_authorized_ip_ranges",
    "key_vault_secrets_provider",
    "upgrade_channel",
)
PRINCIPAL_TYPES = ("User", "ServicePrincipal")
# Kubernetes objects reach a cluster with Entra ID through kubelogin (Kubernetes 1.24 and later), with
# a login method that asks nobody: https://learn.microsoft.com/azure/aks/kubelogin-authentication and
# Azure/kubelogin's AAD_LOGIN_METHOD values (observed 2026-11-22).
KUBELOGIN_WARNING = (
    "AksGpuPool '{name}': deploying the device plugin reaches the cluster's Kubernetes API through Entra ID, which "
    "needs kubelogin on the PATH of whoever runs `pulumi up`: run `az aks install-cli` (kubectl and kubelogin), then "
    "`export AAD_LOGIN_METHOD=azurecli` after `az login` (in CI with a service principal: "
    "`export AAD_LOGIN_METHOD=workloadidentity` with OpenID Connect, or `spn` with a client secret)"
)


class ExistingClusterArgs(TypedDict):
    """An AKS cluster managed elsewhere: its `id`, or its `name` and `resource_group_name`."""

    id: NotRequired[str]
    """ARM id of the cluster:
    /subscriptions/<id>/resourceGroups/<rg>/providers/Microsoft.ContainerService/managedClusters/<name>.

    The pool is created through the azure-native provider, so the cluster must be in the provider's subscription.
    """
    name: NotRequired[str]
    """Name of the cluster, with resource_group_name."""
    resource_group_name: NotRequired[str]
    """Resource group of the cluster, with name."""


class AksGpuPoolArgs(TypedDict):
    """Inputs of AksGpuPool."""

    resource_group_name: NotRequired[pulumi.Input[str]]
    """Resource group of the new cluster. Default: none; required unless existing_cluster is given."""
    location: NotRequired[str]
    """Azure region of the new cluster, e.g. eastus. Default: none; required unless existing_cluster is given."""
    existing_cluster: NotRequired[ExistingClusterArgs]
    """Add the GPU pool to this cluster instead of creating one. Default: a new cluster."""
    cluster_name: NotRequired[str]
    """Name of the new cluster. Default: the component name with a random suffix."""
    kubernetes_version: NotRequired[str]
    """Kubernetes version of the new cluster, e.g. 1.33. Default: AKS's default version in the region."""
    system_vm_size: NotRequired[str]
    """CPU size of the new cluster's system pool. Default: Standard_D4s_v5."""
    system_node_count: NotRequired[int]
    """Nodes of the new cluster's system pool (1 to 1000). Default: 2."""
    admin_group_object_ids: NotRequired[Sequence[str]]
    """Entra ID groups that administer the new cluster. Default: none (the deployer gets a role)."""
    grant_deployer_admin: NotRequired[bool]
    """Give the identity running Pulumi the AKS RBAC Cluster Admin role on the new cluster. Default: true."""
    deployer_principal_type: NotRequired[Literal["User", "ServicePrincipal"]]
    """What the identity running Pulumi is: User or ServicePrincipal; ARM refuses a role assignment naming the wrong
    type. Default: User."""
    api_server_authorized_ip_ranges: NotRequired[Sequence[str]]
    """Public IPv4 addresses or CIDR ranges allowed to reach the new cluster's Kubernetes API server (at most 200;
    0.0.0.0/32 alone: only the cluster's outbound IP). Default: none, the API server is reachable from the internet
    (Entra ID still guards it)."""
    key_vault_secrets_provider: NotRequired[bool]
    """The new cluster's Azure Key Vault provider for the Secrets Store CSI Driver, with secret rotation: pods mount Key
    Vault secrets through a managed identity instead of carrying them. false leaves the add-on off. Default: true."""
    upgrade_channel: NotRequired[Literal["rapid", "stable", "patch", "node-image", "none"]]
    """The new cluster's auto-upgrade channel: rapid, stable, patch, node-image or none. patch takes each supported
    patch of the kubernetes_version's minor version (give kubernetes_version as major.minor, e.g. 1.35, so a later
    `pulumi up` does not undo it); upgrades drain nodes, so a running GPU job is evicted; none turns auto-upgrade off
    (ARM's default). Default: patch."""
    pool_name: NotRequired[str]
    """Name of the GPU pool: 1 to 12 lower-case letters and digits. Default: gpu."""
    vm_size: NotRequired[str]
    """NVIDIA GPU size from the catalog. Default: Standard_NC4as_T4_v3 (1x T4)."""
    min_count: NotRequired[int]
    """Fewest GPU nodes the autoscaler keeps. Default: 0 (idle costs nothing)."""
    max_count: NotRequired[int]
    """Most GPU nodes the autoscaler adds (1 to 1000). Default: 2."""
    node_taints: NotRequired[Sequence[str]]
    """Taints of the GPU nodes, key=value:Effect; must keep sku=gpu:NoSchedule. Default: [sku=gpu:NoSchedule]."""
    node_labels: NotRequired[Mapping[str, str]]
    """Extra labels of the GPU nodes. Default: none (accelerator and gpu-model are always set)."""
    gpu_driver: NotRequired[Literal["Install", "None"]]
    """Install: AKS installs the NVIDIA driver and toolkit; None: the NVIDIA GPU Operator does (needs gpu_operator).
    Default: Install."""
    gpu_operator: NotRequired[bool]
    """Deploy the NVIDIA GPU Operator (pinned Helm chart) configured for gpu_driver, instead of the device plugin; once
    per cluster. Default: false."""
    mig_profile: NotRequired[Literal["MIG1g", "MIG2g", "MIG3g", "MIG4g", "MIG7g"]]
    """Split each GPU into Multi-Instance GPU slices: MIG1g, MIG2g, MIG3g, MIG4g or MIG7g (the A100 sizes,
    NC40ads_H100_v5 and ND96isr_H100_v5). Default: whole GPUs."""
    mig_strategy: NotRequired[Literal["single", "mixed"]]
    """How MIG slices are advertised, with mig_profile: single (each slice is one nvidia.com/gpu) or mixed
    (nvidia.com/mig-<slice>). Default: single."""
    encryption_at_host: NotRequired[bool]
    """Encrypt the GPU nodes' temporary disks and OS disk caches on the host (the pool's enableEncryptionAtHost; the
    system pool is left as it is). Needs the subscription feature Microsoft.Compute/EncryptionAtHost registered (`az
    feature register --namespace Microsoft.Compute --name EncryptionAtHost`); refused on a size the catalog records as
    not supporting it. Default: false."""
    spot: NotRequired[bool]
    """GPU nodes on Spot (evictable, much cheaper); AKS adds its own taint. Default: false."""
    eviction_policy: NotRequired[Literal["Deallocate", "Delete"]]
    """What eviction does to a Spot node: Delete or Deallocate. Default: Delete (deallocated nodes still count against
    quota)."""
    spot_max_price: NotRequired[float]
    """Spot price cap, USD per hour; -1 means up to the pay-as-you-go price. Default: -1."""
    install_device_plugin: NotRequired[bool]
    """Deploy the NVIDIA device plugin (once per cluster: false on further pools). Default: true with gpu_driver Install
    and no gpu_operator, else false."""
    gpu_metrics: NotRequired[bool]
    """GPU metrics and alarms (docs/gpu-monitoring.md): the DCGM exporter (the GPU Operator's with gpu_operator, else a
    pinned Helm release), Azure Managed Prometheus for the new cluster, and a Prometheus rule group alarming on GPUs
    allocated but idle, temperature near throttling and XID errors, emailed to alert_emails. New clusters only. Default:
    false."""
    gpu_idle_hours: NotRequired[int]
    """Hours an allocated GPU must stay under gpu_idle_percent before the idle alarm fires (1 to 72). Default: 4."""
    gpu_idle_percent: NotRequired[float]
    """GPU utilisation, %, under which an allocated GPU counts as idle (above 0, below 100). Default: 5."""
    gpu_temperature_celsius: NotRequired[float]
    """GPU temperature, °C, at which the temperature alarm fires (40 to 100). Default: 85."""
    alert_emails: NotRequired[Sequence[str]]
    """Who gets the GPU alarms (the budget's contacts); required with gpu_metrics. Default: none."""
    tags: NotRequired[Mapping[str, str]]
    """Tags on the Azure resources. Default: none."""


class AksGpuPool(pulumi.ComponentResource):
    """A tainted, autoscaled NVIDIA GPU node pool on a new or existing AKS cluster, with the device plugin."""

    cluster_name: pulumi.Output[str]
    """Name of the AKS cluster."""
    cluster_id: pulumi.Output[str]
    """ARM id of the AKS cluster."""
    pool_name: pulumi.Output[str]
    """Name of the GPU agent pool."""
    vm_size: pulumi.Output[str]
    """VM size of the GPU nodes."""
    min_count: pulumi.Output[int]
    """Fewest GPU nodes."""
    max_count: pulumi.Output[int]
    """Most GPU nodes."""
    node_range: pulumi.Output[str]
    """GPU nodes as min..max, e.g. 0..3."""
    kubeconfig: pulumi.Output[str]
    """The cluster user's kubeconfig (YAML), a secret."""

    def __init__(self, name: str, args: AksGpuPoolArgs, opts: pulumi.ResourceOptions | None = None):
        # Validated before anything is registered, so a bad input leaves nothing behind.
        self._args = raise_problems("AksGpuPool", name, check_inputs(args))
        if self._args["existing_cluster"]:  # one owner of the NVIDIA stack per cluster of the program
            problems = Problems()
            claim(name, self._args["existing_cluster"], args, self._args, problems)
            raise_problems("AksGpuPool", name, problems.checked(self._args))
        super().__init__(TYPE_TOKEN, name, None, opts)
        self._name = name
        self._child = pulumi.ResourceOptions(parent=self)
        a = self._args
        deployer_role = None
        cluster_rg: pulumi.Input[str]
        cluster_name: pulumi.Input[str]
        cluster_id: pulumi.Input[str]
        if a["existing_cluster"]:
            cluster_rg, cluster_name, cluster_id = existing_cluster(a["existing_cluster"])
        else:
            cluster = create_cluster(name, a, self._child)
            cluster_rg, cluster_name, cluster_id = a["resource_group_name"], cluster.name, cluster.id
            if a["grant_deployer_admin"]:
                deployer_role = create_deployer_role(name, cluster_id, a["deployer_principal_type"], self._child)
        pool = self._create_gpu_pool(cluster_rg, cluster_name)
        if a["spot"]:
            pulumi.log.warn(
                f"AksGpuPool '{name}': the Spot GPU pool '{a['pool_name']}' gets AKS's own taint {SPOT_TAINT}; "
                f"GPU pods must tolerate it and {GPU_TAINT} (AksGpuPool.pod_scheduling() returns both), and "
                "Spot nodes can be evicted at any time",
                resource=self,
            )
        self.kubeconfig = user_kubeconfig(cluster_rg, cluster_name)
        after = [r for r in (deployer_role, pool) if r is not None]
        if a["install_device_plugin"] or a["gpu_operator"]:
            pulumi.log.warn(KUBELOGIN_WARNING.format(name=name), resource=self)
            provider = kubernetes_provider(name, self.kubeconfig, self)
            if a["gpu_operator"]:
                values = gpu_operator_values(
                    gpu_driver=a["gpu_driver"], node_taints=a["node_taints"], mig_strategy=a["mig_strategy"]
                )
                # the operator's namespace and its exporter come first when metrics scrape it
                after = [*after, create_gpu_operator(name, provider, after=after, parent=self, values=values)]
            else:
                create_device_plugin(
                    name,
                    provider,
                    after=after,
                    parent=self,
                    node_taints=a["node_taints"],
                    mig_strategy=a["mig_strategy"],
                )
            if a["gpu_metrics"]:
                create_gpu_metrics(
                    name,
                    a,
                    cluster_id=cluster_id,
                    cluster_name=cluster_name,
                    provider=provider,
                    after=after,
                    parent=self,
                )
        elif a["gpu_driver"] == "None":
            pulumi.log.warn(
                f"AksGpuPool '{name}': gpu_driver None leaves the NVIDIA driver, toolkit and device plugin to a GPU "
                "Operator this stack does not deploy; until one runs on the cluster the pool's nodes advertise no GPUs "
                "(set gpu_operator: true to deploy it here)",
                resource=self,
            )

        self.cluster_name = pulumi.Output.from_input(cluster_name)
        self.cluster_id = pulumi.Output.from_input(cluster_id)
        self.pool_name = pool.name
        self.vm_size = pulumi.Output.from_input(a["vm_size"])
        self.min_count = pulumi.Output.from_input(a["min_count"])
        self.max_count = pulumi.Output.from_input(a["max_count"])
        self.node_range = pulumi.Output.from_input(f"{a['min_count']}..{a['max_count']}")
        self.register_outputs(
            {
                "cluster_name": self.cluster_name,
                "cluster_id": self.cluster_id,
                "pool_name": self.pool_name,
                "vm_size": self.vm_size,
                "min_count": self.min_count,
                "max_count": self.max_count,
                "node_range": self.node_range,
                "kubeconfig": self.kubeconfig,
            }
        )

    def pod_scheduling(self, gpus: int = 1) -> GpuPodScheduling:
        """What a pod needs to get `gpus` GPUs of this pool: tolerations of its taints (and Spot's), the
        request (`nvidia.com/gpu`, or `nvidia.com/mig-<slice>` for a MIG pool with the mixed strategy,
        where `gpus` counts slices) and a node selector on the pool's GPU model."""
        a = self._args
        return gpu_pod_scheduling(
            gpus=gpus,
            spot=a["spot"],
            taints=a["node_taints"],
            resource=advertised_resource(a["vm_size"], a.get("mig_profile"), a["mig_strategy"]),
            node_selector={GPU_MODEL_LABEL: a["node_labels"][GPU_MODEL_LABEL]},
        )

    def _create_gpu_pool(
        self, cluster_rg: pulumi.Input[str], cluster_name: pulumi.Input[str]
    ) -> containerservice.AgentPool:
        a = self._args
        spot = {
            "scale_set_priority": "Spot",
            "scale_set_eviction_policy": a["eviction_policy"],
            "spot_max_price": a["spot_max_price"],
        }
        return containerservice.AgentPool(
            f"{self._name}-pool",
            resource_group_name=cluster_rg,
            resource_name_=cluster_name,
            agent_pool_name=a["pool_name"],
            mode="User",
            os_type="Linux",
            type="VirtualMachineScaleSets",
            vm_size=a["vm_size"],
            enable_auto_scaling=True,
            count=a["min_count"],
            min_count=a["min_count"],
            max_count=a["max_count"],
            node_taints=list(a["node_taints"]),
            node_labels=a["node_labels"],
            gpu_profile=containerservice.GPUProfileArgs(driver=a["gpu_driver"]),
            gpu_instance_profile=a.get("mig_profile"),
            # Only when asked (components/encryption_at_host.py says why).
            enable_encryption_at_host=True if a["encryption_at_host"] else None,
            tags=a["tags"],
            **(spot if a["spot"] else {}),
            # The autoscaler owns the node count; without this every `pulumi up` would scale the
            # pool back to min_count.
            opts=pulumi.ResourceOptions(parent=self, ignore_changes=["count"]),
        )


def advertised_resource(vm_size: str, mig_profile: str | None, mig_strategy: str | None) -> str:
    """The extended resource a pool's nodes advertise: whole GPUs, or MIG slices under the mixed strategy."""
    if mig_profile is None or mig_strategy != "mixed":
        return GPU_RESOURCE
    found = mig_slice(catalog().get(vm_size).gpu_model, mig_profile)
    assert found is not None, "check_inputs allows MIG profiles only on sizes whose GPU model has slices"
    return found.mixed_resource


def gpu_model_label(gpu_model: str | None) -> str:
    """`NVIDIA A100 80GB PCIe` -> `nvidia-a100-80gb-pcie`: a valid Kubernetes label value."""
    return "-".join((gpu_model or "gpu").lower().split())[:63]


def check_inputs(args: Mapping[str, Any], day: dt.date | None = None) -> Checked:
    """The inputs with defaults filled in, and every problem found (pure: registers nothing); sizes are judged
    on `day` (default: `deployment_day()`, the program's `gpu-stacks:asOf` or today in UTC)."""
    day = day or deployment_day()
    problems = Problems()
    given = check_shape(AksGpuPoolArgs, args, problems)
    a: dict[str, Any] = {
        "existing_cluster": None,
        "system_vm_size": DEFAULT_CPU_VM_SIZE,
        "system_node_count": DEFAULT_SYSTEM_NODE_COUNT,
        "admin_group_object_ids": [],
        "grant_deployer_admin": True,
        "deployer_principal_type": "User",
        "key_vault_secrets_provider": True,
        "upgrade_channel": DEFAULT_UPGRADE_CHANNEL,
        "pool_name": DEFAULT_POOL_NAME,
        "vm_size": DEFAULT_GPU_VM_SIZE,
        "min_count": DEFAULT_MIN_COUNT,
        "max_count": DEFAULT_MAX_COUNT,
        "node_taints": [GPU_TAINT],
        "node_labels": {},
        "gpu_driver": "Install",
        "gpu_operator": False,
        "encryption_at_host": False,
        "spot": False,
        "eviction_policy": "Delete",
        "spot_max_price": SPOT_NO_PRICE_CAP,
        "gpu_metrics": False,
        "gpu_idle_hours": DEFAULT_IDLE_HOURS,
        "gpu_idle_percent": DEFAULT_IDLE_PERCENT,
        "gpu_temperature_celsius": DEFAULT_TEMPERATURE_CELSIUS,
        "alert_emails": [],
        "tags": {},
        **given,
    }
    existing = a["existing_cluster"]
    if existing:
        _check_existing(problems, existing, args)
    else:
        for key in ("resource_group_name", "location"):
            if not a.get(key):
                problems.add(key, "required for a new cluster and missing; or give existing_cluster")
        if a.get("cluster_name") is not None:
            problems.check("cluster_name", aks_cluster_name, a["cluster_name"])
        if a.get("kubernetes_version") is not None:
            problems.check("kubernetes_version", kubernetes_version, a["kubernetes_version"])
        problems.check("system_vm_size", lambda n: cpu_size(n, day), a["system_vm_size"])
        if not _whole(a["system_node_count"]) or not 1 <= a["system_node_count"] <= MAX_POOL_NODES:
            problems.add(
                "system_node_count", f"{a['system_node_count']!r}; allowed: a whole number from 1 to {MAX_POOL_NODES}"
            )
        for i, group in enumerate(a["admin_group_object_ids"]):
            problems.check(f"admin_group_object_ids[{i}]", guid, group)
        if a["deployer_principal_type"] not in PRINCIPAL_TYPES:
            problems.add(
                "deployer_principal_type", f"{a['deployer_principal_type']!r}; allowed: {', '.join(PRINCIPAL_TYPES)}"
            )
        if a["upgrade_channel"] not in UPGRADE_CHANNELS:
            problems.add("upgrade_channel", f"{a['upgrade_channel']!r}; allowed: {', '.join(UPGRADE_CHANNELS)}")
        if a.get("api_server_authorized_ip_ranges") is not None:
            a["api_server_authorized_ip_ranges"] = check_authorized_ip_ranges(
                problems, "api_server_authorized_ip_ranges", a["api_server_authorized_ip_ranges"]
            )
    problems.check("pool_name", aks_pool_name, a["pool_name"])
    size_name = problems.check("vm_size", lambda n: nvidia_gpu_size(n, day), a["vm_size"])
    if size_name:
        a["vm_size"] = size_name
    encryption_at_host.check(problems, a["encryption_at_host"], size_name)
    _check_counts(problems, a["min_count"], a["max_count"])
    a["node_taints"] = list(a["node_taints"])
    taints_ok = all(problems.check(f"node_taints[{i}]", node_taint, t) for i, t in enumerate(a["node_taints"]))
    if taints_ok:
        problems.check("node_taints", gpu_pool_taints, a["node_taints"])
    if a["gpu_driver"] not in GPU_DRIVER_MODES:
        problems.add("gpu_driver", f"{a['gpu_driver']!r}; allowed: {', '.join(GPU_DRIVER_MODES)}")
    _check_driver_owner(problems, a)
    a.setdefault("install_device_plugin", a["gpu_driver"] == "Install" and not a["gpu_operator"])
    if a.get("mig_profile") is not None:
        _check_mig(problems, a["mig_profile"], size_name)
        a.setdefault("mig_strategy", "single")
    elif a.get("mig_strategy") is not None:
        problems.add("mig_strategy", f"{a['mig_strategy']!r} without mig_profile; allowed: unset, or set mig_profile")
    a.setdefault("mig_strategy", None)
    if a["mig_strategy"] is not None and a["mig_strategy"] not in MIG_STRATEGIES:
        problems.add("mig_strategy", f"{a['mig_strategy']!r}; allowed: {', '.join(MIG_STRATEGIES)}")
    if a["eviction_policy"] not in EVICTION_POLICIES:
        problems.add("eviction_policy", f"{a['eviction_policy']!r}; allowed: {', '.join(EVICTION_POLICIES)}")
    problems.check("spot_max_price", spot_max_price, a["spot_max_price"])
    check_metrics_inputs(a, problems)
    if a["gpu_metrics"] and not (a["install_device_plugin"] or a["gpu_operator"]):
        problems.add(
            "gpu_metrics",
            "needs this pool to deploy the NVIDIA stack (install_device_plugin or gpu_operator): the DCGM exporter "
            "goes through the same Kubernetes provider",
        )
    if size_name and not problems.found:
        size = catalog().get(size_name)
        a["node_labels"] = {
            **a["node_labels"],
            ACCELERATOR_LABEL: "nvidia",
            GPU_MODEL_LABEL: gpu_model_label(size.gpu_model),
        }
    return problems.checked(a)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_existing(problems: Problems, existing: Mapping[str, Any], args: Mapping[str, Any]) -> None:
    if existing.get("id"):
        problems.check("existing_cluster.id", aks_cluster_id, existing["id"])
        if existing.get("name") or existing.get("resource_group_name"):
            problems.add("existing_cluster", "give either id, or name and resource_group_name, not both")
    elif not (existing.get("name") and existing.get("resource_group_name")):
        problems.add("existing_cluster", f"{dict(existing)!r}; allowed: {{id}} or {{name, resource_group_name}}")
    for key in NEW_CLUSTER_ARGS:
        if args.get(key) is not None:  # type: ignore[misc]
            problems.add(key, "only shapes a new cluster; leave it unset with existing_cluster")


def _check_counts(problems: Problems, low: Any, high: Any) -> None:
    low_ok = _whole(low) and 0 <= low <= MAX_POOL_NODES
    high_ok = _whole(high) and 1 <= high <= MAX_POOL_NODES
    if not low_ok:
        problems.add("min_count", f"{low!r}; allowed: a whole number from 0 to {MAX_POOL_NODES}")
    if not high_ok:
        problems.add("max_count", f"{high!r}; allowed: a whole number from 1 to {MAX_POOL_NODES}")
    if low_ok and high_ok and low > high:
        problems.add("min_count", f"{low} is above max_count {high}; allowed: min_count <= max_count")


def _check_driver_owner(problems: Problems, a: Mapping[str, Any]) -> None:
    """Exactly one party advertises the GPUs and owns the driver (NVIDIA/aicr docs/integrator/aks-gpu-setup.md,
    "GPU Driver Setup" and "Device Plugin vs DRA", observed 2026-11-25): never two device plugins, and a
    pool without the AKS driver needs the GPU Operator."""
    if a.get("install_device_plugin") and a["gpu_operator"]:
        problems.add(
            "install_device_plugin",
            "true with gpu_operator true: the GPU Operator runs its own device plugin, and two plugins would "
            "advertise the same GPUs twice; allowed: false or unset",
        )
    elif a.get("install_device_plugin") and a["gpu_driver"] == "None":
        problems.add(
            "install_device_plugin",
            "true with gpu_driver None: with no AKS driver the NVIDIA GPU Operator must install driver, toolkit and "
            "its own device plugin; allowed: false or unset, with gpu_operator true",
        )


def _check_mig(problems: Problems, profile: Any, size_name: str | None) -> None:
    if profile not in MIG_PROFILES:
        problems.add("mig_profile", f"{profile!r}; allowed: {', '.join(MIG_PROFILES)}")
        return
    if not size_name:
        return
    size = catalog().get(size_name)
    if size.name not in AKS_MIG_SIZES or not mig_slices(size.gpu_model):
        problems.add(
            "mig_profile",
            f"{profile} on '{size.name}' ({size.gpu_model}): AKS splits GPUs only on "
            f"{', '.join(sorted(AKS_MIG_SIZES))}; allowed: one of those sizes, or no mig_profile",
        )
