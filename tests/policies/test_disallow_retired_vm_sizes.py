"""disallow-retired-vm-sizes: a retired size is refused wherever a pulumi-azure-native resource takes a VM size.

From a resource on a current size, one change per test: the size. Dates and replacements are the catalog's
data as catalog/vm_sizes.yaml writes them; the message is built once (`retired`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from azure_gpu_stacks.catalog.shapes import SHAPES
from azure_gpu_stacks.policies import disallow_retired_vm_sizes
from pulumi_policy import ResourceValidationArgs

from tests.policy_helpers import UNKNOWN, Res, catalog_size, found

POLICY = "disallow-retired-vm-sizes"
VM = "azure-native:compute:VirtualMachine"
CURRENT = "Standard_NC4as_T4_v3"
RETIRED = "Standard_NC6"  # retired before any day these tests run on
LATER = "Standard_NV12s_v3"  # retired on a date these tests judge around


def retired(path: str, written: str, size: str = RETIRED) -> str:
    lifecycle = catalog_size(size)["lifecycle"]
    return (
        f"{path} is '{written}', which Azure retired on {lifecycle['date']} and can no longer deploy; "
        f"use {lifecycle['replacement']} or another current size."
    )


def vm(size: Any, name: str = "fail_vm") -> Res:
    return Res(VM, name, {"resourceGroupName": "rg", "hardwareProfile": {"vmSize": size}})


def as_of(day: Any) -> dict[str, Any]:
    return {POLICY: {"asOf": str(day)}}


# (type, properties with SIZE where the size goes, the path the message names)
PLACES: list[tuple[str, Callable[[str], dict[str, Any]], str]] = [
    (VM, lambda s: {"hardwareProfile": {"vmSize": s}}, "hardwareProfile.vmSize"),
    ("azure-native:compute:VirtualMachineScaleSet", lambda s: {"sku": {"name": s, "capacity": 2.0}}, "sku.name"),
    (
        "azure-native:compute:VirtualMachineScaleSet",
        lambda s: {"sku": {"name": "Mix"}, "skuProfile": {"vmSizes": [{"name": "Standard_NC4as_T4_v3"}, {"name": s}]}},
        "skuProfile.vmSizes[1].name",
    ),
    (
        "azure-native:compute:VirtualMachineScaleSetVM",
        lambda s: {"hardwareProfile": {"vmSize": s}},
        "hardwareProfile.vmSize",
    ),
    ("azure-native:compute:ProximityPlacementGroup", lambda s: {"intent": {"vmSizes": [s]}}, "intent.vmSizes[0]"),
    (
        "azure-native:containerservice:ManagedCluster",
        lambda s: {"agentPoolProfiles": [{"name": "sys", "vmSize": "Standard_D4s_v5"}, {"name": "gpu", "vmSize": s}]},
        "agentPoolProfiles[1].vmSize",
    ),
    (
        "azure-native:containerservice:AgentPool",
        lambda s: {"vmSize": s, "nodeTaints": ["sku=gpu:NoSchedule"]},
        "vmSize",
    ),
    (
        "azure-native:machinelearningservices:Compute",
        lambda s: {"properties": {"computeType": "AmlCompute", "properties": {"vmSize": s}}},
        "properties.properties.vmSize",
    ),
    (
        "azure-native:machinelearningservices:Compute",
        lambda s: {"properties": {"computeType": "ComputeInstance", "properties": {"vmSize": s}}},
        "properties.properties.vmSize",
    ),
    (
        "azure-native:machinelearningservices:Compute",
        lambda s: {"properties": {"computeType": "VirtualMachine", "properties": {"virtualMachineSize": s}}},
        "properties.properties.virtualMachineSize",
    ),
    (
        "azure-native:machinelearningservices:Compute",
        lambda s: {"properties": {"computeType": "AKS", "properties": {"agentVmSize": s}}},
        "properties.properties.agentVmSize",
    ),
    (
        "azure-native:machinelearningservices:OnlineDeployment",
        lambda s: {"properties": {"endpointComputeType": "Managed", "instanceType": s}},
        "properties.instanceType",
    ),
    ("azure-native:batch:Pool", lambda s: {"vmSize": s}, "vmSize"),
    (
        "azure-native:hdinsight:Cluster",
        lambda s: {
            "properties": {"computeProfile": {"roles": [{"name": "workernode", "hardwareProfile": {"vmSize": s}}]}}
        },
        "properties.computeProfile.roles[0].hardwareProfile.vmSize",
    ),
    ("azure-native:devtestlab:VirtualMachine", lambda s: {"size": s}, "size"),
    ("azure-native:servicefabric:NodeType", lambda s: {"vmSize": s}, "vmSize"),
    (
        "azure-native:redhatopenshift:OpenShiftCluster",
        lambda s: {"masterProfile": {"vmSize": s}},
        "masterProfile.vmSize",
    ),
    (
        "azure-native:redhatopenshift:OpenShiftCluster",
        lambda s: {"workerProfiles": [{"name": "w", "vmSize": s}]},
        "workerProfiles[0].vmSize",
    ),
    (
        "azure-native:virtualmachineimages:VirtualMachineImageTemplate",
        lambda s: {"vmProfile": {"vmSize": s}},
        "vmProfile.vmSize",
    ),
]


def test_places_cover_every_type_of_the_shape_table() -> None:
    assert {t for t, _, _ in PLACES} == set(SHAPES)


@pytest.mark.parametrize(("type_", "props", "path"), PLACES, ids=[f"{t.split(':')[-1]}:{p}" for t, _, p in PLACES])
def test_passes_a_current_size(type_: str, props: Callable[[str], dict[str, Any]], path: str) -> None:
    assert found([Res(type_, "pass_resource", props(CURRENT))], POLICY) == []


@pytest.mark.parametrize(("type_", "props", "path"), PLACES, ids=[f"{t.split(':')[-1]}:{p}" for t, _, p in PLACES])
def test_refuses_a_retired_size_wherever_it_hides(
    type_: str, props: Callable[[str], dict[str, Any]], path: str
) -> None:
    resource = Res(type_, "fail_resource", props(RETIRED))

    assert found([resource], POLICY) == [("mandatory", "fail_resource", retired(path, RETIRED))]


@pytest.mark.parametrize(
    "written", [RETIRED.lower(), RETIRED.upper(), RETIRED.removeprefix("Standard_"), f" {RETIRED} "]
)
def test_matches_any_casing_and_a_missing_prefix(written: str) -> None:
    assert found([vm(written)], POLICY) == [
        ("mandatory", "fail_vm", retired("hardwareProfile.vmSize", written.strip()))
    ]


def test_ignores_kubernetes_instance_types_of_online_deployments() -> None:
    deployment = Res(
        "azure-native:machinelearningservices:OnlineDeployment",
        "pass_k8s",
        {"properties": {"endpointComputeType": "Kubernetes", "instanceType": RETIRED}},
    )

    assert found([deployment], POLICY) == []


def test_accepts_versioned_type_tokens() -> None:
    resource = Res("azure-native:compute/v20240301:VirtualMachine", "fail_vm", {"hardwareProfile": {"vmSize": RETIRED}})

    assert found([resource], POLICY) == [("mandatory", "fail_vm", retired("hardwareProfile.vmSize", RETIRED))]


def test_a_size_becomes_retired_on_its_date_and_not_the_day_before() -> None:
    date = catalog_size(LATER)["lifecycle"]["date"]
    day_before = date.fromordinal(date.toordinal() - 1)

    assert found([vm(LATER)], POLICY, as_of(date)) == [
        ("mandatory", "fail_vm", retired("hardwareProfile.vmSize", LATER, size=LATER))
    ]
    assert found([vm(LATER, "pass_vm")], POLICY, as_of(day_before)) == []


@pytest.mark.parametrize(
    "size",
    [None, 42.0, True, [RETIRED], {"name": RETIRED}, "", UNKNOWN],
    ids=["none", "number", "bool", "list", "dict", "empty", "unknown-sentinel"],
)
def test_passes_missing_odd_and_unknown_values(size: Any) -> None:
    assert found([vm(size, "pass_vm")], POLICY) == []


def test_called_directly_survives_unknowns_and_secrets() -> None:
    import pulumi
    from azure_gpu_stacks.sdk.internals import secret

    props = {"hardwareProfile": secret({"vmSize": RETIRED}), "osProfile": pulumi.UNKNOWN}
    args = ResourceValidationArgs(VM, props, "urn:x", "fail_vm", None, None)  # type: ignore[arg-type]
    reported: list[str] = []

    disallow_retired_vm_sizes.validate(args, lambda message, urn=None: reported.append(message))

    assert reported == [retired("hardwareProfile.vmSize", RETIRED)]
