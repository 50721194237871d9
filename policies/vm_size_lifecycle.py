"""Where each VM size a resource asks for stands in Azure's lifecycle on one day: the catalog's one verdict
(`azure_gpu_stacks.catalog.verdict.size_verdict`) at each place the resource names a size.

Shared by the VM size policies (retired, capacity-restricted, retiring, unknown): CrossGuard gives
each policy a single enforcement level, so the verdicts are several policies over one
classification. Sizes compare case-insensitively and without the `Standard_` prefix, as the
catalog does.

The day: each size policy has an `asOf` config property (`YYYY-MM-DD`). Empty (the default) means
today in UTC; `gpu-stacks --as-of` fills it for every size policy (once, where the engine configures
the pack), and `pulumi preview --policy-pack-config` can pin it the same way.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..catalog import VmSize, catalog
from ..catalog.clock import configured_day
from ..catalog.verdict import SizeVerdict, Standing, size_verdict
from .values import text
from .vm_size_locations import vm_sizes

AS_OF_KEY = "asOf"
AS_OF_PATTERN = r"^([0-9]{4}-[0-9]{2}-[0-9]{2})?$"
AS_OF_PROPERTY: dict[str, Any] = {
    "type": "string",
    "pattern": AS_OF_PATTERN,
    "default": "",
    "description": "Judge sizes as of this day (YYYY-MM-DD), e.g. to ask what breaks next year; "
    "empty: today in UTC. `gpu-stacks --as-of` sets it.",
}


@dataclass(frozen=True)
class SizeAtPath:
    """The verdict on the size a resource names at `path`."""

    path: str
    verdict: SizeVerdict

    @property
    def size(self) -> str:  # as written in the resource
        return self.verdict.name

    @property
    def status(self) -> Standing:
        return self.verdict.standing

    @property
    def entry(self) -> VmSize | None:  # the catalog's entry; None for a size it does not know
        return self.verdict.entry

    @property
    def day(self) -> dt.date:
        return self.verdict.day


def as_of(values: Mapping[str, Any]) -> dt.date:
    """The day a policy judges on: its `asOf` config (`gpu-stacks` writes the run's day there), else today in UTC;
    ValueError for a value that is not a calendar date (`gpu-stacks` refuses it before the pack runs)."""
    return configured_day(values.get(AS_OF_KEY))


def classify(
    resource_type: str, props: Any, *, day: dt.date | None = None, billed_only: bool = False
) -> Iterator[SizeAtPath]:
    """The verdict on each size in the resource on `day` (default: today in UTC); unknown preview values
    are skipped."""
    day = day or configured_day(None)
    for found in vm_sizes(resource_type, props):
        if found.size is None or (billed_only and not found.billed):
            continue
        yield SizeAtPath(found.path, size_verdict(found.size, day))


def catalog_entry(size: Any) -> VmSize | None:
    """The catalog's entry for a size property's value; None when unknown, absent or not in the catalog."""
    name = text(size)
    return catalog().find(name) if name is not None else None
