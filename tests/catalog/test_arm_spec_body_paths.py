"""Types placed by the second pass over Azure's REST spec (scripts/read_schema_paths.py `_by_body`): the spec
type the class names, whose segments the SDK's inputs that are no property of its body name one to one.

Expected ARM types come from Azure's ARM template reference (learn.microsoft.com/azure/templates, each type's
page, observed 2026-11-27), never from the generated rows.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from azure_gpu_stacks.catalog.arm import registry

from scripts import read_schema_paths
from tests.conftest import REPO

ARM = REPO / "catalog" / "arm"

# (token, Learn's ARM type, the fixed own name Learn's page gives it or None): none was placed before
LEARN = [
    ("azure-native:apimanagement:ApiPolicy", "Microsoft.ApiManagement/service/apis/policies", None),
    ("azure-native:apimanagement:WorkspaceApiOperationPolicy",
     "Microsoft.ApiManagement/service/workspaces/apis/operations/policies", None),
    ("azure-native:signalrservice:SignalRReplica", "Microsoft.SignalRService/signalR/replicas", None),
    ("azure-native:webpubsub:WebPubSubHub", "Microsoft.SignalRService/webPubSub/hubs", None),
    ("azure-native:storage:LocalUser", "Microsoft.Storage/storageAccounts/localUsers", None),
    ("azure-native:sql:ManagedDatabase", "Microsoft.Sql/managedInstances/databases", None),
    ("azure-native:machinelearningservices:ModelVersion",
     "Microsoft.MachineLearningServices/workspaces/models/versions", None),
    ("azure-native:containerregistry:Task", "Microsoft.ContainerRegistry/registries/tasks", None),
    ("azure-native:dns:DnssecConfig", "Microsoft.Network/dnsZones/dnssecConfigs", "default"),
    ("azure-native:app:Job", "Microsoft.App/jobs", None),
    ("azure-native:apimanagement:ApiIssue", "Microsoft.ApiManagement/service/apis/issues", None),
    ("azure-native:appplatform:ConfigServer", "Microsoft.AppPlatform/Spring/configServers", "default"),
    ("azure-native:apimanagement:Cache", "Microsoft.ApiManagement/service/caches", None),
    ("azure-native:netapp:Account", "Microsoft.NetApp/netAppAccounts", None),
    ("azure-native:servicenetworking:FrontendsInterface",
     "Microsoft.ServiceNetworking/trafficControllers/frontends", None),
    ("azure-native:storagecache:Cache", "Microsoft.StorageCache/caches", None),
]  # fmt: skip


@pytest.mark.parametrize(("token", "arm_type", "own_name"), LEARN, ids=[row[0] for row in LEARN])
def test_a_type_the_class_and_the_spec_s_body_settle_is_placed_as_learn_documents_it(
    token: str, arm_type: str, own_name: str | None
) -> None:
    place = registry.placement(token)

    assert place is not None and place.arm_type == arm_type
    assert place.own_name == own_name
    assert place.api_version == json.loads((ARM / "sdk_types.json").read_text())["types"][token]["apiVersion"]
    assert (
        "no property of its body" in place.source and "Azure/bicep-types-az 1f896de2db96 (2026-08-20)" in place.source
    )


def test_kinds_of_one_spec_type_that_the_class_names_only_by_its_last_segment_are_not_placed() -> None:
    """`DefaultUserRule`, `UserRule` and `SecurityUserRule` all end in `rule` and fit one spec type, a security
    user configuration's rule (Learn: Microsoft.Network networkManagers/securityUserConfigurations/ruleCollections/
    rules, whose `kind` is `Custom` or `Default`): the second pass gives none of them that shape, and says why; only
    the provider's own table (token_paths_m_z.json, where present) places them, each at that one shape."""
    from azure_gpu_stacks.catalog.arm import provider_paths

    left = _spec_paths()["left"][read_schema_paths.LEFT_SHARED]
    for kind in ("DefaultUserRule", "UserRule", "SecurityUserRule"):
        token = f"azure-native:network:{kind}"
        by_provider = provider_paths.table().get(token)
        place = registry.placement(token)
        assert place is None if by_provider is None else place is not None and place.path == by_provider.path
        assert token in left


