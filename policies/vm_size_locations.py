"""Every place a pulumi-azure-native resource asks for an Azure VM size, as one table.

Found by inspecting pulumi-azure-native 3.29 (every input type with a `vm_size`/`vm_sizes`/`size`
argument, then recording the engine inputs of each resource built with it). The table is what the
VM size policies and the GPU cost rule read; a new resource type is one row here.

`billed` says whether the size is what the resource is billed by while it runs: a proximity
placement group's intent only reserves placement, and an image template's build VM exists only
while an image is built, so neither needs a budget of its own. Deliberately left out (see
docs/policies.md): `compute:DedicatedHost` (its sku is a host type such as `DSv3-Type1`, not a VM
size), `azurestackhci` (on-premises sizes of Azure Stack HCI), `networkcloud:ClusterManager`,
`workloads` SAP systems and `discovery:NodePool` (sizes nested in product-specific shapes, outside
GPU use).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from azure_gpu_stacks.policies.values import UNKNOWN, Path, same, text, walk

# `azure-native:compute/v20240301:VirtualMachine` is the same resource as `azure-native:compute:VirtualMachine`.
_VERSIONED_TOKEN = re.compile(r"^(azure-native:[A-Za-z0-9]+)/v[0-9a-z]+(:.+)$")


@dataclass(frozen=True)
class Location:
    """Where one resource type holds a VM size."""

    path: Path  # engine (camelCase) property path; "*" is every item of a list
    billed: bool = True
    # (path, value): the size only counts when that property has that value (case-insensitive).
    when: tuple[Path, str] | None = None


@dataclass(frozen=True)
class FoundSize:
    """A VM size found in a resource's properties."""

    path: str  # e.g. agentPoolProfiles[1].vmSize
    size: str | None  # None when the value is unknown during preview
    billed: bool


VM_SIZE_LOCATIONS: dict[str, tuple[Location, ...]] = {
    "azure-native:compute:VirtualMachine": (Location(("hardwareProfile", "vmSize")),),
    "azure-native:compute:VirtualMachineScaleSet": (
        Location(("sku", "name")),
        Location(("skuProfile", "vmSizes", "*", "name")),  # instance mix of Flexible scale sets
    ),
    "azure-native:compute:VirtualMachineScaleSetVM": (Location(("hardwareProfile", "vmSize")),),
    "azure-native:compute:ProximityPlacementGroup": (Location(("intent", "vmSizes", "*"), billed=False),),
    "azure-native:containerservice:ManagedCluster": (Location(("agentPoolProfiles", "*", "vmSize")),),
    "azure-native:containerservice:AgentPool": (Location(("vmSize",)),),
    "azure-native:machinelearningservices:Compute": (
        Location(("properties", "properties", "vmSize")),  # AmlCompute and ComputeInstance
        Location(("properties", "properties", "virtualMachineSize")),  # computeType VirtualMachine
        Location(("properties", "properties", "agentVmSize")),  # computeType AKS
    ),
    "azure-native:machinelearningservices:OnlineDeployment": (
        # Kubernetes deployments name a cluster instance type here, not a VM size.
        Location(("properties", "instanceType"), when=(("properties", "endpointComputeType"), "Managed")),
    ),
    "azure-native:batch:Pool": (Location(("vmSize",)),),
    "azure-native:hdinsight:Cluster": (
        Location(("properties", "computeProfile", "roles", "*", "hardwareProfile", "vmSize")),
    ),
    "azure-native:devtestlab:VirtualMachine": (Location(("size",)),),
    "azure-native:servicefabric:NodeType": (Location(("vmSize",)),),
    "azure-native:redhatopenshift:OpenShiftCluster": (
        Location(("masterProfile", "vmSize")),
        Location(("workerProfiles", "*", "vmSize")),
    ),
    "azure-native:virtualmachineimages:VirtualMachineImageTemplate": (Location(("vmProfile", "vmSize"), billed=False),),
}


def canonical_type(resource_type: str) -> str:
    """The type token without an API-version module."""
    match = _VERSIONED_TOKEN.match(resource_type or "")
    return f"{match[1]}{match[2]}" if match else resource_type


def vm_sizes(resource_type: str, props: Any) -> list[FoundSize]:
    """Every VM size `props` asks for; unknown values come back with `size=None`."""
    found: list[FoundSize] = []
    for location in VM_SIZE_LOCATIONS.get(canonical_type(resource_type), ()):
        if location.when is not None:
            condition_path, expected = location.when
            if not same(_first(walk(props, condition_path)), expected):
                continue
        for path, value in walk(props, location.path):
            if value is UNKNOWN:
                found.append(FoundSize(path, None, location.billed))
            elif (size := text(value)) is not None:
                found.append(FoundSize(path, size, location.billed))
    return found


def _first(pairs: Any) -> Any:
    for _, value in pairs:
        return value
    return None
