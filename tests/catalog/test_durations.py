"""The one reader of ISO 8601 durations (`catalog/durations.py`), held to the standard's own examples and to
the forms Azure's REST specs use.

ARM types these properties `format: duration`, read as XML Schema's `duration`: W3C XML Schema Part 2,
section 3.2.6.1 (https://www.w3.org/TR/xmlschema-2/#duration, observed 2026-11-27) gives `P1Y2M3DT10H30M`,
`-P120D`, `P1347Y`, `P1347M`, `P1Y2MT2H`, `P0Y1347M` and `P0Y1347M0D` as allowed, `P-1347M` and `P1Y2MT` as
not allowed, designators upper case and a decimal fraction only on the seconds. Of the allowed ones, this
toolkit takes only fixed lengths (days, hours, minutes, seconds): a year or a month has no fixed number of
seconds to bound an idle time by, and Azure's idle times and intervals are never negative.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from azure_gpu_stacks.catalog.durations import duration_seconds, iso_duration_between

from tests.conftest import REPO

SPECS = REPO / "tests" / "data" / "azure-specs"
# The duration-typed properties of the types the fake models, as the saved REST specs' examples set them.
DURATION_KEYS = {
    "nodeIdleTimeBeforeScaleDown",
    "idleTimeBeforeShutdown",
    "evaluationInterval",
    "evaluationFrequency",
    "windowSize",
    "interval",
    "for",
}


def _durations(value: Any) -> Iterator[tuple[str, str]]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in DURATION_KEYS and isinstance(item, str):
                yield key, item
            else:
                yield from _durations(item)
    elif isinstance(value, list):
        for item in value:
            yield from _durations(item)


def spec_examples() -> list[tuple[str, str]]:
    """(file, key=value) of every duration in the saved REST specs' PUT examples."""
    found = set()
    for path in sorted(SPECS.rglob("examples.json")):
        for key, value in _durations(json.loads(path.read_text(encoding="utf-8"))["examples"]):
            found.add((path.relative_to(SPECS).parts[0], f"{key}={value}"))
    return sorted(found)


def test_the_specs_examples_set_durations_of_several_providers() -> None:
    assert {provider for provider, _ in spec_examples()} >= {"batch", "machinelearningservices", "monitor_1"}


@pytest.mark.parametrize(("provider", "example"), spec_examples())
def test_every_duration_in_azures_own_examples_is_read(provider: str, example: str) -> None:
    assert duration_seconds(example.partition("=")[2]) > 0


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("PT15M", 15 * 60),
        ("PT5M", 5 * 60),
        ("PT1H", 3600),
        ("P1D", 24 * 3600),
        ("P3D", 3 * 24 * 3600),  # an AML compute instance's longest idle shutdown
        ("PT120S", 120),
        ("PT1H30M", 5400),
        ("P1DT2H", 26 * 3600),
        ("PT0.5S", 0.5),  # the one field XML Schema lets have a fraction
        ("P0D", 0),
    ],
)
def test_fixed_length_durations_are_read_in_seconds(text: str, seconds: float) -> None:
    assert duration_seconds(text) == seconds


@pytest.mark.parametrize(
    "text",
    [
        "P1Y2M3DT10H30M",  # allowed by XML Schema; a year and a month have no fixed length
        "P1347Y",
        "P1347M",
        "P1Y2MT2H",
        "P0Y1347M",
        "P0Y1347M0D",
        "-P120D",  # allowed by XML Schema; never an idle time or an interval
        "P-1347M",  # not allowed by XML Schema
        "P1Y2MT",  # not allowed: T with no time after it
        "PT",
        "P",
        "",
        "pt15m",  # designators are upper case
        "PT1.5H",  # a fraction only on the seconds
        "P2W",  # ISO 8601's weeks are not XML Schema's
        "15",
        "PT15M ",
        "PT15M\n",  # a regular expression's `$` lets a trailing newline through
    ],
)
def test_what_is_not_a_fixed_length_xml_schema_duration_is_refused_by_name(text: str) -> None:
    with pytest.raises(ValueError, match=re.escape(f"{text!r} is not an ISO 8601 duration; allowed: e.g. PT15M")):
        duration_seconds(text)


def test_a_bounded_check_names_the_value_its_seconds_and_the_range() -> None:
    aml_instance_idle = iso_duration_between(15 * 60, 3 * 24 * 3600, "PT15M", "P3D")

    assert aml_instance_idle("P3D") == "P3D"
    with pytest.raises(ValueError, match=r"'PT14M' \(840 seconds\) is out of range; allowed: PT15M to P3D"):
        aml_instance_idle("PT14M")
