"""Which input changes replace a resource (delete, then create) rather than update it in place.

One row per create-only property of every type the toolkit and its examples register. A row is
the Pulumi type, the property path in the engine's camelCase (`[]` for any element of a list),
how the replacement comes about, and the public source it was read from (observed 2026-11-22):

- `provider`: `pulumi preview` itself plans a replace. pulumi-azure-native replaces a resource when a
  URL path parameter of its PUT changes (`provider/pkg/provider/diff.go`, `calculateDetailedDiff`:
  "All the parameters that are part of the resource path cause a replacement"), when a property the
  Azure REST spec marks `x-ms-mutability: [create, read]` changes (`provider/pkg/gen/properties.go`,
  `propChangeForcesRecreate`; the schema calls it `willReplaceOnChanges`), and for the properties of
  its `forceNewMap` (`provider/pkg/gen/replacement.go`). A change inside a property that forces
  replacement forces it too (`differ.calculateValueDiff`).
- `refused`: the provider sends an in-place update and the service refuses it (for example
  `PropertyChangeNotAllowed`, pulumi/pulumi-azure-native#1117): the resource has to be replaced,
  by hand or with the `replaceOnChanges` resource option. Either way what it runs is deleted.

A change at a path below a row's path matches the row. Anything not in this table is taken to
update in place, as the provider would.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from .shapes import BATCH_POOL, VMSS

How = Literal["provider", "refused"]

ANY_TYPE = "*"
AKS_POOL = "azure-native:containerservice:AgentPool"
AKS_CLUSTER = "azure-native:containerservice:ManagedCluster"
VM = "azure-native:compute:VirtualMachine"
AML_COMPUTE = "azure-native:machinelearningservices:Compute"
BATCH_ACCOUNT = "azure-native:batch:BatchAccount"

PAN = "pulumi/pulumi-azure-native"
PATH_PARAMETER = f"{PAN} provider/pkg/provider/diff.go (path parameters of the PUT)"
FORCE_NEW_MAP = f"{PAN} provider/pkg/gen/replacement.go (forceNewMap)"
LOCATION_RULE = (
    "Azure/azure-openapi-validator rule LocationMustHaveXmsMutability (RPC-Put-V1-14): a tracked "
    "resource's location is x-ms-mutability [read, create]"
)


@dataclass(frozen=True)
class CreateOnly:
    type: str  # Pulumi type token, or "*" for every type
    path: str  # engine (camelCase) property path; `[]` stands for any list element
    how: How
    source: str

    def matches(self, type_: str, path: str) -> bool:
        if self.type not in (ANY_TYPE, type_):
            return False
        generic = _INDEX.sub("[]", path)
        return generic == self.path or generic.startswith((self.path + ".", self.path + "["))


_INDEX = re.compile(r"\[\d+\]")


def _path_parameters(type_: str, *names: str) -> list[CreateOnly]:
    return [CreateOnly(type_, name, "provider", PATH_PARAMETER) for name in names]


TABLE: tuple[CreateOnly, ...] = (
    CreateOnly(ANY_TYPE, "location", "provider", LOCATION_RULE),
    # The resource's own name and its parents' (the URL of its PUT), per type, as the SDK names them.
    *_path_parameters("azure-native:resources:ResourceGroup", "resourceGroupName"),
    *_path_parameters(VM, "resourceGroupName", "vmName"),
    *_path_parameters("azure-native:compute:VirtualMachineExtension", "resourceGroupName", "vmName", "vmExtensionName"),
    *_path_parameters(VMSS, "resourceGroupName", "vmScaleSetName"),
    *_path_parameters(
        "azure-native:compute:ProximityPlacementGroup", "resourceGroupName", "proximityPlacementGroupName"
    ),
    *_path_parameters("azure-native:network:NetworkInterface", "resourceGroupName", "networkInterfaceName"),
    *_path_parameters("azure-native:network:NetworkSecurityGroup", "resourceGroupName", "networkSecurityGroupName"),
    *_path_parameters("azure-native:network:VirtualNetwork", "resourceGroupName", "virtualNetworkName"),
    *_path_parameters("azure-native:network:Subnet", "resourceGroupName", "virtualNetworkName", "subnetName"),
    *_path_parameters(AKS_CLUSTER, "resourceGroupName", "resourceName"),
    *_path_parameters(AKS_POOL, "resourceGroupName", "resourceName", "agentPoolName"),
    *_path_parameters(AML_COMPUTE, "resourceGroupName", "workspaceName", "computeName"),
    *_path_parameters("azure-native:machinelearningservices:Workspace", "resourceGroupName", "workspaceName"),
    *_path_parameters("azure-native:storage:StorageAccount", "resourceGroupName", "accountName"),
    *_path_parameters("azure-native:keyvault:Vault", "resourceGroupName", "vaultName"),
    *_path_parameters("azure-native:keyvault:Secret", "resourceGroupName", "vaultName", "secretName"),
    *_path_parameters("azure-native:managedidentity:UserAssignedIdentity", "resourceGroupName", "resourceName"),
    *_path_parameters("azure-native:containerregistry:Registry", "resourceGroupName", "registryName"),
    *_path_parameters("azure-native:operationalinsights:Workspace", "resourceGroupName", "workspaceName"),
    *_path_parameters("azure-native:applicationinsights:Component", "resourceGroupName", "resourceName"),
    *_path_parameters("azure-native:consumption:Budget", "scope", "budgetName"),
    *_path_parameters("azure-native:devtestlab:GlobalSchedule", "resourceGroupName", "name"),
    *_path_parameters("azure-native:authorization:RoleAssignment", "scope", "roleAssignmentName"),
    *_path_parameters("azure-native:monitor:ActionGroup", "resourceGroupName", "actionGroupName"),
    *_path_parameters("azure-native:monitor:AutoscaleSetting", "resourceGroupName", "autoscaleSettingName"),
    *_path_parameters("azure-native:network:PublicIPAddress", "resourceGroupName", "publicIpAddressName"),
    *_path_parameters("azure-native:monitor:MetricAlert", "resourceGroupName", "ruleName"),
    *_path_parameters("azure-native:monitor:AzureMonitorWorkspace", "resourceGroupName", "azureMonitorWorkspaceName"),
    *_path_parameters("azure-native:monitor:DataCollectionEndpoint", "resourceGroupName", "dataCollectionEndpointName"),
    *_path_parameters("azure-native:monitor:DataCollectionRule", "resourceGroupName", "dataCollectionRuleName"),
    *_path_parameters("azure-native:monitor:DataCollectionRuleAssociation", "resourceUri", "associationName"),
    *_path_parameters("azure-native:alertsmanagement:PrometheusRuleGroup", "resourceGroupName", "ruleGroupName"),
    *_path_parameters(BATCH_ACCOUNT, "resourceGroupName", "accountName"),
    *_path_parameters(BATCH_POOL, "resourceGroupName", "accountName", "poolName"),
    # Batch pools: "Extensions cannot be added to an existing pool. Pools must be recreated to add, remove, or update
    # extensions" (the NVIDIA driver extension among them).
    CreateOnly(
        BATCH_POOL,
        "deploymentConfiguration.virtualMachineConfiguration.extensions",
        "refused",
        "https://learn.microsoft.com/azure/batch/create-pool-extensions (observed 2026-11-26)",
    ),
    # Autoscale: Microsoft.Insights refuses a new target for an existing setting.
    CreateOnly(
        "azure-native:monitor:AutoscaleSetting",
        "targetResourceUri",
        "refused",
        'TargetResourceIdIsImmutable ("The target resource reference is immutable. If you want to change it, please '
        'create a new autoscale setting with a different name."), as Azure/Moodle issue 311 quotes it',
    ),
    # AKS: the GPU pool as its own AgentPool resource.
    CreateOnly(AKS_POOL, "vmSize", "provider", FORCE_NEW_MAP),
    CreateOnly(AKS_POOL, "gpuInstanceProfile", "provider", FORCE_NEW_MAP),
    CreateOnly(AKS_POOL, "networkProfile.nodePublicIPTags", "provider", FORCE_NEW_MAP),
    CreateOnly(
        AKS_POOL,
        "availabilityZones",
        "refused",
        "https://learn.microsoft.com/azure/aks/reliability-availability-zones-configure (you can't change the "
        "availability zones after you create a node pool)",
    ),
    CreateOnly(
        AKS_POOL,
        "scaleSetPriority",
        "refused",
        "MicrosoftDocs/azure-aks-docs articles/aks/spot-node-pool.md (ScaleSetPriority is immutable)",
    ),
    CreateOnly(
        AKS_POOL,
        "spotMaxPrice",
        "refused",
        "MicrosoftDocs/azure-aks-docs articles/aks/spot-node-pool.md (SpotMaxPrice is immutable)",
    ),
    # AKS: the cluster, and the pools inlined in it (the system pool).
    *(
        CreateOnly(AKS_CLUSTER, path, "provider", FORCE_NEW_MAP)
        for path in (
            "diskEncryptionSetID",
            "dnsPrefix",
            "fqdnSubdomain",
            "linuxProfile",
            "nodeResourceGroup",
            "windowsProfile",
            "networkProfile.serviceCidr",
            "networkProfile.serviceCidrs",
            "networkProfile.dnsServiceIP",
            "networkProfile.networkMode",
            "networkProfile.networkPlugin",
            "networkProfile.networkPluginMode",
            "networkProfile.podCidr",
            "networkProfile.networkDataplane",
            "networkProfile.networkPolicy",
            "networkProfile.outboundType",
        )
    ),
    CreateOnly(
        AKS_CLUSTER,
        "agentPoolProfiles[].vmSize",
        "refused",
        "MicrosoftDocs/azure-aks-docs articles/aks/use-nvidia-gpu.md (the VM size of a node pool is set only at its "
        "creation)",
    ),
    CreateOnly(
        AKS_CLUSTER,
        "agentPoolProfiles[].availabilityZones",
        "refused",
        "https://learn.microsoft.com/azure/aks/reliability-availability-zones-configure",
    ),
    # Scale sets (the InfiniBand training cluster).
    CreateOnly(
        VMSS,
        "zones",
        "refused",
        'Azure REST API, VirtualMachineScaleSet.zones: "Availability zones can only be set when you create the scale '
        'set" '
        "(https://learn.microsoft.com/javascript/api/@azure-rest/arm-compute/virtualmachinescaleset)",
    ),
    CreateOnly(
        VMSS,
        "orchestrationMode",
        "refused",
        "MicrosoftDocs/azure-compute-docs "
        "articles/virtual-machine-scale-sets/virtual-machine-scale-sets-orchestration-modes.md "
        "(the mode is fixed at creation)",
    ),
    CreateOnly(
        VMSS,
        "proximityPlacementGroup",
        "refused",
        "MicrosoftDocs/azure-compute-docs articles/virtual-machine-scale-sets/proximity-placement-groups.md "
        "(Uniform: changed only with every instance stopped; Flexible: never)",
    ),
    *(
        CreateOnly(
            VMSS,
            f"virtualMachineProfile.storageProfile.imageReference.{part}",
            "refused",
            "MicrosoftDocs/azure-compute-docs "
            "articles/virtual-machine-scale-sets/virtual-machine-scale-sets-upgrade-scale-set.md "
            "(create-time properties); Azure/azure-powershell#11911 (\"Changing property 'imageReference.sku' is not "
            'allowed")',
        )
        for part in ("publisher", "offer", "sku")
    ),
    # Single VMs.
    CreateOnly(
        VM,
        "storageProfile.imageReference",
        "refused",
        "pulumi/pulumi-azure-native#1117 (PropertyChangeNotAllowed: \"Changing property 'imageReference.id' is not "
        'allowed")',
    ),
    # Azure ML compute clusters: only the scale settings change in place.
    CreateOnly(
        AML_COMPUTE,
        "properties.properties.vmSize",
        "refused",
        "Azure/azure-rest-api-specs#18889 (a compute cluster's vmSize changes by deleting and creating it); "
        "hashicorp/terraform-provider-azurerm machine_learning_compute_cluster_resource.go (vm_size ForceNew)",
    ),
    CreateOnly(
        AML_COMPUTE,
        "properties.properties.vmPriority",
        "refused",
        "hashicorp/terraform-provider-azurerm "
        "internal/services/machinelearning/machine_learning_compute_cluster_resource.go "
        "(vm_priority ForceNew)",
    ),
    # Other types the stacks use, from the provider's own force-new list.
    CreateOnly("azure-native:authorization:RoleAssignment", "principalId", "provider", FORCE_NEW_MAP),
    CreateOnly("azure-native:storage:StorageAccount", "isHnsEnabled", "provider", FORCE_NEW_MAP),
    *(
        CreateOnly("azure-native:network:PublicIPAddress", path, "provider", FORCE_NEW_MAP)
        for path in ("publicIPAddressVersion", "publicIPPrefix", "sku")
    ),
    # Kubernetes objects the AKS stack deploys (pulumi-kubernetes replaces on a new name or namespace;
    # a DaemonSet's selector cannot change, https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/).
    CreateOnly(
        "kubernetes:core/v1:Namespace",
        "metadata.name",
        "provider",
        "pulumi/pulumi-kubernetes (a new name is a new object)",
    ),
    CreateOnly(
        "kubernetes:apps/v1:DaemonSet",
        "metadata.name",
        "provider",
        "pulumi/pulumi-kubernetes (a new name is a new object)",
    ),
    CreateOnly(
        "kubernetes:apps/v1:DaemonSet",
        "metadata.namespace",
        "provider",
        "pulumi/pulumi-kubernetes (a new namespace is a new object)",
    ),
    CreateOnly(
        "kubernetes:apps/v1:DaemonSet",
        "spec.selector",
        "refused",
        "https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/ (.spec.selector cannot change after "
        "creation)",
    ),
)


def create_only(type_: str, path: str) -> CreateOnly | None:
    """The row that makes a change at `path` of a `type_` resource a replacement, if any."""
    return next((row for row in TABLE if row.matches(type_, path)), None)
