"""Which AksGpuPool of a program owns the NVIDIA stack of an existing AKS cluster.

A cluster has one GPU advertiser (the device plugin, or the GPU Operator's) and, with the operator,
one driver mode (NVIDIA/aicr docs/integrator/aks-gpu-setup.md, observed 2026-11-25). The first pool a
program adds to an existing cluster deploys it; further pools on the same cluster deploy neither,
and are refused when they ask for a different owner, a different driver mode under the operator, or
taints the owner does not tolerate. New clusters are one per AksGpuPool, so only existing clusters
(by resource group and name, as Azure compares them: case-insensitively) are tracked. The record
lives as long as the program's root stack resource, so separate runs in one process never share it.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pulumi

from .checks import AKS_CLUSTER_ID_PATTERN, Problems


@dataclass(frozen=True)
class ClusterOwner:
    pool: str  # the AksGpuPool that deployed it
    operator: bool  # the GPU Operator (else the device plugin)
    gpu_driver: str
    taints: frozenset[str]


_OWNERS: weakref.WeakKeyDictionary[Any, dict[tuple[str, str], ClusterOwner]] = weakref.WeakKeyDictionary()


def _owners() -> dict[tuple[str, str], ClusterOwner]:
    root = pulumi.runtime.get_root_resource()
    if root is None:  # outside a program (a unit test of the checks): nothing to share
        return {}
    return _OWNERS.setdefault(root, {})


def cluster_key(existing: Mapping[str, Any]) -> tuple[str, str]:
    """(resource group, name) of an existing cluster given by id, or by name and resource group."""
    if existing.get("id"):
        match = AKS_CLUSTER_ID_PATTERN.match(existing["id"])
        assert match is not None  # validated by check_inputs
        return match["rg"], match["name"]
    return existing["resource_group_name"], existing["name"]


def claim(
    name: str, existing: Mapping[str, Any], given: Mapping[str, Any], a: dict[str, Any], problems: Problems
) -> None:
    """Record `name` as the owner of the existing cluster, or make it a further pool that deploys nothing;
    `a` (the checked inputs) is updated in place, `given` (what the user wrote) decides what is refused."""
    cluster = cluster_key(existing)
    key = (cluster[0].lower(), cluster[1].lower())
    owners = _owners()
    prior = owners.get(key)
    wants = a["gpu_operator"] or a["install_device_plugin"]
    if prior is None:
        if wants:
            owners[key] = ClusterOwner(name, a["gpu_operator"], a["gpu_driver"], frozenset(a["node_taints"]))
        return
    where = f"cluster {cluster[1]} already has the {_kind(prior)} of AksGpuPool '{prior.pool}'"
    if given.get("gpu_operator") and not prior.operator:
        problems.add("gpu_operator", f"true, but {where}; one GPU advertiser per cluster: leave gpu_operator unset")
    if given.get("install_device_plugin"):
        problems.add("install_device_plugin", f"true, but {where}; one GPU advertiser per cluster: leave it unset")
    if prior.operator and a["gpu_driver"] != prior.gpu_driver:
        problems.add(
            "gpu_driver",
            f"{a['gpu_driver']}, but {where}, configured for gpu_driver {prior.gpu_driver}; give every GPU pool of the "
            "cluster the same gpu_driver",
        )
    untolerated = sorted(set(a["node_taints"]) - prior.taints)
    if untolerated:
        problems.add(
            "node_taints",
            f"{', '.join(untolerated)} not tolerated by the {_kind(prior)} of AksGpuPool '{prior.pool}' on cluster "
            f"{cluster[1]}; allowed: the taints of that pool ({', '.join(sorted(prior.taints))})",
        )
    a["gpu_operator"] = False
    a["install_device_plugin"] = False


def _kind(owner: ClusterOwner) -> str:
    return "GPU Operator" if owner.operator else "device plugin"
