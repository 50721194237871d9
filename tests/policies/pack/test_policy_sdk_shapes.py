"""The VM size table against the real SDK: each resource type built with pulumi-azure-native's own
classes, recorded as the engine receives it, then analyzed. Proves the table's camelCase paths are
the ones the SDK sends (a renamed argument in a new SDK version fails here)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from azure_gpu_stacks.engine.run.policy_run import analyze

from tests.conftest import Recording, in_resource_group

RETIRED = "Standard_NC6"


def build_every_vm_size_place(rg: Any) -> None:
    from pulumi_azure_native import (
        batch,
        compute,
        containerservice,
        devtestlab,
        hdinsight,
        redhatopenshift,
        servicefabric,
        virtualmachineimages,
    )
    from pulumi_azure_native import machinelearningservices as ml

    g = rg.name
    compute.VirtualMachine("vm", resource_group_name=g, hardware_profile=compute.HardwareProfileArgs(vm_size=RETIRED))
    compute.VirtualMachineScaleSet(
        "vmss",
        resource_group_name=g,
        sku=compute.SkuArgs(name=RETIRED, capacity=1),
        sku_profile=compute.SkuProfileArgs(vm_sizes=[compute.SkuProfileVMSizeArgs(name=RETIRED)]),
    )
    compute.VirtualMachineScaleSetVM(
        "vmss-vm",
        resource_group_name=g,
        vm_scale_set_name="vmss",
        instance_id="0",
        hardware_profile=compute.HardwareProfileArgs(vm_size=RETIRED),
    )
    compute.ProximityPlacementGroup(
        "ppg", resource_group_name=g, intent=compute.ProximityPlacementGroupPropertiesIntentArgs(vm_sizes=[RETIRED])
    )
    containerservice.ManagedCluster(
        "aks",
        resource_group_name=g,
        agent_pool_profiles=[containerservice.ManagedClusterAgentPoolProfileArgs(name="gpu", vm_size=RETIRED, count=1)],
    )
    containerservice.AgentPool("pool", resource_group_name=g, resource_name_="aks", vm_size=RETIRED)
    ml.Compute(
        "aml",
        resource_group_name=g,
        workspace_name="ws",
        properties=ml.AmlComputeArgs(
            compute_type="AmlCompute", properties=ml.AmlComputePropertiesArgs(vm_size=RETIRED)
        ),
    )
    ml.Compute(
        "ci",
        resource_group_name=g,
        workspace_name="ws",
        properties=ml.ComputeInstanceArgs(
            compute_type="ComputeInstance", properties=ml.ComputeInstancePropertiesArgs(vm_size=RETIRED)
        ),
    )
    ml.Compute(
        "aml-vm",
        resource_group_name=g,
        workspace_name="ws",
        properties=ml.VirtualMachineArgs(
            compute_type="VirtualMachine",
            properties=ml.VirtualMachineSchemaPropertiesArgs(virtual_machine_size=RETIRED),
        ),
    )
    ml.Compute(
        "aml-aks",
        resource_group_name=g,
        workspace_name="ws",
        properties=ml.AKSArgs(compute_type="AKS", properties=ml.AKSSchemaPropertiesArgs(agent_vm_size=RETIRED)),
    )
    ml.OnlineDeployment(
        "deploy",
        resource_group_name=g,
        workspace_name="ws",
        endpoint_name="e",
        properties=ml.ManagedOnlineDeploymentArgs(endpoint_compute_type="Managed", instance_type=RETIRED),
    )
    batch.Pool("batch", resource_group_name=g, account_name="acct", vm_size=RETIRED)
    hdinsight.Cluster(
        "hdi",
        resource_group_name=g,
        properties=hdinsight.ClusterCreatePropertiesArgs(
            compute_profile=hdinsight.ComputeProfileArgs(
                roles=[
                    hdinsight.RoleArgs(
                        name="workernode", hardware_profile=hdinsight.HardwareProfileArgs(vm_size=RETIRED)
                    )
                ]
            )
        ),
    )
    devtestlab.VirtualMachine("lab-vm", resource_group_name=g, lab_name="lab", size=RETIRED)
    servicefabric.NodeType(
        "sf",
        resource_group_name=g,
        cluster_name="c",
        vm_size=RETIRED,
        vm_instance_count=1,
        is_primary=False,
        data_disk_size_gb=100,
    )
    redhatopenshift.OpenShiftCluster(
        "aro",
        resource_group_name=g,
        master_profile=redhatopenshift.MasterProfileArgs(vm_size=RETIRED),
        worker_profiles=[redhatopenshift.WorkerProfileArgs(name="w", vm_size=RETIRED, count=1)],
    )
    virtualmachineimages.VirtualMachineImageTemplate(
        "image",
        resource_group_name=g,
        identity=virtualmachineimages.ImageTemplateIdentityArgs(type="None"),
        source=virtualmachineimages.ImageTemplatePlatformImageSourceArgs(type="PlatformImage"),
        distribute=[],
        vm_profile=virtualmachineimages.ImageTemplateVmProfileArgs(vm_size=RETIRED),
    )


def test_vm_size_table_paths_are_what_the_sdk_sends(record: Callable[..., Recording]) -> None:
    rec = record(in_resource_group(build_every_vm_size_place))
    violations = analyze(rec.resources)

    found = sorted(
        (v.resource, v.message.split(" is ")[0]) for v in violations if v.policy == "disallow-retired-vm-sizes"
    )
    assert found == sorted(
        [
            ("vm", "hardwareProfile.vmSize"),
            ("vmss", "sku.name"),
            ("vmss", "skuProfile.vmSizes[0].name"),
            ("vmss-vm", "hardwareProfile.vmSize"),
            ("ppg", "intent.vmSizes[0]"),
            ("aks", "agentPoolProfiles[0].vmSize"),
            ("pool", "vmSize"),
            ("aml", "properties.properties.vmSize"),
            ("ci", "properties.properties.vmSize"),
            ("aml-vm", "properties.properties.virtualMachineSize"),
            ("aml-aks", "properties.properties.agentVmSize"),
            ("deploy", "properties.instanceType"),
            ("batch", "vmSize"),
            ("hdi", "properties.computeProfile.roles[0].hardwareProfile.vmSize"),
            ("lab-vm", "size"),
            ("sf", "vmSize"),
            ("aro", "masterProfile.vmSize"),
            ("aro", "workerProfiles[0].vmSize"),
            ("image", "vmProfile.vmSize"),
        ]
    )
