"""Where each pulumi-azure-native resource type that can carry a VM size keeps it: the one shape table.

For every type, `SHAPES` lists its pools: each place the type asks for VMs of one size, and where
that pool keeps its size, node count at deployment, maximum count (the autoscaler's bound), idle
count, priority, zones and region. Every layer reads this table and nothing else for these facts:
the VM size policies (`policies/vm_size_locations.py`, through their proxy-safe walker), the fake
ARM's size and quota checks, and preflight's demand, quota and cost. Adding a type is one row here;
a test pins each row to the shapes a program really registers.

Paths are the engine's camelCase property names, read from the resource's inputs; `"*"` stands for
every item of a list. A `Pool` is found at `at` (from the resource, `()` for the resource itself),
and its `size`, `count`, `max_count`, `min_count`, `autoscale`, `priority`, `zones` and `name` are
read from the pool; `location` paths from the resource. Counts: a fixed number, or a property with
ARM's default when it is left out. A pool with `count=None` only names a size (it is checked by the
policies and the fake ARM, but neither counted nor priced: the VMs are counted elsewhere, as a scale
set's instances, or not created by it, as an attached compute).

Sources (observed 2026-11-22): the input types of pulumi-azure-native 3.29 that take a `vm_size`,
`vm_sizes` or `size` argument; ARM defaults from the REST specs in Azure/azure-rest-api-specs
(`specification/containerservice/.../managedClusters.json`: agent pool `count` defaults to 1;
`specification/machinelearningservices/.../machineLearningServices.json`: `minNodeCount` defaults
to 0). Azure ML compute draws on Azure ML's own quota, not Microsoft.Compute's regional vCPUs
(https://learn.microsoft.com/azure/machine-learning/how-to-manage-quotas).

Deliberately left out (see docs/policies.md): `compute:DedicatedHost` (its sku is a host type such
as `DSv3-Type1`, not a VM size), `azurestackhci` (on-premises sizes), `networkcloud:ClusterManager`,
`workloads` SAP systems and `discovery:NodePool` (sizes nested in product-specific shapes, outside
GPU use).

This module is pure data and plain-dict readers: it imports nothing of ours but the pure Batch formula reader
(`batch_formula`) and nothing of Pulumi,
so components, policies, the fake ARM and preflight may all read it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .batch_formula import DEDICATED_TARGET, LOW_PRIORITY_TARGET, read_formula

Path = tuple[str | int, ...]
EVERY = "*"  # a path step meaning every item of a list

Priority = Literal["Regular", "Spot", "LowPriority"]
Quota = Literal["compute", "machinelearning", "batch"]

# Priority values as each API spells them (compute `priority`, AKS `scaleSetPriority`, Azure ML
# `vmPriority`), lower-cased without spaces, mapped to how they are billed and counted.
PRIORITIES: dict[str, Priority] = {
    "regular": "Regular",
    "dedicated": "Regular",
    "spot": "Spot",
    "low": "Spot",  # compute's legacy name for Spot
    "lowpriority": "LowPriority",
}

# `azure-native:compute/v20240301:VirtualMachine` is the same resource as `azure-native:compute:VirtualMachine`.
_VERSIONED_TOKEN = re.compile(r"^(azure-native:[A-Za-z0-9]+)/v[0-9a-z]+(:.+)$")


@dataclass(frozen=True)
class Pool:
    """One place a resource type asks for VMs of one size, and where that pool keeps its facts."""

    size: Path  # from the pool; () when the pool is the size itself (a list of sizes)
    at: Path = ()  # from the resource to the pool
    count: int | Path | None = None  # nodes at deployment: fixed, a property, or None (not counted)
    count_default: int = 0  # ARM's value when the `count` property is left out
    max_count: Path | None = None  # nodes at full scale; the deployment count when absent
    min_count: Path | None = None  # nodes when idle; the deployment count when absent
    autoscale: Path | None = None  # a flag that must be true for max/min to apply; None: they always apply
    priority: Path | Priority = "Regular"  # a property (left out: Regular) or a fixed priority
    zones: Path | None = None
    location: tuple[Path, ...] = (("location",),)  # from the resource, first one set wins
    name: Path | None = None  # the pool's own name, when a resource holds several
    billed: bool = True  # False: the size only reserves placement or runs while an image is built
    when: tuple[Path, str] | None = None  # only when this property (from the resource) has this value
    quota: Quota = "compute"  # whose vCPU quota the nodes draw on
    formula: Path | None = None  # an autoscale formula (Azure Batch): when set, the counts are what it keeps
    formula_target: str = ""  # the formula's variable for this pool's nodes
    optional: bool = False  # a pool that is not priced or counted when it asks for no nodes at all

    @property
    def size_path(self) -> Path:
        """The size's path from the resource."""
        return self.at + self.size

    @property
    def counted(self) -> bool:
        """Whether the pool's nodes are counted (quota) and priced (cost)."""
        return self.count is not None


