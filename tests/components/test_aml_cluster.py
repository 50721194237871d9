"""AmlCluster: each property the component promises, asserted on what the engine receives."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from azure_gpu_stacks.components.checks import ComponentInputError
from azure_gpu_stacks.fakeazure import FAKE_SUBSCRIPTION_ID, FAKE_TENANT_ID

from tests.conftest import TEST_RG, Recording, in_resource_group, recorded

COMPUTE = "azure-native:machinelearningservices:Compute"
WORKSPACE = "azure-native:machinelearningservices:Workspace"
STORAGE = "azure-native:storage:StorageAccount"
VAULT = "azure-native:keyvault:Vault"
APP_INSIGHTS = "azure-native:applicationinsights:Component"
LOGS = "azure-native:operationalinsights:Workspace"
REGISTRY = "azure-native:containerregistry:Registry"
OUTPUTS = (
    "workspace_id",
    "workspace_name",
    "compute_name",
    "vm_size",
    "min_node_count",
    "max_node_count",
    "node_range",
    "studio_url",
    "principal_id",
)
SUBNET = (
    f"/subscriptions/{FAKE_SUBSCRIPTION_ID}/resourceGroups/{TEST_RG}/providers/Microsoft.Network/"
    "virtualNetworks/ml/subnets/nodes"
)


def build_cluster(**overrides: Any) -> Callable[[], None]:
    def build(rg: Any) -> None:
        import pulumi
        from azure_gpu_stacks.components.aml_cluster import AmlCluster

        cluster = AmlCluster("aml", {"resource_group_name": rg.name, "location": "eastus", **overrides})
        for name in OUTPUTS:
            pulumi.export(name, getattr(cluster, name))

    return in_resource_group(build)


def aml_properties(rec: Recording) -> dict[str, Any]:
    return rec.inputs(COMPUTE)["properties"]["properties"]


@pytest.fixture(scope="module")
def default_cluster() -> Iterator[Recording]:
    """`build_cluster()` with every default, recorded once for the tests that only read it."""
    with recorded(build_cluster()) as rec:
        yield rec


def test_aml_cluster_defaults_to_t4_nodes_that_scale_to_zero(default_cluster: Recording) -> None:
    rec = default_cluster
    compute = rec.inputs(COMPUTE)

    assert compute["computeName"] == "gpu-cluster"
    assert compute["properties"]["computeType"] == "AmlCompute"
    assert aml_properties(rec)["vmSize"] == "Standard_NC4as_T4_v3"
    assert aml_properties(rec)["vmPriority"] == "Dedicated"
    assert aml_properties(rec)["osType"] == "Linux"
    assert aml_properties(rec)["scaleSettings"] == {
        "minNodeCount": 0,
        "maxNodeCount": 1,
        "nodeIdleTimeBeforeScaleDown": "PT15M",
    }
    assert rec.refusals == []


def test_aml_cluster_nodes_have_no_public_ip_and_no_remote_login(default_cluster: Recording) -> None:
    props = aml_properties(default_cluster)

    # The SDK alone would send enableNodePublicIp true and remoteLoginPortPublicAccess NotSpecified.
    assert (props["enableNodePublicIp"], props["remoteLoginPortPublicAccess"]) == (False, "Disabled")
    assert "subnet" not in props


def test_aml_cluster_sets_the_scale_settings_asked_for(record: Callable[..., Recording]) -> None:
    rec = record(
        build_cluster(
            vm_size="Standard_NC24ads_A100_v4",
            min_node_count=1,
            max_node_count=4,
            idle_time_before_scale_down="PT1H30M",
            vm_priority="LowPriority",
            compute_name="a100-cluster",
        )
    )

    assert rec.inputs(COMPUTE)["computeName"] == "a100-cluster"
    assert aml_properties(rec)["vmSize"] == "Standard_NC24ads_A100_v4"
    assert aml_properties(rec)["vmPriority"] == "LowPriority"
    assert aml_properties(rec)["scaleSettings"] == {
        "minNodeCount": 1,
        "maxNodeCount": 4,
        "nodeIdleTimeBeforeScaleDown": "PT1H30M",
    }


def test_aml_cluster_opens_public_ip_and_remote_login_only_when_asked(record: Callable[..., Recording]) -> None:
    props = aml_properties(record(build_cluster(enable_node_public_ip=True, remote_login_port_public_access="Enabled")))

    assert (props["enableNodePublicIp"], props["remoteLoginPortPublicAccess"]) == (True, "Enabled")


def test_aml_cluster_puts_nodes_in_a_given_subnet(record: Callable[..., Recording]) -> None:
    def build(rg: Any) -> None:
        from azure_gpu_stacks.components.aml_cluster import AmlCluster
        from pulumi_azure_native import network

        vnet = network.VirtualNetwork(
            "ml",
            virtual_network_name="ml",
            resource_group_name=rg.name,
            address_space=network.AddressSpaceArgs(address_prefixes=["10.50.0.0/16"]),
        )
        subnet = network.Subnet(
            "nodes",
            subnet_name="nodes",
            virtual_network_name=vnet.name,
            resource_group_name=rg.name,
            address_prefix="10.50.1.0/24",
        )
        AmlCluster("aml", {"resource_group_name": rg.name, "location": "eastus", "subnet_id": subnet.id})

    rec = record(in_resource_group(build))

    assert aml_properties(rec)["subnet"] == {"id": SUBNET}
    # Nodes in our own subnet do not need the workspace's managed network.
    assert "managedNetwork" not in rec.inputs(WORKSPACE)
    assert rec.refusals == []


def test_aml_cluster_has_a_system_assigned_identity(default_cluster: Recording) -> None:
    rec = default_cluster

    assert rec.inputs(COMPUTE)["identity"] == {"type": "SystemAssigned"}
    assert re.fullmatch(r"[0-9a-f-]{36}", rec.outputs["principal_id"])


def test_aml_cluster_new_workspace_references_its_dependencies(default_cluster: Recording) -> None:
    rec = default_cluster
    ws = rec.inputs(WORKSPACE)
    ids = {r.type: r.id for r in rec.arm.resources()}

    assert ws["storageAccount"] == ids["Microsoft.Storage/storageAccounts"]
    assert ws["keyVault"] == ids["Microsoft.KeyVault/vaults"]
    assert ws["applicationInsights"] == ids["Microsoft.Insights/components"]
    # Ids in the fake subscription, so the fake ARM checks that each one exists.
    assert ws["storageAccount"].startswith(f"/subscriptions/{FAKE_SUBSCRIPTION_ID}/")
    assert "containerRegistry" not in ws
    assert rec.of_type(REGISTRY) == []


def test_aml_cluster_new_workspace_has_system_identity_and_managed_network(default_cluster: Recording) -> None:
    ws = default_cluster.inputs(WORKSPACE)

    assert ws["identity"] == {"type": "SystemAssigned"}
    assert ws["managedNetwork"]["isolationMode"] == "AllowInternetOutbound"
    assert ws["location"] == "eastus"


def test_aml_cluster_new_workspace_is_closed_to_the_internet_and_its_cluster_to_local_auth(
    default_cluster: Recording,
) -> None:
    rec = default_cluster

    # Azure leaves a workspace public and a compute's local auth on when these are not sent.
    assert rec.inputs(WORKSPACE)["publicNetworkAccess"] == "Disabled"
    assert rec.inputs(COMPUTE)["properties"]["disableLocalAuth"] is True


def test_aml_cluster_opens_the_workspace_only_when_asked(record: Callable[..., Recording]) -> None:
    assert record(build_cluster(public_network_access="Enabled")).inputs(WORKSPACE)["publicNetworkAccess"] == "Enabled"


def test_aml_cluster_storage_refuses_public_blobs_and_old_tls(default_cluster: Recording) -> None:
    st = default_cluster.inputs(STORAGE)

    assert (st["allowBlobPublicAccess"], st["minimumTlsVersion"], st["enableHttpsTrafficOnly"]) == (
        False,
        "TLS1_2",
        True,
    )
    assert (st["kind"], st["sku"]) == ("StorageV2", {"name": "Standard_LRS"})


def test_aml_cluster_key_vault_uses_rbac_soft_delete_and_purge_protection(default_cluster: Recording) -> None:
    props = default_cluster.inputs(VAULT)["properties"]

    assert props["enableRbacAuthorization"] is True
    assert (props["enableSoftDelete"], props["softDeleteRetentionInDays"], props["enablePurgeProtection"]) == (
        True,
        90,
        True,
    )
    assert props["tenantId"] == FAKE_TENANT_ID
    assert props["sku"] == {"family": "A", "name": "standard"}


def test_aml_cluster_app_insights_writes_to_its_log_analytics_workspace(default_cluster: Recording) -> None:
    rec = default_cluster
    appi = rec.inputs(APP_INSIGHTS)
    logs_id = next(r.id for r in rec.arm.resources() if r.type == "Microsoft.OperationalInsights/workspaces")

    assert (appi["kind"], appi["applicationType"], appi["ingestionMode"]) == ("web", "web", "LogAnalytics")
    assert appi["workspaceResourceId"] == logs_id
    assert rec.inputs(LOGS)["sku"] == {"name": "PerGB2018"}


def test_aml_cluster_creates_a_registry_only_when_asked(record: Callable[..., Recording]) -> None:
    rec = record(build_cluster(container_registry=True))
    registry_id = next(r.id for r in rec.arm.resources() if r.type == "Microsoft.ContainerRegistry/registries")

    assert rec.inputs(WORKSPACE)["containerRegistry"] == registry_id
    assert rec.inputs(REGISTRY)["adminUserEnabled"] is False


def test_aml_cluster_protects_only_the_resources_holding_user_data(record: Callable[..., Recording]) -> None:
    rec = record(build_cluster(container_registry=True))

    protected = {r.type for r in rec.resources if r.protect}
    assert protected == {STORAGE, VAULT, REGISTRY}


def test_aml_cluster_generated_names_are_valid_for_azure(record: Callable[..., Recording]) -> None:
    rec = record(build_cluster(container_registry=True), stack="a-long-stack-name")
    names = {r.type: r.name for r in rec.arm.resources()}

    assert re.fullmatch(r"[a-z0-9]{3,24}", names["Microsoft.Storage/storageAccounts"])
    assert re.fullmatch(r"[A-Za-z][A-Za-z0-9-]{1,22}[A-Za-z0-9]", names["Microsoft.KeyVault/vaults"])
    assert re.fullmatch(r"[A-Za-z0-9]{5,50}", names["Microsoft.ContainerRegistry/registries"])
    assert rec.refusals == []


def test_aml_cluster_names_stay_valid_for_a_long_component_name(record: Callable[..., Recording]) -> None:
    def build(rg: Any) -> None:
        from azure_gpu_stacks.components.aml_cluster import AmlCluster

        AmlCluster("Team-Vision_Training-Cluster", {"resource_group_name": rg.name, "location": "eastus"})

    rec = record(in_resource_group(build))
    storage = next(r.name for r in rec.arm.resources() if r.type == "Microsoft.Storage/storageAccounts")

    assert re.fullmatch(r"st[a-z0-9]{22}", storage)
    assert rec.refusals == []


def test_aml_cluster_outputs_workspace_compute_and_studio_url(record: Callable[..., Recording]) -> None:
    rec = record(build_cluster(max_node_count=4))
    ws = next(r for r in rec.arm.resources() if r.type == "Microsoft.MachineLearningServices/workspaces")

    assert rec.outputs["workspace_id"] == ws.id
    assert rec.outputs["workspace_name"] == ws.name
    assert rec.outputs["compute_name"] == "gpu-cluster"
    assert rec.outputs["vm_size"] == "Standard_NC4as_T4_v3"
    assert (rec.outputs["min_node_count"], rec.outputs["max_node_count"], rec.outputs["node_range"]) == (0, 4, "0..4")
    assert rec.outputs["studio_url"] == f"https://ml.azure.com/?wsid={ws.id}"


def test_aml_cluster_children_are_parented_to_the_component(record: Callable[..., Recording]) -> None:
    rec = record(build_cluster(container_registry=True))
    component = rec.one("azure-gpu-stacks:index:AmlCluster")

    children = {r.type for r in rec.resources if r.parent == component.urn}
    assert children == {COMPUTE, WORKSPACE, STORAGE, VAULT, APP_INSIGHTS, LOGS, REGISTRY}


def workspace_id(name: str) -> str:
    return (
        f"/subscriptions/{FAKE_SUBSCRIPTION_ID}/resourceGroups/{TEST_RG}/providers/"
        f"Microsoft.MachineLearningServices/workspaces/{name}"
    )


def test_aml_cluster_adds_a_cluster_to_an_existing_workspace(record: Callable[..., Recording], fake_arm: Any) -> None:
    record(build_cluster())  # the workspace exists before the second program runs
    ws = next(r for r in fake_arm.resources() if r.type == "Microsoft.MachineLearningServices/workspaces")

    def program() -> None:
        import pulumi
        from azure_gpu_stacks.components.aml_cluster import AmlCluster

        cluster = AmlCluster("dev", {"location": "eastus", "workspace_id": ws.id, "compute_name": "t4-dev"})
        for name in OUTPUTS:
            pulumi.export(name, getattr(cluster, name))

    rec = record(program)
    compute = rec.inputs(COMPUTE)

    assert {r.type for r in rec.resources} == {"azure-gpu-stacks:index:AmlCluster", COMPUTE}
    assert (compute["resourceGroupName"], compute["workspaceName"], compute["computeName"]) == (
        TEST_RG,
        ws.name,
        "t4-dev",
    )
    assert (rec.outputs["workspace_id"], rec.outputs["workspace_name"]) == (ws.id, ws.name)
    assert rec.outputs["studio_url"] == f"https://ml.azure.com/?wsid={ws.id}"
    assert rec.refusals == []


def test_aml_cluster_in_a_workspace_that_does_not_exist_is_refused_by_arm(record: Callable[..., Recording]) -> None:
    def build(rg: Any) -> None:
        from azure_gpu_stacks.components.aml_cluster import AmlCluster

        AmlCluster("aml", {"location": "eastus", "workspace_id": workspace_id("missing")})

    rec = record(in_resource_group(build))

    [refusal] = rec.refusals
    assert (refusal.resource, refusal.code) == ("aml-cluster", "ParentResourceNotFound")
    assert "Parent resource 'missing' not found" in refusal.message


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"min_node_count": 5, "max_node_count": 4}, "min_node_count: 5 is above max_node_count 4; allowed: 0 to 4"),
        ({"min_node_count": -1}, "min_node_count: -1; allowed: a whole number of nodes, at least 0"),
        ({"max_node_count": -2}, "max_node_count: -2; allowed: a whole number of nodes, at least 1"),
        ({"max_node_count": 0}, "max_node_count: 0; allowed: a whole number of nodes, at least 1"),
        ({"max_node_count": 2.5}, "max_node_count: 2.5; allowed: a whole number of nodes, at least 1"),
        (
            {"max_node_count": 65_001},
            "max_node_count: 65001 nodes; allowed: 1 to 65,000 (Azure ML's limit per cluster)",
        ),
        (
            {"idle_time_before_scale_down": "15 minutes"},
            "idle_time_before_scale_down: '15 minutes' is not an ISO 8601 duration",
        ),
        ({"idle_time_before_scale_down": "P1M"}, "idle_time_before_scale_down: 'P1M' is not an ISO 8601 duration"),
        ({"idle_time_before_scale_down": 900}, "idle_time_before_scale_down: '900' is not an ISO 8601 duration"),
        ({"idle_time_before_scale_down": "PT30S"}, "'PT30S' (30 seconds) is out of range; allowed: PT1M to PT24H"),
        ({"idle_time_before_scale_down": "P2D"}, "'P2D' (172800 seconds) is out of range; allowed: PT1M to PT24H"),
        ({"vm_size": "Standard_D4s_v5"}, "vm_size: 'Standard_D4s_v5' has no GPU; allowed: a GPU size"),
        (
            {"vm_size": "Standard_NC6"},
            "vm_size: 'Standard_NC6' was retired on 2023-09-06 and can no longer be deployed",
        ),
        (
            {"vm_size": "Standard_NC6s_v3", "require_gpu": False},
            "vm_size: 'Standard_NC6s_v3' was retired on 2025-09-30",
        ),
        ({"vm_size": "Standard_NC4as_T4"}, "did you mean Standard_NC4as_T4_v3"),
        ({"vm_priority": "Spot"}, "vm_priority: 'Spot'; allowed: Dedicated, LowPriority"),
        (
            {"remote_login_port_public_access": "Open"},
            "remote_login_port_public_access: 'Open'; allowed: Enabled, Disabled",
        ),
        ({"compute_name": "gpu_cluster"}, "compute_name: 'gpu_cluster' cannot name an Azure ML compute"),
        ({"compute_name": "gpu-1"}, "compute_name: 'gpu-1' cannot name an Azure ML compute"),
        (
            {"workspace_id": "/subscriptions/x/resourceGroups/r"},
            "workspace_id: '/subscriptions/x/resourceGroups/r' is not an Azure ML workspace id",
        ),
        (
            {"workspace_id": workspace_id("w"), "container_registry": True},
            "container_registry: only for a new workspace",
        ),
        ({"resource_group_name": None}, "resource_group_name: required for a new workspace and missing"),
        ({"public_network_access": "Open"}, "public_network_access: 'Open'; allowed: Enabled, Disabled"),
        (
            {"workspace_id": workspace_id("w"), "public_network_access": "Enabled"},
            "public_network_access: only for a new workspace",
        ),
        ({"workspace_name": "ml workspace"}, "workspace_name: 'ml workspace' cannot name an Azure ML workspace"),
    ],
)
def test_aml_cluster_refuses_bad_args_before_registering_anything(
    record: Callable[..., Recording], fake_arm: Any, overrides: dict[str, Any], expected: str
) -> None:
    with pytest.raises(ComponentInputError) as err:
        record(build_cluster(**overrides))

    assert expected in str(err.value)
    assert str(err.value).startswith("AmlCluster 'aml': ")
    assert [r.type for r in fake_arm.resources()] == ["Microsoft.Resources/resourceGroups"]


def test_aml_cluster_names_the_new_workspace_when_asked(record: Callable[..., Recording]) -> None:
    rec = record(build_cluster(workspace_name="vision-training"))

    assert rec.inputs(WORKSPACE)["workspaceName"] == "vision-training"
    assert rec.outputs["workspace_name"] == "vision-training"
    assert rec.inputs(COMPUTE)["workspaceName"] == "vision-training"


def test_aml_cluster_allows_a_cpu_size_when_gpus_are_not_required(record: Callable[..., Recording]) -> None:
    rec = record(build_cluster(vm_size="standard_d4s_v5", require_gpu=False))

    assert aml_properties(rec)["vmSize"] == "Standard_D4s_v5"  # the catalog's spelling
    assert rec.refusals == []


def test_aml_cluster_reports_every_problem_at_once(record: Callable[..., Recording]) -> None:
    with pytest.raises(ComponentInputError) as err:
        record(build_cluster(min_node_count=-1, vm_priority="Spot", idle_time_before_scale_down="soon"))

    assert [path for path, _ in err.value.problems] == ["min_node_count", "idle_time_before_scale_down", "vm_priority"]
