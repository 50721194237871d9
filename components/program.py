"""The one program behind every shipped stack: config in, components out, outputs exported.

Which components a stack gets is said by its config: each section present (`vm`, `costAlert`, ...)
adds its component, in the order of `SECTIONS`. A new kind of stack adds a config section, a
component and a row in `SECTIONS`, never a new program.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

import pulumi

from azure_gpu_stacks.components.config import PROJECT, StackConfig, load_from_pulumi


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


@dataclass(frozen=True)
class Section:
    """How one config section becomes a component and stack outputs."""

    key: str  # the StackConfig attribute
    component: str  # "module:Class"
    name: str  # the component's logical name
    exports: tuple[tuple[str, str], ...]  # (stack output, component output attribute)
    placed: bool = True  # takes the stack's resource group, location and tags
    ssh_key: bool = False  # takes the stack's SSH public key
    scoped: bool = False  # watches the stack's resource group (a budget's scope)


# In build order.
SECTIONS: tuple[Section, ...] = (
    Section(
        "vm", "azure_gpu_stacks.components.gpu_vm:GpuVm", "gpu-vm", ssh_key=True,
        exports=(("vmId", "vm_id"), ("vmPrivateIp", "private_ip_address"), ("sshCommand", "ssh_command")),
    ),
    Section(
        "training_cluster", "azure_gpu_stacks.components.training_cluster:TrainingCluster", "train", ssh_key=True,
        exports=(
            ("scaleSetId", "scale_set_id"),
            ("scaleSetName", "scale_set_name"),
            ("placementGroupId", "placement_group_id"),
            ("nodeCount", "node_count"),
            ("gpusTotal", "gpus_total"),
            ("clusterSshCommand", "ssh_command"),
        ),
    ),
    Section(
        "aml_cluster", "azure_gpu_stacks.components.aml_cluster:AmlCluster", "aml",
        exports=(
            ("amlWorkspaceId", "workspace_id"),
            ("amlWorkspaceName", "workspace_name"),
            ("amlComputeName", "compute_name"),
            ("amlVmSize", "vm_size"),
            ("amlNodeRange", "node_range"),
            ("amlStudioUrl", "studio_url"),
        ),
    ),
    Section(
        "aks_gpu_pool", "azure_gpu_stacks.components.aks_gpu_pool:AksGpuPool", "aks-gpu",
        exports=(
            ("aksClusterName", "cluster_name"),
            ("aksClusterId", "cluster_id"),
            ("gpuPoolName", "pool_name"),
            ("gpuVmSize", "vm_size"),
            ("gpuNodeRange", "node_range"),
            ("kubeconfig", "kubeconfig"),
        ),
    ),
    Section(
        "cost_alert", "azure_gpu_stacks.components.cost_alert:CostAlert", "cost-alert", placed=False, scoped=True,
        exports=(("budgetId", "budget_id"), ("budgetAmountUsd", "amount")),
    ),
)


def _build(section: Section, d: Deployment) -> None:
    """Build one section's component (imported only when a stack has the section) and export it."""
    module, class_name = section.component.split(":")
    component = getattr(importlib.import_module(module), class_name)
    args = _section_args(getattr(d.config, section.key))
    if section.placed:
        args.update(resource_group_name=d.resource_group.name, location=d.config.location, tags=d.tags)
    if section.ssh_key:
        assert d.config.ssh_public_key is not None  # StackConfig.problems() requires it
        args["ssh_public_key"] = _secret_config("sshPublicKey", d.config.ssh_public_key)
    if section.scoped:
        args["scope"] = d.resource_group.id
    built = component(section.name, args)
    d.exports.update({output: getattr(built, attribute) for output, attribute in section.exports})


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
    for section in SECTIONS:
        if getattr(config, section.key) is not None:
            _build(section, deployment)
    for name, value in deployment.exports.items():
        pulumi.export(name, value)
