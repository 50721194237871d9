"""catalog/arm/token_paths_m_z.json, the azure-native provider's own token -> ARM path table for modules m-z
(pulumi/pulumi-azure-native reports/tokenPaths.json at the commit the file names, observed 2026-11-27), held
honest on its own, without the registry code that reads it.

Expected values come from the data: the installed SDK's own text (each resource class's
`@pulumi.type_token(...)`), catalog/arm/spec_paths.json's `left` (the types no other public source placed) and
the registry's existing rows (arm_paths.json, schema_paths.json, spec_paths.json), each compared by ARM type
(namespace and type segments of the id, case-insensitive, as Azure Resource Manager compares them).
"""

from __future__ import annotations

import functools
import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO

ARM = REPO / "catalog" / "arm"
TABLE = ARM / "token_paths_m_z.json"
UNVERSIONED = re.compile(r"azure-native:([a-z0-9]+):([A-Za-z0-9]+)")
RESOURCE_CLASS = re.compile(r'@pulumi\.type_token\("([^"]+)"\)\nclass \w+\(pulumi\.CustomResource\)')
NAMESPACE = re.compile(r"[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)+")

# Tokens of the table that pulumi-azure-native 3.29.0 (the installed SDK) does not ship, each with why; none
# at commit 0346c1b3: every unversioned m-z token on the pages read is a resource class of the SDK.
NOT_IN_SDK: dict[str, str] = {}

# ARM ids with no `/providers/<Namespace>/` of their own, each with why.
NO_NAMESPACE_SEGMENT = {
    # a resource group's id is /subscriptions/{id}/resourcegroups/{name}: ARM's own container, no provider segment
    "azure-native:resources:ResourceGroup",
}
# ARM ids whose namespace is an input of the resource, not a fixed provider.
NAMESPACE_IS_AN_INPUT = {
    # the generic resource: {resourceProviderNamespace}/{parentResourcePath}/{resourceType}/{resourceName}
    "azure-native:resources:Resource",
}

# Resource classes of the installed SDK (modules m-z) that the provider's table does not hold at the commit read:
NOT_IN_THE_TABLE = {
    # the "$Default" rule of a Service Bus subscription, written by the provider itself (no API version in
    # sdk_types.json): the table lists servicebus:DisasterRecoveryConfig ... TopicAuthorizationRule, no DefaultRule
    "azure-native:servicebus:DefaultRule",
    # the SDK's class uses API version 2026-08-01, newer than every security version the table lists
    "azure-native:security:DataScanner",
}

# Tokens the table places whose ARM type a registry row gives differently (both paths in the lead's report):
KNOWN_DISAGREEMENTS = {
    "schema_paths.json": {
        # the 2.x export's example names Microsoft.OEP/oepResource; the provider places energyServices
        "azure-native:openenergyplatform:EnergyService",
        # workspaces/administrators/{tenantId} in the example; the provider: workspaces/sqlAdministrators
        "azure-native:synapse:WorkspaceSqlAadAdmin",
        # staticSitesBuilds / builds/default / sites in the examples; the provider: staticSites/<child>
        "azure-native:web:StaticSiteCustomDomain",
        "azure-native:web:StaticSiteLinkedBackend",
        "azure-native:web:StaticSitePrivateEndpointConnection",
        "azure-native:web:StaticSiteUserProvidedFunctionAppForStaticSite",
    },
    "spec_paths.json": {
        # the provider: ServiceLinker/locations/{location}/dryruns; the row: ServiceLinker/dryruns
        "azure-native:servicelinker:ConnectorDryrun",
        # the provider: monitors/{monitorName}/sapLandscapeMonitor/default; the row: the monitor itself
        "azure-native:workloads:SapLandscapeMonitor",
    },
    "arm_paths.json": set(),
}
# How many of the table's tokens each file placed with the same ARM type when the table was read (2026-11-27, 987
# tokens): a registry change that loses agreeing rows fails, one that fixes a known disagreement passes.
AGREEING_AT_LEAST = {"arm_paths.json": 76, "schema_paths.json": 443, "spec_paths.json": 352}
# Tokens where a registry row has the table's ARM type but another scope (the id before its last `/providers/`):
KNOWN_SCOPE_DIFFERENCES = {
    "schema_paths.json": {
        # the provider writes /providers/{managementGroupsNamespace}/managementGroups/...; the row Microsoft.Management
        "azure-native:policyinsights:RemediationAtManagementGroup",
        # the provider: under /subscriptions/{subscriptionId}; the row: at the tenant (/providers/...)
        "azure-native:security:AssessmentMetadataInSubscription",
        # the rows' parent is misspelt Microsoft.OperationalIinsights (the 2.x export's example); the provider's is not
        "azure-native:securityinsights:Action",
        "azure-native:securityinsights:AnomalySecurityMLAnalyticsSettings",
        "azure-native:securityinsights:IncidentComment",
    },
    "spec_paths.json": {
        # the provider: any scope (/{scopeId}, /{resourceId}); the rows: a subscription
        "azure-native:security:Pricing",
        "azure-native:security:StandardAssignment",
    },
    "arm_paths.json": set(),
}
# Tokens the table places that arm_paths.json (curated) says are not ARM resources (data plane): the provider's
# table gives each an id shape all the same, under its storage account.
REGISTRY_SAYS_DATA_PLANE = {"azure-native:storage:Blob", "azure-native:storage:StorageAccountStaticWebsite"}


