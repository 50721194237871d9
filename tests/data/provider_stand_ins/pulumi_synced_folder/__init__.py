"""Stand-in for pulumi-synced-folder (see ../README.md): the AzureBlobFolder component, as pulumi/templates'
static-website-azure-python and serverless-azure-python use it (`synced-folder:index:AzureBlobFolder`, a
component; inputs path, resourceGroupName, storageAccountName, containerName, managedObjects: pulumi-synced-folder's
`schema.yaml`, observed 2026-11-27). Offline it uploads nothing: the blobs it would write are data-plane
writes through the storage account's endpoint, which Azure Resource Manager never sees."""

from __future__ import annotations

from typing import Any

import pulumi

INPUTS = {
    "path": "path",
    "resource_group_name": "resourceGroupName",
    "storage_account_name": "storageAccountName",
    "container_name": "containerName",
    "managed_objects": "managedObjects",
}


class AzureBlobFolder(pulumi.ComponentResource):
    def __init__(self, resource_name: str, opts: pulumi.ResourceOptions | None = None, **kwargs: Any) -> None:
        unknown = set(kwargs) - set(INPUTS)
        if unknown:
            raise TypeError(f"synced-folder:index:AzureBlobFolder: unexpected arguments {sorted(unknown)}")
        super().__init__(
            "synced-folder:index:AzureBlobFolder", resource_name, {INPUTS[k]: v for k, v in kwargs.items()}, opts
        )
        self.register_outputs({})
