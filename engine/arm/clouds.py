"""The Azure clouds `preflight --cloud` names, as `az cloud list` names them.

Each name is tied to the azure-core `AzureClouds` member whose Resource Manager endpoint and credential
scope azure-mgmt-core's `get_arm_endpoints` gives, and to the Microsoft Entra authority host of
azure-identity's `AzureAuthorityHosts`: the SDKs' own tables, read when the client is made, so nothing
here repeats an endpoint. Sources: azure-core `AzureClouds`, azure-mgmt-core `tools.get_arm_endpoints`,
azure-identity `AzureAuthorityHosts` (learn.microsoft.com/python/api/azure-identity/azure.identity.azureauthorityhosts),
and `az cloud list` names (learn.microsoft.com/cli/azure/manage-clouds-azure-cli), all observed 2026-11-25.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A subscription id is a GUID, as `az account show --query id` prints it; what goes into a request's path.
SUBSCRIPTION_ID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
# A region (`location`) in a Compute request's path: the REST spec's pattern for Usage - List's `location`
# (learn.microsoft.com/rest/api/compute/usage/list, api-version 2024-07-01, observed 2026-11-27).
REGION = re.compile(r"^[-\w._]+$", re.ASCII)

# az cloud name -> (azure.core.AzureClouds member, azure.identity.AzureAuthorityHosts attribute)
CLOUDS: dict[str, tuple[str, str]] = {
    "AzureCloud": ("AZURE_PUBLIC_CLOUD", "AZURE_PUBLIC_CLOUD"),
    "AzureChinaCloud": ("AZURE_CHINA_CLOUD", "AZURE_CHINA"),
    "AzureUSGovernment": ("AZURE_US_GOVERNMENT", "AZURE_GOVERNMENT"),
}
DEFAULT_CLOUD = "AzureCloud"


@dataclass(frozen=True)
class Cloud:
    name: str
    authority: str  # the Entra host azure-identity signs in at
    resource_manager: str  # the ARM endpoint requests go to
    credential_scopes: tuple[str, ...]  # what the token is asked for


def cloud(name: str) -> Cloud:
    """The endpoints of `name` (one of CLOUDS), from the installed SDKs (the `azure` extra)."""
    from azure.core import AzureClouds
    from azure.identity import AzureAuthorityHosts
    from azure.mgmt.core.tools import get_arm_endpoints

    core_member, authority_attribute = CLOUDS[name]
    endpoints = get_arm_endpoints(AzureClouds[core_member])
    return Cloud(
        name=name,
        authority=getattr(AzureAuthorityHosts, authority_attribute),
        resource_manager=endpoints["resource_manager"],
        credential_scopes=tuple(endpoints["credential_scopes"]),
    )
