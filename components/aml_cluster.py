"""An Azure Machine Learning GPU compute cluster that scales to zero, with its workspace.

Builds, unless an existing workspace id is given: a storage account (the default datastore; no
public blob access, TLS 1.2 or later), a key vault (RBAC, soft delete, purge protection), a Log
Analytics workspace and the Application Insights component that writes to it, an optional
container registry, and the workspace itself with a system-assigned identity. The storage account,
key vault and registry hold user data and are protected from deletion; by default they refuse the public
internet (`private_dependencies`; the registry only on the Premium SKU, the one that can). Then, in the workspace:
an AmlCompute cluster with `minNodeCount` 0 by default, so an idle cluster costs nothing, nodes
without public IPs and with remote login disabled, and a system-assigned identity.

Azure docs (observed 2026-11-22):
https://learn.microsoft.com/azure/machine-learning/how-to-create-attach-compute-cluster and
https://learn.microsoft.com/azure/templates/microsoft.machinelearningservices/workspaces/computes
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal, NotRequired, TypedDict

import pulumi
from pulumi_azure_native import (
    applicationinsights,
    authorization,
    containerregistry,
    keyvault,
    operationalinsights,
    storage,
)
from pulumi_azure_native import machinelearningservices as ml

from ..catalog.defaults import DEFAULT_GPU_VM_SIZE
from ..catalog.limits import LIMITS
from .aml_gpu_alert import DEFAULT_IDLE_PERCENT, check_alert_inputs, create_gpu_idle_alert
from .args import Checked, check_shape
from .checks import (
    AML_WORKSPACE_ID_PATTERN,
    DEFAULT_AML_MAX_NODES,
    Problems,
    aml_compute_name,
    aml_idle_time,
    aml_workspace_id,
    aml_workspace_name,
    deployable_size_name,
    deployment_day,
    gpu_size,
    raise_problems,
    subnet_id,
)
from .outputs import output_field
from .placement import placement

TYPE_TOKEN = "azure-gpu-stacks:index:AmlCluster"

DEFAULT_VM_SIZE = DEFAULT_GPU_VM_SIZE
DEFAULT_COMPUTE_NAME = "gpu-cluster"
DEFAULT_MIN_NODES = 0  # scale to zero: an idle cluster bills no node hours
DEFAULT_MAX_NODES = DEFAULT_AML_MAX_NODES
DEFAULT_IDLE_TIME = "PT15M"  # long enough to keep a node between the jobs of a sweep, short enough to stop paying soon
VM_PRIORITIES = LIMITS.choices.aml_vm_priorities
REMOTE_LOGIN_CHOICES = ("Enabled", "Disabled", "NotSpecified")
PUBLIC_NETWORK_ACCESS_CHOICES = tuple(e.value for e in ml.PublicNetworkAccessType)  # the workspace's enum in the SDK
STUDIO_URL = "https://ml.azure.com/?wsid={workspace_id}"

AUTONAME_SUFFIX = 8  # characters pulumi-azure-native appends to a logical name
WORKSPACE_NAME_MAX = LIMITS.names.aml_workspace.max_length
LOG_WORKSPACE_NAME_MAX = LIMITS.names.log_analytics_workspace.max_length

# The workspace's dependencies, as Azure ML's own templates create them.
STORAGE_SKU = "Standard_LRS"
KEY_VAULT_SOFT_DELETE_DAYS = 90  # Azure's maximum: the longest window to recover a deleted secret
LOG_RETENTION_DAYS = 30  # the PerGB2018 retention included in the ingestion price
REGISTRY_SKU = "Basic"  # enough for one team's training images
# Nodes without public IPs and without a subnet of ours reach the internet (images, pip) through the
# workspace's managed virtual network (terraform-provider-azurerm#25901, observed 2026-11-22).
MANAGED_NETWORK_ISOLATION = "AllowInternetOutbound"
STORAGE_SKUS = tuple(e.value for e in storage.SkuName)  # the SDK's enum: GRS and GZRS replicate to a second region
# Classic registries were retired; Basic, Standard and Premium are what a new registry can be.
REGISTRY_SKUS = tuple(e.value for e in containerregistry.SkuName if e.value != "Classic")
# Closed dependencies, as Azure's verified module builds a private AML workspace
# (Azure/terraform-azurerm-avm-res-machinelearningservices-workspace, examples/private_managed_vnet/main.tf,
# observed 2026-11-27): public network access off, the firewall's default action Deny, trusted Azure services let
# through. The workspace's managed network makes private endpoints to its storage, key vault and registry "if
# they're configured as private" (https://learn.microsoft.com/azure/machine-learning/how-to-managed-network,
# observed 2026-11-27).
CLOSED = "Disabled"
FIREWALL_DEFAULT = "Deny"
TRUSTED_SERVICES = "AzureServices"
# Only a Premium registry can refuse public access or take private endpoints: Azure Policy's built-in "Container
# registries should have SKUs that support Private Links" audits every other SKU (Azure/azure-policy,
# built-in-policies/policyDefinitions/Container Registry/ACR_SkuSupportsPrivateEndpoints_AuditDeny.json,
# observed 2026-11-27; https://learn.microsoft.com/azure/container-registry/container-registry-private-link).
PRIVATE_REGISTRY_SKU = "Premium"


class AmlClusterArgs(TypedDict):
    """Inputs of AmlCluster."""

    location: str
    """Azure region of the new workspace and of the cluster, e.g. eastus."""
    resource_group_name: NotRequired[pulumi.Input[str]]
    """Resource group of the new workspace and its dependencies.

    Default: none; required unless workspace_id is given."""
    workspace_id: NotRequired[str]
    """ARM id of an existing workspace (in the provider's subscription) to add the cluster to.

    Default: a new workspace."""
    workspace_name: NotRequired[str]
    """Name of the new workspace. Default: generated from the component name."""
    container_registry: NotRequired[bool]
    """Create a container registry for the new workspace's images. Default: false (Azure ML then uses its own)."""
    public_network_access: NotRequired[Literal["Disabled", "Enabled"]]
    """Whether the new workspace answers the public internet. Default: Disabled (reach it through a private
    endpoint: docs/components.md; Enabled opens it to anyone with an Entra ID token, as Azure's own default does)."""
    private_dependencies: NotRequired[bool]
    """The new workspace's key vault and storage account refuse the public internet (public network access off,
    firewall default Deny, trusted Azure services let through), and so does its registry when registry_sku is Premium
    (the only SKU that can). The workspace's managed network reaches them through private endpoints it makes; nodes in
    a subnet of yours need private endpoints there. false: open to the internet, as Azure's own default is (keys and
    Entra ID tokens are still required). Default: true."""
    storage_sku: NotRequired[str]
    """Replication of the new workspace's storage account, one of the SDK's storage SKUs: Standard_GRS or
    Standard_GZRS keep a copy in a second region, billed at their own per-GB rates
    (https://azure.microsoft.com/pricing/details/storage/blobs/). Default: Standard_LRS."""
    registry_sku: NotRequired[Literal["Basic", "Standard", "Premium"]]
    """SKU of the container registry: Basic, Standard or Premium. Premium, at a higher daily fee
    (https://azure.microsoft.com/pricing/details/container-registry/), is the only one that can refuse public access
    and take private endpoints. Default: Basic."""
    compute_name: NotRequired[str]
    """Name of the cluster in the workspace (3 to 24 letters, digits, '-'). Default: gpu-cluster."""
    vm_size: NotRequired[str]
    """Node VM size from the catalog. Default: Standard_NC4as_T4_v3 (1x T4)."""
    require_gpu: NotRequired[bool]
    """Refuse a vm_size without a GPU. Default: true."""
    min_node_count: NotRequired[int]
    """Nodes kept running when idle. Default: 0 (scale to zero)."""
    max_node_count: NotRequired[int]
    """Most nodes the cluster scales out to (at least 1, at least min_node_count). Default: 1."""
    idle_time_before_scale_down: NotRequired[str]
    """Idle time before a node is released, ISO 8601 duration from PT1M to PT24H. Default: PT15M."""
    vm_priority: NotRequired[Literal["Dedicated", "LowPriority"]]
    """Dedicated nodes, or LowPriority nodes. Low-priority VMs were retired for Azure ML on
    2026-03-31: a LowPriority cluster still deploys, but its nodes are allocated as Spot VMs, billed at the
    variable Spot rate of the size and region (up to the pay-as-you-go price), evicted at any time, and
    billed while powered on during an eviction, so it can cost more than a Dedicated one
    (https://learn.microsoft.com/azure/machine-learning/how-to-manage-optimize-cost, MicrosoftDocs/azure-ai-docs
    PRs 806 and 791, observed 2026-11-25). `gpu-stacks` prices it at the catalog's Spot rate, labels it "Spot"
    and warns. Quota: counted against the workspace's `Total Cluster LowPriority Regional vCPUs`, the counter
    Azure ML's usage API reports; the retirement notes do not say whether the Spot-allocated nodes draw on it
    or on a Spot quota, so that count is uncertain. Default: Dedicated."""
    enable_node_public_ip: NotRequired[bool]
    """Give each node a public IP. Default: false."""
    remote_login_port_public_access: NotRequired[Literal["Enabled", "Disabled", "NotSpecified"]]
    """Open the nodes' SSH port to the internet: Enabled, Disabled, or NotSpecified (open unless the nodes are in a
    VNet). Default: Disabled."""
    subnet_id: NotRequired[pulumi.Input[str]]
    """Subnet to put the nodes in. Default: none (the new workspace's managed network)."""
    gpu_idle_alert: NotRequired[bool]
    """Alarm when the cluster's nodes run jobs for an hour while GPU utilisation stays under gpu_idle_percent: an
    Azure Monitor metric alert and an action group emailing alert_emails (docs/gpu-monitoring.md). Default: false."""
    gpu_idle_percent: NotRequired[float]
    """GPU utilisation, %, under which the GPUs count as idle (above 0, below 100). Default: 5."""
    alert_emails: NotRequired[Sequence[str]]
    """Who gets the idle-GPU alarm (the budget's contacts); required with gpu_idle_alert. Default: none."""
    tags: NotRequired[Mapping[str, str]]
    """Tags on every resource. Default: none."""


class AmlCluster(pulumi.ComponentResource):
    """An Azure ML workspace (new or existing) with a GPU compute cluster that scales to zero."""

    workspace_id: pulumi.Output[str]
    """ARM id of the workspace."""
    workspace_name: pulumi.Output[str]
    """Name of the workspace."""
    compute_name: pulumi.Output[str]
    """Name of the cluster in the workspace, as jobs name their compute target."""
    vm_size: pulumi.Output[str]
    """VM size of every node."""
    min_node_count: pulumi.Output[int]
    """Nodes kept when idle."""
    max_node_count: pulumi.Output[int]
    """Most nodes the cluster scales out to."""
    node_range: pulumi.Output[str]
    """The node range as people read it, e.g. `0..4`."""
    studio_url: pulumi.Output[str]
    """Azure ML studio page of the workspace."""
    principal_id: pulumi.Output[str]
    """Object id of the cluster's system-assigned identity, for role assignments (data access)."""

    def __init__(self, name: str, args: AmlClusterArgs, opts: pulumi.ResourceOptions | None = None):
        # Validated before anything is registered, so a bad input leaves nothing behind.
        checked = check_inputs(args)
        if not any(c.isalnum() for c in name):
            checked = Checked(
                checked.inputs,
                (("name", f"'{name}' has no letter or digit to derive resource names from"), *checked.problems),
            )
        self._args = raise_problems("AmlCluster", name, checked)
        super().__init__(TYPE_TOKEN, name, None, opts)
        self._name = name
        self._child = pulumi.ResourceOptions(parent=self)
        existing = self._args.get("workspace_id")
        if existing:
            match = AML_WORKSPACE_ID_PATTERN.match(existing)
            assert match is not None  # checked in _validated
            workspace_id: pulumi.Input[str] = existing
            workspace_name: pulumi.Input[str] = match["name"]
            resource_group: pulumi.Input[str] = match["resource_group"]
        else:
            workspace = self._create_workspace()
            workspace_id, workspace_name = workspace.id, workspace.name
            resource_group = self._args["resource_group_name"]
        cluster = self._create_cluster(resource_group, workspace_name)
        if self._args["gpu_idle_alert"]:
            create_gpu_idle_alert(
                name,
                resource_group_name=resource_group,
                workspace_id=workspace_id,
                compute_name=self._args["compute_name"],  # the name Azure gives the cluster: known now
                emails=self._args["alert_emails"],
                idle_percent=float(self._args["gpu_idle_percent"]),
                tags=self._args["tags"],
                parent=self,
            )

        a = self._args
        self.workspace_id = pulumi.Output.from_input(workspace_id)
        self.workspace_name = pulumi.Output.from_input(workspace_name)
        self.compute_name = cluster.name
        self.vm_size = pulumi.Output.from_input(a["vm_size"])
        self.min_node_count = pulumi.Output.from_input(a["min_node_count"])
        self.max_node_count = pulumi.Output.from_input(a["max_node_count"])
        self.node_range = pulumi.Output.from_input(f"{a['min_node_count']}..{a['max_node_count']}")
        self.studio_url = self.workspace_id.apply(lambda ws_id: STUDIO_URL.format(workspace_id=ws_id))
        self.principal_id = cluster.identity.apply(lambda identity: output_field(identity, "principal_id") or "")
        self.register_outputs(
            {
                "workspace_id": self.workspace_id,
                "workspace_name": self.workspace_name,
                "compute_name": self.compute_name,
                "vm_size": self.vm_size,
                "min_node_count": self.min_node_count,
                "max_node_count": self.max_node_count,
                "node_range": self.node_range,
                "studio_url": self.studio_url,
                "principal_id": self.principal_id,
            }
        )

    def _protected(self) -> pulumi.ResourceOptions:
        # Holds user data (datasets, secrets, images): a `pulumi destroy` or a rename must not delete it.
        return pulumi.ResourceOptions(parent=self, protect=True)

    def _create_workspace(self) -> ml.Workspace:
        st = self._create_storage()
        kv = self._create_key_vault()
        appi = self._create_app_insights()
        cr = self._create_registry() if self._args["container_registry"] else None
        a = self._args
        no_network_of_ours = not a["enable_node_public_ip"] and not a.get("subnet_id")
        return ml.Workspace(
            _dashed(self._name, "-ws", WORKSPACE_NAME_MAX),
            workspace_name=a.get("workspace_name"),
            identity=ml.ManagedServiceIdentityArgs(type="SystemAssigned"),
            sku=ml.SkuArgs(name="Basic", tier=ml.SkuTier.BASIC),
            storage_account=st.id,
            key_vault=kv.id,
            application_insights=appi.id,
            container_registry=cr.id if cr else None,
            managed_network=(
                ml.ManagedNetworkSettingsArgs(isolation_mode=MANAGED_NETWORK_ISOLATION) if no_network_of_ours else None
            ),
            public_network_access=a["public_network_access"],
            **placement(self._args),
            opts=self._child,
        )

    def _create_storage(self) -> storage.StorageAccount:
        # Storage account names are 3 to 24 lower-case letters and digits, globally unique; the
        # provider appends 8 random characters to the logical name, so the logical name must be
        # lower-case alphanumerics of at most 16 (pulumi-azure-native#3665).
        return storage.StorageAccount(
            _compact("st", self._name),
            kind="StorageV2",
            sku=storage.SkuArgs(name=self._args["storage_sku"]),
            allow_blob_public_access=False,
            minimum_tls_version="TLS1_2",
            enable_https_traffic_only=True,
            **(
                {
                    "public_network_access": CLOSED,
                    "network_rule_set": storage.NetworkRuleSetArgs(
                        default_action=FIREWALL_DEFAULT, bypass=TRUSTED_SERVICES
                    ),
                }
                if self._args["private_dependencies"]
                else {}
            ),
            **placement(self._args),
            opts=self._protected(),
        )

    def _create_key_vault(self) -> keyvault.Vault:
        tenant_id = authorization.get_client_config_output().tenant_id
        return keyvault.Vault(
            _compact("kv", self._name),  # vault names are 3 to 24 characters and globally unique
            properties=keyvault.VaultPropertiesArgs(
                tenant_id=tenant_id,
                sku=keyvault.SkuArgs(family=keyvault.SkuFamily.A, name=keyvault.SkuName.STANDARD),
                enable_rbac_authorization=True,
                enable_soft_delete=True,
                soft_delete_retention_in_days=KEY_VAULT_SOFT_DELETE_DAYS,
                enable_purge_protection=True,
                **(
                    {
                        "public_network_access": CLOSED,
                        "network_acls": keyvault.NetworkRuleSetArgs(
                            default_action=FIREWALL_DEFAULT, bypass=TRUSTED_SERVICES
                        ),
                    }
                    if self._args["private_dependencies"]
                    else {}
                ),
            ),
            **placement(self._args),
            opts=self._protected(),
        )

    def _create_app_insights(self) -> applicationinsights.Component:
        logs = operationalinsights.Workspace(
            _dashed(self._name, "-log", LOG_WORKSPACE_NAME_MAX),
            sku=operationalinsights.WorkspaceSkuArgs(name="PerGB2018"),
            retention_in_days=LOG_RETENTION_DAYS,
            **placement(self._args),
            opts=self._child,
        )
        return applicationinsights.Component(
            f"{self._name}-appi",
            kind="web",
            application_type="web",
            ingestion_mode="LogAnalytics",
            workspace_resource_id=logs.id,
            **placement(self._args),
            opts=self._child,
        )

    def _create_registry(self) -> containerregistry.Registry:
        sku = self._args["registry_sku"]
        return containerregistry.Registry(
            _compact("cr", self._name),  # registry names are 5 to 50 letters and digits
            sku=containerregistry.SkuArgs(name=sku),
            admin_user_enabled=False,  # the workspace pulls with its identity, not a shared password
            **(
                {
                    "public_network_access": CLOSED,
                    "network_rule_set": containerregistry.NetworkRuleSetArgs(default_action=FIREWALL_DEFAULT),
                    "network_rule_bypass_options": TRUSTED_SERVICES,
                }
                if self._args["private_dependencies"] and sku == PRIVATE_REGISTRY_SKU
                else {}
            ),
            **placement(self._args),
            opts=self._protected(),
        )

    def _create_cluster(self, resource_group: pulumi.Input[str], workspace_name: pulumi.Input[str]) -> ml.Compute:
        a = self._args
        subnet = a.get("subnet_id")
        return ml.Compute(
            f"{self._name}-cluster",
            resource_group_name=resource_group,
            workspace_name=workspace_name,
            compute_name=a["compute_name"],
            location=a["location"],
            identity=ml.ManagedServiceIdentityArgs(type="SystemAssigned"),
            properties=ml.AmlComputeArgs(
                compute_type="AmlCompute",
                disable_local_auth=True,  # Entra ID only: no key or node-local account reaches the cluster
                properties=ml.AmlComputePropertiesArgs(
                    vm_size=a["vm_size"],
                    vm_priority=a["vm_priority"],
                    os_type="Linux",
                    scale_settings=ml.ScaleSettingsArgs(
                        min_node_count=a["min_node_count"],
                        max_node_count=a["max_node_count"],
                        node_idle_time_before_scale_down=a["idle_time_before_scale_down"],
                    ),
                    enable_node_public_ip=a["enable_node_public_ip"],
                    remote_login_port_public_access=a["remote_login_port_public_access"],
                    subnet=ml.ResourceIdArgs(id=subnet) if subnet else None,
                ),
            ),
            tags=a["tags"],
            opts=self._child,
        )


def check_inputs(args: Mapping[str, Any], day: dt.date | None = None) -> Checked:
    """The inputs with defaults filled in, and every problem found (pure: registers nothing); sizes are judged
    on `day` (default: `deployment_day()`, the program's `gpu-stacks:asOf` or today in UTC)."""
    day = day or deployment_day()
    problems = Problems()
    given = check_shape(AmlClusterArgs, args, problems)
    a: dict[str, Any] = {
        "container_registry": False,
        "public_network_access": "Disabled",
        "private_dependencies": True,
        "storage_sku": STORAGE_SKU,
        "registry_sku": REGISTRY_SKU,
        "compute_name": DEFAULT_COMPUTE_NAME,
        "vm_size": DEFAULT_VM_SIZE,
        "require_gpu": True,
        "min_node_count": DEFAULT_MIN_NODES,
        "max_node_count": DEFAULT_MAX_NODES,
        "idle_time_before_scale_down": DEFAULT_IDLE_TIME,
        "vm_priority": "Dedicated",
        "enable_node_public_ip": False,
        "remote_login_port_public_access": "Disabled",
        "gpu_idle_alert": False,
        "gpu_idle_percent": DEFAULT_IDLE_PERCENT,
        "alert_emails": [],
        "tags": {},
        **given,
    }
    if not a.get("location"):
        problems.add("location", "required key is missing")
    if a.get("workspace_id") is not None:
        problems.check("workspace_id", aml_workspace_id, a["workspace_id"])
        for key in (
            "workspace_name",
            "container_registry",
            "public_network_access",
            "private_dependencies",
            "storage_sku",
            "registry_sku",
        ):
            if key in given and a.get(key):
                problems.add(key, "only for a new workspace; allowed: leave it unset when workspace_id is given")
    else:
        if not a.get("resource_group_name"):
            problems.add("resource_group_name", "required for a new workspace and missing (or give workspace_id)")
        if a.get("workspace_name") is not None:
            problems.check("workspace_name", aml_workspace_name, a["workspace_name"])
    problems.check("compute_name", aml_compute_name, a["compute_name"])
    size_check = gpu_size if a["require_gpu"] else deployable_size_name
    a["vm_size"] = problems.check("vm_size", lambda n: size_check(n, day), a["vm_size"]) or a["vm_size"]
    low, high = a["min_node_count"], a["max_node_count"]
    for key, least in (("min_node_count", 0), ("max_node_count", 1)):
        value = a[key]
        if not isinstance(value, int) or isinstance(value, bool) or value < least:
            problems.add(key, f"{value!r}; allowed: a whole number of nodes, at least {least}")
    if _whole(high) and high > (most := LIMITS.node_counts.aml_cluster_max):
        problems.add("max_node_count", f"{high} nodes; allowed: 1 to {most:,} (Azure ML's limit per cluster)")
    if _whole(low) and _whole(high) and 0 <= low and 1 <= high and low > high:  # both valid: compare them
        problems.add("min_node_count", f"{low} is above max_node_count {high}; allowed: 0 to {high}")
    problems.check("idle_time_before_scale_down", aml_idle_time, a["idle_time_before_scale_down"])
    if a.get("subnet_id") is not None:
        problems.check("subnet_id", subnet_id, a["subnet_id"])
    if a["vm_priority"] not in VM_PRIORITIES:
        problems.add("vm_priority", f"{a['vm_priority']!r}; allowed: {', '.join(VM_PRIORITIES)}")
    if a["public_network_access"] not in PUBLIC_NETWORK_ACCESS_CHOICES:
        problems.add(
            "public_network_access",
            f"{a['public_network_access']!r}; allowed: {', '.join(PUBLIC_NETWORK_ACCESS_CHOICES)}",
        )
    for key, allowed in (("storage_sku", STORAGE_SKUS), ("registry_sku", REGISTRY_SKUS)):
        if a[key] not in allowed:
            problems.add(key, f"{a[key]!r}; allowed: {', '.join(allowed)}")
    if a["remote_login_port_public_access"] not in REMOTE_LOGIN_CHOICES:
        problems.add(
            "remote_login_port_public_access",
            f"{a['remote_login_port_public_access']!r}; allowed: {', '.join(REMOTE_LOGIN_CHOICES)}",
        )
    check_alert_inputs(a, problems)
    return problems.checked(a)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _dashed(name: str, suffix: str, limit: int) -> str:
    """A logical name whose auto-generated name (plus 8 random characters) fits `limit` characters of
    letters, digits and '-' (Log Analytics refuses '_'; a workspace name has at most 33 characters)."""
    cleaned = re.sub(r"[^A-Za-z0-9-]+", "-", name).strip("-")
    return cleaned[: limit - AUTONAME_SUFFIX - len(suffix)] + suffix


def _compact(prefix: str, name: str) -> str:
    """A logical name the provider's auto-naming turns into a valid storage, vault or registry name:
    the prefix and the component name's lower-case letters and digits, at most 16 characters."""
    return (prefix + "".join(c for c in name.lower() if c.isascii() and c.isalnum()))[: 24 - AUTONAME_SUFFIX]
