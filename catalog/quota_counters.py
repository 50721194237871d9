"""Which quota counters a pool of VMs draws on: an Azure fact, one rule for the whole project.

The fake ARM charges these counters at PUT time (its ledger: `azure_gpu_stacks.fakeazure.quota`), and the
`quota` command adds up the same counters for a stack (`azure_gpu_stacks.engine.estimate.quota.needs`),
so `gpu-stacks check --usage/--aml-usage` and `gpu-stacks quota` judge alike.

Two providers keep vCPU quota (observed 2026-11-22):
- Microsoft.Compute (`az vm list-usage`): a Regular VM counts against its size's family
  (`standardNCASv3_T4Family`) and the regional total `cores`; Spot VMs, scale sets and AKS pools
  count against one regional pool, `lowPriorityCores`, and not against their family
  (https://learn.microsoft.com/azure/virtual-machines/spot-vms,
  https://learn.microsoft.com/azure/quotas/per-vm-quota-requests).
- Microsoft.MachineLearningServices (`az ml compute list-usage`): Azure ML clusters and compute
  instances have "a separate quota from the core compute quota". Dedicated nodes count against
  their family's `Standard <X> Family Cluster Dedicated vCPUs` and `Total Cluster Dedicated
  Regional vCPUs`; low-priority nodes against `Total Cluster LowPriority Regional vCPUs`, "a single
  value across VM families"; a compute instance counts as a single-node cluster
  (https://learn.microsoft.com/azure/machine-learning/how-to-manage-quotas). The family names are
  Compute's, spelled with spaces (`standardNCADSA100v4Family` is `Standard NCADSA100v4 Family
  Cluster Dedicated vCPUs`), as in the spec's example list (Azure/azure-rest-api-specs
  specification/machinelearningservices/.../stable/2024-04-01/examples/Usage/list.json:
  `Standard DSv2 Family Cluster Dedicated vCPUs` for `standardDSv2Family`).

And Azure Batch keeps its own for a Batch-managed account (`poolAllocationMode: BatchService`, the default):
dedicated cores per VM family and in total, and one low-priority/Spot core quota; new accounts often have 0 for GPU
families. A user-subscription account's pools draw on the subscription's Microsoft.Compute quotas instead
(https://learn.microsoft.com/azure/batch/batch-quota-limit, observed 2026-11-26); which one a pool's account is,
`catalog.demand` reads from the account.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from .az_files import AML_DEDICATED_TOTAL, AML_LOW_PRIORITY_TOTAL, family_key
from .shapes import Quota

Provider = Literal["Microsoft.Compute", "Microsoft.MachineLearningServices", "Microsoft.Batch"]
PROVIDERS: dict[Quota, Provider] = {
    "compute": "Microsoft.Compute",
    "machinelearning": "Microsoft.MachineLearningServices",
    "batch": "Microsoft.Batch",
}
COMPUTE_TOTAL = "cores"
# A Batch-managed account's own quota, as `az batch account show` names it: `dedicatedCoreQuota`,
# `dedicatedCoreQuotaPerVMFamily` (per Compute family name) and `lowPriorityCoreQuota`, the one pool of its
# low-priority/Spot cores (https://learn.microsoft.com/azure/batch/batch-quota-limit, observed 2026-11-26).
BATCH_DEDICATED_TOTAL = "dedicatedCoreQuota"
BATCH_LOW_PRIORITY_TOTAL = "lowPriorityCoreQuota"
COMPUTE_SPOT_POOL = "lowPriorityCores"
FAMILY = "<family>"  # stands for the size's own family counter in `COUNTERS`

# (whose quota, discounted) -> the counters one node's vCPUs are added to.
COUNTERS: dict[tuple[Quota, bool], tuple[str, ...]] = {
    ("compute", False): (FAMILY, COMPUTE_TOTAL),
    ("compute", True): (COMPUTE_SPOT_POOL,),
    ("machinelearning", False): (FAMILY, AML_DEDICATED_TOTAL),
    ("machinelearning", True): (AML_LOW_PRIORITY_TOTAL,),
    ("batch", False): (FAMILY, BATCH_DEDICATED_TOTAL),
    ("batch", True): (BATCH_LOW_PRIORITY_TOTAL,),
}
# Counters of low-priority (Spot) vCPUs: `az quota`'s `--resource-type lowPriority`.
LOW_PRIORITY_COUNTERS = frozenset(
    family_key(c) for c in (COMPUTE_SPOT_POOL, AML_LOW_PRIORITY_TOTAL, BATCH_LOW_PRIORITY_TOTAL)
)

_COMPUTE_FAMILY = re.compile(r"^standard\s*(?P<series>.+?)\s*family$", re.IGNORECASE)

# Where Azure ML quota is raised (the Learn page's "VM quota increases").
AML_QUOTA_HOWTO = "https://learn.microsoft.com/azure/machine-learning/how-to-manage-quotas#vm-quota-increases"


def aml_family(compute_family: str) -> str:
    """Azure ML's dedicated counter of a Compute quota family (`standardNCASv3_T4Family` ->
    `Standard NCASv3_T4 Family Cluster Dedicated vCPUs`)."""
    match = _COMPUTE_FAMILY.match(compute_family.strip())
    series = match["series"] if match else compute_family.strip()
    return f"Standard {series} Family Cluster Dedicated vCPUs"


@dataclass(frozen=True)
class Charge:
    """vCPUs added to one quota counter."""

    provider: Provider
    counter: str  # as the usage list spells it
    vcpus: int


def charges(quota: Quota, quota_family: str, discounted: bool, vcpus: int) -> list[Charge]:
    """The counters `vcpus` of one pool draw on (`quota_family`: the size's Compute family)."""
    own = aml_family(quota_family) if quota == "machinelearning" else quota_family
    return [Charge(PROVIDERS[quota], own if c == FAMILY else c, vcpus) for c in COUNTERS[(quota, discounted)]]
