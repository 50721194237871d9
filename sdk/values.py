"""Helpers every layer of the fake ARM (and preflight) shares: reading property trees, stable ids, secrets.

One home each: `dig` reads a nested property, `stable_uuid` derives the ids ARM would generate so
that repeated offline runs print the same ones, `unwrap_secrets` gives inputs as ARM receives them.
"""

from __future__ import annotations

import hashlib
import uuid
from typing import Any

from .internals import is_secret, unwrap_secret


def dig(props: Any, *path: str | int) -> Any:
    """props[path[0]][path[1]]..., or None where the path breaks."""
    for key in path:
        if isinstance(key, int):
            props = props[key] if isinstance(props, list) and -len(props) <= key < len(props) else None
        else:
            props = props.get(key) if isinstance(props, dict) else None
        if props is None:
            return None
    return props


def stable_uuid(*parts: str) -> str:
    """A UUID derived from `parts`, so repeated runs give the same ids."""
    return str(uuid.UUID(hashlib.sha256("/".join(parts).encode()).hexdigest()[:32]))


def unwrap_secrets(value: Any) -> Any:
    """Inputs as ARM (or a policy) receives them: Pulumi's secret markers removed, the values kept."""
    if is_secret(value):
        return unwrap_secrets(unwrap_secret(value))
    if isinstance(value, dict):
        return {k: unwrap_secrets(v) for k, v in value.items()}
    if isinstance(value, list):
        return [unwrap_secrets(v) for v in value]
    return value
