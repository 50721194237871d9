"""The one clock: the day every size verdict is computed for.

Whether a size is current, capacity-restricted, retiring or retired depends on the day it is asked
on. Every layer asks this module (the components' size checks, the fake ARM, the policy pack's
default, the cost and plan reports), so one run judges every resource on the same day:

- by default the current date in UTC, the same day whatever the machine's time zone;
- `pinned(day)` fixes the day for everything run inside it (`gpu-stacks plan --as-of 2027-06-01`),
  so a pull request's verdict is reproducible and a team can ask what breaks next year.

The policy pack runs in its own process under `pulumi preview`; it takes its day from the `asOf`
property of its config (`azure_gpu_stacks.policies.vm_size_lifecycle`) and falls back to `today()`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager

AS_OF_FORMAT = "YYYY-MM-DD"
_pinned: list[dt.date] = []


def utc_today() -> dt.date:
    """The calendar date in UTC now (not the machine's local date)."""
    return dt.datetime.now(dt.timezone.utc).date()


def today() -> dt.date:
    """The day verdicts are computed for: the pinned day, else today in UTC."""
    return _pinned[-1] if _pinned else utc_today()


def now() -> dt.datetime:
    """The current UTC time of day on the clock's day (to the second): timestamps agree with verdicts."""
    real = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
    return dt.datetime.combine(_pinned[-1], real.timetz()) if _pinned else real


@contextmanager
def pinned(day: dt.date | None) -> Iterator[dt.date]:
    """Judge everything inside on `day` (None: today in UTC, fixed for the whole block)."""
    _pinned.append(day or utc_today())
    try:
        yield _pinned[-1]
    finally:
        _pinned.pop()


def parse_day(text: str) -> dt.date:
    """A `YYYY-MM-DD` date; ValueError naming the value and the allowed form otherwise."""
    try:
        if len(text) != len(AS_OF_FORMAT):
            raise ValueError
        return dt.date.fromisoformat(text)
    except (TypeError, ValueError):
        raise ValueError(
            f"{text!r} is not a date; allowed: a calendar date as {AS_OF_FORMAT}, e.g. 2027-01-31"
        ) from None
