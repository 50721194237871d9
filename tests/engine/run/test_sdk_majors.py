"""A program written for pulumi-azure-native 2.x, run without its environment (issue 39): the line names
the missing module or name, says it is from 2.x while the environment has 3.x, and what to do
(Pulumi's "Upgrade Guide for Azure Native v2 to v3")."""

from __future__ import annotations

from azure_gpu_stacks.engine.run.sdk_majors import other_major_note


def test_a_renamed_module_is_named_with_its_3x_name() -> None:
    note = other_major_note("No module named 'pulumi_azure_native.documentdb'")

    assert note is not None
    assert note.startswith(
        "pulumi_azure_native.documentdb is a module of pulumi-azure-native 2.x (3.x calls it cosmosdb)"
    )
    assert "--create-venv" in note and "pulumi-azure-native 3." in note


def test_an_explicit_api_version_module_is_named_as_such() -> None:
    note = other_major_note("No module named 'pulumi_azure_native.network.v20230201'")

    assert note is not None
    assert "explicit API version module of pulumi-azure-native 2.x" in note


def test_a_name_a_3x_module_lacks_is_named() -> None:
    note = other_major_note("module 'pulumi_azure_native.network' has no attribute 'IpAllocationMethod'")

    assert note is not None and note.startswith("IpAllocationMethod is not in pulumi_azure_native.network")


def test_other_missing_modules_get_no_note() -> None:
    assert other_major_note("No module named 'requests'") is None


def test_a_2x_module_imported_by_name_from_the_package_is_named() -> None:
    # `from pulumi_azure_native import insights`: Python says "cannot import name", not "No module named"
    note = other_major_note(
        "cannot import name 'insights' from 'pulumi_azure_native' (/venv/lib/pulumi_azure_native/__init__.py)"
    )

    assert note is not None
    assert note.startswith(
        "pulumi_azure_native.insights is a module of pulumi-azure-native 2.x (3.x calls it applicationinsights"
    )


def test_a_2x_name_imported_from_a_module_is_named() -> None:
    note = other_major_note(
        "cannot import name 'IpAllocationMethod' from 'pulumi_azure_native.network' (/venv/network/__init__.py)"
    )

    assert note is not None and note.startswith("IpAllocationMethod is not in pulumi_azure_native.network")
