"""The `gpu-stacks` commands: one module each, and the table the CLI is built from.

Each module has `NAME`, `HELP`, `add_arguments(parser)` and `run(args) -> exit code`; `TABLE` lists
them in the order `gpu-stacks --help` shows. A new command is a new module and one row here.
"""

from __future__ import annotations

from types import ModuleType

from . import (
    check,
    completion,
    cost,
    diff,
    export_arm,
    merge,
    plan,
    policy_pack,
    preflight,
    quota,
    stacks,
)

TABLE: tuple[ModuleType, ...] = (
    plan,
    check,
    merge,
    cost,
    quota,
    diff,
    export_arm,
    preflight,
    stacks,
    policy_pack,
    completion,
)
