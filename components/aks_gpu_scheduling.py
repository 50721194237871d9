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

from collections.abc import Sequence
from typing import TypedDict

from azure_gpu_stacks.catalog.limits import LIMITS

# The taints, from the one home of Azure constants (kept here by name: teams import them for pod specs).
GPU_TAINT = LIMITS.taints.gpu
SPOT_TAINT = LIMITS.taints.spot
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
    """Container `resources`: the GPUs requested, as request and limit (they must be equal)."""


def split_taint(taint: str) -> tuple[str, str, str]:
    """`key=value:Effect` -> (key, value, effect); value is "" for `key:Effect`."""
    key_value, _, effect = taint.rpartition(":")
    key, _, value = key_value.partition("=")
    return key, value, effect


def toleration(taint: str) -> Toleration:
    """The toleration matching one `key=value:Effect` taint exactly."""
    key, value, effect = split_taint(taint)
    return {"key": key, "operator": "Equal", "value": value, "effect": effect}


def gpu_pod_scheduling(*, gpus: int = 1, spot: bool = False, taints: Sequence[str] = (GPU_TAINT,)) -> GpuPodScheduling:
    """Tolerations and the `nvidia.com/gpu` request for a pod on a GPU pool.

    `taints` are the pool's own taints (default: the GPU taint alone); with `spot`, AKS's Spot taint
    is tolerated too. Kubernetes requires GPU requests to equal limits, so both are set.
    """
    if gpus < 1:
        raise ValueError(f"gpus: {gpus}; allowed: a whole number of GPUs, at least 1")
    wanted = list(dict.fromkeys([*taints, *([SPOT_TAINT] if spot else [])]))
    return {
        "tolerations": [toleration(t) for t in wanted],
        "resources": {"requests": {GPU_RESOURCE: gpus}, "limits": {GPU_RESOURCE: gpus}},
    }
