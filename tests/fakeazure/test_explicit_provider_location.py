"""A resource group created through an explicit azure-native provider that names a location.

azure-native gives a resource group without `location` its provider's location (the provider's `location`
configuration: the stack's `azure-native:location` for the default provider, the `location` argument for an
explicit `azure_native.Provider`; pulumi-azure-native's provider configuration reference, observed 2026-11-27),
and other resources their group's. A program that sets the location only on its explicit provider (a second
region) is accepted; the group must get that provider's location, not be refused for having none.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from azure_gpu_stacks.engine.cli import main

PROGRAM = """
import pulumi
import pulumi_azure_native as azure_native
from pulumi_azure_native import resources, storage

west = azure_native.Provider("west", location="westus3")
rg = resources.ResourceGroup("rg", opts=pulumi.ResourceOptions(provider=west))
storage.StorageAccount(
    "sa",
    resource_group_name=rg.name,
    kind="StorageV2",
    sku={"name": "Standard_LRS"},
    opts=pulumi.ResourceOptions(provider=west),
)
"""


def test_a_group_takes_its_explicit_providers_location(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "Pulumi.yaml").write_text("name: second-region\nruntime: python\n")
    (tmp_path / "Pulumi.dev.yaml").write_text("config: {}\n")  # no azure-native:location for the default provider
    (tmp_path / "__main__.py").write_text(PROGRAM)

    code = main(["plan", "dev", "--project", str(tmp_path), "--json"])
    out, err = capsys.readouterr()

    assert (code, err) == (0, ""), out
    document = json.loads(out)
    assert not document.get("refusals"), document.get("refusals")  # was: "location is required"
    assert {r["name"] for r in document["resources"]} >= {"rg", "sa"}
