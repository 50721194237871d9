"""Microsoft.ContainerService: AKS clusters and their agent pools, and the cluster credentials functions."""

from __future__ import annotations

import base64
import hashlib
import ipaddress
from typing import TYPE_CHECKING, Any

from ...catalog.limits import LIMITS
from ...catalog.mig import AKS_MIG_SIZES
from ..core import ArmResourceType, Invoke, Resource, advise
from ..errors import (
    AgentPoolK8sVersionNotSupported,
    ArmError,
    BadRequest,
    Conflict,
    InvalidParameter,
    QuotaExceeded,
    ResourceNotFound,
    SkuNotAvailable,
)
from ..lookups import lookup

if TYPE_CHECKING:
    from ..core import Arm


AKS_MAX_NODES = LIMITS.node_counts.aks_pool_max  # ARM's bound on count, minCount and maxCount
POOL_NAME = LIMITS.names.aks_node_pool
MAX_AUTHORIZED_IP_RANGES = LIMITS.choices.aks_authorized_ip_ranges_max


def _check_kubernetes_version(arm: Arm, where: str, version: Any) -> None:
    """AKS refuses a Kubernetes version it does not support on the day of the PUT (the dated list in the limits).
    None or "" is no version: AKS picks its default, as every create example of the 2025-09-01 spec sends
    `kubernetesVersion: ""` (Azure/azure-rest-api-specs, specification/containerservice/.../aks/stable/
    2025-09-01/examples/ManagedClustersCreate_*.json; tests/data/azure-specs)."""
    if version is None or version == "":
        return
    day = arm.now.date()
    listed = LIMITS.kubernetes_version(str(version))
    if listed is None or not listed.supported_on(day):
        supported = ", ".join(LIMITS.supported_kubernetes_versions(day))
        raise AgentPoolK8sVersionNotSupported(
            f"{where}: version {version} is not supported in this region. Please use [az aks get-versions] command to "
            f"get the supported version list in this region (supported on {day}: {supported})."
        )


def _check_agent_pool(arm: Arm, name: str, pool: dict[str, Any], where: str) -> None:
    """What AKS checks on one agent pool, inline in a cluster or on its own."""
    if not POOL_NAME.matches(name):
        raise InvalidParameter(f"{where}: agent pool name '{name}' must be {POOL_NAME.allowed}.")
    _check_kubernetes_version(arm, f"{where}: agent pool '{name}'", pool.get("orchestratorVersion"))
    system = pool.get("mode") == "System"
    if system and pool.get("scaleSetPriority") == "Spot":
        raise InvalidParameter(
            f"{where}: agent pool '{name}' is a System pool on Spot; System pools must use Regular priority "
            "(only User pools can be Spot)."
        )
    low = LIMITS.node_counts.aks_system_pool_min if system else 0
    counts: dict[str, float] = {
        key: pool[key] for key in ("count", "minCount", "maxCount") if pool.get(key) is not None
    }
    for key, value in counts.items():
        if not low <= value <= AKS_MAX_NODES:
            kind = "System" if system else "User"
            raise InvalidParameter(
                f"{where}: {key} {value:g} of agent pool '{name}'; allowed for {kind} pools: {low} to {AKS_MAX_NODES}."
            )
    if pool.get("enableAutoScaling"):
        if "minCount" not in counts or "maxCount" not in counts:
            raise InvalidParameter(
                f"{where}: agent pool '{name}' enables the autoscaler without minCount and maxCount."
            )
        if counts["minCount"] > counts["maxCount"]:
            raise InvalidParameter(
                f"{where}: minCount {counts['minCount']:g} of agent pool '{name}' is greater than "
                f"maxCount {counts['maxCount']:g}."
            )
        if "count" in counts and not counts["minCount"] <= counts["count"] <= counts["maxCount"]:
            raise InvalidParameter(
                f"{where}: count {counts['count']:g} of agent pool '{name}' is outside minCount..maxCount."
            )
    profile = pool.get("gpuInstanceProfile")
    if profile is not None:
        size = arm.catalog.find(str(pool.get("vmSize")))
        if size is not None and size.name not in AKS_MIG_SIZES:
            # The rule is Learn's (gpu-multi-instance: MIG on the A100 sizes, NC40ads_H100_v5 and
            # ND96isr_H100_v5, observed 2026-11-25); AKS's code and words for it are not public.
            raise InvalidParameter(
                f"{where}: gpuInstanceProfile {profile} is not supported on VM size '{size.name}' "
                f"(MIG node pools: {', '.join(sorted(AKS_MIG_SIZES))}; code and wording not public)."
            )
        if pool.get("osSKU") == "AzureLinux":
            raise InvalidParameter(
                f"{where}: gpuInstanceProfile {profile} is not supported with osSKU AzureLinux "
                "(Learn gpu-multi-instance: no MIG node pools on Azure Linux; code and wording not public)."
            )
    _check_spot(name, pool, where)


