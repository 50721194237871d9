"""Prices in the catalog: each price with its own observed date and source, and where sources are described.

A price read from the Azure Retail Prices API carries the day its pages were saved. A price from the
old third-party snapshot carries `observed: unknown`: the snapshot does not say when its prices were
read (it still lists sizes retired in 2023, so probably 2023-24), and the catalog does not pretend to
know. Every report that shows money names the oldest price it used and its source
(`oldest_price`), unknown dates counting as the oldest.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

UNKNOWN = "unknown"


class CatalogModel(BaseModel):
    """Base of the catalog's models: closed shape, camelCase names as in the data file."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class PriceSource(CatalogModel):
    """Where prices come from."""

    url: str = Field(description="The source: an API endpoint or a public file at a fixed commit.")
    description: str = Field(description="What the source is, for people reading a cost report.")


class Price(CatalogModel):
    """One USD/hour price with its own provenance."""

    usd_per_hour: float = Field(
        alias="usdPerHour", gt=0, description="East US (the catalog's region) Linux USD per hour."
    )
    observed: dt.date | Literal["unknown"] = Field(
        description="Day the price was read from its source; `unknown` when the source does not say."
    )
    source: str = Field(description="Key of the price's source in `prices.sources`.")

    @property
    def age_key(self) -> dt.date:
        """Sorts oldest first; an unknown date is older than any known one."""
        return dt.date.min if self.observed == UNKNOWN else self.observed  # type: ignore[return-value]

    @property
    def observed_text(self) -> str:
        return UNKNOWN if self.observed == UNKNOWN else str(self.observed)


class Prices(CatalogModel):
    """Region, currency and the described sources of the catalog's prices."""

    region: str = Field(description="Region the prices are for.")
    currency: Literal["USD"] = Field(description="Currency of every price.")
    sources: dict[str, PriceSource] = Field(min_length=1, description="Every price source, by the key prices name.")


def oldest(prices: Iterable[Price]) -> Price | None:
    """The oldest of `prices` (unknown dates first), or None when there are none."""
    return min(prices, key=lambda p: (p.age_key, p.source), default=None)