@functools.cache
def _document() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(TABLE.read_text(encoding="utf-8"))
    return loaded


def _paths() -> dict[str, str]:
    paths: dict[str, str] = _document()["paths"]
    return paths


def _sdk() -> Path:
    spec = importlib.util.find_spec("pulumi_azure_native")
    assert spec is not None and spec.submodule_search_locations
    return Path(next(iter(spec.submodule_search_locations)))


@functools.cache
def _sdk_tokens(module: str) -> frozenset[str]:
    """The resource tokens the installed SDK's package `module` declares on its resource classes, read from its
    own text (`@pulumi.type_token("...")` above `class X(pulumi.CustomResource)`)."""
    package = _sdk() / module
    if not package.is_dir():
        return frozenset()
    return frozenset(
        token for source in package.glob("*.py") for token in RESOURCE_CLASS.findall(source.read_text(encoding="utf-8"))
    )


def _arm_type(path: str) -> str | None:
    """Namespace and type segments of an ARM id, after its last `/providers/`, lower-cased."""
    at = path.rfind("/providers/")
    if at < 0:
        return None
    segments = path[at + len("/providers/") :].split("/")
    return "/".join([segments[0], *segments[1::2]]).lower()


def _scope(path: str) -> str:
    """The id before its last `/providers/`, lower-cased, each {placeholder} as {}."""
    at = path.rfind("/providers/")
    return re.sub(r"\{[^}]*\}", "{}", (path[:at] if at >= 0 else path).lower())


def _rows(name: str) -> dict[str, Any]:
    rows: dict[str, Any] = json.loads((ARM / name).read_text(encoding="utf-8"))["types"]
    return rows


def test_the_table_names_the_one_commit_it_was_read_from_and_is_written_sorted() -> None:
    document = _document()
    assert set(document) == {"source", "note", "paths"}
    source = document["source"]
    assert source["repo"] == "https://github.com/pulumi/pulumi-azure-native"
    assert source["path"] == "reports/tokenPaths.json"
    assert re.fullmatch(r"[0-9a-f]{40}", source["commit"])
    assert source["observed"] == "2026-11-27"
    assert "copied exactly" in document["note"]
    text = TABLE.read_text(encoding="utf-8")
    assert text == json.dumps(document, indent=2, sort_keys=True) + "\n"


def test_every_token_is_an_unversioned_m_to_z_resource_of_the_installed_sdk() -> None:
    paths = _paths()
    assert len(paths) > 800
    shapes = [t for t in paths if not (m := UNVERSIONED.fullmatch(t)) or m.group(1)[0] < "m"]
    assert shapes == []
    absent = {t for t in paths if t not in _sdk_tokens(t.split(":")[1])}
    assert absent == set(NOT_IN_SDK)


def test_every_path_is_an_arm_id_whose_last_provider_segment_names_a_namespace() -> None:
    paths = _paths()
    assert [t for t, p in paths.items() if not p.startswith("/") or "//" in p or p.endswith("/")] == []
    no_provider = {t for t, p in paths.items() if _arm_type(p) is None}
    assert no_provider == NO_NAMESPACE_SEGMENT
    not_a_namespace = {
        t
        for t, p in paths.items()
        if t not in no_provider and not NAMESPACE.fullmatch(p[p.rfind("/providers/") + 11 :].split("/")[0])
    }
    assert not_a_namespace == NAMESPACE_IS_AN_INPUT


def test_the_table_places_every_m_to_z_resource_class_of_the_installed_sdk_but_two() -> None:
    modules = [p.name for p in _sdk().iterdir() if p.is_dir() and p.name[0] >= "m" and not p.name.startswith("_")]
    resources = {t for module in modules for t in _sdk_tokens(module)}
    assert len(resources) > 900
    assert resources - set(_paths()) == NOT_IN_THE_TABLE


def test_the_table_places_every_type_the_registry_left_in_modules_m_to_z_but_one() -> None:
    left = json.loads((ARM / "spec_paths.json").read_text(encoding="utf-8"))["left"]
    wanted = {t for listed in left.values() for t in listed if t.split(":")[1][0] >= "m"}
    assert wanted - set(_paths()) <= {"azure-native:servicebus:DefaultRule"}


@pytest.mark.parametrize("name", sorted(KNOWN_DISAGREEMENTS))
def test_the_registrys_placements_agree_on_the_arm_type_but_the_known_few(name: str) -> None:
    paths, rows = _paths(), _rows(name)
    placed = [t for t in paths if "path" in rows.get(t, {})]
    disagree = {t for t in placed if _arm_type(paths[t]) != _arm_type(rows[t]["path"])}
    assert disagree <= KNOWN_DISAGREEMENTS[name]
    assert len(placed) - len(disagree) >= AGREEING_AT_LEAST[name]


@pytest.mark.parametrize("name", sorted(KNOWN_SCOPE_DIFFERENCES))
def test_the_registrys_placements_sit_at_the_tables_scope_but_the_known_few(name: str) -> None:
    paths, rows = _paths(), _rows(name)
    placed = [t for t in paths if "path" in rows.get(t, {})]
    assert {t for t in placed if _scope(paths[t]) != _scope(rows[t]["path"])} <= KNOWN_SCOPE_DIFFERENCES[name]


def test_the_types_the_curated_registry_calls_data_plane_have_an_id_shape_in_the_table() -> None:
    curated = _rows("arm_paths.json")
    assert {t for t in _paths() if t in curated and "path" not in curated[t]} == REGISTRY_SAYS_DATA_PLANE
