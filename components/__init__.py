"""Reusable Pulumi components for GPU compute on Azure.

    from . import AksGpuPool, AmlCluster, CostAlert, GpuVm, TrainingCluster

Components load lazily: importing this package does not import pulumi-azure-native, whose
modules take seconds to load; each component's module loads on first use. The components and
their Args come from `azure_gpu_stacks.components.registry.REGISTRY`; `COMPONENTS` is the list of their classes.
"""

from __future__ import annotations

import importlib
from typing import Any

from .registry import REGISTRY, args_name
from .version import __version__ as __version__

_EXPORTS = {
    **{name: module for name, module in REGISTRY},
    **{args_name(name): module for name, module in REGISTRY},
    "ComponentInputError": "azure_gpu_stacks.components.checks",
    "gpu_pod_scheduling": "azure_gpu_stacks.components.aks_gpu_scheduling",
    "COMPONENTS": "azure_gpu_stacks.components.registry",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'components' has no attribute '{name}'")
    return getattr(importlib.import_module(module), name)
