import pulumi
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
    },
)
CostAlert("budget", {"scope": group.id, "amount": 800, "contact_emails": ["k8s@example.com"]})
pulumi.export("clusterVersion", cluster.kubernetes_version)
pulumi.export("pool", pool.pool_name)
