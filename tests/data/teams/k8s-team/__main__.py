import pulumi
import pulumi_kubernetes as k8s
from azure_gpu_stacks.components import AksGpuPool, CostAlert
from pulumi_azure_native import containerservice, resources

config = pulumi.Config()
group = resources.get_resource_group(resource_group_name="rg-aks")
cluster = containerservice.get_managed_cluster(resource_group_name="rg-aks", resource_name="aks-shared")

pool = AksGpuPool(
    "t4",
    {
        "existing_cluster": {"id": cluster.id},
        "pool_name": config.require("poolName"),
        "vm_size": "Standard_NC4as_T4_v3",
        "min_count": 0,
        "max_count": 2,
        "gpu_driver": config.get("gpuDriver") or "Install",
        "gpu_operator": config.get_bool("gpuOperator") or False,
    },
)
if config.get_bool("handRolledOperator"):
    # The GPU Operator installed by hand beside the pool's own device plugin, at the chart's defaults
    # (the operator owns driver and toolkit): the mistake aks-gpu-driver-ownership exists to catch.
    provider = k8s.Provider("shared-k8s", kubeconfig=pool.kubeconfig)
    k8s.helm.v3.Release(
        "gpu-operator",
        chart="gpu-operator",
        version="v26.7.1",
        repository_opts={"repo": "https://helm.ngc.nvidia.com/nvidia"},
        namespace="gpu-operator",
        create_namespace=True,
        opts=pulumi.ResourceOptions(provider=provider),
    )
CostAlert("budget", {"scope": group.id, "amount": 800, "contact_emails": ["k8s@example.com"]})
pulumi.export("clusterVersion", cluster.kubernetes_version)
pulumi.export("pool", pool.pool_name)
