"""Prices in the catalog: per size and region, each with its own observed date and source, and where
sources are described.

A size carries a price for every region its price source covers (`VmSize.prices`, region -> Linux
pay-as-you-go and Spot USD per hour); a region the source does not cover has no price, and a stack
there is priced as a lower bound that names it, never at another region's rate. A price read from
the Azure Retail Prices API carries the day its pages were saved. A price from a third-party
snapshot of unknown date carries `observed: unknown`: the catalog does not pretend to know. Where a
region's pay-as-you-go and Spot prices come from different sources (a newer source with list prices
only), the Spot price keeps its own `spotObserved` and `spotSource`. Every
report that shows money names the oldest price it used and its source (`oldest_price`), unknown
dates counting as the oldest.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

UNKNOWN = "unknown"


class CatalogModel(BaseModel):
    """Base of the catalog's models: closed shape, camelCase names as in the data file."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class PriceSource(CatalogModel):
    """Where prices come from."""

    url: str = Field(description="The source: an API endpoint or a public file at a fixed commit.")
    description: str = Field(description="What the source is, for people reading a cost report.")


class Price(CatalogModel):
    """One USD/hour price with its own provenance: what a cost line was priced at."""

    usd_per_hour: float = Field(alias="usdPerHour", gt=0, description="Linux USD per hour in `region`.")
    region: str = Field(description="Region (ARM `location`) the price is for.")
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


class RegionPrices(CatalogModel):
    """A size's Linux prices in one region: read from one source on one day, or the Spot price from its
    own (`spotSource`, `spotObserved`) where the newer source has list prices only."""

    payg: float | None = Field(default=None, gt=0, description="Pay-as-you-go USD per hour; None: no row.")
    spot: float | None = Field(
        default=None,
        gt=0,
        description="Spot USD per hour; None: no Spot row, or the source's Spot price is not a discount.",
    )
    savings_plan_1y: float | None = Field(
        default=None,
        gt=0,
        alias="savingsPlan1Year",
        description="The pay-as-you-go row's 1-year savings-plan USD per hour (`savingsPlan` of the Retail Prices API "
        "from api-version 2023-01-01-preview), read with `payg`; None: the source does not give one. Information "
        "for always-on nodes, never a cost line.",
    )
    observed: dt.date | Literal["unknown"] = Field(
        description="Day the prices were read from their source; `unknown` when the source does not say."
    )
    source: str = Field(description="Key of the prices' source in `prices.sources`.")
    spot_observed: dt.date | Literal["unknown"] | None = Field(
        default=None,
        alias="spotObserved",
        description="Day the Spot price was read, when it comes from another source than pay-as-you-go "
        "(a source with list prices only); None: `observed`.",
    )
    spot_source: str | None = Field(
        default=None, alias="spotSource", description="Key of the Spot price's own source; None: `source`."
    )

    @model_validator(mode="after")
    def _spot_provenance_together(self) -> RegionPrices:
        if (self.spot_observed is None) != (self.spot_source is None):
            raise ValueError("spotObserved and spotSource come together: the Spot price's own date and source")
        if self.spot_source is not None and self.spot is None:
            raise ValueError("spotSource without a spot price")
        if self.savings_plan_1y is not None and (self.payg is None or self.savings_plan_1y >= self.payg):
            raise ValueError("savingsPlan1Year is read with payg and is below it")
        return self

    @property
    def sources(self) -> tuple[str, ...]:
        """Every source key the entry names (each must be described in `prices.sources`)."""
        return (self.source,) if self.spot_source is None else (self.source, self.spot_source)

    def price(self, region: str, spot: bool) -> Price | None:
        """The Spot or pay-as-you-go price as a `Price` with its own date and source, or None when
        there is none."""
        value = self.spot if spot else self.payg
        if value is None:
            return None
        observed, source = self.observed, self.source
        if spot and self.spot_source is not None and self.spot_observed is not None:  # the validator: both
            observed, source = self.spot_observed, self.spot_source
        return Price(usdPerHour=value, region=region, observed=observed, source=source)


class Prices(CatalogModel):
    """Currency and the described sources of the catalog's prices."""

    currency: Literal["USD"] = Field(description="Currency of every price.")
    sources: dict[str, PriceSource] = Field(min_length=1, description="Every price source, by the key prices name.")


def oldest(prices: Iterable[Price]) -> Price | None:
    """The oldest of `prices` (unknown dates first), or None when there are none."""
    return min(prices, key=lambda p: (p.age_key, p.source), default=None)
