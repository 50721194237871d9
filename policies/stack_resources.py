"""What the Pulumi engine hands a stack policy, as the plain resources the catalog's readers take.

A stack policy receives each resource's properties as the engine's read-only proxies (or, called
directly, as dicts that may hold unknowns). The catalog's demand and cost readers
(`catalog.demand.collect`, `catalog.pricing.estimate_resources`) take `ResourceInputs`: plain dicts
and lists, unknowns as None. One conversion, for every stack policy that counts or prices.
"""

from __future__ import annotations

from typing import Any

from ..catalog.demand import ResourceInputs
from ..catalog.shapes import canonical_type
from .values import UNKNOWN, elements, entries, is_mapping, is_sequence

MAX_DEPTH = 32  # deeper than any resource's inputs; a bound, so a cycle cannot hang


def resource_inputs(resource: Any) -> ResourceInputs:
    """The resource as the costing and the demand read it."""
    dependencies = tuple(str(getattr(d, "urn", "")) for d in getattr(resource, "dependencies", None) or [])
    props = plain_copy(resource.props)
    inputs = props if isinstance(props, dict) else {}
    return ResourceInputs(resource.urn, canonical_type(resource.resource_type), resource.name, inputs, dependencies)


def plain_copy(value: Any, depth: int = 0) -> Any:
    """The engine's read-only property proxies as plain dicts and lists; unknowns (and what is too deep) as None."""
    if value is UNKNOWN or depth > MAX_DEPTH:
        return None
    if is_mapping(value):
        return {key: plain_copy(item, depth + 1) for key, item in entries(value)}
    if is_sequence(value):
        return [plain_copy(item, depth + 1) for item in elements(value)]
    return value
