"""What a pod needs to land on an AKS GPU node: the tolerations of the pool's taints and the GPU request.

GPU node pools are tainted `sku=gpu:NoSchedule` so that ordinary pods stay off the expensive
nodes; a GPU pod must tolerate that taint and request `nvidia.com/gpu` (the resource the NVIDIA
device plugin advertises). On a Spot pool AKS adds its own taint,
`kubernetes.azure.com/scalesetpriority=spot:NoSchedule`, which pods must tolerate as well.
These helpers return both as plain Kubernetes-shaped dicts (camelCase keys), usable as
pulumi-kubernetes inputs or dumped into a manifest, so teams do not copy taints by hand.

Sources (observed 2026-11-22): AKS use-nvidia-gpu.md (taint, toleration, `nvidia.com/gpu`) and
spot-node-pool.md (the Spot taint and label), in MicrosoftDocs/azure-aks-docs, articles/aks/:
https://learn.microsoft.com/azure/aks/use-nvidia-gpu, https://learn.microsoft.com/azure/aks/spot-node-pool
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NotRequired, TypedDict

from ..catalog.limits import LIMITS

# The taints, from the one home of Azure constants (kept here by name: teams import them for pod specs).
GPU_TAINT = LIMITS.taints.gpu
SPOT_TAINT = LIMITS.taints.spot
NVIDIA_GPU_TAINT = LIMITS.taints.nvidia_gpu
GPU_RESOURCE = "nvidia.com/gpu"


class Toleration(TypedDict):
    key: str
    operator: str
    value: str
    effect: str


class GpuPodScheduling(TypedDict):
    """The parts of a pod spec (and of its container) that get it onto a GPU node."""

    tolerations: list[Toleration]
    """Pod spec `tolerations`: one per taint of the pool."""
    resources: dict[str, dict[str, int]]
    """Container `resources`: the GPUs (or MIG slices) requested, as request and limit (they must be equal)."""
    nodeSelector: NotRequired[dict[str, str]]
    """Pod spec `nodeSelector`: the pool's GPU model, where the pool sets its label."""


def split_taint(taint: str) -> tuple[str, str, str]:
    """`key=value:Effect` -> (key, value, effect); value is "" for `key:Effect`."""
    key_value, _, effect = taint.rpartition(":")
    key, _, value = key_value.partition("=")
    return key, value, effect


def toleration(taint: str) -> Toleration:
    """The toleration matching one `key=value:Effect` taint exactly; a `key:Effect` taint is tolerated
    whatever its value (operator Exists), as NVIDIA's charts tolerate `nvidia.com/gpu`."""
    key, value, effect = split_taint(taint)
    if not value:
        return {"key": key, "operator": "Exists", "value": "", "effect": effect}
    return {"key": key, "operator": "Equal", "value": value, "effect": effect}


def gpu_pod_scheduling(
    *,
    gpus: int = 1,
    spot: bool = False,
    taints: Sequence[str] = (GPU_TAINT,),
    resource: str = GPU_RESOURCE,
    node_selector: Mapping[str, str] | None = None,
) -> GpuPodScheduling:
    """Tolerations, the GPU request and (when given) the node selector for a pod on a GPU pool.

    `taints` are the pool's own taints (default: the GPU taint alone); with `spot`, AKS's Spot taint
    is tolerated too. `resource` is what the pool advertises: `nvidia.com/gpu` for whole GPUs and
    for MIG slices under the `single` strategy, `nvidia.com/mig-<slice>` under `mixed`. Kubernetes
    requires extended-resource requests to equal limits, so both are set.
    """
    if gpus < 1:
        raise ValueError(f"gpus: {gpus}; allowed: a whole number of GPUs, at least 1")
    wanted = list(dict.fromkeys([*taints, *([SPOT_TAINT] if spot else [])]))
    scheduling: GpuPodScheduling = {
        "tolerations": [toleration(t) for t in wanted],
        "resources": {"requests": {resource: gpus}, "limits": {resource: gpus}},
    }
    if node_selector:
        scheduling["nodeSelector"] = dict(node_selector)
    return scheduling
