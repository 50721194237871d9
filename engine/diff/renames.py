"""Which resources of a changed program are old ones renamed: a new URN whose type, parent type and
inputs match one that disappeared. Pulumi replaces such a resource unless the new one carries an
alias to the old name; `azure_gpu_stacks.engine.diff.compare` reports it so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..run.runtime import RecordedResource

SIMILAR_ENOUGH = 0.5  # share of equal input values for a new URN to count as a rename of an old one


def _leaves(value: Any, path: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        return {k2: v2 for k, v in value.items() for k2, v2 in _leaves(v, f"{path}.{k}").items()}
    if isinstance(value, list):
        return {k2: v2 for i, v in enumerate(value) for k2, v2 in _leaves(v, f"{path}[{i}]").items()}
    return {path: repr(value)}


def similarity(a: RecordedResource, b: RecordedResource) -> float:
    """The share of input values two resources have in common (1.0 for two without inputs)."""
    left, right = _leaves(a.plain_inputs()), _leaves(b.plain_inputs())
    paths = set(left) | set(right)
    if not paths:
        return 1.0
    return sum(1 for p in paths if p in left and p in right and left[p] == right[p]) / len(paths)


def renames(
    gone: Sequence[RecordedResource], born: Sequence[RecordedResource]
) -> list[tuple[RecordedResource, RecordedResource]]:
    """Old and new resources of one type and parent type that look like one resource renamed, best first."""
    candidates = sorted(
        (
            (similarity(g, b), i, j)
            for i, g in enumerate(gone)
            for j, b in enumerate(born)
            if g.type == b.type and _parent_types(g.urn) == _parent_types(b.urn)
        ),
        key=lambda t: (-t[0], t[1], t[2]),
    )
    used_gone: set[int] = set()
    used_born: set[int] = set()
    pairs = []
    for score, i, j in candidates:
        if score >= SIMILAR_ENOUGH and i not in used_gone and j not in used_born:
            used_gone.add(i)
            used_born.add(j)
            pairs.append((gone[i], born[j]))
    return pairs


def _parent_types(urn: str) -> str:
    parts = urn.split("::")
    return parts[2] if len(parts) > 3 else ""