def _check_spot(name: str, pool: dict[str, Any], where: str) -> None:
    """The agent pool's Spot rules as the 2025-09-01 spec states them (Microsoft.ContainerService
    managedClusters.json, ManagedClusterAgentPoolProfileProperties, observed 2026-11-25):
    `scaleSetEvictionPolicy` "cannot be specified unless the scaleSetPriority is 'Spot'", and
    `spotMaxPrice` is "any decimal value greater than zero or -1". AKS's codes and words for these
    refusals are not public."""
    if pool.get("scaleSetEvictionPolicy") is not None and pool.get("scaleSetPriority") != "Spot":
        raise InvalidParameter(
            f"{where}: agent pool '{name}' sets scaleSetEvictionPolicy without scaleSetPriority Spot "
            "(code and wording not public)."
        )
    price = pool.get("spotMaxPrice")
    if price is not None and (
        isinstance(price, bool) or not isinstance(price, (int, float)) or not (price > 0 or price == -1)
    ):
        raise InvalidParameter(
            f"{where}: spotMaxPrice {price!r} of agent pool '{name}'; allowed: a price greater than zero, or -1 "
            "(code and wording not public)."
        )


def _check_api_server_access(where: str, profile: dict[str, Any]) -> None:
    """What AKS refuses in `apiServerAccessProfile` (https://learn.microsoft.com/azure/aks/api-server-authorized-ip-ranges,
    observed 2026-11-22). The 0.0.0.0/32 refusal is ARM's own code and words (Azure/terraform-azurerm-aks#378);
    for ranges on a private cluster only the Azure CLI's client-side refusal is public
    ("--api-server-authorized-ip-ranges
    is not supported for private cluster"), so ARM's code there is assumed to be InvalidParameter as well."""
    ranges = [str(r) for r in profile.get("authorizedIPRanges") or []]
    if not ranges:
        return
    if profile.get("enablePrivateCluster"):
        raise InvalidParameter(
            f"{where}: apiServerAccessProfile.authorizedIPRanges are not supported for private cluster."
        )
    if len(ranges) > MAX_AUTHORIZED_IP_RANGES:
        raise InvalidParameter(
            f"{where}: {len(ranges)} apiServerAccessProfile.authorizedIPRanges; "
            f"at most {MAX_AUTHORIZED_IP_RANGES} are allowed."
        )
    if "0.0.0.0/32" in ranges and len(ranges) > 1:
        raise InvalidParameter(
            "Setting apiServerAuthorizedIPRange to 0.0.0.0/32 is not allowed with other IP ranges. "
            "Refer to https://aka.ms/aks/auth-ip-ranges for more details"
        )
    for value in ranges:
        try:
            network = ipaddress.ip_network(value, strict=False)
        except ValueError:
            network = None
        if network is None or network.version != 4:
            raise InvalidParameter(f"{where}: apiServerAccessProfile.authorizedIPRanges '{value}' is not an IPv4 CIDR.")


