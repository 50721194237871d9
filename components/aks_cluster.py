"""The AKS cluster an AksGpuPool lands on: a new one (a small CPU system pool, managed identity,
Azure RBAC for Kubernetes on Entra ID, local accounts disabled, the Key Vault provider for the Secrets
Store CSI Driver with secret rotation, the patch auto-upgrade channel, and a role letting the deploying
identity manage it) or an existing one, by id or by name and resource group; and its user kubeconfig.
A new cluster's API server can be limited to authorized public IPv4 ranges.

Azure docs: https://learn.microsoft.com/azure/aks/manage-azure-rbac,
https://learn.microsoft.com/azure/aks/api-server-authorized-ip-ranges (observed 2026-11-22),
https://learn.microsoft.com/azure/aks/csi-secrets-store-configuration-options and
https://learn.microsoft.com/azure/aks/auto-upgrade-cluster (observed 2026-11-27)
"""

from __future__ import annotations

import base64
import ipaddress
from collections.abc import Mapping, Sequence
from typing import Any

import pulumi
from pulumi_azure_native import authorization, containerservice

from ..catalog.limits import LIMITS
from .checks import AKS_CLUSTER_ID_PATTERN, Problems

# Built-in role "Azure Kubernetes Service RBAC Cluster Admin": every Kubernetes object in the cluster
# (Azure built-in roles reference, observed 2026-11-22).
AKS_RBAC_CLUSTER_ADMIN_ROLE = "b1ff04bb-8a4e-4dc4-8eb5-8693973ce19b"
DEFAULT_SYSTEM_POOL_NAME = "system"
# API server authorized IP ranges (https://learn.microsoft.com/azure/aks/api-server-authorized-ip-ranges and
# Azure/azure-cli src/azure-cli/azure/cli/command_modules/acs/_validators.py validate_ip_ranges, observed
# 2026-11-22): at most 200 public IPv4 addresses or CIDR ranges, each starting at the range's first address;
# 0.0.0.0/32 alone means "only the cluster's own outbound IP"; not on a private cluster.
MAX_AUTHORIZED_IP_RANGES = LIMITS.choices.aks_authorized_ip_ranges_max
OUTBOUND_IP_ONLY = "0.0.0.0/32"
AUTHORIZED_RANGE_EXAMPLE = "e.g. 73.140.245.0/24 or 73.140.245.7"
# The Azure Key Vault provider for the Secrets Store CSI Driver: pods mount Key Vault secrets through a managed
# identity instead of carrying them, and with rotation the mounts follow a changed secret (polled every two minutes
# by default). Its add-on key and config as ARM and `az aks create --enable-addons azure-keyvault-secrets-provider
# --enable-secret-rotation` write them (Learn, csi-secrets-store-configuration-options, observed 2026-11-27); checkov
# CKV_AZURE_172 reads the same key.
KEY_VAULT_SECRETS_PROVIDER_ADDON = "azureKeyvaultSecretsProvider"
SECRET_ROTATION_CONFIG = {"enableSecretRotation": "true"}
# The auto-upgrade channels: the SDK's enum (the REST spec's; ARM's default is "none"). "patch" keeps the minor
# version the kubernetes_version names and takes each supported patch as it is released (Learn, auto-upgrade-cluster;
# the spec's UpgradeChannel descriptions, observed 2026-11-27); PSRule Azure.AKS.AutoUpgrade and checkov
# CKV_AZURE_171 ask for any channel but "none".
UPGRADE_CHANNELS = tuple(channel.value for channel in containerservice.UpgradeChannel)
DEFAULT_UPGRADE_CHANNEL = containerservice.UpgradeChannel.PATCH.value


def existing_cluster(existing: Mapping[str, Any]) -> tuple[str, str, pulumi.Input[str]]:
    """Resource group, name and id of a cluster given by id, or by name and resource group."""
    if existing.get("id"):
        match = AKS_CLUSTER_ID_PATTERN.match(existing["id"])
        assert match is not None  # validated
        return match["rg"], match["name"], existing["id"]
    rg, cluster_name = existing["resource_group_name"], existing["name"]
    # The agent pool lands in the provider's subscription, so the id is built from it too.
    subscription = authorization.get_client_config_output().subscription_id
    cluster_id = subscription.apply(
        lambda sub: (
            f"/subscriptions/{sub}/resourceGroups/{rg}"
            f"/providers/Microsoft.ContainerService/managedClusters/{cluster_name}"
        )
    )
    return rg, cluster_name, cluster_id


