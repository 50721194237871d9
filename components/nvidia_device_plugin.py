"""The NVIDIA device plugin on an AKS cluster, as the AKS GPU docs deploy it: a pinned DaemonSet in
`gpu-resources`, on GPU nodes only, tolerating every taint of the GPU pools (and AKS's Spot taint).

It advertises `nvidia.com/gpu` on each node, which GPU pods request; without it they stay Pending.
Deployed through pulumi-kubernetes with the cluster's kubeconfig, by `AksGpuPool` unless the GPU
Operator (driver mode `None`) or another tool manages it.

Azure docs: https://learn.microsoft.com/azure/aks/use-nvidia-gpu (observed 2026-11-22)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pulumi

from .aks_gpu_scheduling import NVIDIA_GPU_TAINT, SPOT_TAINT, toleration

DEVICE_PLUGIN_IMAGE = "nvcr.io/nvidia/k8s-device-plugin:v0.18.0"
DEVICE_PLUGIN_NAMESPACE = "gpu-resources"
DEVICE_PLUGIN_NAME = "nvidia-device-plugin-daemonset"
DEVICE_PLUGIN_PRIORITY_CLASS = "system-node-critical"  # evicted last, scheduled first on a full node
DEVICE_PLUGIN_HOST_PATH = "/var/lib/kubelet/device-plugins"
ACCELERATOR_LABEL = "accelerator"  # = nvidia on every GPU node: the device plugin's node selector


def kubernetes_provider(name: str, kubeconfig: pulumi.Output[str], parent: pulumi.Resource) -> pulumi.ProviderResource:
    """The Kubernetes provider for the cluster the pool is on: the device plugin or the GPU Operator goes through it."""
    # pulumi-kubernetes costs a second of import time; only stacks that deploy to the cluster pay it.
    import pulumi_kubernetes as k8s

    return k8s.Provider(f"{name}-k8s", kubeconfig=kubeconfig, opts=pulumi.ResourceOptions(parent=parent))


def create_device_plugin(
    name: str,
    provider: pulumi.ProviderResource,
    *,
    after: list[pulumi.Resource],
    parent: pulumi.Resource,
    node_taints: Sequence[str],
    mig_strategy: str | None,
) -> None:
    """The plugin's namespace and DaemonSet, through the cluster's Kubernetes provider."""
    import pulumi_kubernetes as k8s

    on_cluster = pulumi.ResourceOptions(parent=parent, provider=provider, depends_on=after)
    namespace = k8s.core.v1.Namespace(
        f"{name}-gpu-resources", metadata={"name": DEVICE_PLUGIN_NAMESPACE}, opts=on_cluster
    )
    k8s.apps.v1.DaemonSet(  # type: ignore[call-overload]  # the spec is a plain dict, a valid Input
        f"{name}-device-plugin",
        metadata={"name": DEVICE_PLUGIN_NAME, "namespace": namespace.metadata["name"]},
        spec=device_plugin_spec(node_taints, mig_strategy=mig_strategy),
        opts=on_cluster,
    )


def device_plugin_spec(node_taints: Sequence[str], *, mig_strategy: str | None) -> dict[str, Any]:
    """The DaemonSet spec of the AKS docs, narrowed to GPU nodes and tolerating every GPU-pool taint."""
    selector = {"name": "nvidia-device-plugin-ds"}
    # Spot and nvidia.com/gpu are tolerated even where the pool does not use them: the one plugin then
    # also serves GPU pools added to the cluster later.
    taints = list(dict.fromkeys([*node_taints, SPOT_TAINT, NVIDIA_GPU_TAINT]))
    env = [{"name": "FAIL_ON_INIT_ERROR", "value": "false"}]
    if mig_strategy is not None:
        # single: every MIG slice is one nvidia.com/gpu; mixed: nvidia.com/mig-<slice> per slice size.
        env.append({"name": "MIG_STRATEGY", "value": mig_strategy})
    return {
        "selector": {"matchLabels": selector},
        "updateStrategy": {"type": "RollingUpdate"},
        "template": {
            "metadata": {"labels": selector},
            "spec": {
                "nodeSelector": {ACCELERATOR_LABEL: "nvidia"},
                "tolerations": [toleration(t) for t in taints],
                "priorityClassName": DEVICE_PLUGIN_PRIORITY_CLASS,
                "containers": [
                    {
                        "name": "nvidia-device-plugin-ctr",
                        "image": DEVICE_PLUGIN_IMAGE,
                        "env": env,
                        "securityContext": {"allowPrivilegeEscalation": False, "capabilities": {"drop": ["ALL"]}},
                        "volumeMounts": [{"name": "device-plugin", "mountPath": DEVICE_PLUGIN_HOST_PATH}],
                    }
                ],
                "volumes": [{"name": "device-plugin", "hostPath": {"path": DEVICE_PLUGIN_HOST_PATH}}],
            },
        },
    }
