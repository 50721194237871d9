"""Stand-in for pulumi-command 1.x (see ../README.md): the `remote` module, as pulumi/examples'
azure-py-minecraft-server uses it, and the `local` one (pulumi-command 1.2.1's `sdk/python/pulumi_command/remote`,
observed 2026-11-27)."""

from . import local, remote

__all__ = ["local", "remote"]
