"""The ARM types behind an Azure Machine Learning workspace and its compute clusters.

A workspace needs a storage account, a key vault and (in the templates Azure ML ships) an
Application Insights component writing to a Log Analytics workspace, and may use a container
registry; ARM refuses a workspace whose dependencies do not exist, and a compute whose workspace
does not (https://learn.microsoft.com/azure/machine-learning/concept-workspace, observed 2026-11-22).

Not faked, besides what `models` lists: global uniqueness of storage, vault and registry names
(the fake holds one subscription), Azure ML's own quota (`az ml compute list-usage`, separate from
the VM quota the backend counts, so computes demand no vCPUs here), node allocation (a cluster
reports the nodes it keeps when idle), and the workspace's managed resource group.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from azure_gpu_stacks.fakeazure.errors import AccountNameInvalid, InvalidParameter
from azure_gpu_stacks.fakeazure.models import ArmResourceType, Resource, dig, stable_uuid

if TYPE_CHECKING:
    from azure_gpu_stacks.fakeazure.backend import FakeArm

STORAGE_ACCOUNT = "Microsoft.Storage/storageAccounts"
KEY_VAULT = "Microsoft.KeyVault/vaults"
APP_INSIGHTS = "Microsoft.Insights/components"
LOG_ANALYTICS = "Microsoft.OperationalInsights/workspaces"
CONTAINER_REGISTRY = "Microsoft.ContainerRegistry/registries"
ML_WORKSPACE = "Microsoft.MachineLearningServices/workspaces"

STORAGE_NAME = re.compile(r"^[a-z0-9]{3,24}$")
VAULT_NAME = re.compile(r"^[A-Za-z](?!.*--)[A-Za-z0-9-]{1,22}[A-Za-z0-9]$")
REGISTRY_NAME = re.compile(r"^[A-Za-z0-9]{5,50}$")
LOG_WORKSPACE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]{2,61}[A-Za-z0-9]$")
ML_WORKSPACE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{2,32}$")
ML_COMPUTE_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9-]{2,23}$")
ISO_DURATION = re.compile(r"^P(?!$)(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$")
TLS_VERSIONS = ("TLS1_0", "TLS1_1", "TLS1_2", "TLS1_3")


def _require_named(name: str, pattern: re.Pattern[str], what: str, allowed: str) -> None:
    if not pattern.match(name):
        raise InvalidParameter(f"'{name}' is not a valid {what} name; allowed: {allowed}.")


def _system_identity(arm: FakeArm, res: Resource) -> dict[str, Any]:
    identity = res.properties.get("identity")
    if isinstance(identity, dict) and "SystemAssigned" in str(identity.get("type", "")):
        return {"identity": {**identity, "principalId": stable_uuid(res.id, "principal"), "tenantId": arm.tenant_id}}
    return {}


class StorageAccount(ArmResourceType):
    token = "azure-native:storage:StorageAccount"
    arm_type = STORAGE_ACCOUNT
    name_input = "accountName"
    autoname_max = 24

    def check(self, arm: FakeArm, name: str, props: dict[str, Any]) -> None:
        if not STORAGE_NAME.match(name):
            # The message ARM gives (quoted in pulumi-azure-native#3665, observed 2026-11-22).
            raise AccountNameInvalid(
                f"{name} is not a valid storage account name. Storage account name must be between 3 and 24 "
                "characters in length and use numbers and lower-case letters only."
            )
        if not dig(props, "sku", "name") or not props.get("kind"):
            raise InvalidParameter(f"Storage account '{name}' needs sku.name and kind.")
        tls = props.get("minimumTlsVersion")
        if tls is not None and tls not in TLS_VERSIONS:
            raise InvalidParameter(f"minimumTlsVersion {tls!r}; allowed: {', '.join(TLS_VERSIONS)}.")

    def computed(self, arm: FakeArm, res: Resource) -> dict[str, Any]:
        endpoints = {kind: f"https://{res.name}.{kind}.core.windows.net/" for kind in ("blob", "dfs", "file", "queue", "table")}
        return {"primaryEndpoints": endpoints, "statusOfPrimary": "available", "provisioningState": "Succeeded"}


class KeyVault(ArmResourceType):
    token = "azure-native:keyvault:Vault"
    arm_type = KEY_VAULT
    name_input = "vaultName"
    autoname_max = 24

    def check(self, arm: FakeArm, name: str, props: dict[str, Any]) -> None:
        _require_named(name, VAULT_NAME, "key vault", "3 to 24 letters, digits and '-', starting with a letter, "
                       "not ending in '-', no '--'")
        properties = props.get("properties") or {}
        if not properties.get("tenantId") or not dig(properties, "sku", "name"):
            raise InvalidParameter(f"Key vault '{name}' needs properties.tenantId and properties.sku.")
        if properties.get("enablePurgeProtection") is False:
            raise InvalidParameter("The property \"enablePurgeProtection\" cannot be set to false; leave it unset or true.")
        days = properties.get("softDeleteRetentionInDays")
        if days is not None and not 7 <= days <= 90:
            raise InvalidParameter(f"softDeleteRetentionInDays {days!r}; allowed: 7 to 90.")

    def computed(self, arm: FakeArm, res: Resource) -> dict[str, Any]:
        properties = {**(res.properties.get("properties") or {})}
        properties.update(vaultUri=f"https://{res.name}.vault.azure.net/", provisioningState="Succeeded")
        return {"properties": properties}


class LogAnalyticsWorkspace(ArmResourceType):
    token = "azure-native:operationalinsights:Workspace"
    arm_type = LOG_ANALYTICS
    name_input = "workspaceName"

    def check(self, arm: FakeArm, name: str, props: dict[str, Any]) -> None:
        _require_named(name, LOG_WORKSPACE_NAME, "Log Analytics workspace", "4 to 63 letters, digits and '-'")
        days = props.get("retentionInDays")
        if days is not None and not 30 <= days <= 730:
            raise InvalidParameter(f"retentionInDays {days!r}; allowed: 30 to 730.")

    def computed(self, arm: FakeArm, res: Resource) -> dict[str, Any]:
        return {"customerId": stable_uuid(res.id, "customerId"), "provisioningState": "Succeeded"}


class ApplicationInsights(ArmResourceType):
    token = "azure-native:applicationinsights:Component"
    arm_type = APP_INSIGHTS
    name_input = "resourceName"

    def check(self, arm: FakeArm, name: str, props: dict[str, Any]) -> None:
        if not props.get("kind") or not props.get("applicationType"):
            raise InvalidParameter(f"Application Insights component '{name}' needs kind and applicationType.")
        if props.get("workspaceResourceId") is not None:
            logs = arm.require(props["workspaceResourceId"], "workspaceResourceId")
            _expect_type(logs, LOG_ANALYTICS, "workspaceResourceId")

    def computed(self, arm: FakeArm, res: Resource) -> dict[str, Any]:
        key = stable_uuid(res.id, "instrumentationKey")
        return {
            "appId": stable_uuid(res.id, "appId"),
            "instrumentationKey": key,
            "connectionString": f"InstrumentationKey={key};IngestionEndpoint=https://{res.location}-0.in.applicationinsights.azure.com/",
            "provisioningState": "Succeeded",
        }


class ContainerRegistry(ArmResourceType):
    token = "azure-native:containerregistry:Registry"
    arm_type = CONTAINER_REGISTRY
    name_input = "registryName"
    autoname_max = 50

    def check(self, arm: FakeArm, name: str, props: dict[str, Any]) -> None:
        _require_named(name, REGISTRY_NAME, "container registry", "5 to 50 letters and digits")
        if not dig(props, "sku", "name"):
            raise InvalidParameter(f"Container registry '{name}' needs sku.name.")

    def computed(self, arm: FakeArm, res: Resource) -> dict[str, Any]:
        return {"loginServer": f"{res.name.lower()}.azurecr.io", "provisioningState": "Succeeded"}


# What each workspace input must point at; the first two ARM requires.
WORKSPACE_DEPENDENCIES = (
    ("storageAccount", STORAGE_ACCOUNT, True),
    ("keyVault", KEY_VAULT, True),
    ("applicationInsights", APP_INSIGHTS, False),
    ("containerRegistry", CONTAINER_REGISTRY, False),
)


class MlWorkspace(ArmResourceType):
    token = "azure-native:machinelearningservices:Workspace"
    arm_type = ML_WORKSPACE
    name_input = "workspaceName"
    autoname_max = 33

    def check(self, arm: FakeArm, name: str, props: dict[str, Any]) -> None:
        _require_named(name, ML_WORKSPACE_NAME, "workspace", "3 to 33 letters, digits, '_' and '-', starting with a letter or digit")
        for key, arm_type, required in WORKSPACE_DEPENDENCIES:
            if props.get(key) is None:
                if required:
                    raise InvalidParameter(f"Workspace '{name}' needs {key}: the id of an existing {arm_type} resource.")
                continue
            _expect_type(arm.require(props[key], key), arm_type, key)

    def computed(self, arm: FakeArm, res: Resource) -> dict[str, Any]:
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
            **_system_identity(arm, res),
        }


class MlCompute(ArmResourceType):
    """A compute of a workspace; only AmlCompute clusters are checked in depth."""

    token = "azure-native:machinelearningservices:Compute"
    arm_type = f"{ML_WORKSPACE}/computes"
    name_input = "computeName"
    parent_inputs = ("workspaceName",)

    def vm_sizes(self, props: dict[str, Any]) -> list[tuple[str, str]]:
        size = dig(props, "properties", "properties", "vmSize")
        return [("properties.properties.vmSize", size)] if isinstance(size, str) else []

    def check(self, arm: FakeArm, name: str, props: dict[str, Any]) -> None:
        _require_named(name, ML_COMPUTE_NAME, "compute", "3 to 24 letters, digits and '-', starting with a letter")
        envelope = props.get("properties") or {}
        if not envelope.get("computeType"):
            raise InvalidParameter(f"Compute '{name}' needs properties.computeType.")
        if envelope["computeType"] != "AmlCompute":
            return
        aml = envelope.get("properties") or {}
        scale = aml.get("scaleSettings") or {}
        low, high = scale.get("minNodeCount", 0), scale.get("maxNodeCount")
        if high is None:
            raise InvalidParameter(f"Compute '{name}' needs properties.properties.scaleSettings.maxNodeCount.")
        if low < 0 or high < 0 or low > high:
            raise InvalidParameter(f"Compute '{name}': minNodeCount {low:g} and maxNodeCount {high:g}; need 0 <= min <= max.")
        idle = scale.get("nodeIdleTimeBeforeScaleDown")
        if idle is not None and not (isinstance(idle, str) and ISO_DURATION.match(idle)):
            raise InvalidParameter(f"nodeIdleTimeBeforeScaleDown {idle!r} is not an ISO 8601 duration such as PT15M.")
        priority = aml.get("vmPriority")
        if priority is not None and priority not in ("Dedicated", "LowPriority"):
            raise InvalidParameter(f"vmPriority {priority!r}; allowed: Dedicated, LowPriority.")
        subnet = dig(aml, "subnet", "id")
        if subnet is not None:
            arm.require(subnet, "properties.properties.subnet.id")
        elif aml.get("enableNodePublicIp") is False:
            workspace = arm.parent_of(self, props)
            if dig(workspace.properties, "managedNetwork", "isolationMode") in (None, "Disabled"):
                raise InvalidParameter(
                    f"Compute '{name}': nodes without public IPs need a subnet (properties.properties.subnet) "
                    f"or a workspace with a managed virtual network; workspace '{workspace.name}' has neither."
                )

    def computed(self, arm: FakeArm, res: Resource) -> dict[str, Any]:
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
        return {"properties": envelope, **_system_identity(arm, res)}


def _expect_type(found: Resource | None, arm_type: str, path: str) -> None:
    """ARM refuses a dependency id that names a resource of another type."""
    if found is not None and found.type.lower() != arm_type.lower():
        raise InvalidParameter(f"{path}: '{found.id}' is a {found.type}, not a {arm_type}.")


AML_TYPES: tuple[ArmResourceType, ...] = (
    StorageAccount(),
    KeyVault(),
    LogAnalyticsWorkspace(),
    ApplicationInsights(),
    ContainerRegistry(),
    MlWorkspace(),
    MlCompute(),
)