def test_a_kind_by_its_parent_is_placed_under_that_parent() -> None:
    """`PrivateEndpointConnectionByHostPool` (Learn: Microsoft.DesktopVirtualization/hostPools/
    privateEndpointConnections)."""
    place = registry.placement("azure-native:desktopvirtualization:PrivateEndpointConnectionByHostPool")

    assert (
        place is not None and place.arm_type == "Microsoft.DesktopVirtualization/hostPools/privateEndpointConnections"
    )
    assert place.parent_inputs == ("hostPoolName",) and place.name_input == "privateEndpointConnectionName"


# A types.json shaped as bicep-types-az writes it (Azure's REST spec, Microsoft.SignalRService 2024-03-01: a replica
# of a SignalR service, `signalR/{resourceName}/replicas/{replicaName}`; Learn: Microsoft.SignalRService/signalR/
# replicas has `location`, `sku`, `tags` and `properties.regionEndpointEnabled`, `properties.resourceStopped`)
SIGNALR = [
    {"$type": "StringType"},
    {"$type": "ObjectType", "name": "Replica", "properties": {
        "name": {"type": {"$ref": "#/0"}, "flags": 9}, "location": {"type": {"$ref": "#/0"}, "flags": 1},
        "sku": {"type": {"$ref": "#/0"}, "flags": 0}, "tags": {"type": {"$ref": "#/0"}, "flags": 0},
        "properties": {"type": {"$ref": "#/2"}, "flags": 0}}},
    {"$type": "ObjectType", "name": "ReplicaProperties", "properties": {
        "regionEndpointEnabled": {"type": {"$ref": "#/0"}, "flags": 0},
        "resourceStopped": {"type": {"$ref": "#/0"}, "flags": 0}}},
    {"$type": "ResourceType", "name": "Microsoft.SignalRService/signalR/replicas@2024-03-01",
     "body": {"$ref": "#/1"}, "writableScopes": 8},
    {"$type": "StringLiteralType", "value": "default"},
    {"$type": "ObjectType", "name": "Settings", "properties": {"name": {"type": {"$ref": "#/4"}, "flags": 9}}},
    {"$type": "ResourceType", "name": "Microsoft.SignalRService/signalR/settings@2024-03-01",
     "body": {"$ref": "#/5"}, "writableScopes": 8},
]  # fmt: skip


def test_the_inputs_that_are_no_body_property_name_the_segments_and_a_literal_name_is_fixed() -> None:
    listed = read_schema_paths.spec_types(SIGNALR)
    replica = {
        "apiVersion": "2024-03-01",
        "inputs": ["location", "regionEndpointEnabled", "replicaName", "resourceGroupName", "resourceName",
                   "resourceStopped", "sku", "tags"],
    }  # fmt: skip
    settings = {"apiVersion": "2024-03-01", "inputs": ["resourceGroupName", "resourceName"]}

    assert listed["Microsoft.SignalRService/signalR/settings"].literal_name == "default"
    assert read_schema_paths._by_body(
        "azure-native:signalrservice:SignalRReplica", replica, {"microsoft.signalrservice"},
        {"microsoft.signalrservice@2024-03-01": listed},
    ) == (
        "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.SignalRService/"
        "signalR/{resourceName}/replicas/{replicaName}",
        2,
    )  # fmt: skip
    found = read_schema_paths._by_body(
        "azure-native:signalrservice:SignalRSettings", settings, {"microsoft.signalrservice"},
        {"microsoft.signalrservice@2024-03-01": listed},
    )  # fmt: skip
    assert found is not None and found[0].endswith("/signalR/{resourceName}/settings/default")
    # an input that is no body property and names no segment (`extraName`) is one too many: nothing fits
    assert read_schema_paths._by_body(
        "azure-native:signalrservice:SignalRReplica", {**replica, "inputs": [*replica["inputs"], "extraName"]},
        {"microsoft.signalrservice"}, {"microsoft.signalrservice@2024-03-01": listed},
    ) is None  # fmt: skip


def test_the_registry_places_more_of_the_sdk_s_types_than_before_the_second_pass() -> None:
    sdk = json.loads((ARM / "sdk_types.json").read_text(encoding="utf-8"))["types"]

    assert sum(registry.placement(t) is not None for t in sdk) >= 1950  # 1,673 before the second pass


def _spec_paths() -> dict[str, Any]:
    document: dict[str, Any] = json.loads((ARM / "spec_paths.json").read_text(encoding="utf-8"))
    return document


