"""Windows time zone ids, as Azure's autoscale schedules take them."""

from __future__ import annotations

import pytest

from azure_gpu_stacks.components.time_zones import WINDOWS_TIME_ZONES, windows_time_zone


@pytest.mark.parametrize(
    ("written", "canonical"),
    [("UTC", "UTC"), ("w. europe standard time", "W. Europe Standard Time"), (" Tokyo Standard Time ", "Tokyo Standard Time")],
)
def test_time_zone_takes_a_windows_id_in_any_casing(written: str, canonical: str) -> None:
    assert windows_time_zone(written) == canonical


@pytest.mark.parametrize(
    ("written", "message"),
    [
        ("Europe/Berlin", "'Europe/Berlin' is an IANA time zone name; allowed: a Windows time zone id, e.g. UTC, "
         "W. Europe Standard Time, Eastern Standard Time"),
        ("Pacific Standard", "'Pacific Standard' is not a Windows time zone id Azure autoscale takes (did you mean "
         "Pacific Standard Time"),
        ("Mars", "'Mars' is not a Windows time zone id Azure autoscale takes; allowed: e.g. UTC"),
    ],
)
def test_time_zone_refuses_what_autoscale_does_not_take(written: str, message: str) -> None:
    with pytest.raises(ValueError) as err:
        windows_time_zone(written)

    assert str(err.value).startswith(message)


def test_time_zone_list_is_autoscales_107_ids_each_once() -> None:
    assert len(WINDOWS_TIME_ZONES) == len(set(WINDOWS_TIME_ZONES)) == 107
    assert {"UTC", "GMT Standard Time", "Eastern Standard Time", "India Standard Time"} <= set(WINDOWS_TIME_ZONES)
