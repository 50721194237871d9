"""What Azure's REST spec says of each property of a PUT body, checked: constraints.json, compiled.

For a type token and its ARM body (`bodies.to_arm_body`), `violations` lists every value the spec
does not allow: a `pattern` it does not match, a string or array outside `minLength`/`maxLength` or
`minItems`/`maxItems`, a number outside `minimum`/`maximum`, a required property missing inside an
object that is there, and a value of the wrong JSON type (`disablePasswordAuthentication: "yes"`).
Only the paths the body has are visited, so a check costs what the body holds, not what the spec
lists. Read-only properties are not checked (azure-native sends what it is given; ARM ignores them).
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

CONSTRAINTS_FILE = "constraints.json"
_STEP = re.compile(r"\.?([^.\[{<]+)|(\[\*\])|(\{\*\})|<([^=>]+)=([^>]*)>")


@dataclass(frozen=True)
class Violation:
    """One value the spec does not allow: where (ARM body path), why, and the spec data it rests on."""

    path: str
    reason: str
    source: str


@dataclass
class _Node:
    rule: dict[str, Any] = field(default_factory=dict)
    keys: dict[str, _Node] = field(default_factory=dict)
    items: _Node | None = None
    values: _Node | None = None
    variants: list[tuple[str, str, _Node]] = field(default_factory=list)  # (discriminator, value, node)
    pattern: re.Pattern[str] | None = None


@dataclass(frozen=True)
class _Compiled:
    root: _Node
    source: str


@functools.cache
def _data() -> dict[str, Any]:
    text = resources.files(__package__).joinpath(CONSTRAINTS_FILE).read_text(encoding="utf-8")
    types: dict[str, Any] = json.loads(text)["types"]
    return types


@functools.cache
def _compiled(token: str) -> _Compiled | None:
    entry = _data().get(token)
    if entry is None:
        return None
    root = _Node()
    for path, rule in entry["paths"].items():
        if rule.get("readOnly"):
            continue
        node = root
        for key, items, values, disc, value in _STEP.findall(path):
            if key:
                node = node.keys.setdefault(key, _Node())
            elif items:
                node.items = node.items or _Node()
                node = node.items
            elif values:
                node.values = node.values or _Node()
                node = node.values
            else:
                found = next((n for d, v, n in node.variants if (d, v) == (disc, value)), None)
                if found is None:
                    found = _Node()
                    node.variants.append((disc, value, found))
                node = found
        node.rule = rule
        if "pattern" in rule:
            try:
                node.pattern = re.compile(rule["pattern"])
            except re.error:  # a .NET construct Python lacks: the pattern is not checked here
                node.pattern = None
    return _Compiled(root, entry["source"])


def violations(token: str, body: dict[str, Any]) -> list[Violation]:
    """Every value of `body` (an ARM body of `token`) the spec's constraints do not allow."""
    compiled = _compiled(token)
    if compiled is None:
        return []
    found: list[tuple[str, str]] = []
    _object(compiled.root, body, "", found)
    return [Violation(path, reason, compiled.source) for path, reason in found]


def _object(node: _Node, value: dict[str, Any], prefix: str, found: list[tuple[str, str]]) -> None:
    children = dict(node.keys)
    for disc, tag, variant in node.variants:
        if str(value.get(disc, "")).lower() == tag.lower():
            children.update(variant.keys)
    # A polymorphic object without its discriminator, which every variant requires, is no variant at all.
    for disc in dict.fromkeys(d for d, _, v in node.variants if _required(v, disc)):
        if value.get(disc) is None:
            found.append((f"{prefix}.{disc}" if prefix else disc, "it is required"))
    for key, child in children.items():
        path = f"{prefix}.{key}" if prefix else key
        item = value.get(key)
        if item is None:
            if child.rule.get("required"):
                found.append((path, "it is required"))
            continue
        _value(child, item, path, found)


def _required(variant: _Node, key: str) -> bool:
    child = variant.keys.get(key)
    return child is not None and bool(child.rule.get("required"))


def _value(node: _Node, item: Any, path: str, found: list[tuple[str, str]]) -> None:
    rule = node.rule
    wrong = _wrong_type(rule.get("type"), item)
    if wrong:
        found.append((path, wrong))
        return
    shown = "" if rule.get("secret") else f" '{item}'"
    if isinstance(item, str):
        if node.pattern is not None and not node.pattern.search(item):
            found.append((path, f"the value{shown} does not match the pattern '{rule['pattern']}'"))
        _bounds(len(item), rule.get("minLength"), rule.get("maxLength"), "characters", path, found)
    elif isinstance(item, (int, float)) and not isinstance(item, bool):
        low, high = rule.get("minimum"), rule.get("maximum")
        if (low is not None and item < low) or (high is not None and item > high):
            found.append((path, f"the value{shown} is outside {_range(low, high)}"))
    elif isinstance(item, list):
        _bounds(len(item), rule.get("minItems"), rule.get("maxItems"), "items", path, found)
        if node.items is not None:
            for i, element in enumerate(item):
                _value(node.items, element, f"{path}[{i}]", found)
    elif isinstance(item, dict):
        if node.values is not None:
            for key, element in item.items():
                _value(node.values, element, f"{path}.{key}", found)
        if node.keys or node.variants:
            _object(node, item, path, found)


def _bounds(size: int, low: int | None, high: int | None, unit: str, path: str, found: list[tuple[str, str]]) -> None:
    if (low is not None and size < low) or (high is not None and size > high):
        found.append((path, f"it has {size} {unit}; allowed: {_range(low, high)}"))


def _range(low: Any, high: Any) -> str:
    if low is not None and high is not None:
        return f"{low} to {high}"
    return f"at least {low}" if low is not None else f"at most {high}"


# JSON types and what a value of another kind may still be read as (ARM's JSON reader turns the
# strings "true"/"false" into booleans and numeric strings into numbers; nothing turns "yes" into one).
def _wrong_type(expected: str | None, item: Any) -> str:
    if expected == "boolean" and not isinstance(item, bool):
        if not (isinstance(item, str) and item.lower() in ("true", "false")):
            return f"a boolean is expected, not {_kind(item)}"
    elif expected == "number" and (isinstance(item, bool) or not isinstance(item, (int, float))):
        if not (isinstance(item, str) and _numeric(item)):
            return f"a number is expected, not {_kind(item)}"
    elif expected == "string" and isinstance(item, (dict, list)):
        return f"a string is expected, not {_kind(item)}"
    elif expected == "array" and not isinstance(item, list):
        return f"an array is expected, not {_kind(item)}"
    elif expected == "object" and not isinstance(item, dict):
        return f"an object is expected, not {_kind(item)}"
    return ""


def _numeric(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _kind(item: Any) -> str:
    if isinstance(item, bool):
        return "a boolean"
    if isinstance(item, (int, float)):
        return "a number"
    if isinstance(item, str):
        return "a string"
    return "an array" if isinstance(item, list) else "an object"