def _export_namespaces() -> dict[str, set[str]]:
    """Module -> every namespace the 2.x export's import examples of its types name, read here from the export's
    rows (schema_paths_v2.json) by the id's last `providers/<Namespace>`."""
    found: dict[str, set[str]] = {}
    for token, row in json.loads((ARM / "schema_paths_v2.json").read_text(encoding="utf-8"))["types"].items():
        example = str(row.get("importId") or "")
        matches = re.findall(r"/providers/([^/]+)/", example, flags=re.IGNORECASE)
        if matches:
            module = token.split(":")[1]
            for name in (module, *registry.MODULES_RENAMED_IN_3.get(module, ())):
                found.setdefault(name, set()).add(matches[-1].lower())
    return found


def test_each_spec_shape_names_what_confirms_its_namespace_and_the_export_s_word_holds() -> None:
    """Item 2 of issue 39: a spec-derived shape's namespace is confirmed apart from the spec's own list; where the
    row says the 2.x export's examples confirm it, they do name that namespace for the module."""
    document = _spec_paths()
    exported = _export_namespaces()
    rows = document["types"]
    by_export = [
        t for t, r in rows.items() if "the 2.x export's import examples of the module" in r["namespaceConfirmedBy"]
    ]

    assert len(by_export) > 400
    for token in by_export:
        namespace = rows[token]["path"].split("/providers/")[-1].split("/")[0].lower()
        assert namespace in exported[token.split(":")[1]], token
    unconfirmed = sorted(t for t, r in rows.items() if not r["namespaceConfirmedBy"])
    assert unconfirmed == document["namespaceUnconfirmed"]
    assert document["namespaceConfirmed"] == len(rows) - len(unconfirmed) >= 950
    # none unconfirmed where the export's examples of its module name another namespace: those are left out
    assert [t for t in unconfirmed if exported.get(t.split(":")[1])] == []


def test_a_module_whose_export_examples_name_another_namespace_is_placed_only_where_the_spec_s_folder_confirms() -> (
    None
):
    """The 2.x export's examples of `elastic` are Datadog's (its TagRule example: `providers/Microsoft.Datadog/
    monitors/...`); Azure's REST spec keeps Microsoft.Elastic under specification/elastic (Learn's template
    reference: Microsoft.Elastic/monitors, observed 2026-11-27)."""
    assert _export_namespaces()["elastic"] == {"microsoft.datadog"}
    row = _spec_paths()["types"]["azure-native:elastic:Monitor"]

    assert "/providers/Microsoft.Elastic/monitors/{monitorName}" in row["path"]
    assert row["namespaceConfirmedBy"] == ["the REST spec's folder specification/elastic"]


def test_every_type_left_unplaced_is_written_down_with_why() -> None:
    """The residue: each SDK type the registry cannot place is under one reason in spec_paths.json's `left`, and
    each type there is one it cannot place, unless the provider's own table (token_paths_*.json) places it."""
    sdk = json.loads((ARM / "sdk_types.json").read_text(encoding="utf-8"))["types"]
    left = {token: why for why, tokens in _spec_paths()["left"].items() for token in tokens}
    unplaced = {t for t in sdk if registry.placement(t) is None}
    by_provider = {t for t in left if t not in unplaced}

    assert set(left) - by_provider == unplaced
    assert {registry.placement(t).source.split(" @ ")[0] for t in by_provider} <= {  # type: ignore[union-attr]
        "pulumi-azure-native reports/tokenPaths.json"
    }
    assert len(left) == sum(len(tokens) for tokens in _spec_paths()["left"].values())  # one reason each
    assert left["azure-native:storage:Blob"] == read_schema_paths.LEFT_PROVIDER  # a data-plane write, no API version


def test_every_spec_shape_is_fresh_for_the_installed_sdk() -> None:
    """spec_paths.json was derived for the installed SDK: each row's API version is the one the SDK sends today and
    each `{input}` of its shape is an input of the SDK's type (read from the SDK's own text, as
    scripts/read_sdk_types.py reads it); an SDK upgrade that moves either fails here until the rows are
    regenerated (scripts/read_schema_paths.py --bicep-types)."""
    from scripts import read_sdk_types

    types = read_sdk_types.read_types(read_sdk_types.sdk_root())
    rows = _spec_paths()["types"]
    stale = []
    for token, row in rows.items():
        version = types[token]["apiVersion"]
        inputs = set(types[token]["inputs"]) | {"subscriptionId"}
        if f"@{version} types.json" not in row["source"] or not set(re.findall(r"\{(\w+)\}", row["path"])) <= inputs:
            stale.append(token)

    assert len(rows) > 1000
    assert stale == []
