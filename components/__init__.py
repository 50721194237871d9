"""Reusable Pulumi components for GPU compute on Azure.

    from components import AmlCluster, CostAlert, GpuVm, TrainingCluster

Components load lazily: importing this package does not import pulumi-azure-native, whose
modules take seconds to load; each component's module loads on first use.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "GpuVm": "components.gpu_vm",
    "GpuVmArgs": "components.gpu_vm",
    "AmlCluster": "components.aml_cluster",
    "AmlClusterArgs": "components.aml_cluster",
    "CostAlert": "components.cost_alert",
    "CostAlertArgs": "components.cost_alert",
    "TrainingCluster": "components.training_cluster",
    "TrainingClusterArgs": "components.training_cluster",
    "ComponentInputError": "components.checks",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'components' has no attribute '{name}'")
    return getattr(importlib.import_module(module), name)
