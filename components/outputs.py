"""Reading fields of nested provider outputs, the same way under `pulumi up` and under mocks.

A real provider hands back typed output objects (attribute access); Pulumi's mock runtime hands
back plain dicts with snake_case keys. Components read nested outputs only through `output_field`.
"""

from __future__ import annotations

from typing import Any


def output_field(value: Any, name: str) -> Any:
    """`value.name` of a typed output, `value[name]` of a mock's plain dict; None when absent."""
    if value is None:
        return None
    if type(value) is dict:
        return value.get(name)
    return getattr(value, name, None)
