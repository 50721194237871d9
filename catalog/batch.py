"""Azure Batch facts: the one home of what Batch accepts, retired and counts, read by the `BatchGpuPool`
component, the fake ARM's `Microsoft.Batch`, the shape table (a pool's node counts) and the policies.

Sources (observed 2026-11-26):
- Names: Azure/azure-rest-api-specs specification/batch/resource-manager/Microsoft.Batch, BatchManagement.json
  (`accountName`: `^[a-z0-9]+$`, 3 to 24 characters; `poolName`: `^[a-zA-Z0-9_-]+$`, 1 to 64 characters), as
  pulumi-azure-native 3.x's `batch.BatchAccount` documents `account_name` too.
- Low-priority nodes: "On September 30, 2025, we'll retire low-priority compute nodes ... you'll no longer be
  able to provision new pools with low-priority compute nodes"; "Batch accounts that use the user subscription pool
  allocation mode always get Spot VMs. Batch accounts that use the Batch managed pool allocation mode always get
  low-priority VMs" (https://learn.microsoft.com/azure/batch/low-priority-vms-retirement-migration-guide,
  https://learn.microsoft.com/azure/batch/batch-spot-vms). So a pool's `targetLowPriorityNodes` (and an autoscale
  formula's `$TargetLowPriorityNodes`) are Spot nodes in a user-subscription account, and refused in a
  Batch-managed one.
- User subscription mode needs a Key Vault reference on the account and Azure Batch's access to the subscription
  (https://learn.microsoft.com/azure/batch/batch-account-create-portal, "Configure user subscription mode").
- Node communication: "The classic compute node communication model will be retired on 31 March 2026"
  (https://learn.microsoft.com/azure/batch/simplified-compute-node-communication).
- Cloud Services configuration pools retired on 29 February 2024
  (https://azure.microsoft.com/updates/azure-batch-cloudserviceconfiguration-pools-will-be-retired-on-29-february-2024/).
- Extensions: "Extensions cannot be added to an existing pool. Pools must be recreated to add, remove, or update
  extensions"; the HPC GPU driver extension for Linux on NVIDIA is one Batch supports
  (https://learn.microsoft.com/azure/batch/create-pool-extensions).
- Image: `canonical 0001-com-ubuntu-server-jammy 22_04-lts` with node agent SKU `batch.node.ubuntu 22.04`, a pair
  the Batch service lists as verified (Account - List Supported Images,
  https://learn.microsoft.com/rest/api/batchservice/account/list-supported-images).
- Autoscale: formulas set `$TargetDedicatedNodes` and `$TargetLowPriorityNodes`; `$PendingTasks` is the active plus
  running tasks; the evaluation interval is 5 minutes to 168 hours, 15 minutes when omitted
  (https://learn.microsoft.com/azure/batch/batch-automatic-scaling).
- Quota: a Batch-managed account has its own dedicated core quota, per VM family, and one low-priority core quota
  ("in some cases ... reduced to zero"); a user-subscription account uses the subscription's regional core quotas
  (https://learn.microsoft.com/azure/batch/batch-quota-limit).
"""

from __future__ import annotations

import datetime as dt

from .batch_formula import (  # noqa: F401 (the formula facts, re-exported)
    DEDICATED_TARGET,
    LOW_PRIORITY_TARGET,
    TASK_VARIABLES,
    FormulaReading,
    read_formula,
    scale_to_zero_formula,
)
from .names import name_rule

SPEC = "Azure/azure-rest-api-specs specification/batch/resource-manager (BatchManagement.json)"
# Both from the one name table (catalog/arm/name_rules.json: Learn's resource-name-rules and the spec's patterns).
ACCOUNT_NAME = name_rule("Microsoft.Batch/batchAccounts")
POOL_NAME = name_rule("Microsoft.Batch/batchAccounts/pools")

BATCH_SERVICE = "BatchService"
USER_SUBSCRIPTION = "UserSubscription"
POOL_ALLOCATION_MODES = (BATCH_SERVICE, USER_SUBSCRIPTION)  # ARM's default: BatchService

LOW_PRIORITY_RETIRED = dt.date(2025, 9, 30)
LOW_PRIORITY_SOURCE = "https://learn.microsoft.com/azure/batch/low-priority-vms-retirement-migration-guide"
CLASSIC_COMMUNICATION_RETIRED = dt.date(2026, 3, 31)
CLASSIC_COMMUNICATION_SOURCE = "https://learn.microsoft.com/azure/batch/simplified-compute-node-communication"
CLOUD_SERVICES_RETIRED = dt.date(2024, 2, 29)
CLOUD_SERVICES_SOURCE = "https://azure.microsoft.com/updates/azure-batch-cloudserviceconfiguration-pools-will-be-retired-on-29-february-2024/"
SIMPLIFIED = "Simplified"
CLASSIC = "Classic"

UBUNTU_IMAGE = {
    "publisher": "canonical",
    "offer": "0001-com-ubuntu-server-jammy",
    "sku": "22_04-lts",
    "version": "latest",
}
NODE_AGENT_SKU = "batch.node.ubuntu 22.04"

# The NVIDIA driver through the HPC GPU driver extension (create-pool-extensions); same extension as a single VM's.
GPU_DRIVER_PUBLISHER = "Microsoft.HpcCompute"
GPU_DRIVER_TYPE = "NvidiaGpuDriverLinux"
GPU_DRIVER_VERSION = "1.6"

EVALUATION_INTERVAL_MIN = ("PT5M", 5 * 60)
EVALUATION_INTERVAL_MAX = ("PT168H", 168 * 3600)


def low_priority_request(fixed_low_priority: float | None, formula: str | None) -> str | None:
    """How a pool's scale settings ask for low-priority nodes (Spot in a user-subscription account), in words; None
    when they ask for none: a fixed `targetLowPriorityNodes` above 0, or a formula whose `$TargetLowPriorityNodes`
    follows the tasks or is not 0."""
    if fixed_low_priority is not None and fixed_low_priority > 0:
        return f"fixedScale.targetLowPriorityNodes {fixed_low_priority:g}"
    if formula is not None:
        reading = read_formula(formula, LOW_PRIORITY_TARGET)
        if reading.assigned and (reading.follows_tasks or reading.idle != 0 or reading.cap != 0):
            return f"the autoscale formula sets {LOW_PRIORITY_TARGET}"
    return None
