"""The one size verdict: what a VM size name is on a day, with its replacement and the message parts.

Every layer that judges a size asks `size_verdict(name, day)`: the components' input checks, the fake
ARM's refusals and every size policy. A verdict is one of:

- `current`, `retiring` (on `date`), `capacity-restricted` (since `restricted_from`, retired on `date`),
  `retired` (since `date`): a size of the catalog, on the day asked;
- `unknown`: a well-formed size name the catalog does not know (a CPU size it does not list, a size
  newer than the catalog). Never refused offline: Azure may well offer it. Only a `--skus` file
  (`az vm list-skus` of the subscription and region) can say it is not offered; the policy pack's
  `warn-unknown-vm-sizes` says its lifecycle and price cannot be checked, and cost counts it unpriced;
- `not-a-size`: a name that cannot be an Azure size (`Standard_Foo`), or an N-family name the catalog
  does not list (a typo of a GPU size: the catalog lists every N-family size of Microsoft's GPU and
  FPGA size pages). Refused, with the catalog's close matches as did-you-mean.

Well-formed, after Microsoft's naming conventions (https://learn.microsoft.com/azure/virtual-machines/vm-naming-conventions,
observed 2026-11-25): `[Family] + [Sub-family]* + [# of vCPUs] + [Constrained vCPUs]* + [Additive Features]
+ [Accelerator Type]* + [Version]`, behind the tier prefix `Standard_` (or `Basic_`). Read here as: a
family letter of Microsoft's size families (A, B, D, E, F, G, H, L, M, N; sizes overview,
https://learn.microsoft.com/azure/virtual-machines/sizes/overview, observed 2026-11-25) and up to three
sub-family letters, the vCPU count, an optional `-<constrained vCPUs>`, lower-case feature letters, then
`_`-separated parts (accelerator, `Promo`, version `v6`). Names compare case-insensitively, as ARM's do.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Literal

from .model import (
    Catalog,
    RetiredSeries,
    UnconfirmedSize,
    VmSize,
    catalog,
    normalize_size_name,
)

Standing = Literal["current", "retiring", "capacity-restricted", "retired", "unknown", "not-a-size"]
# Deployable, with a retirement announced: worth an advisory wherever the size is chosen.
ANNOUNCED: frozenset[Standing] = frozenset({"retiring", "capacity-restricted"})
NAMING_CONVENTIONS = "https://learn.microsoft.com/azure/virtual-machines/vm-naming-conventions"
WELL_FORMED = re.compile(r"^(?:standard|basic)_[abdefghlmn][a-z]{0,3}[0-9]+(?:-[0-9]+)?[a-z0-9]*(?:_[a-z0-9]+)*$")
# Families whose every size the catalog lists (GPU and FPGA: the toolkit's subject), so a name of
# them the catalog does not know is a typo, not a new size.
LISTED_FAMILIES = ("standard_n",)


@dataclass(frozen=True)
class SizeVerdict:
    """What `name` is on `day`; `entry` is the catalog's size (None for unknown and not-a-size)."""

    name: str  # as asked
    day: dt.date
    standing: Standing
    entry: VmSize | None = None
    unconfirmed: UnconfirmedSize | None = None  # seen in Azure's SKU list, no size page confirms it
    suggestions: tuple[str, ...] = ()  # the catalog's close matches
    series: RetiredSeries | None = None  # a CPU size's retired (or retiring) series, a lighter entry

    @property
    def canonical(self) -> str:
        """The catalog's spelling of a known size, else the name as asked."""
        if self.entry is not None:
            return self.entry.name
        if self.series is not None:
            key = normalize_size_name(self.name)
            return next((n for n in self.series.sizes if normalize_size_name(n) == key), self.name)
        return self.name

    @property
    def deployable(self) -> bool:
        """Offline, nothing but a --skus file may refuse it."""
        return self.standing not in ("retired", "not-a-size")

    @property
    def date(self) -> dt.date | None:
        """The retirement date (planned or past) of a size not current."""
        if self.series is not None:
            return self.series.date
        return self.entry.lifecycle.date if self.entry is not None else None

    @property
    def restricted_from(self) -> dt.date | None:
        return self.entry.lifecycle.restricted_from if self.entry is not None else None

    @property
    def replacement(self) -> str | None:
        if self.series is not None:
            return self.series.replacement
        return self.entry.lifecycle.replacement if self.entry is not None else None

    @property
    def did_you_mean(self) -> str:
        """`did you mean A, B?`, or empty without close matches."""
        return f"did you mean {', '.join(self.suggestions)}?" if self.suggestions else ""

    @property
    def days_left(self) -> int | None:
        """Days from the verdict's day to the retirement date, for a size not yet retired."""
        return (self.date - self.day).days if self.date is not None and self.standing in ANNOUNCED else None

    def refusal(self) -> str | None:
        """Why the size cannot be deployed on the day, as the components say it; None when it can."""
        if self.standing == "retired":
            return f"'{self.canonical}' was retired on {self.date} and can no longer be deployed"
        if self.standing == "not-a-size":
            hint = f"; {self.did_you_mean}" if self.suggestions else ""
            return f"unknown VM size '{self.name}'{hint}"
        return None


def is_well_formed(name: str) -> bool:
    """A name Azure's naming conventions allow (any casing, `Standard_` optional)."""
    return WELL_FORMED.match(normalize_size_name(name)) is not None


def size_verdict(name: str, day: dt.date, sizes: Catalog | None = None) -> SizeVerdict:
    """What `name` is on `day`, from the catalog (`sizes`, default the shipped one)."""
    sizes = sizes or catalog()
    entry = sizes.find(name)
    if entry is not None:
        return SizeVerdict(name, day, entry.status_on(day), entry)
    series = sizes.retired_series(name)
    if series is not None:
        return SizeVerdict(name, day, series.status_on(day), series=series)
    unconfirmed = sizes.unconfirmed(name)
    suggestions = tuple(sizes.close_matches(name))
    key = normalize_size_name(name)
    if unconfirmed is None and (not is_well_formed(name) or key.startswith(LISTED_FAMILIES)):
        return SizeVerdict(name, day, "not-a-size", suggestions=suggestions)
    return SizeVerdict(name, day, "unknown", unconfirmed=unconfirmed, suggestions=suggestions)
