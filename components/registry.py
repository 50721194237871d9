"""The registry of components: the one list every consumer of "all the components" reads.

Adding a component is one row in `REGISTRY`. From it come: the `from azure_gpu_stacks.components import X` and
`XArgs` names (`components/__init__.py`), the component package other languages use
(`provider/__main__.py`, `azure_gpu_stacks.components.package`), its schema test, and the reference in
`docs/components.md` (`python -m azure_gpu_stacks.components.docs`).

Rows are (class name, module) so that reading the registry imports nothing: a component's module
loads pulumi-azure-native submodules, which take seconds (measured: bench/README.md).
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pulumi

# (component class, its module); the Args TypedDict is `<class>Args` in the same module.
# Order is the order of the docs and the schema.
REGISTRY: tuple[tuple[str, str], ...] = (
    ("GpuVm", "azure_gpu_stacks.components.gpu_vm"),
    ("TrainingCluster", "azure_gpu_stacks.components.training_cluster"),
    ("AmlCluster", "azure_gpu_stacks.components.aml_cluster"),
    ("AmlComputeInstance", "azure_gpu_stacks.components.aml_compute_instance"),
    ("AksGpuPool", "azure_gpu_stacks.components.aks_gpu_pool"),
    ("BatchGpuPool", "azure_gpu_stacks.components.batch_gpu_pool"),
    ("CostAlert", "azure_gpu_stacks.components.cost_alert"),
)


def args_name(component: str) -> str:
    """The name of a component's Args TypedDict, by the house convention."""
    return f"{component}Args"


@cache
def component_classes() -> tuple[type[pulumi.ComponentResource], ...]:
    """Every registered component class, imported on first call."""
    return tuple(getattr(importlib.import_module(module), name) for name, module in REGISTRY)


def __getattr__(name: str) -> Any:
    # `COMPONENTS` is computed on first access, so importing the registry stays cheap.
    if name == "COMPONENTS":
        return list(component_classes())
    raise AttributeError(f"module 'azure_gpu_stacks.components.registry' has no attribute '{name}'")
