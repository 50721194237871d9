"""The shape table (`catalog/shapes.py`) against the real SDK and ARM's defaults.

Each counted pool is built with pulumi-azure-native's own classes, every fact the table locates set
to a distinct value, recorded as the engine receives it, then read back through the table: a
renamed argument in a new SDK version, or a wrong path in a row, fails here. Where the size paths
live is proved for every row by tests/policies/pack/test_policy_sdk_shapes.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from azure_gpu_stacks.catalog.shapes import SHAPES, PoolReading, priority_of, read, shapes

from tests.conftest import Recording, in_resource_group

T4 = "Standard_NC4as_T4_v3"
A100 = "Standard_NC24ads_A100_v4"


def build_counted_pools(rg: Any) -> None:
    from pulumi_azure_native import compute, containerservice
    from pulumi_azure_native import machinelearningservices as ml

    g = rg.name
    compute.VirtualMachine(
        "vm",
        resource_group_name=g,
        hardware_profile=compute.HardwareProfileArgs(vm_size=T4),
        priority="Spot",
        zones=["2"],
    )
    compute.VirtualMachineScaleSet(
        "vmss",
        resource_group_name=g,
        sku=compute.SkuArgs(name=A100, capacity=3),
        zones=["1"],
        virtual_machine_profile=compute.VirtualMachineScaleSetVMProfileArgs(priority="Low"),
    )
    containerservice.ManagedCluster(
        "aks",
        resource_group_name=g,
        dns_prefix="aks",
        agent_pool_profiles=[
            containerservice.ManagedClusterAgentPoolProfileArgs(
                name="sys", mode="System", vm_size="Standard_D4s_v5", count=2
            ),
            containerservice.ManagedClusterAgentPoolProfileArgs(
                name="gpu",
                mode="User",
                vm_size=A100,
                count=1,
                enable_auto_scaling=True,
                min_count=0,
                max_count=4,
                scale_set_priority="Spot",
                availability_zones=["1", "3"],
            ),
        ],
    )
    containerservice.AgentPool(
        "pool", resource_group_name=g, resource_name_="aks", agent_pool_name="gpu2", vm_size=T4, count=5
    )
    ml.Compute(
        "aml",
        resource_group_name=g,
        workspace_name="ws",
        properties=ml.AmlComputeArgs(
            compute_type="AmlCompute",
            compute_location="westeurope",
            properties=ml.AmlComputePropertiesArgs(
                vm_size=A100,
                vm_priority="LowPriority",
                scale_settings=ml.ScaleSettingsArgs(max_node_count=6, min_node_count=1),
            ),
        ),
    )
    ml.Compute(
        "ci",
        resource_group_name=g,
        workspace_name="ws",
        properties=ml.ComputeInstanceArgs(
            compute_type="ComputeInstance", properties=ml.ComputeInstancePropertiesArgs(vm_size=T4)
        ),
    )


def facts(reading: PoolReading) -> tuple[Any, ...]:
    return (
        reading.path,
        reading.size,
        reading.name,
        reading.count,
        reading.full_count,
        reading.idle_count,
        reading.priority,
        reading.zones,
        reading.location,
        reading.pool.quota,
    )


def test_shapes_read_every_counted_fact_where_the_sdk_sends_it(record: Callable[..., Recording]) -> None:
    rec = record(in_resource_group(build_counted_pools))
    by_name = {r.name: [facts(p) for p in read(r.type, r.plain_inputs()) if p.pool.counted] for r in rec.resources}

    assert by_name["vm"] == [("hardwareProfile.vmSize", T4, None, 1, 1, 1, "Spot", ("2",), None, "compute")]
    assert by_name["vmss"] == [("sku.name", A100, None, 3, 3, 3, "Spot", ("1",), None, "compute")]
    assert by_name["aks"] == [
        ("agentPoolProfiles[0].vmSize", "Standard_D4s_v5", "sys", 2, 2, 2, "Regular", (), None, "compute"),
        ("agentPoolProfiles[1].vmSize", A100, "gpu", 1, 4, 0, "Spot", ("1", "3"), None, "compute"),
    ]
    assert by_name["pool"] == [("vmSize", T4, None, 5, 5, 5, "Regular", (), None, "compute")]
    assert by_name["aml"] == [
        ("properties.properties.vmSize", A100, None, 1, 6, 1, "LowPriority", (), "westeurope", "machinelearning")
    ]
    assert by_name["ci"] == [
        ("properties.properties.vmSize", T4, None, 1, 1, 1, "Regular", (), None, "machinelearning")
    ]


def test_shapes_fill_arm_defaults_where_an_input_is_left_out() -> None:
    [pool] = read("azure-native:containerservice:AgentPool", {"vmSize": T4})
    [aml] = read(
        "azure-native:machinelearningservices:Compute",
        {
            "properties": {
                "computeType": "AmlCompute",
                "properties": {"vmSize": A100, "scaleSettings": {"maxNodeCount": 2.0}},
            }
        },
    )

    assert (pool.count, pool.full_count, pool.idle_count, pool.priority) == (1, 1, 1, "Regular")  # ARM: count 1
    assert (aml.count, aml.full_count, aml.idle_count, aml.priority) == (0, 2, 0, "Regular")  # ARM: minNodeCount 0


def test_shapes_autoscaler_bounds_apply_only_when_autoscaling() -> None:
    [pool] = read(
        "azure-native:containerservice:AgentPool", {"vmSize": T4, "count": 2.0, "minCount": 0.0, "maxCount": 9.0}
    )

    assert (pool.count, pool.full_count, pool.idle_count) == (2, 2, 2)


def test_shapes_know_a_type_under_any_api_version() -> None:
    assert shapes("azure-native:compute/v20240301:VirtualMachine") == SHAPES["azure-native:compute:VirtualMachine"]
    assert shapes("azure-native:network:VirtualNetwork") == ()


def test_shapes_follow_the_compute_type_of_an_azure_ml_compute() -> None:
    attached = read(
        "azure-native:machinelearningservices:Compute",
        {"properties": {"computeType": "VirtualMachine", "properties": {"virtualMachineSize": T4}}},
    )

    assert [(p.path, p.size, p.pool.counted) for p in attached] == [
        ("properties.properties.virtualMachineSize", T4, False)
    ]


@pytest.mark.parametrize(
    ("written", "billed_as"),
    [
        ("Spot", "Spot"),
        ("Low", "Spot"),
        ("low priority", "LowPriority"),
        ("LowPriority", "LowPriority"),
        ("Dedicated", "Regular"),
        ("Regular", "Regular"),
        (None, "Regular"),
        ("", "Regular"),
    ],
)
def test_shapes_priority_of_every_spelling(written: Any, billed_as: str) -> None:
    assert priority_of(written) == billed_as


def test_shapes_every_counted_pool_is_billed_and_located() -> None:
    for token, pools in SHAPES.items():
        for pool in pools:
            if pool.counted:
                assert pool.location, token
                assert pool.billed, token
