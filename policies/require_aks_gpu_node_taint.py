"""require-aks-gpu-node-taint: AKS node pools with GPU sizes carry the `sku=gpu:NoSchedule` taint.

Rule: every AKS pool with a GPU VM size (`containerservice:AgentPool`, and each entry of a
`ManagedCluster`'s `agentPoolProfiles`) lists `requiredTaint` (default `sku=gpu:NoSchedule`) in
`nodeTaints`. Taints compare exactly, as Kubernetes matches tolerations.
Why: without the taint, ordinary pods land on GPU nodes, keep them from scaling down and take the
GPU memory from the jobs that need it; taints can be set only when a pool is created.
Azure doc: https://learn.microsoft.com/azure/aks/use-nvidia-gpu
"""

from __future__ import annotations

from typing import Any

from pulumi_policy import EnforcementLevel, ReportViolation, ResourceValidationArgs, ResourceValidationPolicy, Severity

from ..catalog.limits import LIMITS
from ..catalog.shapes import canonical_type
from . import config
from .values import UNKNOWN, elements, get, text
from .vm_size_lifecycle import catalog_entry

NAME = "require-aks-gpu-node-taint"
DEFAULT_TAINT = LIMITS.taints.gpu

CONFIG = config.schema(
    {
        "requiredTaint": {
            "type": "string",
            "default": DEFAULT_TAINT,
            "description": "The taint every GPU pool must carry, key=value:Effect.",
        }
    }
)


def validate(args: ResourceValidationArgs, report_violation: ReportViolation) -> None:
    required = str(config.values(args, CONFIG)["requiredTaint"]).replace(" ", "")
    kind = canonical_type(args.resource_type)
    if kind == "azure-native:containerservice:AgentPool":
        pools = [("", args.props)]
    elif kind == "azure-native:containerservice:ManagedCluster":
        pools = [(f"agentPoolProfiles[{i}].", p) for i, p in enumerate(elements(get(args.props, "agentPoolProfiles")))]
    else:
        return
    for prefix, pool in pools:
        message = _problem(pool, required)
        if message:
            report_violation(f"{prefix}{message}", None)


def _problem(pool: Any, required: str) -> str | None:
    entry = catalog_entry(get(pool, "vmSize"))
    if entry is None or not entry.is_gpu:
        return None
    taints_value = get(pool, "nodeTaints")
    if taints_value is UNKNOWN:
        return None
    items = elements(taints_value)
    if any(item is UNKNOWN for item in items):
        return None
    taints = [t.replace(" ", "") for item in items if (t := text(item)) is not None]
    if required in taints:
        return None
    found = ", ".join(taints) if taints else "none"
    name = text(get(pool, "name")) or text(get(pool, "agentPoolName"))
    label = f"pool '{name}'" if name else "the pool"
    return (
        f"nodeTaints of {label} ({entry.name}, a GPU size) lack '{required}' (found: {found}); add it so only pods "
        "that tolerate it run on GPU nodes."
    )


POLICY = ResourceValidationPolicy(
    name=NAME,
    description="AKS GPU node pools must be tainted for GPU workloads only.",
    validate=validate,
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.MEDIUM,
    config_schema=CONFIG,
    remediation_steps=(
        "Add the taint to the pool's nodeTaints (components: the AKS GPU pool sets it) and give GPU workloads and "
        "the NVIDIA device plugin the toleration key=sku, value=gpu, effect=NoSchedule. An existing pool cannot "
        "be re-tainted: create a new tainted pool and delete the old one."
    ),
    url="https://learn.microsoft.com/azure/aks/use-nvidia-gpu",
)
