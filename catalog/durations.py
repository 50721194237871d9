"""ISO 8601 durations as Azure takes them (`PT15M`, `P1DT2H`): read, and checked against bounds.

The one reader of durations: the components' checks and the policies use it. ARM's REST specs type these
properties `format: duration`, which Azure's .NET services read as XML Schema's `duration`
(`PnYnMnDTnHnMnS`, designators upper case, a fraction only on the seconds: W3C XML Schema Part 2,
section 3.2.6, https://www.w3.org/TR/xmlschema-2/#duration, observed 2026-11-26); `pt15m` is not one.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# ISO 8601 durations with fixed lengths only: days, hours, minutes, seconds. Years, months and
# weeks are refused because a "month" has no fixed length to scale a cluster down by.
ISO_DURATION_PATTERN = re.compile(
    r"^P(?!$)(?:(?P<days>\d+)D)?(?:T(?=\d)(?:(?P<hours>\d+)H)?(?:(?P<minutes>\d+)M)?(?:(?P<seconds>\d+(?:\.\d+)?)S)?)?$"
)


def duration_seconds(value: str) -> float:
    """Seconds in an ISO 8601 duration such as PT15M or P1DT2H; raises ValueError for anything else."""
    match = ISO_DURATION_PATTERN.fullmatch(value) if isinstance(value, str) else None  # `$` lets a newline by
    if match is None:
        raise ValueError(f"{value!r} is not an ISO 8601 duration; allowed: e.g. PT15M (15 minutes), PT120S, PT1H30M")
    parts = {k: float(v) for k, v in match.groupdict().items() if v is not None}
    return (
        parts.get("days", 0) * 86400
        + parts.get("hours", 0) * 3600
        + parts.get("minutes", 0) * 60
        + parts.get("seconds", 0)
    )


def iso_duration_between(low_seconds: float, high_seconds: float, low: str, high: str) -> Callable[[str], str]:
    """A check: an ISO 8601 duration from `low` to `high` inclusive (given in seconds and as text)."""

    def check(value: str) -> str:
        seconds = duration_seconds(value)
        if not low_seconds <= seconds <= high_seconds:
            raise ValueError(f"{value!r} ({seconds:g} seconds) is out of range; allowed: {low} to {high}")
        return value

    return check
