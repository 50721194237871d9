"""A component's inputs checked against its own Args TypedDict: known keys, value types, nested args.

Every component's `check_inputs(args)` starts here, so the keys and types a stack file may give a
section are exactly the component's: the stack-config schema (`stack/config.py`) holds no copy,
it maps the camelCase keys users write to these snake_case names and back. Problems come back in
the one message style, `<the value>[ what is wrong with it]; allowed: <what is allowed>`, each with
its arg path.

Types follow what a stack file can hold: a string input also takes a number (YAML reads `1.35` as
one; it becomes the text "1.35"); a number input takes any finite number, and where a whole number
is wanted the component's own range check refuses a fraction, naming the unit and the bounds; a
bool input takes only true or false. Closed choices (`Literal`) are left to the component's own
check, which lists them.
"""

from __future__ import annotations

import difflib
import functools
import math
import re
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import (
    Any,
    Literal,
    NotRequired,
    Protocol,
    Required,
    Union,
    get_args,
    get_origin,
    is_typeddict,
)

from pydantic.alias_generators import to_camel

from ..sdk.internals import type_hints

# The one message style: what is wrong with the value, then what is allowed.
_KINDS = {str: "a string", int: "a whole number", float: "a number", bool: "true or false"}
_SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


class _Recorder(Protocol):
    def add(self, path: str, message: str) -> None: ...


@dataclass(frozen=True)
class Checked:
    """What a component's `check_inputs` returns: the inputs with defaults filled, and every problem."""

    inputs: dict[str, Any]
    problems: tuple[tuple[str, str], ...] = ()  # (snake_case arg path, message)

    @property
    def ok(self) -> bool:
        return not self.problems


def shown(value: Any) -> str:
    """A value as messages show it: strings quoted, numbers as written."""
    return repr(value)


@functools.cache
def keys_of(args_type: Any) -> Mapping[str, Any]:
    """A TypedDict's keys and their types (NotRequired and Required unwrapped), read once per type and process:
    `typing.get_type_hints` evaluates every annotation again at each call (0.1 ms a type), and each component
    checks its args, its nested sections' too, every time one is made. Read-only, as it is shared."""
    hints = type_hints(args_type)
    return types.MappingProxyType({key: _unwrap(hint) for key, hint in hints.items()})


def _unwrap(hint: Any) -> Any:
    while get_origin(hint) in (NotRequired, Required):
        hint = get_args(hint)[0]
    return hint


def check_shape(args_type: Any, args: Mapping[str, Any], problems: _Recorder, prefix: str = "") -> dict[str, Any]:
    """The args whose keys the TypedDict knows and whose values have its types (numbers made
    strings where a string is wanted); a problem for every other key. None values count as unset."""
    known = keys_of(args_type)
    kept: dict[str, Any] = {}
    for key, value in args.items():
        path = f"{prefix}{key}"
        if key not in known:
            problems.add(path, unknown_key_message(str(key), known))
            continue
        if value is None:
            continue
        ok, converted, wanted = _typed(known[key], value, problems, path)
        if ok:
            kept[key] = converted
        elif wanted is not None:
            problems.add(path, f"{shown(value)}; allowed: {wanted}")
    return kept


def unknown_key_message(key: str, known: Mapping[str, Any], spell: typing.Callable[[str], str] = str) -> str:
    allowed = sorted(spell(k) for k in known)
    close = difflib.get_close_matches(spell(key), allowed, n=1, cutoff=0.6)
    hint = f"did you mean '{close[0]}'? " if close else ""
    return f"unknown key; {hint}allowed keys: {', '.join(allowed)}"


def _typed(hint: Any, value: Any, problems: _Recorder, path: str) -> tuple[bool, Any, str | None]:
    """(ok, the value as the type wants it, what was wanted when not ok; None when already reported)."""
    origin = get_origin(hint)
    if hint is Any:
        return True, value, None
    if is_typeddict(hint):
        if not isinstance(value, Mapping):
            return False, value, "a map of keys"
        return True, check_shape(hint, value, problems, f"{path}."), None
    if origin is Literal:
        # Closed choices: a scalar goes to the component's own check, which names the choices too.
        if isinstance(value, (str, int, float, bool)):
            return True, value, None
        return False, value, ", ".join(str(c) for c in get_args(hint))
    if origin in (Union, types.UnionType):
        # pulumi.Input[str] is str | Awaitable[str] | Output[str]: plain values are checked as str,
        # anything else (an Output from another resource) is taken as it is.
        plain = [a for a in get_args(hint) if a in _KINDS or get_origin(a) in (Literal, Sequence, Mapping, list, dict)]
        if len(plain) == 1 and (isinstance(value, (str, int, float, bool, list, dict)) or value is None):
            return _typed(plain[0], value, problems, path)
        return True, value, None
    if origin in (Sequence, list) or hint in (Sequence, list):
        if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
            return False, value, "a list"
        (item,) = get_args(hint) or (Any,)
        items, bad = [], False
        for i, element in enumerate(value):
            ok, converted, wanted = _typed(item, element, problems, f"{path}[{i}]")
            if not ok and wanted is not None:
                problems.add(f"{path}[{i}]", f"{shown(element)}; allowed: {wanted}")
            bad = bad or not ok
            items.append(converted)
        return (False, value, None) if bad else (True, items, None)
    if origin in (Mapping, dict) or hint in (Mapping, dict):
        if not isinstance(value, Mapping):
            return False, value, "a map"
        _, item = get_args(hint) or (Any, Any)
        out, bad = {}, False
        for k, element in value.items():
            ok, converted, wanted = _typed(item, element, problems, f"{path}.{k}")
            if not ok and wanted is not None:
                problems.add(f"{path}.{k}", f"{shown(element)}; allowed: {wanted}")
            bad = bad or not ok
            out[str(k)] = converted
        return (False, value, None) if bad else (True, out, None)
    return _scalar(hint, value)


def _scalar(hint: Any, value: Any) -> tuple[bool, Any, str | None]:
    wanted = _KINDS.get(hint)
    if wanted is None:
        return True, value, None  # a type this checker does not know: the component's own checks decide
    if hint is bool:
        return isinstance(value, bool), value, wanted
    if isinstance(value, bool):
        return False, value, wanted
    if isinstance(value, float) and not math.isfinite(value):
        return False, value, "a finite number" if hint is not str else wanted
    if hint is str:
        if isinstance(value, (int, float)):
            return True, str(value), None
        return isinstance(value, str), value, wanted
    if hint is float:
        return isinstance(value, (int, float)), value, wanted
    # int: any number passes, so the component's own range check names the unit and the bounds
    # (and refuses a fraction); anything else is not a number at all.
    return isinstance(value, (int, float)), value, wanted


def camel_path(path: str) -> str:
    """`existing_cluster.resource_group_name` -> `existingCluster.resourceGroupName`."""
    return _SNAKE.sub(lambda m: to_camel(m[0]), path)


def camel_message(message: str, names: typing.Iterable[str]) -> str:
    """A message with every arg name it mentions in camelCase, as users write them in a stack file."""
    known = set(names)
    return _SNAKE.sub(lambda m: to_camel(m[0]) if m[0] in known else m[0], message)
