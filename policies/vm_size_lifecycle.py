"""Where each VM size a resource asks for stands in Azure's lifecycle, from the catalog, on one day.

Shared by the VM size policies (retired, capacity-restricted, retiring, unknown): CrossGuard gives
each policy a single enforcement level, so the verdicts are several policies over one
classification. Sizes compare case-insensitively and without the `Standard_` prefix, as the
catalog does.

The day: each size policy has an `asOf` config property (`YYYY-MM-DD`). Empty (the default) means
the clock's day, today in UTC (`azure_gpu_stacks.catalog.clock`); `gpu-stacks --as-of`
fills it for every size policy, and `pulumi preview --policy-pack-config` can pin it the same way.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from azure_gpu_stacks.catalog import VmSize, catalog, clock
from azure_gpu_stacks.policies.values import text
from azure_gpu_stacks.policies.vm_size_locations import vm_sizes

Status = Literal["current", "capacity-restricted", "retiring", "retired", "unknown"]
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
class SizeVerdict:
    path: str
    size: str  # as written in the resource
    status: Status
    entry: VmSize | None  # the catalog's entry; None for an unknown size
    day: dt.date  # the day the status is for


def as_of(values: Mapping[str, Any]) -> dt.date:
    """The day a policy judges on: its `asOf` config when set and a date, else the clock's day."""
    given = values.get(AS_OF_KEY)
    if isinstance(given, str) and given:
        try:
            return clock.parse_day(given)
        except ValueError:
            pass  # the CLI checks the pattern first; a policy never crashes on its config
    return clock.today()


def classify(
    resource_type: str, props: Any, *, day: dt.date | None = None, billed_only: bool = False
) -> Iterator[SizeVerdict]:
    """A verdict per known VM size in the resource on `day` (default: the clock's); unknown preview values are skipped."""
    day = day or clock.today()
    for found in vm_sizes(resource_type, props):
        if found.size is None or (billed_only and not found.billed):
            continue
        entry = catalog().find(found.size)
        status: Status = "unknown" if entry is None else entry.status_on(day)
        yield SizeVerdict(found.path, found.size, status, entry, day)


def catalog_entry(size: Any) -> VmSize | None:
    """The catalog's entry for a size property's value; None when unknown, absent or not in the catalog."""
    name = text(size)
    return catalog().find(name) if name is not None else None
