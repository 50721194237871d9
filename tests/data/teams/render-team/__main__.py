import pulumi
from azure_gpu_stacks.components import CostAlert
from pulumi_azure_native import batch, resources

config = pulumi.Config()
location = pulumi.Config("azure-native").require("location")
low_priority = config.get_int("lowPriorityNodes") or 0

rg = resources.ResourceGroup("render", location=location)
account = batch.BatchAccount("renderbatch", resource_group_name=rg.name, location=location)
pool = batch.Pool(
    "render-pool",
    resource_group_name=rg.name,
    account_name=account.name,
    pool_name="render-gpu",
    vm_size=config.get("vmSize") or "Standard_NC4as_T4_v3",
    deployment_configuration=batch.DeploymentConfigurationArgs(
        virtual_machine_configuration=batch.VirtualMachineConfigurationArgs(
            image_reference=batch.ImageReferenceArgs(
                publisher="canonical", offer="0001-com-ubuntu-server-jammy", sku="22_04-lts", version="latest"
            ),
            node_agent_sku_id="batch.node.ubuntu 22.04",
            extensions=[
                batch.VMExtensionArgs(
                    name="gpu-driver",
                    publisher="Microsoft.HpcCompute",
                    type="NvidiaGpuDriverLinux",
                    type_handler_version="1.6",
                    auto_upgrade_minor_version=True,
                )
            ],
        )
    ),
    scale_settings=batch.ScaleSettingsArgs(
        auto_scale=batch.AutoScaleSettingsArgs(
            formula=(
                "$pending = max(0, $PendingTasks.GetSample(1));\n"
                f"$TargetDedicatedNodes = {'0' if low_priority else 'min($pending, 4)'};\n"
                f"$TargetLowPriorityNodes = {f'min($pending, {low_priority})' if low_priority else '0'};\n"
                "$NodeDeallocationOption = taskcompletion;"
            ),
            evaluation_interval="PT5M",
        )
    ),
    target_node_communication_mode=config.get("communication") or "Simplified",
)
CostAlert("render-budget", {"scope": rg.id, "amount": 500, "contact_emails": ["render@example.com"]})
pulumi.export("poolId", pool.name)
