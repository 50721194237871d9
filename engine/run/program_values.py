"""What a program hands back that the report shows: its stack outputs and what it printed.

- Exports: the Pulumi engine receives stack outputs serialised as property values; the Python SDK
  refuses any other type ("unexpected input of type ...", pulumi/sdk/python/lib/pulumi/runtime/rpc.py
  `serialize_property`, read 2026-11-22). Offline, such an export is refused the same way, by key,
  instead of crashing the JSON formats later; so are non-finite numbers and nesting past 64 levels.
- Output: what the program printed is shown as its output, with every secret the run knows of (secret
  config values, values inside secret inputs, secret outputs) masked.
"""

from __future__ import annotations

import enum
import functools
import math
from collections.abc import Callable, Iterable
from typing import Any

import pulumi

from ...inputs.files import MAX_DEPTH
from ...sdk.internals import is_output_unknown, stack_outputs
from ..errors import InputError
from ..secrets import (
    Mask,
    leaves,
    marked_parts,
    plain_leaves,
    run_secrets,
    structure_secrets,
    worth_masking,
)
from .runtime import RunResult

EXPORTABLE = "strings, numbers, booleans, None, lists, dicts with string keys, resources, assets and Outputs of them"


def exportable(key: str, value: Any, path: str = "", depth: int = 1) -> Any:
    """`value` as the report shows it; InputError naming the export when Pulumi could not send it."""
    where = f"the program exported '{key}'{path}"
    if depth > MAX_DEPTH:
        raise InputError(f"{where}: nested deeper than {MAX_DEPTH} levels; allowed: at most {MAX_DEPTH}")
    if value is None or isinstance(value, (bool, str, int)) or is_output_unknown(value):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InputError(f"{where}: {value}; allowed: finite numbers")
        return value
    if isinstance(value, enum.Enum):
        return exportable(key, value.value, path, depth)
    if isinstance(value, (list, tuple)):
        return [exportable(key, v, f"{path}[{i}]", depth + 1) for i, v in enumerate(value)]
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise InputError(f"{where}: a dict with keys that are not strings; allowed: {EXPORTABLE}")
        return {k: exportable(key, v, f"{path}.{k}", depth + 1) for k, v in value.items()}
    if isinstance(value, pulumi.Resource):
        return f"[resource {type(value).__name__}]"
    if isinstance(value, (pulumi.Asset, pulumi.Archive)):
        return f"[{type(value).__name__}]"
    raise InputError(
        f"{where}: a {type(value).__name__}, which Pulumi cannot send to the engine; allowed: {EXPORTABLE}"
    )


def exports_checked(program: Callable[[], Any]) -> Callable[[], Any]:
    """`program`, then each of its exports resolved and checked by `exportable`, in the program's own
    process (where the values are): one Pulumi could not send to the engine is named by its key, before
    the SDK fails to send it with a message that names neither key nor program."""

    def run() -> Any:
        program()
        exported = stack_outputs()

        # Each export as an Output, exported again, so that the SDK sends what is checked here (an
        # exported coroutine, which the SDK accepts, can be awaited only once).
        outputs = {key: pulumi.Output.from_input(value) for key, value in exported.items()}
        for key, output in outputs.items():
            pulumi.export(key, output)

        async def check() -> None:
            for key, output in outputs.items():
                exportable(key, await output.future(with_unknowns=True))

        return check()

    return run


def secret_strings(
    result: RunResult, config_secrets: Iterable[str] = (), known: Iterable[str] = (), referenced: Iterable[str] = ()
) -> frozenset[str]:
    """Every secret the run knows of (`azure_gpu_stacks.engine.secrets.run_secrets`): the secret config
    values (however the program read them), what the run was told is secret (`known`: existing resources'
    credentials), every value made secret (an input or an output of any type) and what is inside it, and
    the values beside a "[secret]" in another stack's outputs (`referenced`)."""
    direct: set[str] = {*config_secrets, *known}
    inside: set[str] = set(referenced)
    plain: set[str] = set()
    structures: list[Any] = []
    for resource in result.resources:
        direct |= resource.secret_values
        scalars, marked = marked_parts(resource.inputs)
        direct |= scalars
        structures += marked
        plain |= plain_leaves(resource.inputs)
    for key, value in result.outputs.items():
        if key not in result.secret_outputs:
            plain |= plain_leaves(value)
        elif isinstance(value, (dict, list)):
            structures.append(value)
        else:
            direct |= leaves(value)
    known_now = worth_masking(direct)
    for structure in structures:
        inside |= structure_secrets(structure, known_now)
    return run_secrets(direct, inside, plain)


def masked_values(value: Any, secrets: frozenset[str]) -> Any:
    """`value` with every string holding a secret masked (a secret read with `config.get` and exported)."""
    return _mask(secrets).values(value)


def masked(text: str, secrets: frozenset[str]) -> str:
    """`text` with each secret masked."""
    return _mask(secrets)(text)


@functools.lru_cache(maxsize=4)
def _mask(secrets: frozenset[str]) -> Mask:
    """One compiled mask per run's secrets, not one per message."""
    return Mask(secrets)
