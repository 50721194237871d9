"""What Azure answers for a property the request leaves out: its default, one small table per type.

Each row is (the output's key, its value or how Azure derives it from the request, the public source). A key under
`properties.` is inside the answer's own `properties` object (a type whose inputs keep ARM's envelope: a vault's,
a secret's). A default never replaces what the request gave or what the type's model computed (`with_defaults`).
Where the source is the REST spec's response example (Azure/azure-rest-api-specs, the file and commit named), the
example's request leaves the key out and Azure's answer holds the value: that answer is the default. All observed
2026-11-27. Values Azure gives from the day of the creation (times, etags) are not defaults: no offline answer knows
them, as `pulumi preview` shows them unknown.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...catalog.region_pairs import PAIRED_REGION
from ...sdk.values import dig

if TYPE_CHECKING:
    from ..core import Arm, Resource

SPECS = "https://github.com/Azure/azure-rest-api-specs"
NETWORK_EXAMPLES = "specification/network/resource-manager/Microsoft.Network/stable/2024-05-01/examples"
NO_DEFAULT = object()  # what a derived default gives when the request leaves Azure's choice unknown offline


@dataclass(frozen=True)
class Default:
    key: str  # the output's key; `properties.<key>` inside the answer's `properties`
    value: Any  # the value, or a function of (the subscription, the resource) giving it (or NO_DEFAULT)
    source: str


def _location(arm: Arm, res: Resource) -> Any:
    return res.location


def _name(arm: Arm, res: Resource) -> Any:
    return res.name


def _tenant(arm: Arm, res: Resource) -> Any:
    return arm.tenant_id


# The SKUs that keep a copy in a second region (Learn, "Azure Storage redundancy": GRS, RA-GRS, GZRS, RA-GZRS; the
# spec's SkuName enum spells them so), to the primary's paired region (Learn, regions-paired.md: "Azure geo-redundant
# storage (GRS) can automatically replicate data to a paired region"); observed 2026-11-27.
GEO_REDUNDANT_SKUS = frozenset({"standard_grs", "standard_ragrs", "standard_gzrs", "standard_ragzrs"})


def _secondary_location(arm: Arm, res: Resource) -> Any:
    if str(dig(res.properties, "sku", "name") or "").lower() not in GEO_REDUNDANT_SKUS:
        return NO_DEFAULT  # no second region: Azure's answer has none
    return PAIRED_REGION.get(str(res.location), NO_DEFAULT)  # a region without a listed pair: unknown offline


def _status_of_secondary(arm: Arm, res: Resource) -> Any:
    return NO_DEFAULT if _secondary_location(arm, res) is NO_DEFAULT else "available"


def _single_placement_group(arm: Arm, res: Resource) -> Any:
    # Learn, "Virtual Machine Scale Sets and placement groups" (a page of Uniform orchestration): "By default, a scale
    # set consists of a single placement group with a maximum size of 100 VMs ... When set to the default value of
    # true" (MicrosoftDocs/azure-compute-docs virtual-machine-scale-sets-placement-groups.md, 0c6223e9484d); a Uniform
    # set asking for more is refused (fakeazure/models/compute.py). A Flexible set's default is stated nowhere read.
    uniform = str(res.properties.get("orchestrationMode") or "Uniform").lower() == "uniform"
    return True if uniform else NO_DEFAULT


def _vault_location(arm: Arm, res: Resource) -> Any:
    vault = arm.find(res.id.split("/secrets/")[0])
    return vault.location if vault is not None else NO_DEFAULT


def _allocation_method(arm: Arm, res: Resource) -> Any:
    # A Standard address is static: the SKU has no dynamic allocation (ansible-collections/azure#192, met on Azure:
    # "Standard SKU doesn't support dynamic IPs, the Static allocation_method should be default"); the spec's
    # example of a request without a SKU is answered Dynamic (PublicIpAddressCreateDefaults.json, 118093527e37).
    return "Static" if str(dig(res.properties, "sku", "name") or "").lower() == "standard" else "Dynamic"


# Azure's six default rules of every network security group, as the spec's example answers them
# (NetworkSecurityGroupCreate.json, e71bdd999732).
DEFAULT_SECURITY_RULES = (
    ("AllowVnetInBound", "Allow inbound traffic from all VMs in VNET", "VirtualNetwork", "VirtualNetwork", "Allow",
     65000, "Inbound"),
    ("AllowAzureLoadBalancerInBound", "Allow inbound traffic from azure load balancer", "AzureLoadBalancer", "*",
     "Allow", 65001, "Inbound"),
    ("DenyAllInBound", "Deny all inbound traffic", "*", "*", "Deny", 65500, "Inbound"),
    ("AllowVnetOutBound", "Allow outbound traffic from all VMs to all VMs in VNET", "VirtualNetwork", "VirtualNetwork",
     "Allow", 65000, "Outbound"),
    ("AllowInternetOutBound", "Allow outbound traffic from all VMs to Internet", "*", "Internet", "Allow", 65001,
     "Outbound"),
    ("DenyAllOutBound", "Deny all outbound traffic", "*", "*", "Deny", 65500, "Outbound"),
)  # fmt: skip


def _default_security_rules(arm: Arm, res: Resource) -> list[dict[str, Any]]:
    return [
        {
            "name": name,
            "id": f"{res.id}/defaultSecurityRules/{name}",
            "description": description,
            "protocol": "*",
            "sourcePortRange": "*",
            "destinationPortRange": "*",
            "sourceAddressPrefix": source,
            "destinationAddressPrefix": destination,
            "access": access,
            "priority": priority,
            "direction": direction,
            "provisioningState": "Succeeded",
        }
        for name, description, source, destination, access, priority, direction in DEFAULT_SECURITY_RULES
    ]


# An agent pool's maxPods when the request leaves it out, by the cluster's network plugin (and its mode): kubenet 110,
# Azure CNI 30 (PSRule for Azure, Azure.AKS.NodeMinPods: "When deploying AKS clusters with kubenet networking the
# default maximum number of pods is 110. For Azure CNI AKS clusters, the default maximum number of pods is 30",
# https://azure.github.io/PSRule.Rules.Azure/en/rules/Azure.AKS.NodeMinPods/); a cluster whose request names no
# plugin answered 110 in the spec's example (AgentPoolsCreate_OSSKU.json, e94c4a58e817, a pool of
# ManagedClustersCreate_OSSKU's cluster).
MAX_PODS_BY_PLUGIN: dict[tuple[str | None, str | None], int] = {
    ("kubenet", None): 110,
    ("azure", None): 30,
    (None, None): 110,
}


def _cluster(arm: Arm, res: Resource) -> Resource | None:
    return arm.find(res.id.split("/agentPools/")[0])


def _max_pods(arm: Arm, res: Resource) -> Any:
    cluster = _cluster(arm, res)
    if cluster is None:
        return NO_DEFAULT
    network = cluster.properties.get("networkProfile") or {}
    plugin, mode = network.get("networkPlugin"), network.get("networkPluginMode")
    return MAX_PODS_BY_PLUGIN.get((plugin and str(plugin).lower(), mode and str(mode).lower()), NO_DEFAULT)


def _orchestrator_version(arm: Arm, res: Resource) -> Any:
    # The version the pool runs: its own orchestratorVersion, else the control plane's (the spec's
    # `currentOrchestratorVersion`: "If orchestratorVersion was a fully specified version <major.minor.patch>, this
    # field will be exactly equal to it"; AgentPoolsCreate_OSSKU.json answers an empty one with the cluster's).
    own = res.properties.get("orchestratorVersion")
    if own:
        return own
    cluster = _cluster(arm, res)
    version = cluster.properties.get("kubernetesVersion") if cluster is not None else None
    return version or NO_DEFAULT  # an empty one: the version AKS picks on the day, unknown offline


STORAGE = f"{SPECS} b923d8e70889 specification/storage/.../2024-01-01/examples/StorageAccountCreate.json"
REGISTRY = f"{SPECS} 16c9ca7681ac specification/containerregistry/.../2023-01-01-preview/examples/RegistryCreate.json"
BATCH_ACCOUNT = f"{SPECS} 89310f552e7e specification/batch/.../2024-07-01/examples/BatchAccountCreate_Default.json"
BATCH_POOL = "pulumi-azure-native 3.29 batch.Pool (the spec's descriptions of Microsoft.Batch 2024-07-01)"

PUBLIC_IP = f"{SPECS} 118093527e37 {NETWORK_EXAMPLES}/PublicIpAddressCreateDefaults.json"
NSG = f"{SPECS} e71bdd999732 {NETWORK_EXAMPLES}/NetworkSecurityGroupCreate.json"
NIC = f"{SPECS} 96125316b83d {NETWORK_EXAMPLES}/NetworkInterfaceCreate.json"
LOG_ANALYTICS = f"{SPECS} 870aeeb3d22f specification/operationalinsights/.../2023-09-01/examples/WorkspacesCreate.json"
VAULT = f"{SPECS} 315e54b73595 specification/keyvault/.../2024-11-01/examples/createVault.json"
SECRET = f"{SPECS} 315e54b73595 specification/keyvault/.../2024-11-01/examples/createSecret.json"
MONITOR_WORKSPACE = (
    f"{SPECS} 204310250609 specification/monitor/.../2023-04-03/examples/AzureMonitorWorkspacesCreate.json"
)
ML_WORKSPACE = (
    f"{SPECS} 5485d5f88025 specification/machinelearningservices/.../2025-12-01/examples/Workspace/create.json"
)
AGENT_POOL = f"{SPECS} e94c4a58e817 specification/containerservice/.../2025-09-01/examples/AgentPoolsCreate_OSSKU.json"
VNET = f"{SPECS} 49ec566f4600 specification/network/.../2024-03-01/examples/VirtualNetworkCreate.json"
COMPONENT_SPEC = f"{SPECS} 0c3c7e2f4f03 specification/applicationinsights/.../2020-02-02/components_API.json"
COMPONENT = f"{SPECS} 04c2cb7bb789 specification/applicationinsights/.../2020-02-02/examples/ComponentsCreate.json"
SCHEDULE = f"{SPECS} 32b53f1648cb specification/devtestlabs/.../2018-09-15/examples/GlobalSchedules_CreateOrUpdate.json"

DEFAULTS: dict[str, tuple[Default, ...]] = {
    "azure-native:storage:StorageAccount": (
        Default("primaryLocation", _location, STORAGE),
        Default("secondaryLocation", _secondary_location, f"catalog/region_pairs.py; {STORAGE}"),
        Default("statusOfSecondary", _status_of_secondary, STORAGE),
        Default("supportsHttpsTrafficOnly", True, STORAGE),
    ),
    "azure-native:network:PublicIPAddress": (
        Default("idleTimeoutInMinutes", 4, PUBLIC_IP),
        Default("publicIPAddressVersion", "IPv4", PUBLIC_IP),
        Default("publicIPAllocationMethod", _allocation_method, PUBLIC_IP),
    ),
    "azure-native:network:NetworkSecurityGroup": (
        Default("defaultSecurityRules", _default_security_rules, NSG),
        Default("flushConnection", False, NSG),
        Default("securityRules", [], NSG),
    ),
    "azure-native:network:NetworkInterface": (
        Default("dnsSettings", {"dnsServers": [], "appliedDnsServers": []}, NIC),
        Default("enableIPForwarding", False, NIC),
        Default("vnetEncryptionSupported", False, NIC),
    ),
    # a network with no subnet or peering in its request answers both lists empty (the same answer at 2024-03-01 and
    # 2024-07-01, the versions either side of the SDK's 2024-05-01, whose file the stored index lacks)
    "azure-native:network:VirtualNetwork": (
        Default("subnets", [], VNET),
        Default("virtualNetworkPeerings", [], VNET),
    ),
    "azure-native:applicationinsights:Component": (
        # ApplicationInsightsComponentProperties.ApplicationId: "This field mirrors the 'Name' field"
        Default("applicationId", _name, COMPONENT_SPEC),
        Default("tenantId", _tenant, COMPONENT),  # "Azure Tenant Id.": the subscription's
        Default("hockeyAppId", "", COMPONENT),
        Default("hockeyAppToken", "", COMPONENT),
        Default("samplingPercentage", 100.0, COMPONENT),
        Default("disableIpMasking", False, COMPONENT),
        # the spec's `default` of each: IngestionMode "LogAnalytics"; PublicNetworkAccessType "Enabled" ("By default
        # it is Enabled")
        Default("ingestionMode", "LogAnalytics", COMPONENT_SPEC),
        Default("publicNetworkAccessForIngestion", "Enabled", COMPONENT_SPEC),
        Default("publicNetworkAccessForQuery", "Enabled", COMPONENT_SPEC),
    ),
    "azure-native:containerregistry:Registry": (
        Default("anonymousPullEnabled", False, REGISTRY),
        Default("dataEndpointEnabled", False, REGISTRY),
        Default("dataEndpointHostNames", [], REGISTRY),
        Default("encryption", {"status": "disabled"}, REGISTRY),
        Default("networkRuleBypassOptions", "AzureServices", REGISTRY),
        Default("networkRuleSet", {"defaultAction": "Allow", "ipRules": []}, REGISTRY),
        Default(
            "policies",
            {  # the retention policy's lastUpdatedTime is the day of the creation: left out
                "quarantinePolicy": {"status": "disabled"},
                "trustPolicy": {"type": "Notary", "status": "disabled"},
                "retentionPolicy": {"days": 7, "status": "disabled"},
                "exportPolicy": {"status": "enabled"},
            },
            REGISTRY,
        ),
        Default("privateEndpointConnections", [], REGISTRY),
        Default("publicNetworkAccess", "Enabled", REGISTRY),
        Default("status", None, REGISTRY),
        Default("zoneRedundancy", "Disabled", REGISTRY),
    ),
    "azure-native:operationalinsights:Workspace": tuple(
        Default(key, "Enabled", LOG_ANALYTICS)
        for key in ("publicNetworkAccessForIngestion", "publicNetworkAccessForQuery")
    ),
    "azure-native:keyvault:Vault": (Default("tags", {}, VAULT),),
    "azure-native:keyvault:Secret": (
        Default("location", _vault_location, SECRET),
        # its created and updated times are the day of the creation: left out
        Default("properties.attributes", {"enabled": True}, SECRET),
    ),
    "azure-native:batch:BatchAccount": (
        Default("identity", {"type": "None"}, BATCH_ACCOUNT),
        # a new account's quotas are the subscription's (https://learn.microsoft.com/azure/batch/batch-quota-limit):
        # the example's answer
        *(
            Default(key, 20, BATCH_ACCOUNT)
            for key in ("activeJobAndJobScheduleQuota", "dedicatedCoreQuota", "lowPriorityCoreQuota", "poolQuota")
        ),
        Default("publicNetworkAccess", "Enabled", BATCH_ACCOUNT),
    ),
    "azure-native:batch:Pool": (
        # "If not specified, this value defaults to 'Disabled'."
        Default("interNodeCommunication", "Disabled", BATCH_POOL),
        # "If not specified, the default is spread."
        Default("taskSchedulingPolicy", {"nodeFillType": "Spread"}, BATCH_POOL),
        # "The default value is 1."
        Default("taskSlotsPerNode", 1, BATCH_POOL),
    ),
    "azure-native:monitor:AzureMonitorWorkspace": (Default("publicNetworkAccess", "Enabled", MONITOR_WORKSPACE),),
    "azure-native:machinelearningservices:Workspace": (
        Default("allowPublicAccessWhenBehindVnet", False, ML_WORKSPACE),
    ),
    "azure-native:containerservice:AgentPool": (
        Default("currentOrchestratorVersion", _orchestrator_version, AGENT_POOL),
        Default("maxPods", _max_pods, f"PSRule Azure.AKS.NodeMinPods; {AGENT_POOL}"),
    ),
    "azure-native:compute:VirtualMachineScaleSet": (
        Default(
            "singlePlacementGroup",
            _single_placement_group,
            "https://learn.microsoft.com/azure/virtual-machine-scale-sets/virtual-machine-scale-sets-placement-groups",
        ),
    ),
    "azure-native:devtestlab:GlobalSchedule": (
        Default("notificationSettings", {"status": "Disabled", "timeInMinutes": 0}, SCHEDULE),
    ),
}


def with_defaults(arm: Arm, token: str, res: Resource, answer: dict[str, Any]) -> dict[str, Any]:
    """`answer` with Azure's default for each key of the type's table it does not hold (the request's and the model's
    own values stay)."""
    out = dict(answer)
    for default in DEFAULTS.get(token, ()):
        inside, _, key = default.key.rpartition(".")
        holder = out
        if inside:
            if not isinstance(out.get(inside), dict):
                continue
            holder = out[inside] = dict(out[inside])
        if key in holder:
            continue
        value = default.value(arm, res) if callable(default.value) else copy.deepcopy(default.value)
        if value is not NO_DEFAULT:
            holder[key] = value
    return out
