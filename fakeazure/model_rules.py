"""What each type of `fakeazure.models` refuses, kept as data beside the code that refuses it: one row per refusal
(`raise` of a module), with the ARM type, the rule in words, Azure's code and the public source of the rule.

The rows are matched to the code by module, code and a fragment of the message's own text;
tests/fakeazure/test_rule_table.py reads every `raise` of fakeazure/models and asks that each is one row, so a new
refusal cannot be added without its row. docs/azure-conformance.md's table of every rule (scripts/rule_table.py) is
generated from these rows, the prose rules (`fakeazure.prose`) and the REST spec's constraints
(catalog/arm/constraints.json).

Every row names a public source: a rule without one is not a refusal but an advisory (`core.advise`, a plan
warning), listed in ADVISORIES.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..catalog.names import name_table


@dataclass(frozen=True)
class Advisory:
    """A rule a type's check knows but only warns of (`core.advise`): no public source gives Azure's refusal."""

    module: str
    says: str  # a fragment of the advisory's own text
    arm_type: str
    asks: str


@dataclass(frozen=True)
class ModelRule:
    module: str  # fakeazure/models/<module>.py
    code: str  # Azure's code, as the fake answers it
    says: str  # a fragment of the message's own text that tells this refusal from the module's others
    arm_type: str
    asks: str  # the rule in words
    source: str  # where the rule is public


AM = "Microsoft.AlertsManagement/prometheusRuleGroups"
PROMETHEUS = (
    "https://learn.microsoft.com/azure/azure-monitor/essentials/prometheus-rule-groups (observed 2026-11-26); "
    "specification/alertsmanagement/.../PrometheusRuleGroups.json; code not public"
)
VMSS = "Microsoft.Compute/virtualMachineScaleSets"
VM = "Microsoft.Compute/virtualMachines"
VM_PROFILE = "Microsoft.Compute/virtualMachines, virtualMachineScaleSets"
BUDGET = "Microsoft.Consumption/budgets"
BUDGET_PERIOD = (
    "BudgetTimePeriod, https://learn.microsoft.com/dotnet/api/azure.resourcemanager.consumption.consumptionbudgetdata."
    "timeperiod (observed 2026-11-25)"
)
AKS = "Microsoft.ContainerService/managedClusters(/agentPools)"
CLUSTER = "Microsoft.ContainerService/managedClusters"
AKS_LIMITS = "https://learn.microsoft.com/azure/aks/quotas-skus-regions (node counts per pool; catalog/limits.py)"
BUDGET_REST = "https://learn.microsoft.com/rest/api/consumption/budgets/create-or-update (catalog/limits.py)"
AKS_SPOT = (
    "specification/containerservice/.../stable/2025-09-01/managedClusters.json "
    "ManagedClusterAgentPoolProfileProperties (observed 2026-11-25); code not public"
)
AKS_IP_RANGES = "https://learn.microsoft.com/azure/aks/api-server-authorized-ip-ranges (observed 2026-11-22)"
AUTOSCALE = "Microsoft.Insights/autoscaleSettings"
AUTOSCALE_SPEC = "specification/monitor/.../autoscale_API.json (observed 2026-11-22)"
METRIC_ALERT = "Microsoft.Insights/metricAlerts"
METRIC_ALERT_SPEC = (
    "specification/monitor/resource-manager/Microsoft.Insights/stable/2018-03-01/metricAlert_API.json (observed "
    "2026-11-26); code not public"
)
ML_COMPUTE = "Microsoft.MachineLearningServices/workspaces/computes"
BATCH_FACTS = "catalog/batch.py (each fact with its Learn page, observed 2026-11-26)"
NETWORK_SPEC = "specification/network/resource-manager/.../2024-05-01/virtualNetwork.json"

MODEL_RULES: tuple[ModelRule, ...] = (
    # --- alertsmanagement
    ModelRule("alertsmanagement", "BadRequest", "needs scopes", AM, "scopes: an Azure Monitor workspace", PROMETHEUS),
    ModelRule("alertsmanagement", "BadRequest", "is a {}, not an", AM, "scopes[0] is a monitor workspace", PROMETHEUS),
    ModelRule("alertsmanagement", "BadRequest", "has no rules", AM, "at least one rule", PROMETHEUS),
    ModelRule("alertsmanagement", "BadRequest", "has no expression", AM, "each rule has an expression", PROMETHEUS),
    ModelRule("alertsmanagement", "BadRequest", "exactly one of alert", AM, "alert or record, not both", PROMETHEUS),
    ModelRule("alertsmanagement", "BadRequest", "severity {} is not one of", AM, "severity 0 to 4", PROMETHEUS),
    ModelRule(
        "alertsmanagement", "BadRequest", "Prometheus rule group '{}': {} {}.", AM, "ISO 8601 durations", PROMETHEUS
    ),
    # --- applicationinsights, authorization, containerregistry, storage, operationalinsights
    ModelRule(
        "applicationinsights",
        "InvalidParameter",
        "needs kind and applicationType",
        "Microsoft.Insights/components",
        "kind and Application_Type",
        "the spec marks both required (catalog/arm/constraints.json)",
    ),
    ModelRule(
        "authorization",
        "InvalidRoleDefinitionId",
        "is not valid (role assignment",
        "Microsoft.Authorization/roleAssignments",
        "roleDefinitionId is a role definition id",
        "the code public deployment notes quote for a role definition id that is not one (code corpus, observed "
        "2026-11-27)",
    ),
    ModelRule(
        "authorization",
        "InvalidPrincipalId",
        "The Principal ID",
        "Microsoft.Authorization/roleAssignments",
        "principalId is an object id (a GUID)",
        "Azure's 'InvalidPrincipalId: The Principal ID '...' is not valid.', quoted in public deployment notes (code "
        "corpus, observed 2026-11-27)",
    ),
    ModelRule(
        "authorization",
        "UnmatchedPrincipalType",
        "which is different from specified PrincipalType",
        "Microsoft.Authorization/roleAssignments",
        "principalType is the principal's type",
        "Azure's error quoted in Azure/modern-web-app-pattern-dotnet issue 129 (observed 2026-11-22)",
    ),
    ModelRule(
        "containerregistry",
        "InvalidParameter",
        "needs sku.name",
        "Microsoft.ContainerRegistry/registries",
        "sku.name",
        "the spec marks sku required (catalog/arm/constraints.json)",
    ),
    ModelRule(
        "storage",
        "AccountNameInvalid",
        "is not a valid storage account name",
        "Microsoft.Storage/storageAccounts",
        "3-24 lower-case letters and digits",
        "Azure's message quoted in pulumi/pulumi-azure-native issue 3665 "
        "(observed 2026-11-22); Learn's resource-name-rules",
    ),
    ModelRule(
        "storage",
        "InvalidParameter",
        "needs sku.name and kind",
        "Microsoft.Storage/storageAccounts",
        "sku and kind",
        "the spec marks sku and kind required (catalog/arm/constraints.json)",
    ),
    ModelRule(
        "operationalinsights",
        "InvalidParameter",
        "retentionInDays",
        "Microsoft.OperationalInsights/workspaces",
        "retentionInDays 30 to 730",
        "https://learn.microsoft.com/azure/azure-monitor/logs/data-retention-configure "
        "(30 to 730 days); code not public",
    ),
    # --- batch
    ModelRule(
        "batch",
        "InvalidParameter",
        "is not a valid Batch account name",
        "Microsoft.Batch/batchAccounts",
        "3-24 lower-case letters and digits",
        BATCH_FACTS,
    ),
    ModelRule(
        "batch",
        "InvalidParameter",
        "poolAllocationMode UserSubscription needs keyVaultReference",
        "Microsoft.Batch/batchAccounts",
        "UserSubscription mode needs a Key Vault",
        "https://learn.microsoft.com/azure/batch/batch-account-create-portal",
    ),
    ModelRule(
        "batch",
        "InvalidPropertyValue",
        "The pool id",
        "Microsoft.Batch/batchAccounts/pools",
        "pool ids at most 64 characters",
        BATCH_FACTS,
    ),
    ModelRule(
        "batch",
        "InvalidPropertyValue",
        "Cloud Services configuration pools were retired",
        "Microsoft.Batch/batchAccounts/pools",
        "no Cloud Services pools",
        BATCH_FACTS,
    ),
    ModelRule(
        "batch",
        "InvalidPropertyValue",
        "needs deploymentConfiguration.virtualMachineConfiguration",
        "Microsoft.Batch/batchAccounts/pools",
        "a virtual machine configuration",
        BATCH_FACTS,
    ),
    ModelRule(
        "batch",
        "InvalidPropertyValue",
        "classic node communication was retired",
        "Microsoft.Batch/batchAccounts/pools",
        "simplified node communication",
        BATCH_FACTS,
    ),
    ModelRule(
        "batch",
        "InvalidPropertyValue",
        "takes fixedScale or autoScale, not both",
        "Microsoft.Batch/batchAccounts/pools",
        "one scale mode",
        "the spec's ScaleSettings description",
    ),
    ModelRule(
        "batch",
        "InvalidPropertyValue",
        "autoScale.evaluationInterval",
        "Microsoft.Batch/batchAccounts/pools",
        "evaluation interval 5 minutes to 168 hours",
        BATCH_FACTS,
    ),
    ModelRule(
        "batch",
        "InvalidPropertyValue",
        "asks for low-priority nodes",
        "Microsoft.Batch/batchAccounts/pools",
        "no low-priority nodes in a Batch-managed account",
        BATCH_FACTS,
    ),
    # --- compute
    ModelRule(
        "compute",
        "InvalidParameter",
        "singlePlacementGroup true holds at most",
        VMSS,
        "at most 100 VMs in a single placement group",
        "https://learn.microsoft.com/azure/virtual-machine-scale-sets/virtual-machine-scale-sets-placement-groups",
    ),
    ModelRule(
        "compute",
        "InvalidParameter",
        "a proximity placement group must be in the same region",
        VMSS,
        "a proximity placement group of the same region",
        "https://learn.microsoft.com/azure/virtual-machines/co-location; code not public",
    ),
    ModelRule(
        "compute",
        "InvalidParameter",
        "the value of parameter imageReference is invalid",
        VMSS,
        "an image by publisher/offer/sku/version or by one id",
        "specification/compute/.../virtualMachine.json ImageReference (description)",
    ),
    ModelRule(
        "compute_profile",
        "BadRequest",
        "is not supported for creation of VMs and Virtual Machine Scale Set",
        VM_PROFILE,
        "Trusted Launch only on sizes that support it",
        "Azure's words in Azure/azure-cli issue 28005; https://learn.microsoft.com/azure/virtual-machines/"
        "trusted-launch",
    ),
    ModelRule(
        "compute_profile",
        "BadRequest",
        "cannot boot Hypervisor Generation",
        VM_PROFILE,
        "the image's generation is one the size boots",
        "https://learn.microsoft.com/azure/virtual-machines/generation-2 (observed 2026-11-22)",
    ),
    ModelRule(
        "compute_profile",
        "VMSizeIsNotPermittedToEnableAcceleratedNetworking",
        "is not in the allowed list of VM sizes for accelerated networking",
        VM_PROFILE,
        "accelerated networking only on sizes that have it",
        "https://learn.microsoft.com/azure/virtual-network/accelerated-networking-overview",
    ),
    ModelRule(
        "compute_profile",
        "VMExtensionProvisioningError",
        "the NVIDIA driver is downloaded from the internet",
        VM_PROFILE,
        "the NVIDIA driver extension needs outbound access",
        "https://learn.microsoft.com/azure/virtual-machines/extensions/hpccompute-gpu-linux",
    ),
    ModelRule(
        "compute_profile",
        "VMExtensionProvisioningError",
        "the InfiniBand driver extension supports",
        VM_PROFILE,
        "the InfiniBand driver extension's Ubuntu releases",
        "https://learn.microsoft.com/azure/virtual-machines/extensions/enable-infiniband",
    ),
    # --- consumption
    ModelRule(
        "consumption",
        "InvalidParameter",
        "timePeriod.startDate {} is not a date",
        BUDGET,
        "a start date",
        BUDGET_PERIOD,
    ),
    ModelRule(
        "consumption",
        "InvalidParameter",
        "the start date must be the first day of a month",
        BUDGET,
        "the first day of a month",
        BUDGET_PERIOD,
    ),
    ModelRule(
        "consumption",
        "InvalidParameter",
        "budget start date must be on or after June 1, 2017",
        BUDGET,
        "on or after 2017-06-01",
        BUDGET_PERIOD,
    ),
    ModelRule(
        "consumption", "InvalidParameter", "timePeriod.endDate {} is not a date", BUDGET, "an end date", BUDGET_PERIOD
    ),
    ModelRule(
        "consumption", "InvalidParameter", "should be less than the end date", BUDGET, "start before end", BUDGET_PERIOD
    ),
    ModelRule(
        "consumption", "InvalidParameter", "notifications; at most", BUDGET, "at most 5 notifications", BUDGET_REST
    ),
    ModelRule(
        "consumption",
        "InvalidParameter",
        "threshold {}; allowed: 0 to",
        BUDGET,
        "threshold 0 to 1000 percent",
        BUDGET_REST,
    ),
    ModelRule(
        "consumption",
        "InvalidParameter",
        "needs at least one contact email or contact group",
        BUDGET,
        "a contact per notification",
        BUDGET_REST,
    ),
    # --- containerservice
    ModelRule(
        "containerservice",
        "AgentPoolK8sVersionNotSupported",
        "is not supported in this region",
        AKS,
        "a Kubernetes version AKS supports today",
        "https://learn.microsoft.com/azure/aks/supported-kubernetes-versions (catalog/limits.py)",
    ),
    ModelRule(
        "containerservice",
        "InvalidParameter",
        "agent pool name '{}' must be",
        AKS,
        "pool names: lower-case alphanumerics, 1-12 (Linux) characters",
        "https://learn.microsoft.com/azure/aks/create-node-pools (catalog/limits.py)",
    ),
    ModelRule(
        "containerservice",
        "InvalidParameter",
        "is a System pool on Spot",
        AKS,
        "System pools not Spot",
        "https://learn.microsoft.com/azure/aks/spot-node-pool (limitations); code not public",
    ),
    ModelRule(
        "containerservice",
        "InvalidParameter",
        "allowed for {} pools",
        AKS,
        "node counts 0 (1 System) to 1000",
        AKS_LIMITS,
    ),
    ModelRule(
        "containerservice",
        "InvalidParameter",
        "enables the autoscaler without minCount and maxCount",
        AKS,
        "autoscaler with minCount and maxCount",
        "https://learn.microsoft.com/azure/aks/cluster-autoscaler",
    ),
    ModelRule(
        "containerservice",
        "InvalidParameter",
        "is greater than maxCount",
        AKS,
        "minCount <= maxCount",
        "https://learn.microsoft.com/azure/aks/cluster-autoscaler",
    ),
    ModelRule(
        "containerservice",
        "InvalidParameter",
        "is outside minCount..maxCount",
        AKS,
        "count within minCount..maxCount",
        "https://learn.microsoft.com/azure/aks/cluster-autoscaler",
    ),
    ModelRule(
        "containerservice",
        "InvalidParameter",
        "is not supported on VM size",
        AKS,
        "MIG only on MIG sizes",
        "https://learn.microsoft.com/azure/aks/gpu-multi-instance (observed 2026-11-25); code not public",
    ),
    ModelRule(
        "containerservice",
        "InvalidParameter",
        "is not supported with osSKU AzureLinux",
        AKS,
        "no MIG on Azure Linux",
        "https://learn.microsoft.com/azure/aks/gpu-multi-instance (observed 2026-11-25); code not public",
    ),
    ModelRule(
        "containerservice",
        "InvalidParameter",
        "sets scaleSetEvictionPolicy without scaleSetPriority Spot",
        AKS,
        "eviction policy only with Spot",
        AKS_SPOT,
    ),
    ModelRule(
        "containerservice", "InvalidParameter", "spotMaxPrice", AKS, "spotMaxPrice -1 or greater than 0", AKS_SPOT
    ),
    ModelRule(
        "containerservice",
        "InvalidParameter",
        "are not supported for private cluster",
        CLUSTER,
        "no authorized IP ranges on a private cluster",
        AKS_IP_RANGES,
    ),
    ModelRule(
        "containerservice",
        "InvalidParameter",
        "apiServerAccessProfile.authorizedIPRanges; at most",
        CLUSTER,
        "at most 200 authorized IP ranges",
        AKS_IP_RANGES,
    ),
    ModelRule(
        "containerservice",
        "InvalidParameter",
        "Setting apiServerAuthorizedIPRange to 0.0.0.0/32",
        CLUSTER,
        "0.0.0.0/32 alone",
        "Azure's words in Azure/terraform-azurerm-aks issue 378",
    ),
    ModelRule(
        "containerservice",
        "InvalidParameter",
        "is not an IPv4 CIDR",
        CLUSTER,
        "authorized IP ranges are IPv4 CIDRs",
        AKS_IP_RANGES,
    ),
    ModelRule(
        "containerservice",
        "SkuNotAvailable",
        "Basic managed cluster SKU name is invalid",
        CLUSTER,
        "no sku.name Basic",
        "Azure/azure-rest-api-specs issue 27263 (AKS's answer quoted)",
    ),
    ModelRule(
        "containerservice",
        "InvalidParameter",
        "there has to be at least one System agent pool",
        CLUSTER,
        "a System pool",
        "https://learn.microsoft.com/azure/aks/use-system-pools",
    ),
    ModelRule(
        "containerservice",
        "InvalidParameter",
        "need AKS-managed Entra ID",
        CLUSTER,
        "disableLocalAccounts and Azure RBAC need managed Entra ID",
        "https://learn.microsoft.com/azure/aks/manage-local-accounts-managed-azure-ad",
    ),
    ModelRule(
        "containerservice",
        "Conflict",
        "already has an agent pool named",
        "Microsoft.ContainerService/managedClusters/agentPools",
        "a pool name not taken",
        "what pulumi-azure-native reports when a create finds the resource (fakeazure/errors.py Conflict)",
    ),
    ModelRule(
        "containerservice",
        "BadRequest",
        "Getting static credential is not allowed",
        CLUSTER,
        "no admin credential with local accounts disabled",
        "https://learn.microsoft.com/azure/aks/manage-local-accounts-managed-azure-ad",
    ),
    ModelRule(
        "containerservice",
        "ResourceNotFound",
        "The Resource '{}' was not found.",
        CLUSTER,
        "credentials of a cluster that exists",
        "ARM's ResourceNotFound",
    ),
    # --- devtestlab
    ModelRule(
        "devtestlab",
        "InvalidScheduleId",
        "The schedule should be created in subscription",
        "Microsoft.DevTestLab/schedules",
        "named shutdown-computevm-<vm> in the VM's group",
        "Azure's wording in public auto-shutdown threads (observed 2026-11-22)",
    ),
    ModelRule(
        "devtestlab",
        "InvalidParameter",
        "is not a time of day as HHmm",
        "Microsoft.DevTestLab/schedules",
        "dailyRecurrence.time as HHmm",
        "the spec's DayDetails.time and its examples ('1900'); code not public",
    ),
    ModelRule(
        "devtestlab",
        "InvalidParameter",
        "timeZoneId {}.",
        "Microsoft.DevTestLab/schedules",
        "a Windows time zone id",
        "the spec's timeZoneId (TimeZoneConverter's KnownWindowsTimeZoneIds); code not public",
    ),
    # --- keyvault
    ModelRule(
        "keyvault",
        "VaultNameNotValid",
        "The vault name '{}' is invalid",
        "Microsoft.KeyVault/vaults",
        "3-24 alphanumerics and hyphens",
        "Learn's resource-name-rules; Azure's words",
    ),
    ModelRule(
        "keyvault",
        "InvalidParameter",
        "needs properties.tenantId and properties.sku",
        "Microsoft.KeyVault/vaults",
        "tenantId and sku",
        "the spec marks both required (catalog/arm/constraints.json)",
    ),
    ModelRule(
        "keyvault",
        "BadRequest",
        "cannot be set to false",
        "Microsoft.KeyVault/vaults",
        "purge protection not set to false",
        "the spec's enablePurgeProtection ('Setting this property to false is not allowed')",
    ),
    ModelRule(
        "keyvault",
        "InvalidParameter",
        "softDeleteRetentionInDays",
        "Microsoft.KeyVault/vaults",
        "soft-delete retention 7 to 90 days",
        "the spec's softDeleteRetentionInDays ('>=7 and <=90')",
    ),
    ModelRule(
        "keyvault",
        "InvalidParameter",
        "needs properties (the spec marks them required)",
        "Microsoft.KeyVault/vaults/secrets",
        "properties",
        "the spec marks properties required",
    ),
    ModelRule(
        "keyvault",
        "InvalidParameter",
        "the value is {} bytes",
        "Microsoft.KeyVault/vaults/secrets",
        "a value of at most 25k bytes",
        "https://learn.microsoft.com/azure/key-vault/secrets/about-secrets (observed 2026-11-22)",
    ),
    ModelRule(
        "keyvault",
        "InvalidParameter",
        "contentType is {} characters",
        "Microsoft.KeyVault/vaults/secrets",
        "contentType at most 255 characters",
        "https://learn.microsoft.com/azure/key-vault/secrets/about-secrets (observed 2026-11-22)",
    ),
    # --- machinelearningservices
    ModelRule(
        "machinelearningservices",
        "InvalidParameter",
        "the id of an existing",
        "Microsoft.MachineLearningServices/workspaces",
        "storage account and key vault ids that exist",
        "https://learn.microsoft.com/azure/machine-learning/concept-workspace (observed 2026-11-22)",
    ),
    ModelRule(
        "machinelearningservices",
        "UserError",
        "needs properties.computeType",
        ML_COMPUTE,
        "computeType",
        "the spec's Compute discriminator (required)",
    ),
    ModelRule(
        "machinelearningservices",
        "UserError",
        "needs properties.properties.scaleSettings.maxNodeCount",
        ML_COMPUTE,
        "scaleSettings.maxNodeCount",
        "Azure ML's answer quoted in dotnet/machinelearning-modelbuilder issue 2386 (observed 2026-11-26)",
    ),
    ModelRule(
        "machinelearningservices",
        "UserError",
        "need 0 <= min <= max",
        ML_COMPUTE,
        "0 <= min <= max nodes",
        "the spec's ScaleSettings (minNodeCount, maxNodeCount)",
    ),
    ModelRule(
        "machinelearningservices",
        "UserError",
        "is not an ISO 8601 duration such as PT15M",
        ML_COMPUTE,
        "nodeIdleTimeBeforeScaleDown as ISO 8601",
        "the spec's ScaleSettings.nodeIdleTimeBeforeScaleDown ('ISO 8601 format')",
    ),
    ModelRule(
        "machinelearningservices",
        "UserError",
        "nodes without public IPs need a subnet",
        ML_COMPUTE,
        "no public IP needs a subnet or a managed network",
        "https://learn.microsoft.com/azure/machine-learning/how-to-secure-training-vnet (No public IP, observed "
        "2026-11-26)",
    ),
    ModelRule(
        "machinelearningservices",
        "UserError",
        "idleTimeBeforeShutdown",
        ML_COMPUTE,
        "idle shutdown PT15M to P3D",
        "https://learn.microsoft.com/azure/machine-learning/how-to-create-compute-instance (observed 2026-11-26)",
    ),
    # --- monitor
    ModelRule(
        "monitor",
        "InvalidParameter",
        "groupShortName",
        "Microsoft.Insights/actionGroups",
        "groupShortName 1 to 12 characters",
        "the spec's ActionGroup.groupShortName (maxLength 12, catalog/arm/constraints.json)",
    ),
    ModelRule(
        "monitor",
        "BadRequest",
        "profiles; allowed: 1 to",
        AUTOSCALE,
        "1 to 20 profiles",
        f"{AUTOSCALE_SPEC} ('A maximum of 20 profiles can be specified')",
    ),
    ModelRule(
        "monitor",
        "BadRequest",
        "default profiles",
        AUTOSCALE,
        "one default profile",
        "https://learn.microsoft.com/azure/azure-monitor/autoscale/autoscale-understanding-settings",
    ),
    ModelRule(
        "monitor",
        "BadRequest",
        "rules; allowed: at most",
        AUTOSCALE,
        "at most 10 rules per profile",
        f"{AUTOSCALE_SPEC} ('A maximum of 10 rules can be specified')",
    ),
    ModelRule(
        "monitor",
        "BadRequest",
        "recurrence.frequency {}; allowed: Week",
        AUTOSCALE,
        "frequency Week",
        f"{AUTOSCALE_SPEC} ('This value must be Week')",
    ),
    ModelRule(
        "monitor",
        "BadRequest",
        "recurrence.schedule.days",
        AUTOSCALE,
        "days Sunday to Saturday",
        f"{AUTOSCALE_SPEC} ('Possible values are Sunday through Saturday')",
    ),
    ModelRule(
        "monitor",
        "BadRequest",
        "recurrence.schedule.{} {}; allowed: 0 to",
        AUTOSCALE,
        "hours 0-23, minutes 0-59",
        f"{AUTOSCALE_SPEC} ('Values supported are 0 to 23')",
    ),
    ModelRule(
        "monitor",
        "TargetResourceNotFound",
        "of the autoscale setting '{}' was not found",
        AUTOSCALE,
        "a target that exists",
        "the code azure-powershell issue 11710 reports (observed 2026-11-22)",
    ),
    ModelRule(
        "monitor",
        "BadRequest",
        "allowed: a whole number, 0 or more",
        AUTOSCALE,
        "capacities whole numbers",
        f"{AUTOSCALE_SPEC} ScaleCapacity",
    ),
    ModelRule(
        "monitor",
        "BadRequest",
        "The minimum capacity value",
        AUTOSCALE,
        "minimum <= default",
        "Azure's wording quoted in microsoft/onefuzz issue 2249 (observed 2026-11-22)",
    ),
    ModelRule(
        "monitor",
        "BadRequest",
        "allowed: an ISO 8601 date-time",
        AUTOSCALE,
        "fixedDate start and end",
        f"{AUTOSCALE_SPEC} TimeWindow ('format': 'date-time')",
    ),
    ModelRule(
        "monitor",
        "BadRequest",
        "The autoscale profile {}: {} {}.",
        AUTOSCALE,
        "a Windows time zone",
        f"{AUTOSCALE_SPEC} timeZone ('Some examples of valid time zones are: Dateline Standard Time ...')",
    ),
    ModelRule(
        "monitor", "BadRequest", "Metric alert '{}': severity", METRIC_ALERT, "severity 0 to 4", METRIC_ALERT_SPEC
    ),
    ModelRule("monitor", "BadRequest", "needs at least one scope", METRIC_ALERT, "a scope", METRIC_ALERT_SPEC),
    ModelRule(
        "monitor",
        "BadRequest",
        "Metric alert '{}': {} {}.",
        METRIC_ALERT,
        "ISO 8601 window and frequency",
        METRIC_ALERT_SPEC,
    ),
    ModelRule(
        "monitor", "BadRequest", "criteria.allOf lists no criterion", METRIC_ALERT, "a criterion", METRIC_ALERT_SPEC
    ),
    ModelRule(
        "monitor",
        "BadRequest",
        "which destinations does not define",
        "Microsoft.Insights/dataCollectionRules",
        "data flows to defined destinations",
        "https://learn.microsoft.com/azure/azure-monitor/essentials/data-collection-rule-structure; code not public",
    ),
    ModelRule(
        "monitor",
        "BadRequest",
        "needs dataCollectionRuleId or dataCollectionEndpointId",
        "Microsoft.Insights/dataCollectionRuleAssociations",
        "a rule or an endpoint",
        "the spec's DataCollectionRuleAssociation (one of the two)",
    ),
    # --- network
    ModelRule(
        "network",
        "NetcfgSubnetRangesOverlap",
        "overlaps with that of an existing subnet",
        "Microsoft.Network/virtualNetworks",
        "inline subnets do not overlap",
        "code seen in public deployment notes and an `az network vnet subnet create` lab log (observed 2026-11-26)",
    ),
    ModelRule(
        "network",
        "NetcfgSubnetRangeOutsideVnet",
        "is outside the IP address range of virtual network",
        "Microsoft.Network/virtualNetworks(/subnets)",
        "subnets inside the VNet's address space",
        "Azure's code and words quoted from `az network vnet subnet create` output in public notes (code corpus, "
        "observed 2026-11-27)",
    ),
    ModelRule(
        "network",
        "InvalidParameter",
        "needs addressPrefix or addressPrefixes",
        "Microsoft.Network/virtualNetworks/subnets",
        "a prefix",
        f"{NETWORK_SPEC} SubnetPropertiesFormat",
    ),
    ModelRule(
        "network",
        "SecurityRuleInvalidPriority",
        "Security rule has invalid Priority",
        "Microsoft.Network/networkSecurityGroups",
        "priority 100 to 4096",
        "Azure's code and words in pulumi/pulumi-azure-native issue 2221 (observed 2026-11-26)",
    ),
    ModelRule(
        "network",
        "SecurityRuleConflict",
        "Rules cannot have the same Priority and Direction",
        "Microsoft.Network/networkSecurityGroups",
        "unique priority per direction",
        "https://learn.microsoft.com/azure/virtual-network/network-security-groups-overview (security rules)",
    ),
    ModelRule(
        "network",
        "InvalidParameter",
        "needs at least one IP configuration",
        "Microsoft.Network/networkInterfaces",
        "an IP configuration",
        "specification/network/.../networkInterface.json ipConfigurations",
    ),
    ModelRule(
        "network",
        "InvalidResourceReference",
        "referenced by resource {} was not found",
        "Microsoft.Network/networkInterfaces",
        "a subnet of the NIC's region",
        "https://learn.microsoft.com/azure/azure-resource-manager/troubleshooting/common-deployment-errors "
        "(InvalidResourceReference)",
    ),
    ModelRule(
        "network",
        "InvalidAddressPrefixFormat",
        "",
        "Microsoft.Network/virtualNetworks(/subnets)",
        "a stored prefix in CIDR notation (as the prose rule prefix-format)",
        "fakeazure.prose prefix-format",
    ),
    ModelRule(
        "network",
        "InvalidCIDRNotation",
        "",
        "Microsoft.Network/virtualNetworks(/subnets)",
        "a stored prefix without host bits (as the prose rule prefix-host-bits)",
        "fakeazure.prose prefix-host-bits",
    ),
)

# The name refusals of `core.require_named` (called by the module named; "'x' is not a valid <what> name"): the rule is
# the name table's (catalog/arm/name_rules.json, from Learn), the code the fake's InvalidParameter: no public source
# found gives Azure's code for these (module, the name's `what`, ARM type, what was searched).
NAME_CODE_NOT_PUBLIC = "code not public (InvalidParameter is the fake's)"
NAMED: tuple[tuple[str, str, str, str], ...] = (
    ("resources", "resource group", "Microsoft.Resources/resourceGroups", ""),
    ("machinelearningservices", "workspace", "Microsoft.MachineLearningServices/workspaces", ""),
    (
        "machinelearningservices",
        "compute",
        ML_COMPUTE,
        "; Azure ML's answers quoted in public give its words, not its code (MicrosoftDocs/pipelines-azureml issue 19: "
        "\"Compute name 'cpu-cluster-1' is not available. Reason: Invalid\" with no code; MicrosoftDocs/azure-docs "
        'issue 28600: "The request is invalid", its detail code cut short; searched 2026-11-27)',
    ),
    ("containerregistry", "container registry", "Microsoft.ContainerRegistry/registries", ""),
    ("keyvault", "key vault secret", "Microsoft.KeyVault/vaults/secrets", ""),
    ("operationalinsights", "Log Analytics workspace", "Microsoft.OperationalInsights/workspaces", ""),
)


def _named(module: str, what: str, arm_type: str, searched: str) -> ModelRule:
    table = name_table()
    rule = table["rules"][arm_type]
    page = rule.get("page", table["source"])
    return ModelRule(
        module,
        "InvalidParameter",
        f"is not a valid {what} name",
        arm_type,
        f"name: {rule['min']}-{rule['max']} characters; {rule['allowed']}",
        f"{page} (catalog/arm/name_rules.json, observed {table['observed']}); {NAME_CODE_NOT_PUBLIC}{searched}",
    )


MODEL_RULES = MODEL_RULES + tuple(_named(*named) for named in NAMED)

# Refusals that had no public source (issue 33: "a rule without one is an advisory"), now plan warnings.
ADVISORIES: tuple[Advisory, ...] = (
    Advisory("compute", "a group is meant for one zone", "Microsoft.Compute/proximityPlacementGroups", "one zone"),
    Advisory(
        "compute",
        "which the spec marks optional",
        "Microsoft.Compute/virtualMachines/extensions",
        "publisher, type and typeHandlerVersion",
    ),
    Advisory("consumption", "tracks nothing", BUDGET, "amount greater than 0"),
    Advisory("containerservice", "has neither dnsPrefix nor fqdnSubdomain", CLUSTER, "dnsPrefix or fqdnSubdomain"),
    Advisory("containerservice", "two agent pools are named", CLUSTER, "unique pool names"),
    Advisory("monitor", "is above its maximum", AUTOSCALE, "default capacity at most the maximum"),
)
