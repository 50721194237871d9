"""pulumi-command's local resource: `command:local:Command`, its inputs and outputs by wire name (pulumi-command
1.2.1, `local/command.py`; observed 2026-11-27). Nothing runs: the engine echoes the inputs."""

from provider_stand_in import resource_class

Command = resource_class(
    "command:local:Command",
    {
        "add_previous_output_in_env": "addPreviousOutputInEnv",
        "archive_paths": "archivePaths",
        "asset_paths": "assetPaths",
        "create": "create",
        "delete": "delete",
        "dir": "dir",
        "environment": "environment",
        "interpreter": "interpreter",
        "logging": "logging",
        "stdin": "stdin",
        "triggers": "triggers",
        "update": "update",
    },
    {"stdout": "stdout", "stderr": "stderr"},
)