class ManagedCluster(ArmResourceType):
    """An AKS cluster; its inline `agentPoolProfiles` are checked like agent pools."""

    token = "azure-native:containerservice:ManagedCluster"
    arm_type = "Microsoft.ContainerService/managedClusters"
    name_input = "resourceName"
    autoname_max = 63

    def check_first(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        """`sku.name: Basic`, which the SDK's enum no longer lists, is AKS's SkuNotAvailable, in its words
        (Azure/azure-rest-api-specs issue 27263, pulumi/pulumi-azure-native issue 2600)."""
        sku_name = (props.get("sku") or {}).get("name")
        if isinstance(sku_name, str) and sku_name.lower() == "basic":
            raise SkuNotAvailable(
                "Basic managed cluster SKU name is invalid. 'Basic' has been replaced by 'Base' since v2023-02-01."
            )

    def quota_refusal(self, name: str, props: dict[str, Any], error: ArmError) -> ArmError:
        return _aks_quota(f"container service {name} in resource group {props.get('resourceGroupName')}", error)

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        where = f"Managed cluster '{name}'"
        if not (props.get("dnsPrefix") or props.get("fqdnSubdomain")):
            advise(arm, where, "has neither dnsPrefix nor fqdnSubdomain")
        _check_kubernetes_version(arm, where, props.get("kubernetesVersion"))
        pools = props.get("agentPoolProfiles") or []
        if not any(p.get("mode") == "System" for p in pools):
            raise InvalidParameter(
                f"{where}: there has to be at least one System agent pool (agentPoolProfiles[].mode)."
            )
        seen: set[str] = set()
        for pool in pools:
            pool_name = str(pool.get("name") or "")
            if pool_name.lower() in seen:
                advise(arm, where, f"two agent pools are named '{pool_name}'")
            seen.add(pool_name.lower())
            _check_agent_pool(arm, pool_name, pool, where)
        aad = props.get("aadProfile") or {}
        if (props.get("disableLocalAccounts") or aad.get("enableAzureRBAC")) and not aad.get("managed"):
            raise InvalidParameter(
                f"{where}: disableLocalAccounts and aadProfile.enableAzureRBAC need AKS-managed Entra ID "
                "(aadProfile.managed)."
            )
        _check_api_server_access(where, props.get("apiServerAccessProfile") or {})

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        prefix = res.properties.get("dnsPrefix") or res.properties.get("fqdnSubdomain")
        suffix = hashlib.sha256(res.id.lower().encode()).hexdigest()[:8]
        out: dict[str, Any] = {
            "fqdn": f"{prefix}-{suffix}.hcp.{res.location}.azmk8s.io",
            "azurePortalFQDN": f"{prefix}-{suffix}.portal.hcp.{res.location}.azmk8s.io",
            "nodeResourceGroup": res.properties.get("nodeResourceGroup")
            or f"MC_{res.resource_group}_{res.name}_{res.location}",
            "provisioningState": "Succeeded",
            "powerState": {"code": "Running"},
            "maxAgentPools": 100,
            "agentPoolProfiles": [
                {**p, "provisioningState": "Succeeded", "powerState": {"code": "Running"}}
                for p in res.properties.get("agentPoolProfiles") or []
            ],
        }
        if res.properties.get("kubernetesVersion"):
            out["currentKubernetesVersion"] = res.properties["kubernetesVersion"]
        return out  # a system-assigned identity is answered for every type by the backend (core.system_identity)


class AgentPool(ArmResourceType):
    """A node pool added to an AKS cluster: refused on a cluster that does not exist or under a taken name."""

    token = "azure-native:containerservice:AgentPool"
    arm_type = "Microsoft.ContainerService/managedClusters/agentPools"
    name_input = "agentPoolName"
    parent_inputs = ("resourceName",)
    located = False

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        cluster = arm.parent_of(self, props)
        inline = {str(p.get("name", "")).lower() for p in cluster.properties.get("agentPoolProfiles") or []}
        if name.lower() in inline:
            raise Conflict(f"Managed cluster '{cluster.name}' already has an agent pool named '{name}'.")
        _check_agent_pool(arm, name, props, f"Managed cluster '{cluster.name}'")

    def quota_refusal(self, name: str, props: dict[str, Any], error: ArmError) -> ArmError:
        return _aks_quota(f"Agent Pool {name}", error)

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        return {"provisioningState": "Succeeded", "powerState": {"code": "Running"}}


def _aks_quota(what: str, error: ArmError) -> ArmError:
    """AKS wraps Compute's quota refusal in its own code and words (see `errors.QuotaExceeded`)."""
    if error.code != "OperationNotAllowed":
        return error
    return QuotaExceeded(f"Provisioning of resource(s) for {what} failed. Message: {error.message}")


def kubeconfig(cluster_name: str, fqdn: str) -> str:
    """A realistic, credential-free kubeconfig, base64-encoded as ARM returns it."""
    text = (
        "apiVersion: v1\nkind: Config\n"
        f"clusters:\n- cluster:\n    server: https://{fqdn}:443\n  name: {cluster_name}\n"
        f"contexts:\n- context:\n    cluster: {cluster_name}\n    user: clusterUser_{cluster_name}\n"
        f"  name: {cluster_name}\n"
        f"current-context: {cluster_name}\n"
        f"users:\n- name: clusterUser_{cluster_name}\n  user:\n    token: fake-offline-token\n"
    )
    return base64.b64encode(text.encode()).decode()


def _cluster_admin_credentials(arm: Arm, args: dict[str, Any]) -> dict[str, Any]:
    """The admin kubeconfig: a static credential, refused on a cluster with local accounts disabled."""
    answer = _cluster_credentials(arm, args)
    cluster = _cluster(arm, args)
    if cluster.properties.get("disableLocalAccounts"):
        raise BadRequest(
            "Getting static credential is not allowed because this cluster is set to disable local accounts."
        )
    return answer


def _cluster_credentials(arm: Arm, args: dict[str, Any]) -> dict[str, Any]:
    cluster = _cluster(arm, args)
    name = args.get("resourceName")
    fqdn = str(cluster.outputs.get("fqdn") or f"{name}.hcp.{cluster.location}.azmk8s.io")
    return {"kubeconfigs": [{"name": "clusterUser", "value": kubeconfig(str(name), fqdn)}]}


def _cluster(arm: Arm, args: dict[str, Any]) -> Resource:
    rg, name = args.get("resourceGroupName"), args.get("resourceName")
    cluster_id = (
        f"/subscriptions/{arm.subscription_id}/resourceGroups/{rg}/providers/"
        f"Microsoft.ContainerService/managedClusters/{name}"
    )
    cluster = arm.find(cluster_id)
    if cluster is None:
        raise ResourceNotFound(f"The Resource '{cluster_id}' was not found.")
    return cluster


TYPES: tuple[ArmResourceType, ...] = (ManagedCluster(), AgentPool())
INVOKES: dict[str, Invoke] = {
    "azure-native:containerservice:getManagedCluster": lookup(
        "Microsoft.ContainerService/managedClusters", "resourceName"
    ),
    "azure-native:containerservice:getAgentPool": lookup(
        "Microsoft.ContainerService/managedClusters/agentPools", "resourceName", "agentPoolName"
    ),
    "azure-native:containerservice:listManagedClusterUserCredentials": _cluster_credentials,
    "azure-native:containerservice:listManagedClusterAdminCredentials": _cluster_admin_credentials,
}
