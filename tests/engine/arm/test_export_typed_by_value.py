"""export-arm of a program whose resources' ARM type is the value of one of their inputs (issue 39): a DNS zone's A and
CNAME record sets (`.../dnsZones/{zoneName}/{recordType}/{relativeRecordSetName}`), a private DNS zone's A record set
and a Traffic Manager profile's Azure endpoint (`.../trafficmanagerprofiles/{profileName}/{endpointType}/...`) are
inside the template, each as the ARM type Azure's REST spec defines for that value; a record set whose type is
`Bogus` stays outside, saying its ARM type depends on the value of `recordType`.

Expected ARM types are written out below and checked against the provider's table text (the path with the input as
its type segment) and the REST spec's list (catalog/arm/spec_arm_types.json, read as JSON); API versions are the
installed SDK's docstrings ("Uses Azure REST API version ..."); never the registry's helpers.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from azure_gpu_stacks.catalog.clock import utc_today
from azure_gpu_stacks.engine.arm.template import Template, export
from azure_gpu_stacks.engine.run.plan import plan_stack
from azure_gpu_stacks.engine.run.project import load_project

from tests.catalog.test_token_paths_a_l import sdk_api_version
from tests.conftest import REPO

PROGRAM = REPO / "tests" / "data" / "typed_by_value"
ARM = REPO / "catalog" / "arm"

# (logical name, token, the input that is a type segment, its value in the program, ARM type, template name)
INSIDE = [
    ("apex-a", "azure-native:dns:RecordSet", "recordType", "A", "Microsoft.Network/dnsZones/A", "contoso.example/@"),
    (
        "www-cname",
        "azure-native:dns:RecordSet",
        "recordType",
        "CNAME",
        "Microsoft.Network/dnsZones/CNAME",
        "contoso.example/www",
    ),
    (
        "blob-a",
        "azure-native:privatedns:PrivateRecordSet",
        "recordType",
        "A",
        "Microsoft.Network/privateDnsZones/A",
        "privatelink.blob.core.windows.net/contosodata",
    ),
    (
        "web",
        "azure-native:trafficmanager:Endpoint",
        "endpointType",
        "AzureEndpoints",
        "Microsoft.Network/trafficmanagerprofiles/AzureEndpoints",
        "contoso-tm/web-westeurope",
    ),
]
# the parent each one depends on, as the template names it
PARENTS = {
    "apex-a": "[resourceId('Microsoft.Network/dnsZones', 'contoso.example')]",
    "www-cname": "[resourceId('Microsoft.Network/dnsZones', 'contoso.example')]",
    "blob-a": "[resourceId('Microsoft.Network/privateDnsZones', 'privatelink.blob.core.windows.net')]",
    "web": "[resourceId('Microsoft.Network/trafficmanagerprofiles', 'contoso-tm')]",
}


def _provider_path(token: str) -> str:
    for name in ("token_paths_a_l.json", "token_paths_m_z.json"):
        paths = json.loads((ARM / name).read_text(encoding="utf-8"))["paths"]
        if token in paths:
            return str(paths[token])
    raise AssertionError(f"{token} is not in the provider's table")


def _spec_lists(namespace_at_version: str) -> list[str]:
    types: dict[str, list[str]] = json.loads((ARM / "spec_arm_types.json").read_text(encoding="utf-8"))["types"]
    return types[namespace_at_version.lower()]


@pytest.fixture(scope="module")
def exported() -> tuple[Any, Template]:
    plan = plan_stack(load_project(PROGRAM), "dev", day=utc_today())
    return plan, export(plan.resources, project=plan.project, stack=plan.stack, identity=plan.identity)


def _entries(template: Template) -> dict[str, dict[str, Any]]:
    """Every resource entry of the document by its name (the groups' nested deployments' resources included)."""
    top = template.document["resources"]
    nested = [e for d in top for e in d.get("properties", {}).get("template", {}).get("resources", [])]
    return {e["name"]: e for e in [*top, *nested]}


@pytest.mark.parametrize(("logical", "token", "typed", "value", "arm_type", "name"), INSIDE, ids=[i[0] for i in INSIDE])
def test_a_resource_whose_arm_type_is_an_input_s_value_is_inside_as_that_type(
    exported: tuple[Any, Template], logical: str, token: str, typed: str, value: str, arm_type: str, name: str
) -> None:
    plan, template = exported
    version = sdk_api_version(token)
    namespace, parent_type, own_type = arm_type.split("/")
    # the provider's table has the input where the spec's type has the value
    assert f"/providers/{namespace}/{parent_type}/{{".lower() in _provider_path(token).lower()
    assert f"}}/{{{typed}}}/{{" in _provider_path(token)
    assert arm_type in _spec_lists(f"{namespace}@{version}") and own_type.lower() == value.lower()

    entry = _entries(template)[name]
    recorded = next(r for r in plan.resources if r.name == logical)

    assert (entry["type"], entry["apiVersion"]) == (arm_type, version)
    assert template.resource(recorded.urn) is not None
    assert recorded.urn not in {o["urn"] for o in template.document["metadata"]["outsideTemplate"]}
    assert PARENTS[logical] in entry["dependsOn"]
    assert typed not in json.dumps(entry)  # in the URL (the type), never in the body
    assert "type" not in entry.get("properties", {})  # the endpoint's `type` input is the entry's own `type`


def test_the_record_sets_values_are_under_properties_as_azure_s_record_set_nests_them(
    exported: tuple[Any, Template],
) -> None:
    """The program's A address and CNAME target, and no `recordType`, `zoneName` or name beside them."""
    entries = _entries(exported[1])

    assert entries["contoso.example/@"]["properties"] == {"aRecords": [{"ipv4Address": "203.0.113.10"}], "ttl": 3600}
    assert entries["contoso.example/www"]["properties"] == {
        "cnameRecord": {"cname": "contoso.azurewebsites.net"},
        "ttl": 3600,
    }


def test_a_record_set_of_a_type_azure_does_not_define_stays_outside_saying_its_type_depends_on_the_value(
    exported: tuple[Any, Template],
) -> None:
    plan, template = exported
    odd = next(r for r in plan.resources if r.name == "odd")
    outside = {o["urn"]: o["why"] for o in template.document["metadata"]["outsideTemplate"]}
    listed = _spec_lists(f"Microsoft.Network@{sdk_api_version('azure-native:dns:RecordSet')}")

    assert "Microsoft.Network/dnsZones/Bogus" not in listed
    assert template.resource(odd.urn) is None
    assert "depends on the value of the input recordType" in outside[odd.urn]
    assert "Validate and What-If do not see it" in outside[odd.urn]
    assert ", CNAME," in outside[odd.urn] and "Bogus" not in json.dumps(template.document["resources"])
    assert len(outside) == 1  # every other Azure resource of the program is inside
