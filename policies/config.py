"""A policy's configuration: its JSON schema (advertised to the CLI) and its values with defaults.

The CLI validates `--policy-pack-config` against the schema before it sends it, but a policy must not
trust that (direct callers, older CLIs): a missing or ill-typed value falls back to the default, so a
policy never crashes on its config. Defaults live once, in the schema.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pulumi_policy import PolicyConfigSchema

_PYTHON_TYPES: dict[str, tuple[type, ...]] = {
    "integer": (int, float),
    "number": (int, float),
    "boolean": (bool,),
    "string": (str,),
    "array": (list, tuple),
}


def schema(properties: Mapping[str, dict[str, Any]]) -> PolicyConfigSchema:
    """A config schema; every property must carry a `default` and a `description`."""
    for name, spec in properties.items():
        if "default" not in spec or "description" not in spec:
            raise ValueError(f"policy config property {name!r} needs a default and a description")
    return PolicyConfigSchema(properties={k: dict(v) for k, v in properties.items()})


def values(args: Any, config_schema: PolicyConfigSchema) -> dict[str, Any]:
    """The policy's config: what was configured where it has the right type, else the default."""
    given = args.get_config() or {}
    result: dict[str, Any] = {}
    for name, spec in config_schema.properties.items():
        value = given.get(name) if isinstance(given, Mapping) else None
        result[name] = value if _fits(value, spec) else spec["default"]
    return result


def _fits(value: Any, spec: Mapping[str, Any]) -> bool:
    kinds = _PYTHON_TYPES.get(str(spec.get("type")), (object,))
    if value is None or (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
        return False
    if spec.get("type") == "integer" and isinstance(value, float) and not value.is_integer():
        return False
    if "minimum" in spec and isinstance(value, (int, float)) and value < spec["minimum"]:
        return False
    if "pattern" in spec and isinstance(value, str) and not re.search(spec["pattern"], value):
        return False
    if spec.get("type") == "array" and isinstance(value, (list, tuple)):
        items = spec.get("items")  # each item as JSON Schema's `items` says: 2.5 is no integer, `true` no number
        return not items or all(_fits(item, items) for item in value)
    return True
