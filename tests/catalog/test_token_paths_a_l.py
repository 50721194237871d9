"""The provider's own token -> ARM path table (pulumi/pulumi-azure-native reports/tokenPaths.json, copied for the
modules a-l into catalog/arm/token_paths_a_l.json) as one more source of the type registry (issue 39): the types
of the installed SDK that no other source placed are exported with the ARM type the provider's path names and the
API version the SDK's own docstring states; where the registry's own files and the table disagree, each pair is
listed here with both sides' sources and the side kept.

Expected ARM types are read off the table's text (quoted beside each case, as the file has it); API versions from
the installed SDK's docstrings ("Uses Azure REST API version ..."), never from the registry's helpers.
"""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.catalog.arm import provider_paths, registry
from azure_gpu_stacks.engine.arm.template import NOT_IN_SUBSCRIPTION, export
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.engine.run.runtime import RecordedResource

from tests.conftest import REPO, recorded_resource
from tests.sdk_source import sdk_api_version, sdk_resource_classes

ARM = REPO / "catalog" / "arm"
TABLE = ARM / "token_paths_a_l.json"


def _table() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(TABLE.read_text(encoding="utf-8"))
    return document


def _left() -> set[str]:
    document = json.loads((ARM / "spec_paths.json").read_text(encoding="utf-8"))
    return {token for tokens in document["left"].values() for token in tokens}


def test_the_table_names_its_source_and_holds_only_unversioned_tokens_of_modules_a_to_l() -> None:
    document = _table()
    source = document["source"]

    assert source["repo"] == "https://github.com/pulumi/pulumi-azure-native"
    assert source["path"] == "reports/tokenPaths.json"
    assert re.fullmatch(r"[0-9a-f]{40}", source["commit"]) and source["observed"] == "2026-11-27"
    assert len(document["paths"]) > 600
    for token, path in document["paths"].items():
        assert re.fullmatch(r"azure-native:[a-l][a-z0-9]*:[A-Za-z0-9]+", token), token  # no `/v2023...` version
        assert path.startswith("/") and "/providers/" in path, token


# Tokens of the table the installed SDK (3.29.0) has no resource class for (a type added after the SDK's release
# would be one): none of the pages read holds one.
NOT_IN_THIS_SDK: set[str] = set()


def test_every_token_of_the_table_is_a_type_of_the_installed_sdk_or_listed_as_not_in_it() -> None:
    classes = sdk_resource_classes()
    absent = {token for token in _table()["paths"] if token not in classes}

    assert absent == NOT_IN_THIS_SDK & set(_table()["paths"])
    assert all(registry.placement(token) is None for token in absent)  # the SDK sends them nowhere


# Formerly unplaced types (spec_paths.json's `left`) the table places, with the ARM type its path names: the
# quoted part of each path is the table's text after the subscription and resource group.
FORMERLY_UNPLACED = [
    # ".../Microsoft.DocumentDB/databaseAccounts/{accountName}/apis/sql/databases/{databaseName}/containers/..."
    (
        "azure-native:cosmosdb:DatabaseAccountSqlContainer",
        "Microsoft.DocumentDB/databaseAccounts/apis/databases/containers",
    ),
    # ".../Microsoft.Batch/batchAccounts/{accountName}/applications/{applicationName}/versions/{versionName}"
    ("azure-native:batch:ApplicationPackage", "Microsoft.Batch/batchAccounts/applications/versions"),
    # ".../Microsoft.ApiManagement/service/{serviceName}/workspaces/{workspaceId}/apis/{apiId}"
    ("azure-native:apimanagement:WorkspaceApi", "Microsoft.ApiManagement/service/workspaces/apis"),
    # ".../Microsoft.ContainerRegistry/registries/{registryName}/packages/{packageType}/archives/{archiveName}"
    ("azure-native:containerregistry:Archife", "Microsoft.ContainerRegistry/registries/packages/archives"),
    # ".../PaloAltoNetworks.Cloudngfw/localRulestacks/{localRulestackName}/localRules/{priority}"
    ("azure-native:cloudngfw:LocalRule", "PaloAltoNetworks.Cloudngfw/localRulestacks/localRules"),
    # "/{scope}/providers/Microsoft.Authorization/roleManagementPolicies/{roleManagementPolicyName}"
    ("azure-native:authorization:RoleManagementPolicy", "Microsoft.Authorization/roleManagementPolicies"),
]


