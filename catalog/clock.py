"""The day a size verdict is for: today in UTC unless the caller passes another (`--as-of`).

Whether a size is current, capacity-restricted, retiring or retired depends on the day it is asked
on. There is no module-level clock: the day is a parameter, passed down from where a run starts.

- `gpu-stacks` resolves it once where a command starts (`engine.run.policy_config.run_day`: `--as-of`,
  else the policy config's `asOf`, else `utc_today()`) and passes it down as one parameter
  (`plan_stack(day=...)`), which hands it to the program (its config `gpu-stacks:asOf`), to the fake ARM
  (`FakeArm(now=instant_on(day))`) and to the policy pack (each size policy's `asOf`, `with_day`);
- under `pulumi preview`/`up` no gpu-stacks passes it: the components and the size policies read it
  from their config, else today in UTC (`configured_day`, the one place), the same day whatever the
  machine's time zone.
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


def configured_day(given: object) -> dt.date:
    """The day a program or a policy pack that Pulumi runs judges on: the configured `YYYY-MM-DD` (the program's
    `gpu-stacks:asOf`, a size policy's `asOf`), else (unset or empty) today in UTC. A value that is not a date is
    a ValueError naming it, never silently today."""
    return utc_today() if given is None or given == "" else parse_day(given)  # type: ignore[arg-type]


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
