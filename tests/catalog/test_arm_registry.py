"""The one type registry (catalog/arm/registry.py): every azure-native resource of the installed SDK with the
API version it sends, where ARM places the types it lists, and export-arm placing every azure-native
resource with it; the real-Azure path reads no part of the fake ARM.

Expected values come from the installed SDK's own text (each class's "Uses Azure REST API version"), from
Azure's ARM template reference (the ARM type of a blob container), or from the public programs' sources.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.catalog.arm import registry
from azure_gpu_stacks.engine.arm.template import export
from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.fakeazure.models import RESOURCE_TYPES

from scripts import read_sdk_types
from tests.conftest import REPO, recorded_resource
from tests.sdk_source import in_a_child, sdk_api_version, sdk_resource_classes

PUBLIC = REPO / "tests" / "data" / "public"
RESOURCE_GROUP = "azure-native:resources:ResourceGroup"


def test_the_registry_is_generated_fresh_from_the_installed_sdk() -> None:
    # generated in a forked child: reading every SDK type grew this test process by 30 MB for the session
    generated = in_a_child(read_sdk_types.generate, "scripts/read_sdk_types.py generate")

    assert generated == (REPO / "catalog" / "arm" / "sdk_types.json").read_text(encoding="utf-8")


def test_every_resource_class_of_the_installed_sdk_is_in_the_registry() -> None:
    declared = sdk_resource_classes()

    assert len(declared) > 2000  # the whole provider, not the types this project models
    assert [t for t in sorted(declared) if not registry.is_sdk_type(t)] == []


# types no component uses, and where Azure's ARM template reference puts them (learn.microsoft.com/azure/templates)
UNUSED = [
    ("azure-native:web:WebApp", "Microsoft.Web/sites"),
    ("azure-native:storage:BlobContainer", "Microsoft.Storage/storageAccounts/blobServices/containers"),
    ("azure-native:cdn:Profile", "Microsoft.Cdn/profiles"),
]


@pytest.mark.parametrize(("token", "arm_type"), UNUSED, ids=[u[0] for u in UNUSED])
def test_a_type_no_component_uses_has_the_sdk_s_api_version_and_azure_s_arm_type(token: str, arm_type: str) -> None:
    place = registry.placement(token)

    assert place is not None and token not in RESOURCE_TYPES
    assert (place.arm_type, place.api_version) == (arm_type, sdk_api_version(token))


def test_every_type_the_fake_models_is_placed_by_the_registry_as_the_fake_places_it() -> None:
    differ = {}
    for token, rtype in RESOURCE_TYPES.items():
        place = registry.placement(token)
        assert place is not None, token
        got = (place.arm_type, place.name_input, place.parent_inputs, place.scoped, place.located)
        if got != (rtype.arm_type, rtype.name_input, rtype.parent_inputs, rtype.scoped, rtype.located):
            differ[token] = got
        if place.scoped:
            assert place.scope_input == rtype.scope_input, token

    assert differ == {}


def test_the_fake_names_an_unmodelled_child_type_by_azure_s_id_shape() -> None:
    arm = FakeArm(default_location="eastus")
    arm.put("azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": "rg", "location": "eastus"}, "u1")
    arm.put("azure-native:storage:StorageAccount", "sa", _account(), "u2")
    found = arm.put(
        "azure-native:storage:BlobContainer",
        "c",
        {"resourceGroupName": "rg", "accountName": "sa1", "containerName": "site"},
        "u3",
    )

    assert found.id.endswith(
        "/resourceGroups/rg/providers/Microsoft.Storage/storageAccounts/sa1/blobServices/default/containers/site"
    )


def _account() -> dict[str, Any]:
    return {"resourceGroupName": "rg", "accountName": "sa1", "kind": "StorageV2", "sku": {"name": "Standard_LRS"}}


def _fake_imports(path: Path) -> list[str]:
    """What `path` imports from the fake ARM, absolute or relative (`from ...fakeazure import FakeArm`)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            found.append(("." * node.level) + (node.module or ""))
        elif isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
    return sorted(name for name in found if "fakeazure" in name.split("."))


def _real_azure_path() -> list[Path]:
    return sorted(p for room in ("engine/arm", "engine/estimate") for p in (REPO / room).rglob("*.py"))


def test_the_real_azure_path_imports_nothing_from_the_fake() -> None:
    found = {p.relative_to(REPO).as_posix(): _fake_imports(p) for p in _real_azure_path()}

    assert _real_azure_path() and {path: names for path, names in found.items() if names} == {}


SUB = "3f2c8a41-6b7d-4e15-9c0a-2d5e7f1b9a64"
GROUP_ID = f"/subscriptions/{SUB}/resourceGroups/rg"
ACCOUNT_ID = f"{GROUP_ID}/providers/Microsoft.Storage/storageAccounts/sa1"


