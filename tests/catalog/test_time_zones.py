"""Windows time zone ids, as Azure's schedules take them: tzlocal's maintained CLDR mapping, with a
did-you-mean from IANA names."""

from __future__ import annotations

import pytest
from azure_gpu_stacks.catalog.time_zones import LEGACY_AUTOSCALE_IDS, WINDOWS_TIME_ZONES, windows_time_zone
from tzlocal.windows_tz import win_tz

HOW_TO_LIST = (
    "allowed: a Windows time zone id, e.g. UTC, W. Europe Standard Time, Eastern Standard Time (all of them: "
    "`tzutil /l` on Windows, or `Get-TimeZone -ListAvailable` in PowerShell)"
)


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("UTC", "UTC"),
        ("w. europe standard time", "W. Europe Standard Time"),
        (" Tokyo Standard Time ", "Tokyo Standard Time"),
        ("Yukon Standard Time", "Yukon Standard Time"),  # newer than autoscale's documented list; in CLDR
        ("Mid-Atlantic Standard Time", "Mid-Atlantic Standard Time"),  # autoscale's list; no longer in CLDR
    ],
)
def test_time_zone_takes_a_windows_id_in_any_casing(written: str, canonical: str) -> None:
    assert windows_time_zone(written) == canonical


@pytest.mark.parametrize(
    ("written", "message"),
    [
        (
            "Europe/Berlin",
            f"'Europe/Berlin' is an IANA time zone name (did you mean W. Europe Standard Time?); {HOW_TO_LIST}",
        ),
        (
            "america/new_york",
            f"'america/new_york' is an IANA time zone name (did you mean Eastern Standard Time?); {HOW_TO_LIST}",
        ),
        (
            "Asia/Calcutta",
            f"'Asia/Calcutta' is an IANA time zone name (did you mean India Standard Time?); {HOW_TO_LIST}",
        ),
        ("Pacific Standard", "'Pacific Standard' is not a Windows time zone id (did you mean Pacific Standard Time"),
        ("Mars", f"'Mars' is not a Windows time zone id; {HOW_TO_LIST}"),
    ],
)
def test_time_zone_refuses_what_azure_does_not_take_in_one_line(written: str, message: str) -> None:
    with pytest.raises(ValueError) as err:
        windows_time_zone(written)

    assert str(err.value).startswith(message)
    assert "\n" not in str(err.value)


def test_time_zone_ids_are_tzlocals_mapping_and_autoscales_two_retired_ids() -> None:
    assert set(WINDOWS_TIME_ZONES) == set(win_tz) | set(LEGACY_AUTOSCALE_IDS)
    assert len(WINDOWS_TIME_ZONES) == len(set(WINDOWS_TIME_ZONES))
    assert not set(LEGACY_AUTOSCALE_IDS) & set(win_tz)  # kept only while tzlocal lacks them
