"""Where each VM size a resource asks for stands in Azure's retirement process, from the catalog.

Shared by the three VM size policies (retired, retiring, unknown): CrossGuard gives each policy a
single enforcement level, so the three verdicts are three policies over one classification.
Sizes compare case-insensitively and without the `Standard_` prefix, as the catalog does.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from azure_gpu_stacks.components.catalog import VmSize, catalog
from azure_gpu_stacks.policies.values import text
from azure_gpu_stacks.policies.vm_size_locations import vm_sizes

Status = Literal["current", "retiring", "retired", "unknown"]


@dataclass(frozen=True)
class SizeVerdict:
    path: str
    size: str  # as written in the resource
    status: Status
    entry: VmSize | None  # the catalog's entry; None for an unknown size


def today() -> dt.date:
    """The day retirement is judged on (UTC); tests replace it."""
    return dt.datetime.now(dt.UTC).date()


def classify(resource_type: str, props: Any, *, billed_only: bool = False) -> Iterator[SizeVerdict]:
    """A verdict per known VM size in the resource; unknown preview values are skipped."""
    day = today()
    for found in vm_sizes(resource_type, props):
        if found.size is None or (billed_only and not found.billed):
            continue
        entry = catalog().find(found.size)
        status: Status = "unknown" if entry is None else entry.status_on(day)
        yield SizeVerdict(found.path, found.size, status, entry)


def catalog_entry(size: Any) -> VmSize | None:
    """The catalog's entry for a size property's value; None when unknown, absent or not in the catalog."""
    name = text(size)
    return catalog().find(name) if name is not None else None