def test_an_extension_type_and_an_auto_named_child_are_placed_as_azure_places_them() -> None:
    """A diagnostic setting on a storage account (`/{resourceUri}/providers/Microsoft.Insights/diagnosticSettings`,
    Learn's template reference) and a blob container the program did not name (the name it got ends its id)."""
    resources = [
        recorded_resource(RESOURCE_GROUP, "rg", {"resourceGroupName": "rg", "location": "westus2"}, GROUP_ID),
        recorded_resource(
            "azure-native:storage:StorageAccount", "sa", {**_account(), "accountName": "sa1"}, ACCOUNT_ID
        ),
        recorded_resource(
            "azure-native:monitor:DiagnosticSetting",
            "diag",
            {"resourceUri": ACCOUNT_ID, "name": "to-logs", "metrics": [{"category": "Transaction", "enabled": True}]},
            f"{ACCOUNT_ID}/providers/Microsoft.Insights/diagnosticSettings/to-logs",
        ),
        recorded_resource(
            "azure-native:storage:BlobContainer",
            "c",
            {"resourceGroupName": "rg", "accountName": "sa1"},
            f"{ACCOUNT_ID}/blobServices/default/containers/c1a2b3c4d",
        ),
    ]
    template = export(resources, project="p", stack="dev")
    inner = {
        e["type"]: e
        for d in template.document["resources"]
        for e in d.get("properties", {}).get("template", {}).get("resources", [])
    }
    setting = inner["Microsoft.Insights/diagnosticSettings"]
    container = inner["Microsoft.Storage/storageAccounts/blobServices/containers"]

    assert (setting["scope"], setting["name"]) == ("Microsoft.Storage/storageAccounts/sa1", "to-logs")
    assert setting["apiVersion"] == sdk_api_version("azure-native:monitor:DiagnosticSetting")
    assert setting["properties"]["metrics"] == [{"category": "Transaction", "enabled": True}]
    assert container["name"] == "sa1/default/c1a2b3c4d"
    assert container["dependsOn"] == ["[resourceId('Microsoft.Storage/storageAccounts', 'sa1')]"]
    assert SUB not in json.dumps(template.document)  # the plan's subscription is the deployment's


# 2.x modules 3.x renamed (Pulumi's v2-to-v3 upgrade guide): ARM knows each type by the same ARM type
RENAMED = [
    ("azure-native:documentdb:DatabaseAccount", "Microsoft.DocumentDB/databaseAccounts"),
    ("azure-native:insights:Component", "Microsoft.Insights/components"),
]


@pytest.mark.parametrize(("token", "arm_type"), RENAMED, ids=[r[0] for r in RENAMED])
def test_a_type_of_a_module_3x_renamed_is_placed_as_azure_places_it(token: str, arm_type: str) -> None:
    place = registry.placement(token)

    assert not registry.is_sdk_type(token)
    assert place is not None and (place.token, place.arm_type) == (token, arm_type)


def test_each_curated_id_shape_names_the_arm_type_its_template_reference_page_documents() -> None:
    """arm_paths.json: a type cited to Learn's ARM template reference (learn.microsoft.com/azure/templates/<type>)
    is placed under that very type, so a typo in either the id shape or the citation fails here."""
    cited = {
        token: re.search(r"learn\.microsoft\.com/azure/templates/(\S+)", entry["source"])
        for token, entry in json.loads((REPO / "catalog" / "arm" / "arm_paths.json").read_text())["types"].items()
        if "path" in entry
    }
    placed = {token: registry.placement(token) for token in cited}

    assert len([m for m in cited.values() if m]) > 60
    assert {
        token: (place.arm_type if place else None)
        for token, place in placed.items()
        if cited[token] and (place is None or place.arm_type.lower() != cited[token].group(1))
    } == {}


def test_every_azure_native_type_any_public_program_creates_is_placed_or_no_arm_resource() -> None:
    """Each `module.Class(` of an azure-native resource in tests/data/public (2.x modules too, placed as the 3.x
    module's type): export-arm puts it in the template, or it is a data-plane write (a blob) that ARM never sees;
    none is left outside for want of its ARM type."""
    sdk = json.loads((REPO / "catalog" / "arm" / "sdk_types.json").read_text())["types"]
    modules = {token.split(":")[1] for token in sdk} | set(registry.MODULES_RENAMED_IN_3)
    created = {
        f"azure-native:{module}:{kind}"
        for program in PUBLIC.glob("*/__main__.py")
        for module, kind in re.findall(r"\b([a-z]+)\.([A-Z]\w+)\(", program.read_text())
        if module in modules and not kind.endswith("Args")
    }
    resources = sorted(t for t in created if registry.is_sdk_type(t) or registry.placement(t) is not None)

    assert len(resources) > 30
    assert [t for t in resources if registry.placement(t) is None and registry.data_plane(t) is None] == []
