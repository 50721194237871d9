"""docs/policies.md's dated lines: rendered from the catalog by `make docs`, never stale."""

from __future__ import annotations

import datetime as dt

from azure_gpu_stacks.catalog.clock import utc_today
from azure_gpu_stacks.policies.docs import BLOCK, DOC_FILE, render, render_block, untrue_blocks

from tests.conftest import REPO


def committed() -> str:
    return DOC_FILE.read_text(encoding="utf-8")


def test_dated_lines_are_what_the_catalog_renders_on_their_day() -> None:
    assert DOC_FILE == REPO / "docs" / "policies.md"
    assert [m["name"] for m in BLOCK.finditer(committed())] == ["warn-retiring-message"]

    assert render(committed()) == committed(), "docs/policies.md differs from the catalog: run `make docs`"


def test_dated_lines_still_hold_today() -> None:
    assert untrue_blocks(committed(), utc_today()) == [], (
        "docs/policies.md says what is no longer true: run `make docs`"
    )


def test_a_line_rendered_before_a_retirement_is_untrue_after_it() -> None:
    # What the docs said before they were rendered, the day after the RTX PRO 6000 preview sizes ended
    # (2026-06-03): NVv3 "retires on 2026-09-30 (in 118 days)".
    old = render_block("warn-retiring-message", dt.date(2026, 6, 4))

    assert "which Azure retires on 2026-09-30 (in 118 days); move to Standard_NV12ads_A10_v5" in old
    assert untrue_blocks(old, dt.date(2026, 9, 29)) == []
    assert untrue_blocks(old, dt.date(2026, 11, 22)) == ["warn-retiring-message"]
