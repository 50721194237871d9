"""Every policy's configuration schema (policies/config.py): each property the pack lets a user set has a default and
a description (docs/policies.md shows both), and the schema handed to Pulumi holds exactly the properties given."""

from __future__ import annotations

from typing import Any

import pytest
from azure_gpu_stacks.policies import config

MAX_IDLE = {"type": "number", "default": 30, "description": "Longest allowed idle time, in minutes."}


def test_a_schema_holds_each_property_as_given() -> None:
    schema = config.schema({"maxIdleMinutes": MAX_IDLE})

    assert schema.properties == {"maxIdleMinutes": MAX_IDLE}


@pytest.mark.parametrize("missing", ["default", "description"])
def test_a_property_without_a_default_or_a_description_is_refused_by_name(missing: str) -> None:
    spec: dict[str, Any] = {k: v for k, v in MAX_IDLE.items() if k != missing}

    with pytest.raises(
        ValueError, match=r"^policy config property 'maxIdleMinutes' needs a default and a description$"
    ):
        config.schema({"maxIdleMinutes": spec})


class _Args:
    """What a policy's validate receives, as far as config.values reads it: the config the CLI sent."""

    def __init__(self, given: Any) -> None:
        self._given = given

    def get_config(self) -> Any:
        return self._given


# JSON Schema's validation keywords as the Pulumi CLI applies them to --policy-pack-config (json-schema.org,
# "JSON Schema Validation", draft 2020-12, sections 6.1.1 type, 6.2.4 minimum, 6.3.3 pattern, and Core 10.3.1.2
# items; observed 2026-11-27): an integer is a number with a zero fractional part, so 2.0 is one and 2.5 is not.
SCHEMA = config.schema(
    {
        "maxIdleMinutes": {"type": "integer", "minimum": 1, "default": 30, "description": "Idle minutes."},
        "requiredTaint": {"type": "string", "pattern": "^[a-z./-]+=", "default": "sku=gpu", "description": "Taint."},
        "ports": {"type": "array", "items": {"type": "integer"}, "default": [22, 3389], "description": "Ports."},
        "ratio": {"type": "number", "default": 0.5, "description": "A number."},
    }
)
DEFAULTS = {"maxIdleMinutes": 30, "requiredTaint": "sku=gpu", "ports": [22, 3389], "ratio": 0.5}


def test_values_that_fit_the_schema_are_used() -> None:
    given = {"maxIdleMinutes": 2.0, "requiredTaint": "nvidia.com/gpu=true", "ports": [2222], "ratio": 2}

    assert config.values(_Args(given), SCHEMA) == given


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("maxIdleMinutes", 2.5),  # not an integer
        ("maxIdleMinutes", 0),  # under its minimum
        ("maxIdleMinutes", "30"),  # a string for a number
        ("ratio", True),  # a boolean is no number
        ("requiredTaint", "GPU=yes"),  # not its pattern
        ("ports", ["22"]),  # an item of the wrong type
        ("ports", [22, 2.5]),  # JSON Schema: 2.5 is no integer
        ("ports", [22, True]),  # nor is `true`
    ],
)
def test_a_value_that_does_not_fit_falls_back_to_the_default(name: str, value: Any) -> None:
    assert config.values(_Args({name: value}), SCHEMA) == DEFAULTS


@pytest.mark.parametrize("given", [None, ["maxIdleMinutes", 5], "maxIdleMinutes=5"])
def test_a_config_that_is_not_an_object_gives_every_default(given: Any) -> None:
    assert config.values(_Args(given), SCHEMA) == DEFAULTS