@pytest.mark.parametrize(("token", "arm_type"), FORMERLY_UNPLACED, ids=[t for t, _ in FORMERLY_UNPLACED])
def test_a_formerly_unplaced_type_has_the_table_s_arm_type_and_the_sdk_s_api_version(token: str, arm_type: str) -> None:
    place = registry.placement(token)

    assert token in _left()  # no source of the registry's own placed it before
    assert place is not None and (place.arm_type, place.api_version) == (arm_type, sdk_api_version(token))
    assert place.source.startswith("pulumi-azure-native reports/tokenPaths.json @ ")
    assert registry.why_unplaced(token) is None


GROUP_ID = "/subscriptions/3f2c8a41-6b7d-4e15-9c0a-2d5e7f1b9a64/resourceGroups/rg"


def _recorded(token: str, name: str, inputs: dict[str, Any]) -> RecordedResource:
    return recorded_resource(token, name, inputs, arm_id=f"{GROUP_ID}/x/{name}")


@pytest.fixture(scope="module")
def inner() -> dict[str, dict[str, Any]]:
    """One export of a container app's logic app (an extension resource of the app its inputs name), a subscription
    lock and a cosmos SQL container of the 2016 API (a fixed `sql` between its account and database)."""
    group = {"resourceGroupName": "rg"}
    resources = [
        _recorded("azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": "rg", "location": "westus"}),
        _recorded("azure-native:app:LogicApp", "logic", {**group, "containerAppName": "ca1", "logicAppName": "la1"}),
        _recorded(
            "azure-native:cosmosdb:DatabaseAccountSqlContainer",
            "c",
            {**group, "accountName": "acct1", "databaseName": "db1", "containerName": "c1", "resource": {"id": "c1"}},
        ),
        _recorded(
            "azure-native:authorization:ManagementLockAtSubscriptionLevel",
            "lock",
            {"lockName": "l1", "level": "CanNotDelete"},
        ),
    ]
    document = export(resources, project="p", stack="dev").document
    found = {e["type"]: e for e in document["resources"] if e["type"] != "Microsoft.Resources/deployments"}
    for deployment in (e for e in document["resources"] if e["type"] == "Microsoft.Resources/deployments"):
        found |= {e["type"]: e for e in deployment["properties"]["template"]["resources"]}
    return found


def test_a_logic_app_of_a_container_app_is_an_extension_resource_scoped_to_the_app(inner: dict[str, Any]) -> None:
    # ".../Microsoft.App/containerApps/{containerAppName}/providers/Microsoft.App/logicApps/{logicAppName}"
    logic = inner["Microsoft.App/logicApps"]

    assert (logic["name"], logic["scope"]) == ("la1", "Microsoft.App/containerApps/ca1")
    assert logic["apiVersion"] == sdk_api_version("azure-native:app:LogicApp")


def test_a_cosmos_container_of_the_2016_api_names_its_fixed_api_segment(inner: dict[str, Any]) -> None:
    container = inner["Microsoft.DocumentDB/databaseAccounts/apis/databases/containers"]

    assert container["name"] == "acct1/sql/db1/c1"
    assert container["apiVersion"] == sdk_api_version("azure-native:cosmosdb:DatabaseAccountSqlContainer")
    assert "accountName" not in json.dumps(container) and "databaseName" not in json.dumps(container)


def test_a_subscription_lock_is_a_resource_of_the_subscription_deployment(inner: dict[str, Any]) -> None:
    # "/subscriptions/{subscriptionId}/providers/Microsoft.Authorization/locks/{lockName}"
    lock = inner["Microsoft.Authorization/locks"]

    assert lock["name"] == "l1" and lock["properties"] == {"level": "CanNotDelete"}


