"""Reading resource properties the way a policy must: never crashing.

What a policy receives depends on who calls it. Through the gRPC servicer (the Pulumi CLI, and
`preflight`), properties are read-only proxies (`Mapping`/`Sequence`, not dict/list) that raise
`UnknownValueError` when an unknown preview value is read. Called directly, they are plain dicts that
may still hold secret envelopes, unknown sentinels or `pulumi.output.Unknown`. A property can also
be missing, `None`, or of the wrong type. Everything here turns those cases into either a value, None
(absent or unusable) or `UNKNOWN` (known only after deployment), so policies branch on data and
never on exceptions.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final

import pulumi_policy

from ..sdk.internals import (
    SECRET_SIG,
    SECRET_SIG_KEY,
    UnknownValueError,
    is_output_unknown,
    is_unknown_sentinel,
)

Path = tuple[str | int, ...]


class _Unknown:
    """A value only known after deployment (a preview unknown)."""

    _instance: _Unknown | None = None

    def __new__(cls) -> _Unknown:  # noqa: PYI034 - a singleton: always the one instance
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNKNOWN"

    def __bool__(self) -> bool:
        return False


UNKNOWN: Final = _Unknown()


def is_unknown(value: Any) -> bool:
    # A wire sentinel (one per kind: string, number, ...), or the SDK's unknown as a program's
    # recorded inputs hold it.
    return value is UNKNOWN or is_unknown_sentinel(value) or is_output_unknown(value)


def _plain(value: Any) -> Any:
    """The value with secret envelopes opened and unknowns as UNKNOWN."""
    for _ in range(8):  # a secret of a secret is legal; bounded so a cycle cannot hang
        if is_unknown(value):
            return UNKNOWN
        if isinstance(value, Mapping) and _get_key(value, SECRET_SIG_KEY) == SECRET_SIG:
            value = _get_key(value, "value")
            continue
        if isinstance(value, pulumi_policy.Secret):  # in Remediate
            value = value.value
            continue
        return value
    return None


def _get_key(mapping: Mapping[Any, Any], key: str) -> Any:
    try:
        return mapping[key]
    except UnknownValueError:
        return UNKNOWN
    except (KeyError, TypeError):
        return None


def is_mapping(value: Any) -> bool:
    return isinstance(value, Mapping)


def is_sequence(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


def child(value: Any, key: str | int) -> Any:
    """`value[key]`: None when absent or of the wrong type, UNKNOWN when unknown."""
    value = _plain(value)
    if value is UNKNOWN:
        return UNKNOWN
    if isinstance(key, int):
        if not is_sequence(value) or not -len(value) <= key < len(value):
            return None
        try:
            return _plain(value[key])
        except UnknownValueError:
            return UNKNOWN
    if not is_mapping(value):
        return None
    found = _get_key(value, key)
    if found is None:
        # Property names are camelCase as the engine sends them; tolerate other casings of a
        # hand-written dict (a raw ARM template's `VmSize`) without a second table.
        lowered = key.lower()
        for candidate in list(value):
            if isinstance(candidate, str) and candidate.lower() == lowered and candidate != key:
                found = _get_key(value, candidate)
                break
    return _plain(found)


def get(value: Any, *path: str | int) -> Any:
    """value[path[0]][path[1]]...: None where the path breaks, UNKNOWN where a step is unknown."""
    for key in path:
        value = child(value, key)
        if value is None or value is UNKNOWN:
            return value
    return _plain(value)


def elements(value: Any) -> list[Any]:
    """The items of a list property; [] when it is absent, unknown or not a list."""
    value = _plain(value)
    if not is_sequence(value):
        return []
    return [child(value, i) for i in range(len(value))]


def entries(value: Any) -> list[tuple[str, Any]]:
    """(key, value) pairs of a map property; [] when it is absent, unknown or not a map."""
    value = _plain(value)
    if not is_mapping(value):
        return []
    return [(str(k), child(value, k)) for k in list(value) if k != SECRET_SIG_KEY]


def text(value: Any) -> str | None:
    """A known, non-empty string, stripped; None otherwise."""
    value = _plain(value)
    if isinstance(value, str) and not is_unknown(value):
        stripped = value.strip()
        return stripped or None
    return None


def number(value: Any) -> float | None:
    """A known number (the engine sends every number as a float); None otherwise."""
    value = _plain(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def flag(value: Any) -> bool | None:
    """A known boolean; also "true"/"false" strings, which raw templates use; None otherwise."""
    value = _plain(value)
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    return None


def same(value: Any, expected: str) -> bool:
    """Case-insensitive comparison of a known string with `expected`."""
    found = text(value)
    return found is not None and found.lower() == expected.lower()


def walk(value: Any, path: Path) -> Iterator[tuple[str, Any]]:
    """(concrete path, value) for `path`, where "*" stands for every item of a list."""
    yield from _walk(value, path, "")


def _walk(value: Any, path: Path, prefix: str) -> Iterator[tuple[str, Any]]:
    if not path:
        yield prefix, _plain(value)
        return
    head, rest = path[0], path[1:]
    if head == "*":
        container = _plain(value)
        if container is UNKNOWN:
            yield f"{prefix}[*]", UNKNOWN
            return
        for index, item in enumerate(elements(container)):
            yield from _walk(item, rest, f"{prefix}[{index}]")
        return
    step = child(value, head)
    name = f"{prefix}.{head}" if prefix else str(head)
    if step is UNKNOWN:
        yield name + "".join(f".{p}" for p in rest if p != "*"), UNKNOWN
        return
    if step is None:
        return
    yield from _walk(step, rest, name)
