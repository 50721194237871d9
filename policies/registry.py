"""The pack's policies: an explicit list, in the order they run and are reported.

A policy joins the pack by being listed here, never as a side effect of an import. `policies()`
refuses two policies with one name (the engine would silently keep only one of their configs).
"""

from __future__ import annotations

from collections import Counter

from pulumi_policy import Policy

from ..components.version import __version__
from . import (
    aks_gpu_driver_ownership,
    disallow_batch_low_priority_nodes,
    disallow_internet_ssh_rdp,
    disallow_linux_password_login,
    disallow_retired_vm_sizes,
    limit_gpu_vcpus,
    limit_stack_cost,
    require_aks_gpu_node_taint,
    require_aml_gpu_instance_shutdown,
    require_aml_gpu_scale_to_zero,
    require_batch_gpu_scale_to_zero,
    require_cost_alerts,
    require_gpu_vm_auto_shutdown,
    require_infiniband_scale_set_placement,
    warn_aks_local_accounts,
    warn_always_on_infiniband_cluster,
    warn_aml_public_access,
    warn_capacity_restricted_vm_sizes,
    warn_gpu_driver_by_script,
    warn_gpu_host_without_encryption_at_host,
    warn_gpu_host_without_identity,
    warn_incoherent_budgets,
    warn_internet_inbound_to_gpu_hosts,
    warn_public_aks_api_server,
    warn_retiring_vm_sizes,
    warn_unknown_vm_sizes,
)

PACK_NAME = "azure-gpu-stacks"
PACK_VERSION = __version__  # the CLI reads PulumiPolicy.yaml's version; a test keeps the two equal

REGISTRY: list[Policy] = [
    disallow_retired_vm_sizes.POLICY,
    warn_capacity_restricted_vm_sizes.POLICY,
    warn_retiring_vm_sizes.POLICY,
    warn_unknown_vm_sizes.POLICY,
    require_cost_alerts.POLICY,
    warn_incoherent_budgets.POLICY,
    limit_gpu_vcpus.POLICY,
    limit_stack_cost.POLICY,
    require_aks_gpu_node_taint.POLICY,
    aks_gpu_driver_ownership.POLICY,
    warn_gpu_driver_by_script.POLICY,
    require_aml_gpu_scale_to_zero.POLICY,
    require_batch_gpu_scale_to_zero.POLICY,
    disallow_batch_low_priority_nodes.POLICY,
    require_aml_gpu_instance_shutdown.POLICY,
    require_infiniband_scale_set_placement.POLICY,
    warn_always_on_infiniband_cluster.POLICY,
    require_gpu_vm_auto_shutdown.POLICY,
    disallow_internet_ssh_rdp.POLICY,
    warn_internet_inbound_to_gpu_hosts.POLICY,
    disallow_linux_password_login.POLICY,
    warn_gpu_host_without_identity.POLICY,
    warn_gpu_host_without_encryption_at_host.POLICY,
    warn_public_aks_api_server.POLICY,
    warn_aks_local_accounts.POLICY,
    warn_aml_public_access.POLICY,
]


class DuplicatePolicyName(ValueError):
    """Two policies of one pack share a name."""


def checked(policies: list[Policy]) -> list[Policy]:
    """`policies` unchanged; raises DuplicatePolicyName naming each name used twice."""
    twice = sorted(name for name, count in Counter(p.name for p in policies).items() if count > 1)
    if twice:
        raise DuplicatePolicyName(f"policy names used more than once: {', '.join(twice)}")
    return list(policies)


def policies() -> list[Policy]:
    """Every policy of the pack."""
    return checked(REGISTRY)
