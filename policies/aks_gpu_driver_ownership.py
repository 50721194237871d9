"""aks-gpu-driver-ownership: each AKS cluster's GPU pools have exactly one owner of the NVIDIA stack.

Rule: for each AKS cluster of the stack, its GPU pools (`containerservice:AgentPool` and GPU entries of
a `ManagedCluster`'s `agentPoolProfiles`) are held against the Kubernetes objects the stack deploys to
it: NVIDIA device plugin DaemonSets (image `.../k8s-device-plugin`) and GPU Operator Helm releases
(chart `gpu-operator`, `kubernetes:helm.sh/v3:Release` or `v4:Chart`). Reported:
- more than one GPU advertiser (two device plugins, or the device plugin beside the operator's);
- a GPU Operator whose `driver.enabled` / `toolkit.enabled` do not match the pools' `gpuProfile.driver`
  (`Install`: both false, the AKS node image owns them; `None`: both true), or pools of both modes
  under one operator; a pool with `gpuProfile.driver: None` and no GPU Operator to install the driver;
- a MIG pool (`gpuInstanceProfile`) whose advertiser runs without a MIG strategy (`single`/`mixed`);
- an advertiser (and the operator's Node Feature Discovery worker) that does not tolerate every taint
  of the pools (the pool's `nodeTaints`, and AKS's Spot taint on Spot pools), so it never lands.
A Kubernetes object belongs to the cluster of the GPU pool that shares its parent component, or to the
stack's only cluster with GPU pools; objects the policy cannot attribute are left alone.
Why: mixing the modes ends in `FailedCreatePodSandBox: no runtime for "nvidia"` and no
`nvidia.com/gpu` on the nodes; two advertisers double-allocate GPUs; an intolerant DaemonSet never
reaches the GPU nodes. Sources (observed 2026-11-25): NVIDIA/aicr docs/integrator/aks-gpu-setup.md
("GPU Driver Setup", "Device Plugin vs DRA"), https://learn.microsoft.com/azure/aks/nvidia-gpu-operator,
NVIDIA k8s-device-plugin's MIG_STRATEGY, gpu-operator's chart values (`mig.strategy` default single).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from pulumi_policy import EnforcementLevel, ReportViolation, Severity, StackValidationArgs, StackValidationPolicy

from ..catalog.limits import LIMITS
from ..catalog.shapes import canonical_type
from . import config
from .values import UNKNOWN, elements, get, text
from .vm_size_lifecycle import catalog_entry

NAME = "aks-gpu-driver-ownership"
AGENT_POOL = "azure-native:containerservice:AgentPool"
CLUSTER = "azure-native:containerservice:ManagedCluster"
DAEMONSET = "kubernetes:apps/v1:DaemonSet"
HELM_TYPES = frozenset({"kubernetes:helm.sh/v3:Release", "kubernetes:helm.sh/v4:Chart"})
DEVICE_PLUGIN_IMAGE = "k8s-device-plugin"
OPERATOR_CHART = "gpu-operator"
# What the GPU Operator's chart does when a value is not given (gpu-operator values.yaml): it owns
# driver and toolkit, runs its device plugin, advertises MIG with the single strategy, and its operands
# tolerate only nvidia.com/gpu.
CHART_DEFAULTS = {"driver": True, "toolkit": True, "devicePlugin": True, "mig": "single"}
CHART_TOLERATIONS = ({"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},)
OPERATOR_VALUES_FOR = {"Install": False, "None": True}  # gpuProfile.driver -> driver/toolkit.enabled
MODE_NAMES = {"Install": "AKS-managed driver", "None": "operator-managed driver"}
CONFIG = config.schema({})


@dataclass
class _Pool:
    label: str
    cluster: str
    parent: str | None
    driver: Any  # "Install", "None" or UNKNOWN
    mig_profile: str | None
    taints: list[str]


@dataclass
class _Advertiser:
    label: str
    parent: str | None
    operator: bool
    tolerations: list[Any]
    mig_strategy: str | None
    driver_enabled: Any = None  # operators only
    toolkit_enabled: Any = None
    advertises: bool = True
    feature_discovery_tolerations: list[Any] | None = None


@dataclass
class _Cluster:
    pools: list[_Pool] = field(default_factory=list)
    advertisers: list[_Advertiser] = field(default_factory=list)


def validate(args: StackValidationArgs, report_violation: ReportViolation) -> None:
    clusters: dict[str, _Cluster] = {}
    for pool in _gpu_pools(args.resources):
        clusters.setdefault(pool.cluster, _Cluster()).pools.append(pool)
    for advertiser in _advertisers(args.resources):
        cluster = _cluster_of(advertiser, clusters)
        if cluster is not None:
            cluster.advertisers.append(advertiser)
    for name, cluster in clusters.items():
        for message in _problems(name, cluster):
            report_violation(message, None)


def _gpu_pools(resources: list[Any]) -> Iterator[_Pool]:
    for r in resources:
        kind = canonical_type(r.resource_type)
        if kind == AGENT_POOL:
            cluster = f"{text(get(r.props, 'resourceGroupName')) or '?'}/{text(get(r.props, 'resourceName')) or '?'}"
            pool = _pool(r.props, text(get(r.props, "agentPoolName")) or r.name, cluster, r)
            if pool:
                yield pool
        elif kind == CLUSTER:
            cluster = f"{text(get(r.props, 'resourceGroupName')) or '?'}/{text(get(r.props, 'resourceName')) or r.name}"
            for profile in elements(get(r.props, "agentPoolProfiles")):
                pool = _pool(profile, text(get(profile, "name")) or "?", cluster, r)
                if pool:
                    yield pool


def _pool(props: Any, name: str, cluster: str, resource: Any) -> _Pool | None:
    entry = catalog_entry(get(props, "vmSize"))
    if entry is None or not entry.is_nvidia:
        return None
    driver = get(props, "gpuProfile", "driver")
    taints = [t for item in elements(get(props, "nodeTaints")) if (t := text(item))]
    if text(get(props, "scaleSetPriority")) == "Spot":
        taints.append(LIMITS.taints.spot)
    parent = getattr(getattr(resource, "parent", None), "urn", None)
    return _Pool(
        label=f"pool '{name}' of cluster {cluster}",
        cluster=cluster,
        parent=parent,
        driver="Install" if driver is None else (text(driver) if driver is not UNKNOWN else UNKNOWN),
        mig_profile=text(get(props, "gpuInstanceProfile")),
        taints=taints,
    )


def _advertisers(resources: list[Any]) -> Iterator[_Advertiser]:
    for r in resources:
        kind = canonical_type(r.resource_type)
        parent = getattr(getattr(r, "parent", None), "urn", None)
        if kind == DAEMONSET:
            pod = get(r.props, "spec", "template", "spec")
            containers = elements(get(pod, "containers"))
            plugin = [c for c in containers if DEVICE_PLUGIN_IMAGE in (text(get(c, "image")) or "")]
            if not plugin:
                continue
            env = {text(get(e, "name")): text(get(e, "value")) for c in plugin for e in elements(get(c, "env"))}
            strategy = env.get("MIG_STRATEGY")
            yield _Advertiser(
                label=f"device plugin DaemonSet '{r.name}'",
                parent=parent,
                operator=False,
                tolerations=list(elements(get(pod, "tolerations"))),
                mig_strategy=strategy if strategy not in (None, "none") else None,
            )
        elif kind in HELM_TYPES and (text(get(r.props, "chart")) or "").rstrip("/").endswith(OPERATOR_CHART):
            values = get(r.props, "values")
            tolerations = get(values, "daemonsets", "tolerations")
            nfd = get(values, "node-feature-discovery", "worker", "tolerations")
            yield _Advertiser(
                label=f"GPU Operator release '{r.name}'",
                parent=parent,
                operator=True,
                tolerations=list(elements(tolerations)) if tolerations is not None else list(CHART_TOLERATIONS),
                feature_discovery_tolerations=list(elements(nfd)) if nfd is not None else list(CHART_TOLERATIONS),
                mig_strategy=_value(values, ("mig", "strategy"), CHART_DEFAULTS["mig"]),
                driver_enabled=_value(values, ("driver", "enabled"), CHART_DEFAULTS["driver"]),
                toolkit_enabled=_value(values, ("toolkit", "enabled"), CHART_DEFAULTS["toolkit"]),
                advertises=_value(values, ("devicePlugin", "enabled"), CHART_DEFAULTS["devicePlugin"]) is not False,
            )


def _value(values: Any, path: tuple[str, ...], default: Any) -> Any:
    found = get(values, *path)
    return default if found is None else found


def _cluster_of(advertiser: _Advertiser, clusters: dict[str, _Cluster]) -> _Cluster | None:
    """The cluster of the GPU pool with the same parent component; else the stack's only cluster."""
    if advertiser.parent:
        for cluster in clusters.values():
            if any(pool.parent == advertiser.parent for pool in cluster.pools):
                return cluster
    return next(iter(clusters.values())) if len(clusters) == 1 else None