def test_types_the_table_cannot_name_stay_unplaced_with_their_reason() -> None:
    """`.../components/{resourceName}/currentbillingfeatures` has no name segment (a setting of the component);
    `.../components/{resourceName}/{scopePath}/item` leaves its type to an input."""
    for token in ("ComponentCurrentBillingFeature", "AnalyticsItem"):
        token = f"azure-native:applicationinsights:{token}"
        assert provider_paths.unplaceable(_table()["paths"][token])
        assert registry.placement(token) is None and registry.why_unplaced(token)
    management_group = registry.placement("azure-native:authorization:VariableAtManagementGroup")
    assert management_group is not None and management_group.tenant_level  # placed, outside any subscription


def test_the_table_places_at_least_the_types_it_was_read_for() -> None:
    """1,979 of the SDK's 2,288 types had a shape before the provider's table (issue 39's last stop); with
    token_paths_a_l.json 2,109 (2,272 with its m-z twin as read the same day)."""
    sdk = json.loads((ARM / "sdk_types.json").read_text(encoding="utf-8"))["types"]
    placed = {t for t in sdk if registry.placement(t) is not None or registry.data_plane(t)}

    assert len(sdk) == 2288
    assert len(placed) >= 2109
    assert len(_left() & placed) >= 2109 - 1979


# Every token whose shape the registry's own files and the provider's table give differently: the source of our
# side (by its repository) and the side kept. The m-z rows hold where token_paths_m_z.json is present.
SCHEMA_EXPORT = "https://github.com/danielrbradley/pulumi-azure-native-schema"
BICEP = "https://github.com/Azure/bicep-types-az"
DISAGREEMENTS = {
    "azure-native:apimanagement:GroupUser": (SCHEMA_EXPORT, "provider's"),
    "azure-native:apimanagement:ProductApi": (SCHEMA_EXPORT, "provider's"),
    "azure-native:apimanagement:ProductGroup": (SCHEMA_EXPORT, "provider's"),
    "azure-native:apimanagement:TagByApi": (SCHEMA_EXPORT, "provider's"),
    "azure-native:apimanagement:TagByOperation": (SCHEMA_EXPORT, "provider's"),
    "azure-native:apimanagement:TagByProduct": (SCHEMA_EXPORT, "provider's"),
    "azure-native:cosmosdb:DatabaseAccountCassandraTable": (BICEP, "provider's"),
    "azure-native:costmanagement:ScheduledActionByScope": (SCHEMA_EXPORT, "provider's"),
    "azure-native:eventhub:DisasterRecoveryConfig": (BICEP, "provider's"),
    "azure-native:guestconfiguration:GuestConfigurationHCRPAssignment": (SCHEMA_EXPORT, "provider's"),
    # m-z (token_paths_m_z.json, read 2026-11-27 by the other reader)
    "azure-native:network:FirewallPolicyRuleCollectionGroupDraft": (BICEP, "ours"),
    "azure-native:openenergyplatform:EnergyService": (SCHEMA_EXPORT, "ours"),
    "azure-native:policyinsights:RemediationAtManagementGroup": (SCHEMA_EXPORT, "ours"),
    "azure-native:security:AssessmentMetadataInSubscription": (SCHEMA_EXPORT, "ours"),
    "azure-native:security:Pricing": (BICEP, "ours"),
    "azure-native:security:StandardAssignment": (BICEP, "ours"),
    "azure-native:securityinsights:Action": (SCHEMA_EXPORT, "provider's"),
    "azure-native:securityinsights:AnomalySecurityMLAnalyticsSettings": (SCHEMA_EXPORT, "provider's"),
    "azure-native:securityinsights:IncidentComment": (SCHEMA_EXPORT, "provider's"),
    "azure-native:servicebus:DisasterRecoveryConfig": (BICEP, "provider's"),
    "azure-native:servicelinker:ConnectorDryrun": (BICEP, "ours"),
    "azure-native:servicelinker:Linker": (BICEP, "ours"),
    "azure-native:synapse:WorkspaceAadAdmin": (SCHEMA_EXPORT, "ours"),
    "azure-native:synapse:WorkspaceSqlAadAdmin": (SCHEMA_EXPORT, "provider's"),
    "azure-native:web:StaticSiteCustomDomain": (SCHEMA_EXPORT, "provider's"),
    "azure-native:web:StaticSiteLinkedBackend": (SCHEMA_EXPORT, "provider's"),
    "azure-native:web:StaticSitePrivateEndpointConnection": (SCHEMA_EXPORT, "provider's"),
    "azure-native:web:StaticSiteUserProvidedFunctionAppForStaticSite": (SCHEMA_EXPORT, "provider's"),
    "azure-native:workloads:SapLandscapeMonitor": (BICEP, "ours"),
}


