"""Which quota counters a pool of VMs draws on, and the fake ARM's ledger of what it has taken.

One rule for the whole project: the fake ARM charges these counters at PUT time, and preflight's
`quota` command adds up the same counters for a stack (`azure_gpu_stacks.engine.estimate.quota.needs`),
so `gpu-stacks check --usage/--aml-usage` and `gpu-stacks quota` judge Azure ML clusters alike.

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

What a PUT takes: the pool at full scale, its demand as `quota` counts it (`PoolReading.full_count`:
a VM 1, a scale set its capacity, an autoscaling AKS pool its `maxCount`, an Azure ML cluster its
`maxNodeCount`). Azure checks fewer nodes at creation: an AKS pool's `count` (the autoscaler then
stops at the quota, long after `pulumi up` succeeded), and an Azure ML cluster is refused at
creation only when the quota cannot hold max(minNodeCount, 1) nodes ("cannot accomodate for at least 1 requested
managed compute node", Azure/mlops-v2 issue 81; "is less than the requested ... min nodes of 1",
MicrosoftDocs/mslearn-aml-labs issue 8), and a cluster that cannot reach its maximum fails later,
when a job asks for the nodes (`JobNodeCountExceedsCoreQuota`, MicrosoftLearning/
mslearn-dp100 issue 35). The fake refuses such a pool at once, with Azure's code, so that `check`
reports what `quota` reports: a deliberate strictness, said in the refusal's message whenever Azure
would have checked fewer nodes.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from azure_gpu_stacks.catalog.az_files import AML_DEDICATED_TOTAL, AML_LOW_PRIORITY_TOTAL, Usage, family_key
from azure_gpu_stacks.catalog.shapes import Quota
from azure_gpu_stacks.fakeazure.errors import ArmError, ClusterMinNodesExceedCoreQuota, OperationNotAllowed

Provider = Literal["Microsoft.Compute", "Microsoft.MachineLearningServices"]
PROVIDERS: dict[Quota, Provider] = {
    "compute": "Microsoft.Compute",
    "machinelearning": "Microsoft.MachineLearningServices",
}
COMPUTE_TOTAL = "cores"
COMPUTE_SPOT_POOL = "lowPriorityCores"
FAMILY = "<family>"  # stands for the size's own family counter in `COUNTERS`

# (whose quota, discounted) -> the counters one node's vCPUs are added to.
COUNTERS: dict[tuple[Quota, bool], tuple[str, ...]] = {
    ("compute", False): (FAMILY, COMPUTE_TOTAL),
    ("compute", True): (COMPUTE_SPOT_POOL,),
    ("machinelearning", False): (FAMILY, AML_DEDICATED_TOTAL),
    ("machinelearning", True): (AML_LOW_PRIORITY_TOTAL,),
}
# Counters of low-priority (Spot) vCPUs: `az quota`'s `--resource-type lowPriority`.
LOW_PRIORITY_COUNTERS = frozenset(family_key(c) for c in (COMPUTE_SPOT_POOL, AML_LOW_PRIORITY_TOTAL))

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


@dataclass(frozen=True)
class Taking:
    """What one PUT asks of the quota: its charges, and the facts a refusal names."""

    charges: tuple[Charge, ...]
    nodes: int  # nodes charged: the pools at full scale
    location: str | None
    at_creation: int = 0  # nodes Azure itself checks at creation; fewer than `nodes`: say so


class Ledger:
    """The vCPUs the fake subscription's PUTs have taken, per provider and counter."""

    def __init__(self) -> None:
        self.taken: dict[tuple[Provider, str], int] = defaultdict(int)

    def take(self, taking: Taking, limits: Mapping[Provider, Mapping[str, Usage] | None]) -> None:
        """Add `taking` to the ledger, or raise the error Azure returns when a counter of `limits` cannot hold it."""
        wanted: dict[tuple[Provider, str], int] = defaultdict(int)
        for charge in taking.charges:
            wanted[(charge.provider, family_key(charge.counter))] += charge.vcpus
        for (provider, key), vcpus in wanted.items():
            counter = (limits.get(provider) or {}).get(key)
            if counter is None or vcpus == 0:
                continue
            if self.taken[(provider, key)] + vcpus > counter.free:
                raise _refusal(provider, counter, self.taken[(provider, key)], vcpus, taking)
        for taken_key, vcpus in wanted.items():
            self.taken[taken_key] += vcpus


def _refusal(provider: Provider, counter: Usage, taken: int, vcpus: int, taking: Taking) -> ArmError:
    used = counter.current + taken
    if provider == "Microsoft.Compute":
        note = (
            f" The fake ARM counts the pool at full scale ({taking.nodes} nodes); Azure checks {taking.at_creation} "
            "at creation, and the autoscaler stops at the quota."
            if taking.nodes > taking.at_creation
            else ""
        )
        return OperationNotAllowed(
            f"Operation could not be completed as it results in exceeding approved {counter.family} "
            f"Cores quota. Additional details - Deployment Model: Resource Manager, Location: {taking.location}, "
            f"Current Limit: {counter.limit}, Current Usage: {used}, "
            f"Additional Required: {vcpus}, (Minimum) New Limit Required: {used + vcpus}. "
            "Submit a request for Quota increase by specifying parameters listed in the 'Details' "
            "section for deployment to succeed." + note
        )
    family = re.sub(r"\s*Family Cluster Dedicated vCPUs$", "", counter.family, flags=re.IGNORECASE)
    which = f"{family} family" if family != counter.family else "total"
    return ClusterMinNodesExceedCoreQuota(
        f"The specified subscription has a {which} vCPU quota of {counter.limit} and cannot accomodate for at "
        f"least {taking.nodes} requested managed compute nodes which maps to {vcpus} vCPUs. Talk to your "
        f"Subscription Admin or refer to {AML_QUOTA_HOWTO} to increase the {counter.family} quota "
        f"(in use: {used}; location: {taking.location})."
        + (
            f" The fake ARM counts the cluster at its maxNodeCount; Azure refuses at creation only what "
            f"max(minNodeCount, 1) = {taking.at_creation} nodes exceed, and the rest when a job scales up."
            if taking.nodes > taking.at_creation
            else ""
        )
    )