VM = "azure-native:compute:VirtualMachine"
VMSS = "azure-native:compute:VirtualMachineScaleSet"
VMSS_VM = "azure-native:compute:VirtualMachineScaleSetVM"
PROXIMITY_PLACEMENT_GROUP = "azure-native:compute:ProximityPlacementGroup"
MANAGED_CLUSTER = "azure-native:containerservice:ManagedCluster"
AGENT_POOL = "azure-native:containerservice:AgentPool"
ML_COMPUTE = "azure-native:machinelearningservices:Compute"
ML_ONLINE_DEPLOYMENT = "azure-native:machinelearningservices:OnlineDeployment"
BATCH_POOL = "azure-native:batch:Pool"

_ML_COMPUTE_TYPE: Path = ("properties", "computeType")
_ML_LOCATION: tuple[Path, ...] = (("properties", "computeLocation"), ("location",))


def _aks_pool(at: Path) -> Pool:
    """An AKS agent pool, on its own or inline in a cluster's `agentPoolProfiles`."""
    return Pool(
        size=("vmSize",),
        at=at,
        count=("count",),
        count_default=1,
        max_count=("maxCount",),
        min_count=("minCount",),
        autoscale=("enableAutoScaling",),
        priority=("scaleSetPriority",),
        zones=("availabilityZones",),
        name=("name",) if at else None,
    )


SHAPES: dict[str, tuple[Pool, ...]] = {
    VM: (Pool(("hardwareProfile", "vmSize"), count=1, priority=("priority",), zones=("zones",)),),
    VMSS: (
        Pool(
            ("sku", "name"), count=("sku", "capacity"), priority=("virtualMachineProfile", "priority"), zones=("zones",)
        ),
        Pool(("name",), at=("skuProfile", "vmSizes", EVERY)),  # instance mix of Flexible scale sets: capacity is split
    ),
    VMSS_VM: (Pool(("hardwareProfile", "vmSize")),),  # an instance: counted by its scale set
    PROXIMITY_PLACEMENT_GROUP: (Pool((), at=("intent", "vmSizes", EVERY), billed=False),),
    MANAGED_CLUSTER: (_aks_pool(("agentPoolProfiles", EVERY)),),
    AGENT_POOL: (_aks_pool(()),),
    ML_COMPUTE: (
        Pool(
            ("vmSize",),
            at=("properties", "properties"),
            count=("scaleSettings", "minNodeCount"),  # nodes allocated at creation
            max_count=("scaleSettings", "maxNodeCount"),
            min_count=("scaleSettings", "minNodeCount"),
            priority=("vmPriority",),
            location=_ML_LOCATION,
            when=(_ML_COMPUTE_TYPE, "AmlCompute"),
            quota="machinelearning",
        ),
        Pool(
            ("vmSize",),
            at=("properties", "properties"),
            count=1,
            location=_ML_LOCATION,
            when=(_ML_COMPUTE_TYPE, "ComputeInstance"),
            quota="machinelearning",
        ),
        # Attached computes: the VMs exist already and are billed as themselves.
        Pool(("virtualMachineSize",), at=("properties", "properties"), when=(_ML_COMPUTE_TYPE, "VirtualMachine")),
        Pool(("agentVmSize",), at=("properties", "properties"), when=(_ML_COMPUTE_TYPE, "AKS")),
    ),
    ML_ONLINE_DEPLOYMENT: (
        # Kubernetes deployments name a cluster instance type here, not a VM size.
        Pool(("instanceType",), at=("properties",), when=(("properties", "endpointComputeType"), "Managed")),
    ),
    # Azure Batch: dedicated nodes, and low-priority nodes (Spot in a user-subscription account, retired in a
    # Batch-managed one: catalog/batch.py); fixed scale when no formula is given (ARM's default: 0 dedicated nodes).
    # Either is priced and counted only when it asks for nodes.
    BATCH_POOL: (
        Pool(
            ("vmSize",),
            count=("scaleSettings", "fixedScale", "targetDedicatedNodes"),
            formula=("scaleSettings", "autoScale", "formula"),
            formula_target=DEDICATED_TARGET,
            quota="batch",
            optional=True,
        ),
        Pool(
            ("vmSize",),
            count=("scaleSettings", "fixedScale", "targetLowPriorityNodes"),
            priority="Spot",
            formula=("scaleSettings", "autoScale", "formula"),
            formula_target=LOW_PRIORITY_TARGET,
            quota="batch",
            optional=True,
        ),
    ),
    "azure-native:hdinsight:Cluster": (
        Pool(("hardwareProfile", "vmSize"), at=("properties", "computeProfile", "roles", EVERY)),
    ),
    "azure-native:devtestlab:VirtualMachine": (Pool(("size",)),),
    "azure-native:servicefabric:NodeType": (Pool(("vmSize",)),),
    "azure-native:redhatopenshift:OpenShiftCluster": (
        Pool(("vmSize",), at=("masterProfile",)),
        Pool(("vmSize",), at=("workerProfiles", EVERY)),
    ),
    "azure-native:virtualmachineimages:VirtualMachineImageTemplate": (
        Pool(("vmSize",), at=("vmProfile",), billed=False),
    ),
}


