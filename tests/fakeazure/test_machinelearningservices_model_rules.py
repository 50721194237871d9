"""The fake ARM's Microsoft.MachineLearningServices (fakeazure/models/machinelearningservices.py), in process: what a
workspace or compute PUT is refused for, and what Azure answers for one it accepts.

Expected values are the sources' (observed 2026-11-27): Learn's "What is an Azure Machine Learning workspace?"
(concept-workspace: a workspace needs a storage account and a key vault; Application Insights and a container
registry are optional), "Create an Azure Machine Learning compute cluster" (how-to-create-attach-compute-cluster:
minimum and maximum node counts, the idle time before scale-down, "No public IP" nodes need a subnet or a managed
virtual network), "Create an Azure Machine Learning compute instance" (idle shutdown from 15 minutes to 3 days), and
"Configure MLflow for Azure Machine Learning" (the tracking URI
`azureml://<region>.api.azureml.ms/mlflow/v1.0/subscriptions/<subscription>/resourceGroups/<group>/providers/
Microsoft.MachineLearningServices/workspaces/<workspace>`).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.fakeazure.errors import ArmError

GROUP = "rg-ml"
WORKSPACE = "ws-gpu"
NOW = dt.datetime(2026, 11, 27, 9, 30, tzinfo=dt.UTC)


def _arm() -> FakeArm:
    arm = FakeArm(default_location="eastus", now=NOW)
    arm.put("azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": GROUP, "location": "eastus"}, "rg")
    return arm


def _group(arm: FakeArm) -> str:
    return f"/subscriptions/{arm.subscription_id}/resourceGroups/{GROUP}"


def _dependencies(arm: FakeArm) -> dict[str, str]:
    """A storage account and a key vault (what a workspace must have), each valid on its own."""
    storage = {
        "resourceGroupName": GROUP,
        "accountName": "stml001",
        "sku": {"name": "Standard_LRS"},
        "kind": "StorageV2",
    }
    vault = {
        "resourceGroupName": GROUP,
        "vaultName": "kv-ml-001",
        "properties": {"tenantId": arm.tenant_id, "sku": {"family": "A", "name": "standard"}},
    }
    return {
        "storageAccount": arm.put("azure-native:storage:StorageAccount", "st", storage, "urn:st").id,
        "keyVault": arm.put("azure-native:keyvault:Vault", "kv", vault, "urn:kv").id,
    }


def _workspace(arm: FakeArm, name: str = WORKSPACE, **inputs: Any) -> dict[str, Any]:
    props = {"resourceGroupName": GROUP, "workspaceName": name, "identity": {"type": "SystemAssigned"}, **inputs}
    return arm.put("azure-native:machinelearningservices:Workspace", name, props, f"urn:ws:{name}").outputs


def _ready(arm: FakeArm, **inputs: Any) -> dict[str, Any]:
    return _workspace(arm, **{**_dependencies(arm), **inputs})


def _compute(arm: FakeArm, properties: dict[str, Any], name: str = "gpu-cluster", **inputs: Any) -> dict[str, Any]:
    props = {"resourceGroupName": GROUP, "workspaceName": WORKSPACE, "computeName": name, "properties": properties}
    return arm.put("azure-native:machinelearningservices:Compute", name, {**props, **inputs}, f"urn:c:{name}").outputs


def _cluster(**aml: Any) -> dict[str, Any]:
    body = {"vmSize": "Standard_NC4as_T4_v3", "scaleSettings": {"minNodeCount": 0, "maxNodeCount": 2}, **aml}
    return {"computeType": "AmlCompute", "properties": body}


def _refusal(call: Any, *args: Any, **kwargs: Any) -> ArmError:
    with pytest.raises(ArmError) as refused:
        call(*args, **kwargs)
    return refused.value


def _subnet(arm: FakeArm) -> str:
    network = {
        "resourceGroupName": GROUP,
        "virtualNetworkName": "vnet-ml",
        "addressSpace": {"addressPrefixes": ["10.0.0.0/16"]},
        "subnets": [{"name": "nodes", "addressPrefix": "10.0.1.0/24"}],
    }
    vnet = arm.put("azure-native:network:VirtualNetwork", "vnet", network, "urn:vnet")
    return f"{vnet.id}/subnets/nodes"


# --- workspaces ----------------------------------------------------------------------------------------------------


def test_a_workspace_answers_its_mlflow_tracking_uri_and_its_tenant() -> None:
    arm = _arm()
    out = _ready(arm)

    assert out["mlFlowTrackingUri"] == (
        f"azureml://eastus.api.azureml.ms/mlflow/v1.0/subscriptions/{arm.subscription_id}/resourceGroups/{GROUP}"
        f"/providers/Microsoft.MachineLearningServices/workspaces/{WORKSPACE}"
    )
    assert (out["tenantId"], out["provisioningState"]) == (arm.tenant_id, "Succeeded")
    assert out["identity"]["type"] == "SystemAssigned" and out["identity"]["tenantId"] == arm.tenant_id


def test_two_workspaces_have_their_own_workspace_ids() -> None:
    arm = _arm()
    dependencies = _dependencies(arm)
    first = _workspace(arm, "ws-one", **dependencies)["workspaceId"]
    second = _workspace(arm, "ws-two", **dependencies)["workspaceId"]

    assert first != second


@pytest.mark.parametrize("name", ["ws", "w" * 34, "-ws-gpu"])
def test_a_workspace_name_outside_the_rule_is_refused(name: str) -> None:
    # 3 to 33 letters, digits, '_' and '-', starting with a letter or digit (catalog/arm/name_rules.json)
    arm = _arm()
    error = _refusal(_workspace, arm, name, **_dependencies(arm))

    assert error.code == "InvalidParameter" and f"'{name}'" in error.message


@pytest.mark.parametrize("name", ["ws1", "w" * 33, "ws_gpu-1"])
def test_a_workspace_name_inside_the_rule_is_accepted(name: str) -> None:
    arm = _arm()
    assert _workspace(arm, name, **_dependencies(arm))["provisioningState"] == "Succeeded"


def test_an_optional_dependency_left_out_does_not_stop_the_next_one_being_checked() -> None:
    # no Application Insights, and a container registry that does not exist: the registry is still looked up
    arm = _arm()
    registry = f"{_group(arm)}/providers/Microsoft.ContainerRegistry/registries/nosuchregistry"
    error = _refusal(_ready, arm, containerRegistry=registry)

    assert error.code == "ResourceNotFound" and "containerRegistry" in error.message


def test_an_optional_dependency_of_the_wrong_type_is_refused() -> None:
    arm = _arm()
    dependencies = _dependencies(arm)
    error = _refusal(_workspace, arm, applicationInsights=dependencies["keyVault"], **dependencies)

    assert (error.code, error.message) == (
        "InvalidParameter",
        f"applicationInsights: '{dependencies['keyVault']}' is a Microsoft.KeyVault/vaults, not a "
        "Microsoft.Insights/components.",
    )


# --- clusters ------------------------------------------------------------------------------------------------------


def test_a_cluster_answers_its_idle_nodes_its_location_and_the_day() -> None:
    arm = _arm()
    _ready(arm)
    out = _compute(arm, _cluster(scaleSettings={"minNodeCount": 1, "maxNodeCount": 4}))
    envelope = out["properties"]

    assert (envelope["provisioningState"], envelope["computeLocation"]) == ("Succeeded", "eastus")
    assert envelope["createdOn"] == envelope["modifiedOn"] == NOW.isoformat()
    nodes = envelope["properties"]
    assert (nodes["allocationState"], nodes["currentNodeCount"], nodes["targetNodeCount"]) == ("Steady", 1, 1)
    assert nodes["vmSize"] == "Standard_NC4as_T4_v3"


@pytest.mark.parametrize("scale", [{"maxNodeCount": 4}, {"minNodeCount": 0}], ids=["no-minimum", "no-maximum"])
def test_a_cluster_without_either_node_count_is_refused_as_azure_ml_refuses_it(scale: dict[str, Any]) -> None:
    # machineLearningServices.json marks only maxNodeCount required, but Azure ML answers a create without either
    # "ScaleSettings.MaxNodeCount and ScaleSettings.MinNodeCount must be specified for create compute." (HTTP 400,
    # UserError; quoted in dotnet/machinelearning-modelbuilder issue 2386)
    arm = _arm()
    _ready(arm)
    error = _refusal(_compute, arm, _cluster(scaleSettings=scale))

    assert (error.code, error.message) == (
        "UserError",
        "Compute 'gpu-cluster' needs properties.properties.scaleSettings.maxNodeCount and minNodeCount (Azure ML: "
        '"ScaleSettings.MaxNodeCount and ScaleSettings.MinNodeCount must be specified for create compute.").',
    )


def test_a_compute_with_a_system_assigned_identity_answers_its_principal() -> None:
    # machineLearningServices.json: a compute's ManagedServiceIdentity (common-types): principalId and tenantId are
    # Azure's, read-only
    arm = _arm()
    _ready(arm)
    out = _compute(arm, _cluster(), identity={"type": "SystemAssigned"})

    assert out["identity"]["tenantId"] == arm.tenant_id
    assert len(out["identity"]["principalId"]) == 36


def test_a_cluster_s_remote_login_not_specified_becomes_closed_in_a_subnet_and_open_outside() -> None:
    # how-to-create-attach-compute-cluster: NotSpecified "disables SSH port if the cluster is deployed inside a VNet,
    # and enables it otherwise"
    arm = _arm()
    _ready(arm)
    subnet = _subnet(arm)
    inside = _compute(arm, _cluster(remoteLoginPortPublicAccess="NotSpecified", subnet={"id": subnet}), "inside")
    outside = _compute(arm, _cluster(remoteLoginPortPublicAccess="NotSpecified"), "outside")
    asked = _compute(arm, _cluster(remoteLoginPortPublicAccess="Disabled"), "asked")

    assert inside["properties"]["properties"]["remoteLoginPortPublicAccess"] == "Disabled"
    assert outside["properties"]["properties"]["remoteLoginPortPublicAccess"] == "Enabled"
    assert asked["properties"]["properties"]["remoteLoginPortPublicAccess"] == "Disabled"


def test_a_compute_without_a_type_is_refused() -> None:
    arm = _arm()
    _ready(arm)
    error = _refusal(_compute, arm, {"properties": {}})

    assert (error.code, error.message) == ("UserError", "Compute 'gpu-cluster' needs properties.computeType.")


@pytest.mark.parametrize(("low", "high"), [(3, 2), (-1, 2)])
def test_a_cluster_whose_node_counts_are_out_of_order_is_refused(low: int, high: int) -> None:
    arm = _arm()
    _ready(arm)
    error = _refusal(_compute, arm, _cluster(scaleSettings={"minNodeCount": low, "maxNodeCount": high}))

    assert error.code == "UserError"
    assert f"minNodeCount {low} and maxNodeCount {high}; need 0 <= min <= max" in error.message


@pytest.mark.parametrize(("low", "high"), [(0, 0), (2, 2)])
def test_a_cluster_of_equal_node_counts_is_accepted(low: int, high: int) -> None:
    arm = _arm()
    _ready(arm)
    out = _compute(arm, _cluster(scaleSettings={"minNodeCount": low, "maxNodeCount": high}))

    assert out["properties"]["properties"]["currentNodeCount"] == low


def test_a_cluster_s_idle_time_must_be_an_iso_8601_duration() -> None:
    arm = _arm()
    _ready(arm)
    scale = {"minNodeCount": 0, "maxNodeCount": 2}
    error = _refusal(_compute, arm, _cluster(scaleSettings={**scale, "nodeIdleTimeBeforeScaleDown": "15 minutes"}))
    accepted = _compute(arm, _cluster(scaleSettings={**scale, "nodeIdleTimeBeforeScaleDown": "PT120S"}), "idle-ok")

    assert error.code == "UserError"
    assert "nodeIdleTimeBeforeScaleDown '15 minutes' is not an ISO 8601 duration" in error.message
    assert accepted["properties"]["provisioningState"] == "Succeeded"


def test_a_cluster_s_subnet_must_exist() -> None:
    arm = _arm()
    _ready(arm)
    missing = f"{_group(arm)}/providers/Microsoft.Network/virtualNetworks/nosuchvnet/subnets/nodes"
    error = _refusal(_compute, arm, _cluster(subnet={"id": missing}))

    assert (error.code, error.message) == (
        "ResourceNotFound",
        f"The Resource '{missing}' was not found (properties.properties.subnet.id).",
    )


def test_nodes_without_public_ips_need_a_subnet_or_a_managed_network() -> None:
    arm = _arm()
    _ready(arm)
    error = _refusal(_compute, arm, _cluster(enableNodePublicIp=False))
    in_subnet = _compute(arm, _cluster(enableNodePublicIp=False, subnet={"id": _subnet(arm)}), "in-subnet")

    assert (error.code, error.message) == (
        "UserError",
        "Compute 'gpu-cluster': nodes without public IPs need a subnet (properties.properties.subnet) or a workspace "
        f"with a managed virtual network; workspace '{WORKSPACE}' has neither.",
    )
    assert in_subnet["properties"]["provisioningState"] == "Succeeded"


@pytest.mark.parametrize("isolation", ["AllowInternetOutbound", "AllowOnlyApprovedOutbound"])
def test_nodes_without_public_ips_are_accepted_in_a_workspace_with_a_managed_network(isolation: str) -> None:
    arm = _arm()
    _ready(arm, managedNetwork={"isolationMode": isolation})
    out = _compute(arm, _cluster(enableNodePublicIp=False))

    assert out["properties"]["provisioningState"] == "Succeeded"


def test_nodes_without_public_ips_are_refused_in_a_workspace_whose_managed_network_is_disabled() -> None:
    arm = _arm()
    _ready(arm, managedNetwork={"isolationMode": "Disabled"})
    error = _refusal(_compute, arm, _cluster(enableNodePublicIp=False))

    assert error.code == "UserError"


# --- compute instances ---------------------------------------------------------------------------------------------


def _instance(**body: Any) -> dict[str, Any]:
    return {"computeType": "ComputeInstance", "properties": {"vmSize": "Standard_NC4as_T4_v3", **body}}


@pytest.mark.parametrize("idle", ["PT15M", "P3D"])
def test_an_instance_s_idle_shutdown_of_15_minutes_to_3_days_is_accepted(idle: str) -> None:
    arm = _arm()
    _ready(arm)
    out = _compute(arm, _instance(idleTimeBeforeShutdown=idle), "dev-box")

    assert out["properties"]["properties"]["idleTimeBeforeShutdown"] == idle
    assert "allocationState" not in out["properties"]["properties"]  # a cluster's answer, not an instance's


@pytest.mark.parametrize("idle", ["PT14M", "P3DT1M"])
def test_an_instance_s_idle_shutdown_outside_15_minutes_to_3_days_is_refused(idle: str) -> None:
    arm = _arm()
    _ready(arm)
    error = _refusal(_compute, arm, _instance(idleTimeBeforeShutdown=idle), "dev-box")

    assert error.code == "UserError"
    assert error.message.startswith(f"Compute instance 'dev-box': idleTimeBeforeShutdown '{idle}'")
    assert "allowed: PT15M to P3D" in error.message


def test_an_instance_without_public_ip_needs_a_subnet_as_a_cluster_s_nodes_do() -> None:
    arm = _arm()
    _ready(arm)
    error = _refusal(_compute, arm, _instance(enableNodePublicIp=False), "dev-box")

    assert error.code == "UserError"
    assert error.message.startswith("Compute 'dev-box': nodes without public IPs need a subnet")
