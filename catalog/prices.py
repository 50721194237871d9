"""Prices in the catalog: per size and region, each with its own observed date and source, and where
sources are described.

A size carries a price for every region its price source covers (`VmSize.prices`, region -> Linux
pay-as-you-go and Spot USD per hour); a region the source does not cover has no price, and a stack
there is priced as a lower bound that names it, never at another region's rate. A price read from
the Azure Retail Prices API carries the day its pages were saved. A price from a third-party
snapshot of unknown date carries `observed: unknown`: the catalog does not pretend to know. Where a
region's pay-as-you-go and Spot prices come from different sources (a newer source with list prices
only), the Spot price keeps its own `spotObserved` and `spotSource`; reservations likewise keep their own
`reservationObserved` and `reservationSource`. Every
report that shows money names the oldest price it used and its source (`oldest_price`), unknown
dates counting as the oldest.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .demand import HOURS_PER_MONTH

UNKNOWN = "unknown"
# A reservation's term in months, by the Retail Prices API's `reservationTerm`. The price of a `type: Reservation` row
# is the whole term's, for one VM, though its `unitOfMeasure` says "1 Hour": eastus2 Standard_NC48ads_A100_v4's rows
# saved 2026-08-22 are 7.346 pay-as-you-go and 42066 "1 Year", 4.80 an hour over the term's 8,760 hours
# (data/prices/README.md, babajideoyelayo-carbonandfinch/azure-prices).
RESERVATION_TERM_MONTHS = {"1 Year": 12, "3 Years": 36}


def reservation_usd_per_hour(term_usd: float, term: str) -> float:
    """A reservation's price for its whole term as USD an hour, the term's months counted at 730 hours."""
    return term_usd / (RESERVATION_TERM_MONTHS[term] * HOURS_PER_MONTH)


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
    reservation_1y: float | None = Field(
        default=None,
        gt=0,
        alias="reservation1Year",
        description="A 1-year reservation of one VM, USD for the whole term (a Retail Prices API `type: Reservation` "
        'row of `reservationTerm` "1 Year"); None: no dated row. Information for always-on nodes, never a cost line.',
    )
    reservation_3y: float | None = Field(
        default=None,
        gt=0,
        alias="reservation3Year",
        description='A 3-year reservation of one VM, USD for the whole term (`reservationTerm` "3 Years"); None: no '
        "dated row.",
    )
    observed: dt.date | Literal["unknown"] = Field(
        description="Day the prices were read from their source; `unknown` when the source does not say."
    )
    source: str = Field(description="Key of the prices' source in `prices.sources`.")
    reservation_observed: dt.date | None = Field(
        default=None,
        alias="reservationObserved",
        description="Day the reservations were read, when they come from another source than pay-as-you-go; None: "
        "`observed`.",
    )
    reservation_source: str | None = Field(
        default=None, alias="reservationSource", description="Key of the reservations' own source; None: `source`."
    )
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
        if (self.reservation_observed is None) != (self.reservation_source is None):
            raise ValueError(
                "reservationObserved and reservationSource come together: the reservations' own date and source"
            )
        if self.reservation_source is not None and self.reservation_1y is None and self.reservation_3y is None:
            raise ValueError("reservationSource without a reservation")
        if self.reservation_1y is not None and self.payg is not None:
            if reservation_usd_per_hour(self.reservation_1y, "1 Year") >= self.payg:
                raise ValueError("reservation1Year is a term's price below a year of payg")
        if self.reservation_1y is not None and self.reservation_3y is not None:
            if reservation_usd_per_hour(self.reservation_3y, "3 Years") >= reservation_usd_per_hour(
                self.reservation_1y, "1 Year"
            ):
                raise ValueError("reservation3Year is a term's price below three years at the 1-year rate")
        return self

    @property
    def sources(self) -> tuple[str, ...]:
        """Every source key the entry names (each must be described in `prices.sources`)."""
        own = (self.spot_source, self.reservation_source)
        return (self.source, *(s for s in own if s is not None))

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
