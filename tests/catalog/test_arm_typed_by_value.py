"""The types whose ARM type is one of their inputs' values (issue 39): the provider's table gives a DNS record set's
path as `.../Microsoft.Network/dnsZones/{zoneName}/{recordType}/{relativeRecordSetName}`, so `recordType: "A"` is
ARM's `Microsoft.Network/dnsZones/A`. `registry.placement_for(token, inputs)` places such a resource where the
value is a plain name and Azure's REST spec defines the resulting type at the SDK's API version; otherwise nothing,
and `why_unplaced` names the input.

Expected ARM types come from the REST spec's lists (catalog/arm/spec_arm_types.json, generated from
Azure/bicep-types-az) read as JSON, and API versions from the installed SDK's docstrings; never from the registry.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from azure_gpu_stacks.catalog.arm import registry

from tests.conftest import REPO
from tests.sdk_source import sdk_api_version

ARM = REPO / "catalog" / "arm"
RECORD_SET = "azure-native:dns:RecordSet"
PRIVATE_RECORD_SET = "azure-native:privatedns:PrivateRecordSet"
ENDPOINT = "azure-native:trafficmanager:Endpoint"
# the inputs naming the resource and its parents, as the installed SDK's classes take them
NAMES = {
    RECORD_SET: {"resourceGroupName": "rg", "zoneName": "contoso.example", "relativeRecordSetName": "www"},
    PRIVATE_RECORD_SET: {
        "resourceGroupName": "rg",
        "privateZoneName": "privatelink.example",
        "relativeRecordSetName": "db",
    },
    ENDPOINT: {"resourceGroupName": "rg", "profileName": "tm", "endpointName": "web"},
}
TYPED = {RECORD_SET: "recordType", PRIVATE_RECORD_SET: "recordType", ENDPOINT: "endpointType"}
PARENT = {
    RECORD_SET: "microsoft.network/dnszones/",
    PRIVATE_RECORD_SET: "microsoft.network/privatednszones/",
    ENDPOINT: "microsoft.network/trafficmanagerprofiles/",
}


def _spec(token: str) -> list[str]:
    """The ARM types Azure's REST spec defines one level below the token's parent type at the SDK's API version."""
    types: dict[str, list[str]] = json.loads((ARM / "spec_arm_types.json").read_text(encoding="utf-8"))["types"]
    listed = types[f"microsoft.network@{sdk_api_version(token)}"]
    return [t for t in listed if t.lower().startswith(PARENT[token]) and t.count("/") == 2]


# the spec's types under the same parent that another class of the SDK is (privatedns:VirtualNetworkLink,
# dns:DnssecConfig): a record set's value never names one
OTHER_CLASSES = {"virtualNetworkLinks", "dnssecConfigs"}
CASES = [(t, arm_type) for t in TYPED for arm_type in _spec(t) if arm_type.split("/")[-1] not in OTHER_CLASSES]


def test_the_spec_lists_the_record_types_and_endpoint_types_the_sdk_documents() -> None:
    assert {"Microsoft.Network/dnsZones/A", "Microsoft.Network/dnsZones/CNAME", "Microsoft.Network/dnsZones/TXT"} <= {
        a for t, a in CASES if t == RECORD_SET
    }
    assert {"Microsoft.Network/privateDnsZones/A", "Microsoft.Network/privateDnsZones/CNAME"} <= {
        a for t, a in CASES if t == PRIVATE_RECORD_SET
    }
    assert {
        "Microsoft.Network/trafficmanagerprofiles/AzureEndpoints",
        "Microsoft.Network/trafficmanagerprofiles/ExternalEndpoints",
        "Microsoft.Network/trafficmanagerprofiles/NestedEndpoints",
    } <= {a for t, a in CASES if t == ENDPOINT}


@pytest.mark.parametrize(("token", "arm_type"), CASES, ids=[f"{t.split(':')[-1]}-{a.split('/')[-1]}" for t, a in CASES])
def test_each_value_the_spec_defines_places_the_resource_as_that_type_in_the_spec_s_casing(
    token: str, arm_type: str
) -> None:
    value = arm_type.split("/")[-1]
    for spelled in (value, value.lower()):  # ARM's types are case-insensitive: the spec's spelling is the one written
        place = registry.placement_for(token, {**NAMES[token], TYPED[token]: spelled})

        assert place is not None and (place.arm_type, place.api_version) == (arm_type, sdk_api_version(token))
        assert TYPED[token] in place.path_inputs  # in the URL, never in the body
        assert place.name_input in NAMES[token] and set(place.parent_inputs) <= set(NAMES[token])
        assert f"/{value}/" in registry.resource_id(place, NAMES[token], "www", "s")


@pytest.mark.parametrize(
    "value", ["Bogus", "", "A/B", "A B", "dnsZones/../A", None, 5, {"unknown": True}, "virtualNetworkLinks"]
)
def test_a_value_naming_no_type_of_the_class_places_nothing(value: Any) -> None:
    assert registry.placement_for(PRIVATE_RECORD_SET, {**NAMES[PRIVATE_RECORD_SET], "recordType": value}) is None
    assert registry.placement_for(RECORD_SET, {**NAMES[RECORD_SET], "recordType": value}) is None


def test_without_its_inputs_the_type_stays_unplaced_and_says_which_input_picks_its_arm_type() -> None:
    for token, typed in TYPED.items():
        why = registry.why_unplaced(token)

        assert registry.placement(token) is None and registry.placement_for(token, NAMES[token]) is None
        assert why is not None and f"depends on the value of the input {typed}" in why, token
    assert "A, AAAA, CAA, CNAME" in str(registry.why_unplaced(RECORD_SET))


def test_a_type_with_one_arm_type_is_placed_as_before_whatever_its_inputs() -> None:
    zone = "azure-native:dns:Zone"

    assert registry.placement_for(zone, {"recordType": "Bogus"}) == registry.placement(zone) is not None


def test_an_event_grid_private_endpoint_connection_is_placed_under_the_parent_type_its_parent_type_names() -> None:
    """The provider's `.../Microsoft.EventGrid/{parentType}/{parentName}/privateEndpointConnections/{...}`: the
    first type segment is the input; the spec at the SDK's version defines one such type per parent kind."""
    token = "azure-native:eventgrid:PrivateEndpointConnection"
    types: dict[str, list[str]] = json.loads((ARM / "spec_arm_types.json").read_text(encoding="utf-8"))["types"]
    listed = [
        t for t in types[f"microsoft.eventgrid@{sdk_api_version(token)}"] if t.endswith("/privateEndpointConnections")
    ]
    names = {"resourceGroupName": "rg", "parentName": "orders", "privateEndpointConnectionName": "pe"}

    assert "Microsoft.EventGrid/topics/privateEndpointConnections" in listed
    for arm_type in listed:
        place = registry.placement_for(token, {**names, "parentType": arm_type.split("/")[1]})
        assert place is not None and (place.arm_type, place.api_version) == (arm_type, sdk_api_version(token))
    why = str(registry.why_unplaced(token))
    assert "depends on the value of the input parentType" in why and "topics" in why and "domains" in why