def test_every_disagreement_with_the_provider_s_table_is_listed_with_both_sources_and_the_side_kept() -> None:
    found = {d.token: d for d in registry.disagreements()}
    listed = {t: row for t, row in DISAGREEMENTS.items() if t in provider_paths.table()}

    assert set(found) == set(listed)
    for token, (ours, kept) in listed.items():
        assert found[token].our_source.startswith(ours), token
        assert found[token].provider_source.startswith("pulumi-azure-native reports/tokenPaths.json @ "), token
        assert found[token].kept == kept, token
        placed = registry.placement(token)
        assert placed is not None and placed.path == (found[token].providers if kept != "ours" else found[token].ours)
    wins = {t for t in registry.PROVIDER_WINS if t in provider_paths.table()}
    assert wins <= set(found)  # no evidence kept for an agreement


# Tokens the table places at an ARM type Azure's REST spec does not define at the SDK's API version (bicep-types-az
# lists the namespace there, not the type): two public sources at odds, neither taken.
AT_ODDS_WITH_THE_SPEC = {
    # the table: ".../Microsoft.Sql/servers/{serverName}/sqlVulnerabilityAssessments/{vulnerabilityAssessmentName}/
    # baselines/{baselineName}/rules/{ruleId}"; the spec at 2023-08-01: servers/databases/sqlVulnerabilityAssessments
    "azure-native:sql:SqlVulnerabilityAssessmentRuleBaseline",
    # the table: ".../Microsoft.HDInsight/clusters/{clusterName}/extensions/{extensionName}" (and its fixed-name
    # kinds azureMonitor, azureMonitorAgent, clustermonitoring); the spec defines no clusters/extensions type there
    "azure-native:hdinsight:Extension",
    "azure-native:hdinsight:ExtensionAzureMonitorAgentStatus",
    "azure-native:hdinsight:ExtensionAzureMonitorStatus",
    "azure-native:hdinsight:ExtensionMonitoringStatus",
}


def test_a_table_shape_the_rest_spec_does_not_define_is_not_taken() -> None:
    odds = {
        t
        for t, p in provider_paths.table().items()
        if registry._ours(t) is None
        and not provider_paths.unplaceable(p.path)
        and registry.api_version(t)
        and registry.placement(t) is None
    }

    assert odds == AT_ODDS_WITH_THE_SPEC & set(provider_paths.table())
    assert all(registry.why_unplaced(t) for t in odds)


def test_where_the_table_and_the_registry_s_files_both_place_a_type_they_agree_but_the_listed_pairs() -> None:
    """The cross-check: of the table's tokens the registry's own files placed before, every shape is the same id
    up to letter case, but the listed disagreements."""
    agree = [
        t
        for t, p in provider_paths.table().items()
        if (row := registry._ours(t)) and "path" in row and row["path"].lower() == p.path.lower()
    ]

    assert len(agree) >= 390


PROGRAM = """
import pulumi
from pulumi_azure_native import batch, cosmosdb, resources

group = resources.ResourceGroup("rg", resource_group_name="rg-paths", location="westeurope")
container = cosmosdb.DatabaseAccountSqlContainer(
    "orders",
    resource_group_name=group.name,
    account_name="paths-cosmos",
    database_name="shop",
    container_name="orders",
    resource=cosmosdb.SqlContainerResourceArgs(id="orders"),
    options={},
)
package = batch.ApplicationPackage(
    "pkg",
    resource_group_name=group.name,
    account_name="pathsbatch",
    application_name="trainer",
    version_name="1.0",
)
"""


