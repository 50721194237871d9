"""Which config section becomes which component: the table the stack schema and the program share.

Each section of a stack file (`vm`, `costAlert`, ...) is the inputs of one component, less what the
stack provides itself (`provided`: its resource group, location and tags, its SSH key, a budget's
scope). `stack/config.py` checks a section by handing it to the component's `check_inputs`;
`stack/program.py` builds the component from it. A new kind of stack adds a component and a row
here (and the field of the same name on `StackConfig`), never a new program.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any

PLACED = ("resource_group_name", "location", "tags")


@dataclass(frozen=True)
class Section:
    """How one config section becomes a component and stack outputs."""

    key: str  # the StackConfig attribute
    component: str  # "module:Class"; the module defines `<Class>Args` and `check_inputs`
    name: str  # the component's logical name
    exports: tuple[tuple[str, str], ...]  # (stack output, component output attribute)
    placed: bool = True  # takes the stack's resource group, location and tags
    ssh_key: bool = False  # takes the stack's SSH public key
    scoped: bool = False  # watches the stack's resource group (a budget's scope)

    @property
    def class_name(self) -> str:
        return self.component.split(":")[1]

    def module(self) -> ModuleType:
        """The component's module, imported only when a stack has the section."""
        return importlib.import_module(self.component.split(":")[0])

    def args_type(self) -> Any:
        """The component's Args TypedDict."""
        return getattr(self.module(), f"{self.class_name}Args")

    @property
    def provided(self) -> tuple[str, ...]:
        """Inputs the stack gives the component itself; a section cannot set them."""
        return (
            *(PLACED if self.placed else ()),
            *(("ssh_public_key",) if self.ssh_key else ()),
            *(("scope",) if self.scoped else ()),
        )


# In build order.
SECTIONS: tuple[Section, ...] = (
    Section(
        "vm",
        "azure_gpu_stacks.components.gpu_vm:GpuVm",
        "gpu-vm",
        ssh_key=True,
        exports=(("vmId", "vm_id"), ("vmPrivateIp", "private_ip_address"), ("sshCommand", "ssh_command")),
    ),
    Section(
        "training_cluster",
        "azure_gpu_stacks.components.training_cluster:TrainingCluster",
        "train",
        ssh_key=True,
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
        "aml_cluster",
        "azure_gpu_stacks.components.aml_cluster:AmlCluster",
        "aml",
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
        "aks_gpu_pool",
        "azure_gpu_stacks.components.aks_gpu_pool:AksGpuPool",
        "aks-gpu",
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
        "batch_gpu_pool",
        "azure_gpu_stacks.components.batch_gpu_pool:BatchGpuPool",
        "batch-gpu",
        exports=(
            ("batchAccountName", "account_name"),
            ("batchPoolId", "pool_id"),
            ("batchVmSize", "vm_size"),
            ("batchNodeRange", "node_range"),
        ),
    ),
    Section(
        "cost_alert",
        "azure_gpu_stacks.components.cost_alert:CostAlert",
        "cost-alert",
        placed=False,
        scoped=True,
        exports=(("budgetId", "budget_id"), ("budgetAmountUsd", "amount")),
    ),
)
