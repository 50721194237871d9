"""Microsoft.MachineLearningServices: Azure ML workspaces and their compute clusters.

A workspace needs a storage account, a key vault and (in the templates Azure ML ships) an
Application Insights component writing to a Log Analytics workspace, and may use a container
registry; ARM refuses a workspace whose dependencies do not exist, and a compute whose workspace
does not (https://learn.microsoft.com/azure/machine-learning/concept-workspace, observed 2026-11-22).

Not faked: global uniqueness of storage, vault and registry names (the fake holds one
subscription), node allocation (a cluster reports the nodes it keeps when idle), and the
workspace's managed resource group. Azure ML's own quota (`az ml compute list-usage`, separate from
the VM quota) is taken by the backend with the other quotas: `azure_gpu_stacks.fakeazure.quota`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...catalog import aml_compute_instance as instance
from ...catalog.durations import duration_seconds
from ...catalog.limits import LIMITS
from ...sdk.values import dig, stable_uuid
from ..core import (
    ArmResourceType,
    Invoke,
    Resource,
    expect_type,
    require_named,
    system_identity,
)
from ..errors import InvalidParameter, UserError
from ..lookups import lookup
from .applicationinsights import ApplicationInsights
from .containerregistry import ContainerRegistry
from .keyvault import KeyVault
from .storage import StorageAccount

if TYPE_CHECKING:
    from ..core import Arm


# What each workspace input must point at; the first two ARM requires.
WORKSPACE_DEPENDENCIES = (
    ("storageAccount", StorageAccount.arm_type, True),
    ("keyVault", KeyVault.arm_type, True),
    ("applicationInsights", ApplicationInsights.arm_type, False),
    ("containerRegistry", ContainerRegistry.arm_type, False),
)


class MlWorkspace(ArmResourceType):
    token = "azure-native:machinelearningservices:Workspace"
    arm_type = "Microsoft.MachineLearningServices/workspaces"
    name_input = "workspaceName"
    autoname_max = 33

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        require_named(name, LIMITS.names.aml_workspace, "workspace")
        for key, arm_type, required in WORKSPACE_DEPENDENCIES:
            if props.get(key) is None:
                if required:
                    raise InvalidParameter(
                        f"Workspace '{name}' needs {key}: the id of an existing {arm_type} resource."
                    )
                continue
            expect_type(arm.require(props[key], key), arm_type, key)

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        sub = arm.subscription_id
        return {
            "workspaceId": stable_uuid(res.id, "workspaceId"),
            "discoveryUrl": f"https://{res.location}.api.azureml.ms/discovery",
            "mlFlowTrackingUri": (
                f"azureml://{res.location}.api.azureml.ms/mlflow/v1.0/subscriptions/{sub}/resourceGroups/"
                f"{res.resource_group}/providers/Microsoft.MachineLearningServices/workspaces/{res.name}"
            ),
            "tenantId": arm.tenant_id,
            "provisioningState": "Succeeded",
            **system_identity(arm, res),
        }


class MlCompute(ArmResourceType):
    """A compute of a workspace; AmlCompute clusters and compute instances are checked in depth (an instance without a
    public IP needs a subnet or a managed network, as a cluster's nodes do: Learn, "Create an Azure Machine Learning
    compute instance", section "No public IP", observed 2026-11-26)."""

    token = "azure-native:machinelearningservices:Compute"
    arm_type = f"{MlWorkspace.arm_type}/computes"
    name_input = "computeName"
    parent_inputs = ("workspaceName",)

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        require_named(name, LIMITS.names.aml_compute, "compute")
        envelope = props.get("properties") or {}
        if not envelope.get("computeType"):
            raise UserError(f"Compute '{name}' needs properties.computeType.")
        if envelope["computeType"] == instance.COMPUTE_TYPE:
            _check_compute_instance(name, envelope.get("properties") or {})
            self._check_node_network(arm, name, props, envelope.get("properties") or {})
        if envelope["computeType"] != "AmlCompute":
            return
        aml = envelope.get("properties") or {}
        scale = aml.get("scaleSettings") or {}
        idle = scale.get("nodeIdleTimeBeforeScaleDown")
        if idle is not None and not _is_duration(idle):
            raise UserError(f"nodeIdleTimeBeforeScaleDown {idle!r} is not an ISO 8601 duration such as PT15M.")
        low, high = scale.get("minNodeCount"), scale.get("maxNodeCount")
        if high is None or low is None:
            # The spec marks only maxNodeCount required; Azure ML refuses a create without either (HTTP 400,
            # UserError: "ScaleSettings.MaxNodeCount and ScaleSettings.MinNodeCount must be specified for create
            # compute.", quoted in dotnet/machinelearning-modelbuilder issue 2386, observed 2026-11-26).
            raise UserError(
                f"Compute '{name}' needs properties.properties.scaleSettings.maxNodeCount and minNodeCount (Azure ML: "
                '"ScaleSettings.MaxNodeCount and ScaleSettings.MinNodeCount must be specified for create compute.").'
            )
        if low < 0 or high < 0 or low > high:
            raise UserError(f"Compute '{name}': minNodeCount {low:g} and maxNodeCount {high:g}; need 0 <= min <= max.")
        self._check_node_network(arm, name, props, aml)

    def _check_node_network(self, arm: Arm, name: str, props: dict[str, Any], aml: dict[str, Any]) -> None:
        """A cluster's or instance's subnet exists; nodes without public IPs need a subnet or a managed network."""
        subnet = dig(aml, "subnet", "id")
        if subnet is not None:
            arm.require(subnet, "properties.properties.subnet.id")
        elif aml.get("enableNodePublicIp") is False:
            workspace = arm.parent_of(self, props)
            if dig(workspace.properties, "managedNetwork", "isolationMode") in (None, "Disabled"):
                raise UserError(
                    f"Compute '{name}': nodes without public IPs need a subnet (properties.properties.subnet) "
                    f"or a workspace with a managed virtual network; workspace '{workspace.name}' has neither."
                )

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        envelope = dict(res.properties.get("properties") or {})
        aml = dict(envelope.get("properties") or {})
        if envelope.get("computeType") == "AmlCompute":
            idle_nodes = int(dig(aml, "scaleSettings", "minNodeCount") or 0)
            aml.update(allocationState="Steady", currentNodeCount=idle_nodes, targetNodeCount=idle_nodes)
            if aml.get("remoteLoginPortPublicAccess") == "NotSpecified":
                # After creation Azure reports what NotSpecified became: closed inside a VNet, else open.
                aml["remoteLoginPortPublicAccess"] = "Disabled" if aml.get("subnet") else "Enabled"
        envelope.update(
            properties=aml,
            computeLocation=res.location,
            provisioningState="Succeeded",
            createdOn=arm.now.isoformat(),
            modifiedOn=arm.now.isoformat(),
        )
        return {"properties": envelope, **system_identity(arm, res)}


def _check_compute_instance(name: str, props: dict[str, Any]) -> None:
    """What Azure ML refuses in a compute instance: an idle shutdown outside 15 minutes to 3 days
    (`azure_gpu_stacks.catalog.aml_compute_instance`)."""
    idle = props.get("idleTimeBeforeShutdown")
    if idle is None:
        return
    try:
        instance.idle_shutdown_time(idle)
    except ValueError as exc:
        raise UserError(f"Compute instance '{name}': idleTimeBeforeShutdown {exc}.") from None


def _is_duration(value: Any) -> bool:
    """Whether `value` is a duration as Azure reads one (`catalog.durations`, the one reader)."""
    try:
        duration_seconds(value)
    except ValueError:
        return False
    return True


TYPES: tuple[ArmResourceType, ...] = (MlWorkspace(), MlCompute())
INVOKES: dict[str, Invoke] = {
    "azure-native:machinelearningservices:getWorkspace": lookup(
        "Microsoft.MachineLearningServices/workspaces", "workspaceName"
    ),
    "azure-native:machinelearningservices:getCompute": lookup(
        "Microsoft.MachineLearningServices/workspaces/computes", "workspaceName", "computeName"
    ),
}
