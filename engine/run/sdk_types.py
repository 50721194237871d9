"""The SDK's reading of the classes a plan used, done in the process each program's child is forked from.

The first time a process serialises an input of an Args class or deserialises an output of a resource or
Response class, Pulumi's SDK reads the class's property annotations (`typing.get_type_hints` on every
property) and keeps the result for the life of the process (`sdk.internals.property_types`). Each program
runs in a child forked for it and thrown away, so every child read the same classes again: about 30 ms of a
shipped stack's 200 ms program (issue 41, bench/README.md). After each plan, the process that forks the next
program's child (the check itself, running no threads) reads the classes the plan's resources used, found
from what the engine recorded: each resource's class, its Args class and the nested input and output classes
its inputs filled. A later child inherits the reading as it inherits the imports (`parallel.preload`), so a
fleet's second stack of a kind reads nothing. Only speed depends on this: a class missed here is read by the
child that needs it, as before, and nothing here runs a program's code or imports a module that is not
already loaded (a plan only names classes of the SDKs the check itself loaded).
"""

from __future__ import annotations

import sys
import typing
from collections.abc import Iterable
from typing import Any

from ...sdk.internals import property_types, unwrap_secret
from .runtime import STACK_TYPE, RecordedResource

# How a resource type token's package names the Python package that holds its class.
PACKAGES = {"azure-native": "pulumi_azure_native", "kubernetes": "pulumi_kubernetes"}
_MAX_DEPTH = 32  # nested inputs deeper than any SDK type: a value the walk stops at, not a class


def sdk_class(token: str) -> type | None:
    """The loaded class of a resource type token (`azure-native:compute:VirtualMachine`,
    `kubernetes:helm.sh/v3:Release`, `pulumi:providers:kubernetes`, `pulumi:pulumi:Stack`, a component's), or
    None: another package, or a module this process has not loaded."""
    package, _, rest = token.partition(":")
    module_path, _, name = rest.partition(":")
    if package == "pulumi":  # the root Stack and the providers
        module_name = "pulumi.runtime.stack" if module_path == "pulumi" else PACKAGES.get(name)
        name = "Stack" if module_path == "pulumi" else "Provider"
    elif package in PACKAGES:
        group, _, version = module_path.partition("/")
        parts = [group.split(".")[0], *([version] if version else [])]  # helm.sh/v3 -> helm.v3, core/v1 -> core.v1
        module_name = ".".join([PACKAGES[package], *parts])
    else:
        module_name = _components().get(token)
    module = sys.modules.get(module_name or "")
    found = getattr(module, name, None) if module is not None else None
    return found if isinstance(found, type) else None


def _components() -> dict[str, str]:
    """The type token of each loaded component, to its module."""
    from ...components.registry import REGISTRY

    loaded = (sys.modules.get(module) for _, module in REGISTRY)
    return {
        m.TYPE_TOKEN: m.__name__ for m in loaded if m is not None and isinstance(getattr(m, "TYPE_TOKEN", None), str)
    }


def read_classes_of(resources: Iterable[RecordedResource]) -> None:
    """Have the SDK read (and keep) the property types of every class these resources' registrations used."""
    read_classes((r.type, r.plain_inputs()) for r in resources)


def read_classes_of_json(resources: Any) -> None:
    """The same for resources as a plan's JSON shows them (a fleet record's `json.resources`: secrets masked)."""
    if isinstance(resources, list):
        read_classes((r.get("type", ""), r.get("inputs")) for r in resources if isinstance(r, dict))


def read_classes(registrations: Iterable[tuple[str, Any]]) -> None:
    """For (type token, inputs) of each registration, and for the root Stack every program registers (a plan
    does not list it): the resource's class, its Args class and the nested classes the inputs fill."""
    for token, inputs in [(STACK_TYPE, {}), *registrations]:
        try:
            _read_resource(token, inputs)
        except Exception:  # noqa: BLE001, S112 - only speed depends on this; the child reads what is left
            continue


def _read_resource(token: str, inputs: Any) -> None:
    cls = sdk_class(token)
    if cls is None:
        return
    module = sys.modules.get(cls.__module__)
    args = [getattr(module, f"{cls.__name__}{suffix}", None) for suffix in ("Args", "InitArgs")]
    for owner in (cls, *(a for a in args if isinstance(a, type))):
        _read(owner, inputs, 0)


def _read(cls: type, value: Any, depth: int) -> None:
    types = property_types(cls)
    if not isinstance(value, dict) or depth > _MAX_DEPTH:
        return
    for key, item in value.items():
        hint = types.get(key)
        if hint is not None:
            _read_hint(hint, unwrap_secret(item), depth + 1)


def _read_hint(hint: Any, value: Any, depth: int) -> None:
    if isinstance(value, list):
        for item in value:
            _read_hint(hint, unwrap_secret(item), depth + 1)
    elif isinstance(value, dict):
        for cls in _classes_in(hint):
            _read(cls, value, depth)


def _classes_in(hint: Any) -> list[type]:
    """The SDK's input and output classes a type names (`Sequence[X]`, `Mapping[str, X]`, `Union[...]`, `X`)."""
    if isinstance(hint, type):
        return [hint] if hint.__module__.startswith(tuple(PACKAGES.values())) else []
    return [cls for arg in typing.get_args(hint) for cls in _classes_in(arg)]