def _problems(name: str, cluster: _Cluster) -> Iterator[str]:
    advertising = [a for a in cluster.advertisers if a.advertises]
    if len(advertising) > 1:
        yield (
            f"cluster {name}: {len(advertising)} GPU advertisers ({', '.join(a.label for a in advertising)}) would "
            "advertise the same GPUs and double-allocate them; keep one (AksGpuPool: gpu_operator on one pool, "
            "install_device_plugin false on the others)."
        )
    operators = [a for a in cluster.advertisers if a.operator]
    modes = {p.driver for p in cluster.pools if p.driver is not UNKNOWN}
    for pool in cluster.pools:
        if pool.driver == "None" and not operators:
            yield (
                f"{pool.label} has gpuProfile.driver None ({MODE_NAMES['None']}) but no GPU Operator is deployed to "
                "the cluster: nothing installs the NVIDIA driver, and its nodes advertise no GPUs; deploy the GPU "
                "Operator with driver.enabled=true and toolkit.enabled=true (AksGpuPool: gpu_operator true)."
            )
    for operator in operators:
        if len(modes) > 1:
            yield (
                f"cluster {name}: {operator.label} serves pools of both driver modes "
                f"({', '.join(f'{p.label}: {p.driver}' for p in cluster.pools)}); one operator configuration cannot "
                "own the driver on some nodes and not others: give every GPU pool of the cluster one gpuProfile.driver."
            )
        elif len(modes) == 1:
            (mode,) = modes
            yield from _operator_mode(operator, mode, name)
    for pool in cluster.pools:
        for advertiser in cluster.advertisers:
            if pool.mig_profile and advertiser.advertises and advertiser.mig_strategy not in ("single", "mixed"):
                yield (
                    f"{pool.label} splits its GPUs ({pool.mig_profile}) but {advertiser.label} runs without a MIG "
                    "strategy, so no MIG slice is advertised; set MIG_STRATEGY (device plugin) or mig.strategy "
                    "(GPU Operator) to single or mixed."
                )
            yield from _tolerations(advertiser, pool)


