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
import math
from collections.abc import Callable, Iterable
from typing import Any

import pulumi
from azure_gpu_stacks.engine.errors import InputError
from azure_gpu_stacks.engine.run.runtime import SECRET_SHOWN_AS, RunResult
from azure_gpu_stacks.inputs.files import MAX_DEPTH
from azure_gpu_stacks.sdk.internals import is_output_unknown, is_secret, stack_outputs, unwrap_secret

EXPORTABLE = "strings, numbers, booleans, None, lists, dicts with string keys, resources, assets and Outputs of them"
MIN_SECRET_LENGTH = 4  # shorter strings would mask ordinary words


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


def secret_strings(result: RunResult, config_secrets: Iterable[str] = ()) -> frozenset[str]:
    """Every secret string the run knows of: the secret config values, and each string that was
    itself made secret (an input or an output). Pulumi also marks a whole structure secret when
    one value inside it is; the ordinary words around that value are not secrets and stay."""
    found: set[str] = set(config_secrets)
    for resource in result.resources:
        found |= resource.secret_values
        _collect(resource.inputs, found)
    for key in result.secret_outputs:
        if isinstance(result.outputs.get(key), str):
            found.add(result.outputs[key])
    return frozenset(s for s in found if len(s) >= MIN_SECRET_LENGTH)


def _collect(value: Any, found: set[str]) -> None:
    if is_secret(value):
        inner = unwrap_secret(value)
        if isinstance(inner, str):
            found.add(inner)
        else:
            _collect(inner, found)
    elif isinstance(value, dict):
        for v in value.values():
            _collect(v, found)
    elif isinstance(value, list):
        for v in value:
            _collect(v, found)


def masked_values(value: Any, secrets: frozenset[str]) -> Any:
    """`value` with every string holding a secret masked (a secret read with `config.get` and exported)."""
    if isinstance(value, str):
        return masked(value, secrets)
    if isinstance(value, dict):
        return {k: masked_values(v, secrets) for k, v in value.items()}
    if isinstance(value, list):
        return [masked_values(v, secrets) for v in value]
    return value


def masked(text: str, secrets: frozenset[str]) -> str:
    """`text` with each secret (longest first, so a secret inside another goes with it) masked."""
    for secret in sorted(secrets, key=len, reverse=True):
        text = text.replace(secret, SECRET_SHOWN_AS)
    return text
