"""The day a size verdict is for: today in UTC unless the caller passes another (`--as-of`).

Whether a size is current, capacity-restricted, retiring or retired depends on the day it is asked
on. There is no module-level clock: the day is a parameter, passed down from where a run starts.

- `gpu-stacks` takes it from `--as-of` (else `utc_today()`) and hands it to the program (the
  components read it from the program's config, `azure_gpu_stacks.components.checks.deployment_day`),
  to the fake ARM (`FakeArm(now=instant_on(day))`) and to the policy pack (each size policy's `asOf`,
  written once by `engine.run.policy_config.with_day`);
- under `pulumi preview`/`up` nothing sets it, and every layer judges on today in UTC: the same day
  whatever the machine's time zone.
"""

from __future__ import annotations

import datetime as dt

AS_OF_FORMAT = "YYYY-MM-DD"


def utc_today() -> dt.date:
    """The calendar date in UTC now (not the machine's local date)."""
    return dt.datetime.now(dt.timezone.utc).date()


def instant_on(day: dt.date | None) -> dt.datetime:
    """The current UTC time of day on `day` (to the second; None: today): timestamps agree with verdicts."""
    real = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
    return real if day is None else dt.datetime.combine(day, real.timetz())


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
