"""pulumi-command's remote resources: `command:remote:Command` and `command:remote:CopyToRemote`, their inputs
and outputs by wire name (pulumi-command 1.2.1, `remote/command.py`, `remote/copy_to_remote.py`,
`remote/_inputs.py`; observed 2026-11-27). Nothing connects anywhere: the engine echoes the inputs."""

from typing import Any

from provider_stand_in import resource_class

Command = resource_class(
    "command:remote:Command",
    {
        "add_previous_output_in_env": "addPreviousOutputInEnv",
        "connection": "connection",
        "create": "create",
        "delete": "delete",
        "environment": "environment",
        "logging": "logging",
        "stdin": "stdin",
        "triggers": "triggers",
        "update": "update",
    },
    {"stdout": "stdout", "stderr": "stderr"},
)

CopyToRemote = resource_class(
    "command:remote:CopyToRemote",
    {"connection": "connection", "remote_path": "remotePath", "source": "source", "triggers": "triggers"},
    {},
)

_CONNECTION = {
    "host": "host",
    "agent_socket_path": "agentSocketPath",
    "dial_error_limit": "dialErrorLimit",
    "host_key": "hostKey",
    "password": "password",
    "per_dial_timeout": "perDialTimeout",
    "port": "port",
    "private_key": "privateKey",
    "private_key_password": "privateKeyPassword",
    "proxy": "proxy",
    "user": "user",
}


def ConnectionArgs(**kwargs: Any) -> dict[str, Any]:  # noqa: N802 - the SDK's class name
    unknown = set(kwargs) - set(_CONNECTION)
    if unknown:
        raise TypeError(f"ConnectionArgs: unexpected arguments {sorted(unknown)}")
    return {_CONNECTION[k]: v for k, v in kwargs.items()}
