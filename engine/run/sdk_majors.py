"""A program written for another major version of pulumi-azure-native, named as such.

pulumi-azure-native 3.0 renamed and disambiguated some modules (Pulumi, "Upgrade Guide for Azure Native
v2 to v3", https://www.pulumi.com/registry/packages/azure-native/from-v2-to-v3, observed 2026-11-26:
"some module names have been updated and disambiguated"); a 2.x program run with a 3.x environment fails
on its first import of such a module. The line then says which major version the program was written
for, which one it ran with, and what to do, instead of naming the module alone.
"""

from __future__ import annotations

import importlib.metadata
import re

from ...catalog.arm.registry import MODULES_RENAMED_IN_3

SDK_DISTRIBUTION = "pulumi-azure-native"
SDK_PACKAGE = "pulumi_azure_native"
# 2.x modules that 3.x names otherwise: the upgrade guide above, kept with the type registry
RENAMED_IN_3 = {old: " and ".join(new) for old, new in MODULES_RENAMED_IN_3.items()}
_LACKS = re.compile(rf"module '({SDK_PACKAGE}\.[\w.]+)' has no attribute '(\w+)'")
_API_VERSION_MODULE = re.compile(r"\.v\d{8}(preview)?$")  # pulumi_azure_native.network.v20230201
_MISSING = re.compile(rf"No module named '({SDK_PACKAGE}\.([A-Za-z0-9_]+)[\w.]*)'")
# `from pulumi_azure_native import insights` / `from pulumi_azure_native.network import IpAllocationMethod`
_FROM_IMPORT = re.compile(rf"cannot import name '(\w+)' from '({SDK_PACKAGE}(?:\.[\w.]+)?)'")


def _as_import_of_module(message: str) -> str:
    """A `from ... import` failure said as the import or attribute failure the same name gives."""
    found = _FROM_IMPORT.search(message)
    if found is None:
        return message
    name, package = found.groups()
    if package == SDK_PACKAGE:  # a module of the SDK's top level
        return f"No module named '{SDK_PACKAGE}.{name}'"
    return f"module '{package}' has no attribute '{name}'"


def installed_version() -> str | None:
    try:
        return importlib.metadata.version(SDK_DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return None


def other_major_note(message: str) -> str | None:
    """For `No module named 'pulumi_azure_native.<m>'` (or a name a module lacks) under a 3.x SDK: the
    module is from 2.x, and what to do."""
    version = installed_version()
    if version is None or not version.startswith("3."):
        return None
    message = _as_import_of_module(message)
    lacking = _LACKS.search(message)
    if lacking is not None:
        return (
            f"{lacking.group(2)} is not in {lacking.group(1)} of {SDK_DISTRIBUTION} {version}, the environment the "
            "program ran with (a program written for 2.x? 3.x renamed some names: "
            "https://www.pulumi.com/registry/packages/azure-native/from-v2-to-v3): run it in the environment its "
            "requirements make (--create-venv), or port it to 3.x"
        )
    found = _MISSING.search(message)
    if found is None:
        return None
    module = found.group(2)
    renamed = RENAMED_IN_3.get(module)
    if renamed:
        said = f"{found.group(1)} is a module of pulumi-azure-native 2.x (3.x calls it {renamed})"
    elif _API_VERSION_MODULE.search(found.group(1)):
        # the guide: "explicit API versions are no longer included in the SDK"
        said = f"{found.group(1)} is an explicit API version module of pulumi-azure-native 2.x (3.x has none)"
    else:
        said = f"{found.group(1)} is not a module of pulumi-azure-native 3.x (a program written for 2.x?)"
    return (
        f"{said}, and the environment the program ran with has {SDK_DISTRIBUTION} {version} "
        "(https://www.pulumi.com/registry/packages/azure-native/from-v2-to-v3): run it in the environment its "
        "requirements make (--create-venv), or port it to 3.x"
    )
