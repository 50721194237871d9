"""The ARM id shapes read from the provider's schema export (catalog/arm/schema_paths.json), and export-arm
placing every azure-native resource with them.

Expected values come from Azure's ARM template reference (learn.microsoft.com/azure/templates, observed
2026-11-27), the curated rows of catalog/arm/arm_paths.json (each with its own source), the REST spec's
mapping (catalog/arm/mapping.json, generated from azure-rest-api-specs) and the installed SDK's own text.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from azure_gpu_stacks.catalog.arm import bodies, provider_paths, registry
from azure_gpu_stacks.engine.arm.template import NOT_IN_SUBSCRIPTION, NOT_PLACED, export

from scripts import read_sdk_types
from tests.conftest import REPO, recorded_resource
from tests.sdk_source import in_a_child, sdk_constructor_inputs

ARM = REPO / "catalog" / "arm"


def _rows(name: str) -> dict[str, Any]:
    types: dict[str, Any] = json.loads((ARM / name).read_text(encoding="utf-8"))["types"]
    return types


def test_the_schema_rows_are_generated_fresh_from_the_export_and_the_installed_sdk() -> None:
    # generated in a forked child: reading every SDK type grew this test process by 31 MB for the session
    generated = in_a_child(read_sdk_types.generate_schema_paths, "scripts/read_sdk_types.py generate_schema_paths")

    assert generated == (ARM / "schema_paths.json").read_text(encoding="utf-8")


def test_every_schema_row_names_its_source_and_every_input_of_its_shape_is_an_input_of_the_sdk_type() -> None:
    rows = _rows("schema_paths.json")
    assert all(
        "danielrbradley/pulumi-azure-native-schema 3b272d2e30a0 (2023-05-24)" in r["source"] for r in rows.values()
    )
    derived = _rows("spec_paths.json")
    # the inputs, by the SDK's own constructor (one row in 100 and the types below: each class's source is parsed)
    sample = [*list(rows.items())[::100], *list(derived.items())[::100]]
    checked = [*sample, *((t, rows.get(t) or derived[t]) for t, _ in LEARN)]
    for token, row in checked:
        snake = {re.sub(r"(?<!^)(?=[A-Z])", "_", n).lower() for n in re.findall(r"\{(\w+)\}", row["path"])}
        # read from the class's source text: importing the modules took 2-3 CPU-s and grew this test process by 96 MB
        assert snake - {"subscription_id"} <= sdk_constructor_inputs(token), token


# Rows where the export's own import example is not the type's shape, each against its source; Azure's REST spec
# (bicep-types-az's list of ARM types at the SDK's API version, spec_arm_types.json) leaves them out:
# - dbforpostgresql:FirewallRule: the example id is a single server's (`servers/...`); 3.x's is a flexible server's
#   (Learn: microsoft.dbforpostgresql/flexibleservers/firewallrules);
# - network:PrivateDnsZoneGroup: the example id puts it under `privateLinkServices`; Learn's template reference
#   has microsoft.network/privateendpoints/privatednszonegroups;
# - compute:DiskAccessAPrivateEndpointConnection: the example's type is misspelt `privateEndpoinConnections`.
EXAMPLE_BUGS = {
    "azure-native:dbforpostgresql:FirewallRule": "Microsoft.DBforPostgreSQL/flexibleServers/firewallRules",
    "azure-native:network:PrivateDnsZoneGroup": "Microsoft.Network/privateEndpoints/privateDnsZoneGroups",
    "azure-native:compute:DiskAccessAPrivateEndpointConnection": (
        "Microsoft.Compute/diskAccesses/privateEndpointConnections"
    ),
}


def test_schema_rows_agree_with_every_curated_row() -> None:
    curated = {t: r["path"] for t, r in _rows("arm_paths.json").items() if "path" in r}
    schema = {t: r["path"] for t, r in _rows("schema_paths.json").items()}
    both = sorted(set(curated) & set(schema))

    assert len(both) > 100
    assert [t for t in both if curated[t].lower() != schema[t].lower()] == []


@pytest.mark.parametrize("token", sorted(EXAMPLE_BUGS))
def test_an_example_of_the_export_that_the_spec_contradicts_is_left_out(token: str) -> None:
    assert token not in _rows("schema_paths.json")
    place = registry.placement(token)
    assert place is None or place.arm_type == EXAMPLE_BUGS[token]  # a curated row, where there is one


def test_where_the_spec_s_shape_and_the_export_s_disagree_neither_is_taken() -> None:
    """Two public sources at odds, each an ARM type the spec defines: the type is placed only where a curated row
    or the provider's own table (pulumi-azure-native reports/tokenPaths.json) says where. An export example whose
    ARM type the spec does not define at the SDK's API version (a disk access's misspelt `privateEndpoinConnections`)
    is out of date, not at odds: the spec's shape is taken (Learn:
    Microsoft.Compute/diskAccesses/privateEndpointConnections)."""
    spec = json.loads((ARM / "spec_paths.json").read_text(encoding="utf-8"))
    curated = _rows("arm_paths.json")
    disk_access = "azure-native:compute:DiskAccessAPrivateEndpointConnection"

    assert disk_access not in spec["disagree"] and disk_access in spec["types"]
    assert registry.placement(disk_access).arm_type == EXAMPLE_BUGS[disk_access]  # type: ignore[union-attr]
    assert len(spec["disagree"]) >= 10
    for token in spec["disagree"]:
        assert token not in _rows("schema_paths.json") and token not in spec["types"], token
        place = registry.placement(token)
        # a third source decides: a curated row, else the provider's own table (token_paths_*.json)
        assert (place is None) == (token not in curated and token not in provider_paths.table()), token
    assert all("Azure/bicep-types-az 1f896de2db96 (2026-08-20)" in r["source"] for r in spec["types"].values())


def test_every_placed_type_is_one_the_rest_spec_defines_at_the_sdk_s_api_version() -> None:
    """Curated and generated rows alike, wherever bicep-types-az lists the namespace at that version."""
    spec = {k: {t.lower() for t in v} for k, v in _rows("spec_arm_types.json").items()}
    checked = []
    for token in registry.tokens():
        place = registry.placement(token)
        assert place is not None
        listed = spec.get(f"{place.arm_type.split('/')[0].lower()}@{place.api_version}")
        if listed is not None and "providers" in place.path.split("/"):
            checked.append(token)
            assert place.arm_type.lower() in listed, token

    assert len(checked) > 850


def test_schema_rows_give_the_rest_spec_s_arm_type_where_the_spec_mapping_has_the_type() -> None:
    mapped = [t for t in _rows("schema_paths.json") if bodies.arm_type(t) is not None]

    assert len(mapped) >= 20
    for token in mapped:
        assert registry.placement(token).arm_type.lower() == bodies.arm_type(token).arm_type.lower(), token  # type: ignore[union-attr]


# Types no curated row holds, and their ARM type in Azure's ARM template reference (learn.microsoft.com/azure/templates)
LEARN = [
    ("azure-native:web:WebAppConnectionStrings", "Microsoft.Web/sites/config"),
    ("azure-native:web:WebAppApplicationSettings", "Microsoft.Web/sites/config"),
    ("azure-native:web:WebAppSiteExtension", "Microsoft.Web/sites/siteextensions"),
    ("azure-native:apimanagement:Api", "Microsoft.ApiManagement/service/apis"),
    ("azure-native:securityinsights:ScheduledAlertRule", "Microsoft.SecurityInsights/alertRules"),
    # from Azure's REST spec and the SDK's inputs (spec_paths.json): 3.x types the 2.x export did not have
    ("azure-native:containerservice:Fleet", "Microsoft.ContainerService/fleets"),
    ("azure-native:app:ContainerAppsSessionPool", "Microsoft.App/sessionPools"),
    ("azure-native:cognitiveservices:Project", "Microsoft.CognitiveServices/accounts/projects"),
]


@pytest.mark.parametrize(("token", "arm_type"), LEARN, ids=[row[0] for row in LEARN])
def test_a_type_only_the_export_places_has_azure_s_arm_type(token: str, arm_type: str) -> None:
    assert token not in _rows("arm_paths.json")
    place = registry.placement(token)

    assert place is not None and place.arm_type == arm_type


def test_a_type_whose_arm_type_an_input_chooses_is_not_placed_by_one_example() -> None:
    """A DNS record set's id is `dnsZones/{zoneName}/{recordType}/{relativeRecordSetName}` (Learn: one ARM type
    per record type, Microsoft.Network dnsZones/A, /AAAA, /TXT...): the 2.x export's example (module `network`
    in 2.x), a TXT record, gives no shape."""
    assert "azure-native:dns:RecordSet" not in _rows("schema_paths.json")
    assert "recordType" in _rows("schema_paths_v2.json")["azure-native:network:RecordSet"]["why"]


def test_the_registry_places_most_of_the_sdk_s_types_now() -> None:
    sdk = json.loads((ARM / "sdk_types.json").read_text(encoding="utf-8"))["types"]

    assert len(sdk) > 2000
    assert sum(registry.placement(t) is not None for t in sdk) >= 1650  # 139 before the export and spec were read


SUB = "00000000-0000-0000-0000-000000000001"


@pytest.fixture(scope="module")
def web_template() -> Any:
    """A web app with a slot and its app settings (a fixed name, `config/appsettings`), a Sentinel rule on a
    workspace (an extension resource of a resource its inputs name), a management-group policy (outside any
    subscription), a type only the provider's own table places (a resource group's cost report) and one no
    public source places (a singleton setting: the provider's path `.../components/{resourceName}/
    currentbillingfeatures` has no name segment)."""
    group = {"resourceGroupName": "rg"}
    resources = [
        recorded_resource(
            "azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": "rg", "location": "westus"}
        ),
        recorded_resource("azure-native:web:AppServicePlan", "plan", {**group, "name": "plan", "sku": {"name": "S1"}}),
        recorded_resource("azure-native:web:WebApp", "app", {**group, "name": "app1"}),
        recorded_resource("azure-native:web:WebAppSlot", "slot", {**group, "name": "app1", "slot": "staging"}),
        recorded_resource(
            "azure-native:web:WebAppApplicationSettings",
            "settings",
            {**group, "name": "app1", "properties": {"WEBSITE_RUN_FROM_PACKAGE": "1"}},
        ),
        recorded_resource(
            "azure-native:securityinsights:ScheduledAlertRule",
            "rule",
            {**group, "workspaceName": "ws", "ruleId": "r1", "kind": "Scheduled", "query": "x"},
        ),
        recorded_resource(
            "azure-native:authorization:PolicyDefinitionAtManagementGroup",
            "mgpolicy",
            {"managementGroupId": "mg1", "policyDefinitionName": "p1"},
        ),
        recorded_resource(
            "azure-native:costmanagement:ReportByResourceGroupName", "report", {**group, "reportName": "r1"}
        ),
        recorded_resource(
            "azure-native:applicationinsights:ComponentCurrentBillingFeature",
            "billing",
            {**group, "resourceName": "ai1", "currentBillingFeatures": ["Basic"]},
        ),
    ]
    return export(resources, project="p", stack="dev")


def _inner(template: Any) -> list[dict[str, Any]]:
    nested = [r for r in template.document["resources"] if r["type"] == "Microsoft.Resources/deployments"]
    return [e for d in nested for e in d["properties"]["template"]["resources"]]


def test_export_holds_a_web_app_its_slot_and_its_app_settings_as_arm_names_them(web_template: Any) -> None:
    entries = {e["type"]: e for e in _inner(web_template)}
    sdk = json.loads((ARM / "sdk_types.json").read_text(encoding="utf-8"))["types"]

    assert entries["Microsoft.Web/sites/slots"]["name"] == "app1/staging"
    settings = entries["Microsoft.Web/sites/config"]
    assert settings["name"] == "app1/appsettings"  # Learn: Microsoft.Web/sites/config, name 'appsettings'
    assert settings["apiVersion"] == sdk["azure-native:web:WebAppApplicationSettings"]["apiVersion"]
    assert settings["properties"] == {"WEBSITE_RUN_FROM_PACKAGE": "1"}
    assert "[resourceId('Microsoft.Web/sites', 'app1')]" in settings["dependsOn"]


def test_export_gives_an_extension_resource_of_a_workspace_its_scope(web_template: Any) -> None:
    rule = next(e for e in _inner(web_template) if e["type"] == "Microsoft.SecurityInsights/alertRules")

    assert (rule["name"], rule["scope"]) == ("r1", "Microsoft.OperationalInsights/workspaces/ws")
    assert "workspaceName" not in json.dumps(rule)


def test_export_leaves_out_only_what_a_subscription_deployment_cannot_hold_saying_why(web_template: Any) -> None:
    outside = {o["type"]: o["why"] for o in web_template.document["metadata"]["outsideTemplate"]}

    assert outside == {
        "azure-native:authorization:PolicyDefinitionAtManagementGroup": NOT_IN_SUBSCRIPTION,
        "azure-native:applicationinsights:ComponentCurrentBillingFeature": f"{NOT_PLACED}; why no source places "
        "it: no type of the REST spec at the SDK's API version is named like the class",
    }
    # pulumi-azure-native reports/tokenPaths.json: "/subscriptions/{subscriptionId}/resourceGroups/
    # {resourceGroupName}/providers/Microsoft.CostManagement/reports/{reportName}"
    report = next(e for e in _inner(web_template) if e["type"] == "Microsoft.CostManagement/reports")
    assert report["name"] == "r1"
    assert "no public source" in NOT_PLACED
