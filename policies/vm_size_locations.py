"""The VM sizes a resource asks for, as the policies read them: the shape table's size paths, walked
with the policies' proxy-safe reader.

Where each type keeps its sizes is `azure_gpu_stacks.catalog.shapes.SHAPES`, the one
table every layer reads; this module only walks it over what a policy receives (read-only proxies,
secret envelopes, preview unknowns; see `values`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..catalog.shapes import shapes
from .values import UNKNOWN, same, text, walk


@dataclass(frozen=True)
class FoundSize:
    """A VM size found in a resource's properties."""

    path: str  # e.g. agentPoolProfiles[1].vmSize
    size: str | None  # None when the value is unknown during preview
    billed: bool


def vm_sizes(resource_type: str, props: Any) -> list[FoundSize]:
    """Every VM size `props` asks for, once per path (a Batch pool's dedicated and Spot pools share one `vmSize`);
    unknown values come back with `size=None`."""
    found: list[FoundSize] = []
    for pool in shapes(resource_type):
        if pool.when is not None:
            condition_path, expected = pool.when
            if not same(_first(walk(props, condition_path)), expected):
                continue
        for path, value in walk(props, pool.size_path):
            if value is UNKNOWN:
                found.append(FoundSize(path, None, pool.billed))
            elif (size := text(value)) is not None:
                found.append(FoundSize(path, size, pool.billed))
    unique: dict[str, FoundSize] = {}
    for each in found:
        unique.setdefault(each.path, each)
    return list(unique.values())


def _first(pairs: Any) -> Any:
    for _, value in pairs:
        return value
    return None