def create_cluster(name: str, a: Mapping[str, Any], opts: pulumi.ResourceOptions) -> containerservice.ManagedCluster:
    """A new cluster: a small CPU system pool, managed identity, Azure RBAC on Entra ID, no local accounts, Key Vault
    secrets through the CSI driver, an auto-upgrade channel."""
    return containerservice.ManagedCluster(
        f"{name}-cluster",
        resource_name_=a.get("cluster_name"),
        resource_group_name=a["resource_group_name"],
        location=a["location"],
        dns_prefix=dns_prefix(a.get("cluster_name") or name),
        kubernetes_version=a.get("kubernetes_version"),
        identity=containerservice.ManagedClusterIdentityArgs(
            type=containerservice.ResourceIdentityType.SYSTEM_ASSIGNED
        ),
        agent_pool_profiles=[
            containerservice.ManagedClusterAgentPoolProfileArgs(
                name=DEFAULT_SYSTEM_POOL_NAME,
                mode="System",
                vm_size=a["system_vm_size"],
                count=a["system_node_count"],
                os_type="Linux",
                type="VirtualMachineScaleSets",
            )
        ],
        # Kubernetes authorization by Azure RBAC on Entra ID identities, and no static
        # cluster-admin certificate that would bypass it.
        enable_rbac=True,
        aad_profile=containerservice.ManagedClusterAADProfileArgs(
            managed=True,
            enable_azure_rbac=True,
            admin_group_object_ids=list(a["admin_group_object_ids"]) or None,
        ),
        disable_local_accounts=True,
        addon_profiles=(
            {
                KEY_VAULT_SECRETS_PROVIDER_ADDON: containerservice.ManagedClusterAddonProfileArgs(
                    enabled=True, config=SECRET_ROTATION_CONFIG
                )
            }
            if a["key_vault_secrets_provider"]
            else None
        ),
        auto_upgrade_profile=containerservice.ManagedClusterAutoUpgradeProfileArgs(
            upgrade_channel=a["upgrade_channel"]
        ),
        # Azure Managed Prometheus (the ama-metrics add-on) with gpu_metrics: components/aks_gpu_metrics.py
        azure_monitor_profile=(
            containerservice.ManagedClusterAzureMonitorProfileArgs(
                metrics=containerservice.ManagedClusterAzureMonitorProfileMetricsArgs(enabled=True)
            )
            if a.get("gpu_metrics")
            else None
        ),
        api_server_access_profile=(
            containerservice.ManagedClusterAPIServerAccessProfileArgs(authorized_ip_ranges=list(ranges))
            if (ranges := a.get("api_server_authorized_ip_ranges"))
            else None
        ),
        tags=a["tags"],
        opts=opts,
    )


def create_deployer_role(
    name: str, cluster_id: pulumi.Input[str], principal_type: str, opts: pulumi.ResourceOptions
) -> authorization.RoleAssignment:
    # With local accounts disabled, nobody can reach the Kubernetes API until a role says so; the
    # device plugin is deployed by the identity running Pulumi, so it gets the role first.
    client = authorization.get_client_config_output()
    return authorization.RoleAssignment(
        f"{name}-deployer-admin",
        scope=cluster_id,
        principal_id=client.object_id,
        principal_type=principal_type,
        role_definition_id=client.subscription_id.apply(
            lambda sub: (
                f"/subscriptions/{sub}/providers/Microsoft.Authorization/roleDefinitions/{AKS_RBAC_CLUSTER_ADMIN_ROLE}"
            )
        ),
        opts=opts,
    )


def user_kubeconfig(cluster_rg: pulumi.Input[str], cluster_name: pulumi.Input[str]) -> pulumi.Output[str]:
    """The cluster user's kubeconfig as YAML text; ARM returns it base64-encoded."""
    credentials = containerservice.list_managed_cluster_user_credentials_output(
        resource_group_name=cluster_rg, resource_name=cluster_name
    )
    return pulumi.Output.secret(credentials.kubeconfigs.apply(first_kubeconfig))


def first_kubeconfig(kubeconfigs: Any) -> str:
    first = (kubeconfigs or [None])[0]
    value = first.get("value") if isinstance(first, dict) else getattr(first, "value", None)
    return base64.b64decode(value).decode() if value else ""


def dns_prefix(name: str) -> str:
    """ARM: 1 to 54 letters, digits and '-', beginning and ending with a letter or digit."""
    cleaned = "".join(c if c.isalnum() else "-" for c in name)[:54].strip("-")
    return cleaned or "aks"


def authorized_ip_range(value: str) -> str:
    """One public IPv4 address or CIDR range the API server accepts, as ARM stores it (an address gets /32)."""
    if value == OUTBOUND_IP_ONLY:
        return value
    try:
        network = ipaddress.ip_network(value, strict=False)
    except (ValueError, TypeError):
        raise ValueError(
            f"{value!r} is not an IPv4 address or CIDR range; allowed: {AUTHORIZED_RANGE_EXAMPLE}"
        ) from None
    if network.version != 4:
        raise ValueError(f"'{value}' is IPv6; allowed: IPv4 addresses or CIDR ranges, {AUTHORIZED_RANGE_EXAMPLE}")
    if str(network.network_address) != str(value).split("/")[0]:
        raise ValueError(
            f"'{value}' does not start at its range's first address; allowed: '{network}', the same range written "
            "from its start"
        )
    if network.prefixlen == 0:
        raise ValueError(
            f"'{value}' authorizes every address, as leaving the ranges unset does; allowed: the ranges you administer "
            f"the cluster from, {AUTHORIZED_RANGE_EXAMPLE}"
        )
    if not network.is_global:
        raise ValueError(
            f"'{value}' is a private or reserved range, which never reaches the public API server; allowed: public "
            f"addresses, {AUTHORIZED_RANGE_EXAMPLE}"
        )
    return str(network)


def check_authorized_ip_ranges(problems: Problems, key: str, values: Sequence[str]) -> list[str]:
    """The ranges as ARM stores them; each problem (a bad range, too many, 0.0.0.0/32 with others) added under `key`."""
    ranges = [problems.check(f"{key}[{i}]", authorized_ip_range, v) or v for i, v in enumerate(values)]
    if len(ranges) > MAX_AUTHORIZED_IP_RANGES:
        problems.add(key, f"{len(ranges)} ranges; allowed: at most {MAX_AUTHORIZED_IP_RANGES}")
    if OUTBOUND_IP_ONLY in ranges and len(ranges) > 1:
        problems.add(
            key,
            f"{OUTBOUND_IP_ONLY} with other ranges; allowed: {OUTBOUND_IP_ONLY} alone (only the cluster's outbound IP) "
            "or other ranges without it",
        )
    return ranges