def _operator_mode(operator: _Advertiser, mode: str, cluster: str) -> Iterator[str]:
    wanted = OPERATOR_VALUES_FOR.get(mode)
    if wanted is None:
        return
    found = {"driver.enabled": operator.driver_enabled, "toolkit.enabled": operator.toolkit_enabled}
    wrong = {k: v for k, v in found.items() if v is not UNKNOWN and v is not wanted}
    if wrong:
        yield (
            f"cluster {cluster}: {operator.label} has {', '.join(f'{k}={v}' for k, v in wrong.items())} but the GPU "
            f"pools are in {MODE_NAMES[mode]} mode (gpuProfile.driver {mode}); set driver.enabled and "
            f"toolkit.enabled to {str(wanted).lower()}, or the pools' driver to "
            f"{'None' if mode == 'Install' else 'Install'}: mixing them leaves containerd without an nvidia "
            'runtime (FailedCreatePodSandBox: no runtime for "nvidia").'
        )


def _tolerations(advertiser: _Advertiser, pool: _Pool) -> Iterator[str]:
    lists = [("", advertiser.tolerations)]
    if advertiser.feature_discovery_tolerations is not None:
        lists.append((" (its Node Feature Discovery worker)", advertiser.feature_discovery_tolerations))
    for where, tolerations in lists:
        if any(t is UNKNOWN for t in tolerations):
            continue
        missing = [taint for taint in pool.taints if not any(_tolerates(t, taint) for t in tolerations)]
        if missing:
            yield (
                f"{advertiser.label}{where} does not tolerate {', '.join(missing)} of {pool.label}, so it never "
                "runs on those GPU nodes; add a toleration for each taint."
            )


def _tolerates(toleration: Any, taint: str) -> bool:
    """Kubernetes' matching: same key (or an empty key with Exists), value unless Exists, effect unless empty."""
    key_value, _, effect = taint.rpartition(":")
    key, _, value = key_value.partition("=")
    t_key = text(get(toleration, "key")) or ""
    operator = text(get(toleration, "operator")) or "Equal"
    t_effect = text(get(toleration, "effect")) or ""
    if t_key != key and not (t_key == "" and operator == "Exists"):
        return False
    if operator != "Exists" and (text(get(toleration, "value")) or "") != value:
        return False
    return t_effect in ("", effect)


POLICY = StackValidationPolicy(
    name=NAME,
    description="AKS GPU pools have one owner of the NVIDIA driver and one GPU advertiser, configured to match.",
    validate=validate,
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.HIGH,
    config_schema=CONFIG,
    remediation_steps=(
        "Pick one mode per cluster: the AKS driver (gpuProfile.driver Install) with our device plugin or with the "
        "GPU Operator at driver.enabled=false and toolkit.enabled=false; or gpuProfile.driver None with the GPU "
        "Operator owning driver and toolkit. Deploy one advertiser per cluster, give MIG pools a MIG strategy, and "
        "let every NVIDIA DaemonSet tolerate the GPU pools' taints (AksGpuPool does all of this)."
    ),
    url="https://learn.microsoft.com/azure/aks/nvidia-gpu-operator",
)
