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
