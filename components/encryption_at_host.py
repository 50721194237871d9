"""Encryption at host: the one option GpuVm, TrainingCluster and AksGpuPool share, and its one check.

With it, the host a VM runs on encrypts the VM's temporary disk and its OS and data disk caches before they reach
Azure Storage (https://learn.microsoft.com/azure/virtual-machines/disk-encryption, "Encryption at host", observed
2026-11-27). It is off unless asked for: ARM takes it only in a subscription that registered the feature
`Microsoft.Compute/EncryptionAtHost` (https://learn.microsoft.com/azure/virtual-machines/linux/disks-enable-host-based-encryption-cli,
observed 2026-11-27), so turning it on by default would fail `pulumi up` in every subscription without it. A size the
catalog records as not supporting it (the Resource SKUs API's `EncryptionAtHostSupported` False) is never asked for it;
a size the catalog records nothing about is left to Azure.
"""

from __future__ import annotations

from ..catalog import catalog
from .checks import Problems

OPTION = "encryption_at_host"


def check(problems: Problems, wanted: bool, size_name: str | None) -> None:
    """Adds a problem when encryption at host is asked of a size the catalog records as not supporting it."""
    size = catalog().find(size_name) if wanted and size_name else None
    if size is None or size.encryption_at_host is None or size.encryption_at_host.supported:
        return
    problems.add(
        OPTION,
        f"true, but {size.name} does not support encryption at host (the Resource SKUs API's "
        f"EncryptionAtHostSupported is False: {size.encryption_at_host.source}, observed "
        f"{size.encryption_at_host.observed}); allowed: false, or a size that supports it",
    )
