"""The NVIDIA GPU Operator on an AKS cluster: a pinned Helm release whose values match the GPU pool's
driver owner and MIG setting, so that exactly one party owns each part of the NVIDIA stack.

AKS has two ownership modes that must not be mixed (NVIDIA AI Cluster Runtime,
docs/integrator/aks-gpu-setup.md and recipes/components/gpu-operator/values-aks.yaml in NVIDIA/aicr;
Learn: https://learn.microsoft.com/azure/aks/nvidia-gpu-operator; observed 2026-11-25):

- pool `gpuProfile.driver: Install` (the AKS default): the node image installs driver and container
  toolkit; the operator runs with `driver.enabled=false`, `toolkit.enabled=false`,
  `operator.runtimeClass=nvidia-container-runtime`;
- pool `gpuProfile.driver: None`: the operator installs them: `driver.enabled=true`,
  `toolkit.enabled=true`, `operator.runtimeClass=nvidia`.

Mixing them leaves containerd without an `nvidia` runtime: every operand fails with
`FailedCreatePodSandBox: no runtime for "nvidia" is configured` and the nodes advertise no GPUs.
The operator brings its own device plugin (`devicePlugin.enabled`), so it is never deployed beside
ours. With a MIG pool, AKS partitions the GPUs itself (`gpuInstanceProfile`), so the operator's MIG
manager stays off (its default configuration would reset the partitioning; our reading of NVIDIA's
"GPU Operator with MIG" page, not verified on a cluster here) and only `mig.strategy` is set.

Every operand DaemonSet, and the Node Feature Discovery worker that labels GPU nodes, must tolerate
the pool's taints: the chart tolerates `nvidia.com/gpu` only (gpu-operator values.yaml,
`daemonsets.tolerations` and `node-feature-discovery.worker.tolerations`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pulumi

from .aks_gpu_scheduling import NVIDIA_GPU_TAINT, SPOT_TAINT, toleration

# NVIDIA's chart repository and the release pinned here: v26.7.1 (NVIDIA/aicr
# recipes/components/gpu-operator/upgrades.yaml verified it on 2026-09-28; release notes:
# https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/26.7/release-notes.html).
GPU_OPERATOR_CHART = "gpu-operator"
GPU_OPERATOR_VERSION = "v26.7.1"
GPU_OPERATOR_REPO = "https://helm.ngc.nvidia.com/nvidia"
GPU_OPERATOR_NAMESPACE = "gpu-operator"
HELM_RELEASE_TYPE = "kubernetes:helm.sh/v3:Release"
# operator.runtimeClass per driver owner: the handler the node image preconfigures, or the operator's own.
RUNTIME_CLASS = {"Install": "nvidia-container-runtime", "None": "nvidia"}


def gpu_operator_values(*, gpu_driver: str, node_taints: Sequence[str], mig_strategy: str | None) -> dict[str, Any]:
    """The chart values for one ownership mode; `mig_strategy` None for whole GPUs."""
    operator_owns_driver = gpu_driver == "None"
    tolerations = [toleration(t) for t in dict.fromkeys([*node_taints, SPOT_TAINT, NVIDIA_GPU_TAINT])]
    values: dict[str, Any] = {
        "driver": {"enabled": operator_owns_driver},
        "toolkit": {"enabled": operator_owns_driver},
        "operator": {"runtimeClass": RUNTIME_CLASS[gpu_driver]},
        "devicePlugin": {"enabled": True},
        "daemonsets": {"tolerations": tolerations},
        "node-feature-discovery": {"worker": {"tolerations": tolerations}},
    }
    if mig_strategy is not None:
        values["mig"] = {"strategy": mig_strategy}
        values["migManager"] = {"enabled": False}
    return values


def create_gpu_operator(
    name: str,
    provider: pulumi.ProviderResource,
    *,
    after: list[pulumi.Resource],
    parent: pulumi.Resource,
    values: dict[str, Any],
) -> pulumi.CustomResource:
    """The pinned Helm release, in its own namespace, through the cluster's Kubernetes provider."""
    import pulumi_kubernetes as k8s

    return k8s.helm.v3.Release(
        f"{name}-gpu-operator",
        chart=GPU_OPERATOR_CHART,
        version=GPU_OPERATOR_VERSION,
        repository_opts={"repo": GPU_OPERATOR_REPO},
        namespace=GPU_OPERATOR_NAMESPACE,
        create_namespace=True,
        values=values,
        opts=pulumi.ResourceOptions(parent=parent, provider=provider, depends_on=after),
    )