def test_export_arm_puts_two_formerly_unplaced_types_inside_the_template(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "paths"
    root.mkdir()
    (root / "Pulumi.yaml").write_text("name: paths\nruntime: python\n")
    (root / "__main__.py").write_text(textwrap.dedent(PROGRAM))
    (root / "Pulumi.dev.yaml").write_text("config: {}\n")
    target = tmp_path / "template.json"

    code = main(["export-arm", "dev", "--project", str(root), "-o", str(target)])
    document = json.loads(target.read_text(encoding="utf-8"))
    nested = [e for e in document["resources"] if e["type"] == "Microsoft.Resources/deployments"]
    inside = {e["type"]: e for d in nested for e in d["properties"]["template"]["resources"]}
    outside = [o["type"] for o in document["metadata"].get("outsideTemplate", [])]

    assert code == 0, capsys.readouterr().err
    container = inside["Microsoft.DocumentDB/databaseAccounts/apis/databases/containers"]
    package = inside["Microsoft.Batch/batchAccounts/applications/versions"]
    assert (container["name"], container["apiVersion"]) == (
        "paths-cosmos/sql/shop/orders",
        sdk_api_version("azure-native:cosmosdb:DatabaseAccountSqlContainer"),
    )
    assert (package["name"], package["apiVersion"]) == (
        "pathsbatch/trainer/1.0",
        sdk_api_version("azure-native:batch:ApplicationPackage"),
    )
    assert outside == [] and NOT_IN_SUBSCRIPTION not in json.dumps(document)


# Shapes the table gives that name no ARM type a template can declare, each with the part that says so
# (the paths as the table has them).
UNPLACEABLE = [
    "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Insights/components/"
    "{resourceName}/currentbillingfeatures",  # applicationinsights:ComponentCurrentBillingFeature: no name
    "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/microsoft.insights/components/"
    "{resourceName}/{scopePath}/item",  # applicationinsights:AnalyticsItem: the type is an input
    "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/dnsZones/"
    "{zoneName}/{recordType}/{relativeRecordSetName}",  # dns:RecordSet: the record type is an input
    "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.KeyVault/vaults/"
    "{vaultName}/accessPolicy/{policy.objectId}",  # keyvault:AccessPolicy: a body property in the URL
]


@pytest.mark.parametrize("path", UNPLACEABLE)
def test_a_shape_that_names_no_arm_type_is_unplaceable(path: str) -> None:
    assert path in _table()["paths"].values()
    assert provider_paths.unplaceable(path)


def test_a_shape_with_an_extension_scope_or_a_fixed_name_is_placeable() -> None:
    """A lock on any resource (its scope is the resource's own id shape), a cluster's Flux configuration, an Arc
    guest agent (`virtualMachineInstances/default/guestAgents/default`)."""
    for token in (
        "azure-native:authorization:ManagementLockAtResourceLevel",
        "azure-native:kubernetesconfiguration:FluxConfiguration",
        "azure-native:azurestackhci:GuestAgent",
    ):
        assert provider_paths.unplaceable(_table()["paths"][token]) is None, token


def test_a_lock_on_a_top_level_resource_is_scoped_to_that_resource() -> None:
    """The table: `.../resourcegroups/{resourceGroupName}/providers/{resourceProviderNamespace}/
    {parentResourcePath}/{resourceType}/{resourceName}/providers/Microsoft.Authorization/locks/{lockName}`; a storage
    account has no parent, so `parentResourcePath` is empty and the lock's scope is the account's own
    `Microsoft.Storage/storageAccounts/sa1` (Learn, "Set scope for extension resources in ARM templates")."""
    token = "azure-native:authorization:ManagementLockAtResourceLevel"
    lock_inputs = {
        "resourceGroupName": "rg",
        "resourceProviderNamespace": "Microsoft.Storage",
        "parentResourcePath": "",
        "resourceType": "storageAccounts",
        "resourceName": "sa1",
        "lockName": "l1",
        "level": "ReadOnly",
    }
    group = _recorded("azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": "rg", "location": "westus"})
    document = export([group, _recorded(token, "lock", lock_inputs)], project="p", stack="dev").document
    nested = [e for e in document["resources"] if e["type"] == "Microsoft.Resources/deployments"]
    lock = next(e for d in nested for e in d["properties"]["template"]["resources"] if e["name"] == "l1")

    assert (lock["type"], lock["scope"]) == ("Microsoft.Authorization/locks", "Microsoft.Storage/storageAccounts/sa1")
    assert lock["apiVersion"] == sdk_api_version(token) and lock["properties"] == {"level": "ReadOnly"}
