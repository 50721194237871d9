"""Windows time zone ids, as Azure's schedules take them (not IANA names such as Europe/Berlin).

The ids and their IANA names come from tzlocal's `windows_tz` (generated from the Unicode CLDR
`windowsZones.xml`, the mapping Windows and .NET maintain), a dependency pinned in pyproject.toml,
so a new or renamed zone arrives with a tzlocal update rather than a hand edit. It is the set
Azure documents for a shutdown schedule's `timeZoneId`: "the possible values ... can be found in
TimeZoneConverter.TZConvert.KnownWindowsTimeZoneIds", a CLDR-built list (pulumi-azure-native
`devtestlab.GlobalSchedule` from Azure/azure-rest-api-specs, observed 2026-11-22).

Azure Monitor autoscale's `RecurrentSchedule.timeZone` text (Azure/azure-rest-api-specs,
specification/monitor/resource-manager/Microsoft.Insights, observed 2026-11-22) lists 107 ids: all
but two are CLDR ids; `LEGACY_AUTOSCALE_IDS` keeps those two, which Windows retired (CLDR dropped
them) but that list still offers. CLDR ids newer than that list (e.g. Yukon Standard Time) are
accepted here without an autoscale document naming them (UNVERIFIED against autoscale: no Azure here).
"""

from __future__ import annotations

import difflib

from tzlocal.windows_tz import tz_win, win_tz

LEGACY_AUTOSCALE_IDS: tuple[str, ...] = ("Mid-Atlantic Standard Time", "Kamchatka Standard Time")
WINDOWS_TIME_ZONES: tuple[str, ...] = tuple(sorted({*win_tz, *LEGACY_AUTOSCALE_IDS}, key=str.lower))
_BY_KEY = {zone.lower(): zone for zone in WINDOWS_TIME_ZONES}
_IANA_BY_KEY = {name.lower(): windows for name, windows in tz_win.items()}
HOW_TO_LIST = (
    "a Windows time zone id, e.g. UTC, W. Europe Standard Time, Eastern Standard Time (all of them: `tzutil /l` on "
    "Windows, or `Get-TimeZone -ListAvailable` in PowerShell)"
)


def windows_time_zone(value: str) -> str:
    """A Windows time zone id Azure's schedules take, in its canonical spelling."""
    written = str(value).strip()
    found = _BY_KEY.get(written.lower())
    if found is not None:
        return found
    windows = _IANA_BY_KEY.get(written.lower())
    if windows is not None:
        raise ValueError(f"'{value}' is an IANA time zone name (did you mean {windows}?); allowed: {HOW_TO_LIST}")
    close = difflib.get_close_matches(written, WINDOWS_TIME_ZONES, n=3, cutoff=0.6)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    raise ValueError(f"'{value}' is not a Windows time zone id{hint}; allowed: {HOW_TO_LIST}")
