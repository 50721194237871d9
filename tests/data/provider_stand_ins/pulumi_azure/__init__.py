"""Stand-in for pulumi-azure 6.x, the classic provider (see ../README.md): the `core` functions Azure-native programs
call for the deploying identity and its subscription (pulumi-azure 6.40.1 `core/get_client_config.py`,
`core/get_subscription.py`, observed 2026-11-27), and a storage account."""

from . import core, storage

__all__ = ["core", "storage"]
