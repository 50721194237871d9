"""A policy's config options (policies/config.py): each needs a default and a description, or the pack refuses
to load; the schema the CLI is sent is the options as written. "Configuration schema is defined per policy,
and then the actual configuration can be set via a form in the Pulumi Cloud console or using a JSON file"
(https://pulumi.com/docs/using-pulumi/crossguard/configuration, observed 2026-11-27)."""

from __future__ import annotations

import pytest
from azure_gpu_stacks.policies import config

MARGIN = {"type": "number", "minimum": 0, "default": 2.0, "description": "How far above the full-scale cost."}


def test_an_option_with_a_default_and_a_description_is_advertised_as_written() -> None:
    schema = config.schema({"aboveFullScaleMargin": MARGIN})

    assert schema.properties == {"aboveFullScaleMargin": MARGIN}


@pytest.mark.parametrize("missing", ["default", "description"])
def test_an_option_without_a_default_or_a_description_is_refused_by_name(missing: str) -> None:
    option = {k: v for k, v in MARGIN.items() if k != missing}

    with pytest.raises(ValueError, match=r"^policy config property 'margin' needs a default and a description$"):
        config.schema({"ok": MARGIN, "margin": option})


def test_an_option_without_either_is_refused() -> None:
    with pytest.raises(ValueError, match="'bare'"):
        config.schema({"bare": {"type": "number"}})
