"""Windows time zone ids: what Azure's auto-shutdown schedule (`Microsoft.DevTestLab/schedules`
`timeZoneId`) takes, e.g. "UTC" or "W. Europe Standard Time", not IANA names like "Europe/Berlin".

The ids and their IANA equivalents come from the mapping tzlocal maintains (`tzlocal.windows_tz`,
generated from the Unicode CLDR's windowsZones.xml; tzlocal is a pinned dependency), so the list is
kept by others and updated with a version bump, not by hand here. Sources (observed 2026-11-22):
https://learn.microsoft.com/azure/templates/microsoft.devtestlab/schedules (timeZoneId),
https://github.com/regebro/tzlocal (`tzlocal/windows_tz.py`),
https://github.com/unicode-org/cldr/blob/main/common/supplemental/windowsZones.xml
"""

from __future__ import annotations

import difflib

from tzlocal.windows_tz import tz_win, win_tz

EXAMPLES = "UTC, W. Europe Standard Time, Eastern Standard Time"
_BY_LOWER = {name.lower(): name for name in win_tz}


def windows_time_zone(value: str) -> str:
    """A Windows time zone id (its canonical spelling), or ValueError with a did-you-mean."""
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not a time zone; allowed: a Windows time zone id such as {EXAMPLES}")
    found = _BY_LOWER.get(value.strip().lower())
    if found is not None:
        return found
    iana = tz_win.get(value.strip())
    if iana is not None:
        raise ValueError(
            f"'{value}' is an IANA time zone name; Azure's schedules take Windows time zone ids: did you mean "
            f"'{iana}'?"
        )
    close = difflib.get_close_matches(value, list(win_tz), n=3, cutoff=0.6)
    hint = f"did you mean {', '.join(repr(c) for c in close)}? " if close else ""
    raise ValueError(f"'{value}' is not a Windows time zone id; {hint}allowed: a Windows time zone id such as {EXAMPLES}")
