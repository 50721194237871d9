"""Every azure-native resource type the shipped components and programs (components/, __main__.py)
and the team corpus (tests/data/teams/) can create has a model in the fake ARM: a type without one
is accepted unchecked, so the offline verdict would say OK where Azure might refuse (issue: Azure
fidelity). Read from the source with `ast`, so a resource behind a flag the shipped stacks leave
off (an AmlCluster's registry, a GpuVm's public IP) counts too."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pulumi
from azure_gpu_stacks.fakeazure.models import RESOURCE_TYPES

from tests.conftest import REPO

SOURCES = sorted(
    [
        *(REPO / "components").glob("*.py"),
        *(REPO / "stack").glob("*.py"),
        REPO / "__main__.py",
        *(REPO / "tests" / "data" / "teams").rglob("*.py"),
    ]
)


def _created(path: Path) -> set[str]:
    """The azure-native type tokens of the resources `path` constructs (`module.Class(...)`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules: dict[str, str] = {}  # local name -> pulumi_azure_native submodule
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "pulumi_azure_native":
            modules.update({alias.asname or alias.name: alias.name for alias in node.names})
    tokens = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in modules
        ):
            module = modules[node.func.value.id]
            found = getattr(importlib.import_module(f"pulumi_azure_native.{module}"), node.func.attr, None)
            if isinstance(found, type) and issubclass(found, pulumi.CustomResource):
                tokens.add(f"azure-native:{module}:{node.func.attr}")
    return tokens


def test_the_scan_finds_what_the_components_create() -> None:
    assert _created(REPO / "components" / "working_hours.py") == {"azure-native:monitor:AutoscaleSetting"}
    assert "azure-native:keyvault:Secret" in _created(REPO / "tests" / "data" / "teams" / "llm-team" / "__main__.py")


def test_every_azure_type_the_toolkit_and_the_team_corpus_create_has_a_fake_model() -> None:
    created = {token: path for path in SOURCES for token in _created(path)}
    assert len(created) >= 20  # the scan sees the components' resources
    assert (
        sorted(f"{token} ({path.relative_to(REPO)})" for token, path in created.items() if token not in RESOURCE_TYPES)
        == []
    )