def canonical_type(resource_type: str) -> str:
    """The type token without an API-version module."""
    match = _VERSIONED_TOKEN.match(resource_type or "")
    return f"{match[1]}{match[2]}" if match else resource_type


def shapes(resource_type: str) -> tuple[Pool, ...]:
    """The pools of a resource type (any API version); () for a type that carries no VM size."""
    return SHAPES.get(canonical_type(resource_type), ())


def priority_of(value: Any) -> Priority:
    """How a priority value as any API spells it is billed; left out or unrecognised: Regular."""
    return PRIORITIES.get(str(value or "Regular").replace(" ", "").lower(), "Regular")


# --- reading plain inputs (the fake ARM, preflight); policies walk the paths with their own reader ---


@dataclass(frozen=True)
class PoolReading:
    """What one pool of one resource asks for, read from plain inputs."""

    pool: Pool
    path: str  # where the size is, e.g. agentPoolProfiles[1].vmSize
    size: Any  # as written: a string, or whatever else the inputs hold there
    index: int | None  # the pool's position in its list, when the pool is a list item
    name: str | None
    count: int  # nodes at deployment (0 for a pool that is not counted)
    full_count: int  # nodes at full scale
    idle_count: int  # nodes when nothing is scheduled
    priority: Priority
    zones: tuple[str, ...]
    location: str | None  # as written; None when the resource names none


def read(resource_type: str, props: Mapping[str, Any]) -> list[PoolReading]:
    """Every pool of a resource, in the table's order, read from its plain (dict) inputs."""
    found: list[PoolReading] = []
    for pool in shapes(resource_type):
        if pool.when is not None and not _same(_get(props, pool.when[0]), pool.when[1]):
            continue
        location = next((v for p in pool.location if isinstance(v := _get(props, p), str) and v), None)
        for prefix, index, node in _expand(props, pool.at, ""):
            size_path = _join(prefix, pool.size)
            count = _count(node, pool)
            scaled = pool.autoscale is None or _get(node, pool.autoscale) is True
            full = _number(_get(node, pool.max_count), count) if scaled and pool.max_count else count
            idle = _number(_get(node, pool.min_count), count) if scaled and pool.min_count else count
            formula = _get(node, pool.formula) if pool.formula else None
            if isinstance(formula, str):
                count, full, idle = formula_counts(formula, pool.formula_target)
            priority = pool.priority if isinstance(pool.priority, str) else _get(node, pool.priority)
            zones = _get(node, pool.zones) if pool.zones else None
            name = _get(node, pool.name) if pool.name else None
            found.append(
                PoolReading(
                    pool=pool,
                    path=size_path,
                    size=_get(node, pool.size),
                    index=index,
                    name=name if isinstance(name, str) and name else None,
                    count=count,
                    full_count=full,
                    idle_count=idle,
                    priority=priority_of(priority),
                    zones=tuple(str(z) for z in zones) if isinstance(zones, list) else (),
                    location=location,
                )
            )
    return found


def formula_counts(formula: str, target: str) -> tuple[int, int, int]:
    """(at deployment, at full scale, idle) nodes of an autoscale formula's target: what it keeps with no task
    (unknown: taken as its cap, so cost and quota over- rather than under-count) up to its cap (unknown: idle)."""
    reading = read_formula(formula, target)
    idle = reading.idle if reading.idle is not None else reading.cap
    full = reading.cap if reading.cap is not None else idle
    return (idle or 0), max(full or 0, idle or 0), (idle or 0)


def _count(node: Any, pool: Pool) -> int:
    if pool.count is None:
        return 0
    if isinstance(pool.count, int):
        return pool.count
    return _number(_get(node, pool.count), pool.count_default)


def _number(value: Any, default: int) -> int:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else default


def _same(value: Any, expected: str) -> bool:
    return isinstance(value, str) and value.strip().lower() == expected.lower()


def _get(value: Any, path: Path) -> Any:
    for key in path:
        if isinstance(key, int):
            ok = isinstance(value, Sequence) and not isinstance(value, str) and -len(value) <= key < len(value)
            value = value[key] if ok else None
        else:
            value = value.get(key) if isinstance(value, Mapping) else None
        if value is None:
            return None
    return value


def _join(prefix: str, path: Path) -> str:
    out = prefix
    for key in path:
        out = f"{out}[{key}]" if isinstance(key, int) else (f"{out}.{key}" if out else str(key))
    return out


def _expand(value: Any, path: Path, prefix: str, index: int | None = None) -> Iterator[tuple[str, int | None, Any]]:
    """(concrete path, list index, node) for each node `path` reaches; `"*"` fans out over a list."""
    if not path:
        yield prefix, index, value
        return
    head, rest = path[0], path[1:]
    if head == EVERY:
        if isinstance(value, Sequence) and not isinstance(value, str):
            for i, item in enumerate(value):
                yield from _expand(item, rest, f"{prefix}[{i}]", i)
        return
    step = _get(value, (head,))
    if step is not None:
        yield from _expand(step, rest, _join(prefix, (head,)), index)
