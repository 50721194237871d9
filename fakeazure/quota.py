"""The fake ARM's quota ledger: what the fake subscription's PUTs have taken, and Azure's refusal when a
counter cannot hold a PUT. Which counters a pool draws on is the catalog's rule
(`azure_gpu_stacks.catalog.quota_counters`), which the `quota` command uses too.

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

from ..catalog.az_files import Usage, family_key
from ..catalog.quota_counters import AML_QUOTA_HOWTO, Charge, Provider
from .errors import ArmError, ClusterMinNodesExceedCoreQuota, OperationNotAllowed


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
