"""The one program behind every shipped stack: config in, components out, outputs exported.

Which components a stack gets is said by its config: each section present (`vm`, `costAlert`, ...)
adds its component, in the order of `SECTIONS`. A new kind of stack adds a config section, a
component and a row here, never a new program.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pulumi

from components.config import PROJECT, StackConfig, load_from_pulumi


@dataclass
class Deployment:
    """What the sections build on: the validated config and the stack's resource group."""

    config: StackConfig
    resource_group: Any  # pulumi_azure_native.resources.ResourceGroup
    tags: dict[str, str]
    exports: dict[str, Any]


def _section_args(section: Any) -> dict[str, Any]:
    """A config section as component args: snake_case names, unset keys left to the component."""
    return {k: v for k, v in section.model_dump().items() if v is not None}


def _build_vm(d: Deployment) -> None:
    from components.gpu_vm import GpuVm

    assert d.config.vm is not None and d.config.ssh_public_key is not None
    vm = GpuVm(
        "gpu-vm",
        {
            **_section_args(d.config.vm),  # type: ignore[typeddict-item]
            "resource_group_name": d.resource_group.name,
            "location": d.config.location,
            "ssh_public_key": _secret_config("sshPublicKey", d.config.ssh_public_key),
            "tags": d.tags,
        },
    )
    d.exports.update(vmId=vm.vm_id, vmPrivateIp=vm.private_ip_address, sshCommand=vm.ssh_command)


def _build_training_cluster(d: Deployment) -> None:
    from components.training_cluster import TrainingCluster

    assert d.config.training_cluster is not None and d.config.ssh_public_key is not None
    cluster = TrainingCluster(
        "train",
        {
            **_section_args(d.config.training_cluster),  # type: ignore[typeddict-item]
            "resource_group_name": d.resource_group.name,
            "location": d.config.location,
            "ssh_public_key": _secret_config("sshPublicKey", d.config.ssh_public_key),
            "tags": d.tags,
        },
    )
    d.exports.update(
        scaleSetId=cluster.scale_set_id,
        scaleSetName=cluster.scale_set_name,
        placementGroupId=cluster.placement_group_id,
        nodeCount=cluster.node_count,
        gpusTotal=cluster.gpus_total,
        clusterSshCommand=cluster.ssh_command,
    )


def _build_aml_cluster(d: Deployment) -> None:
    from components.aml_cluster import AmlCluster

    assert d.config.aml_cluster is not None
    aml = AmlCluster(
        "aml",
        {
            **_section_args(d.config.aml_cluster),  # type: ignore[typeddict-item]
            "resource_group_name": d.resource_group.name,
            "location": d.config.location,
            "tags": d.tags,
        },
    )
    d.exports.update(
        amlWorkspaceId=aml.workspace_id,
        amlWorkspaceName=aml.workspace_name,
        amlComputeName=aml.compute_name,
        amlVmSize=aml.vm_size,
        amlNodeRange=aml.node_range,
        amlStudioUrl=aml.studio_url,
    )


def _build_aks_gpu_pool(d: Deployment) -> None:
    from components.aks_gpu_pool import AksGpuPool

    assert d.config.aks_gpu_pool is not None
    pool = AksGpuPool(
        "aks-gpu",
        {
            **_section_args(d.config.aks_gpu_pool),  # type: ignore[typeddict-item]
            "resource_group_name": d.resource_group.name,
            "location": d.config.location,
            "tags": d.tags,
        },
    )
    d.exports.update(
        aksClusterName=pool.cluster_name,
        aksClusterId=pool.cluster_id,
        gpuPoolName=pool.pool_name,
        gpuVmSize=pool.vm_size,
        gpuNodeRange=pool.node_range,
        kubeconfig=pool.kubeconfig,
    )


def _build_cost_alert(d: Deployment) -> None:
    from components.cost_alert import CostAlert

    assert d.config.cost_alert is not None
    alert = CostAlert("cost-alert", {**_section_args(d.config.cost_alert), "scope": d.resource_group.id})  # type: ignore[typeddict-item]
    d.exports.update(budgetId=alert.budget_id, budgetAmountUsd=alert.amount)


# (config section, builder), in build order.
SECTIONS: list[tuple[str, Callable[[Deployment], None]]] = [
    ("vm", _build_vm),
    ("training_cluster", _build_training_cluster),
    ("aml_cluster", _build_aml_cluster),
    ("aks_gpu_pool", _build_aks_gpu_pool),
    ("cost_alert", _build_cost_alert),
]


def _secret_config(key: str, value: str) -> pulumi.Input[str]:
    """Keep a value secret when the stack holds it as one (`pulumi config set --secret`)."""
    return pulumi.Output.secret(value) if pulumi.runtime.is_config_secret(f"{PROJECT}:{key}") else value


def main() -> None:
    from pulumi_azure_native import resources

    config = load_from_pulumi()
    for warning in config.warnings():
        pulumi.log.warn(warning)
    tags = {"managed-by": "pulumi", "project": PROJECT, "stack": pulumi.get_stack(), **config.tags}
    rg = resources.ResourceGroup(
        "rg",
        resource_group_name=config.resource_group_name or f"rg-{pulumi.get_stack()}",
        location=config.location,
        tags=tags,
    )
    deployment = Deployment(config, rg, tags, {"resourceGroupName": rg.name, "location": config.location})
    for section, build in SECTIONS:
        if getattr(config, section) is not None:
            build(deployment)
    for name, value in deployment.exports.items():
        pulumi.export(name, value)
