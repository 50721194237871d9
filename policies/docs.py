"""The dated statements of docs/policies.md, rendered from the catalog: `make docs`
(`python -m azure_gpu_stacks.policies.docs`) rewrites each block between its markers, and a test
fails when a block differs from what the catalog renders or states what is no longer true today.

A block records the day it was rendered on, because "in N days" is only true on that day; what
it says must still hold today (the size it names still retiring), or the test asks for `make docs`.
"""

from __future__ import annotations

import datetime as dt
import re
import sys
from pathlib import Path

from ..catalog import VmSize, catalog
from ..catalog.clock import utc_today
from ..catalog.verdict import size_verdict
from . import warn_retiring_vm_sizes

DOC_FILE = Path(__file__).resolve().parents[1] / "docs" / "policies.md"
BLOCK = re.compile(
    r"<!-- (?P<name>[a-z-]+): rendered from the catalog by `make docs` on (?P<day>\d{4}-\d{2}-\d{2}) -->\n"
    r"(?P<body>.*?)"
    r"<!-- end (?P=name) -->",
    flags=re.DOTALL,
)


def retiring_example(day: dt.date) -> VmSize:
    """The catalog size that retires soonest after `day` (by name on a tie): warn-retiring's example."""
    retiring = [s for s in catalog().sizes if s.status_on(day) == "retiring" and s.lifecycle.date is not None]
    if not retiring:
        raise LookupError(f"the catalog has no size retiring after {day}")
    return min(retiring, key=lambda s: (s.lifecycle.date, s.name))


def _warn_retiring_message(day: dt.date) -> str:
    size = retiring_example(day)
    message = warn_retiring_vm_sizes.message("hardwareProfile.vmSize", size_verdict(size.name, day))
    return f"- **Message** (on {day}): `{message}`\n"


RENDERERS = {"warn-retiring-message": _warn_retiring_message}
# Whether what a block rendered on its day says still holds on another day.
STILL_TRUE = {
    "warn-retiring-message": lambda rendered_on, day: retiring_example(rendered_on).status_on(day) == "retiring"
}


def render_block(name: str, day: dt.date) -> str:
    body = RENDERERS[name](day)
    return f"<!-- {name}: rendered from the catalog by `make docs` on {day} -->\n{body}<!-- end {name} -->"


def render(text: str, day: dt.date | None = None) -> str:
    """`text` with every block rendered on `day` (default: the day each block records)."""
    return BLOCK.sub(
        lambda m: render_block(m["name"], day or dt.date.fromisoformat(m["day"])),
        text,
    )


def untrue_blocks(text: str, day: dt.date) -> list[str]:
    """The blocks of `text` whose statement no longer holds on `day` (re-render them with `make docs`)."""
    return [m["name"] for m in BLOCK.finditer(text) if not STILL_TRUE[m["name"]](dt.date.fromisoformat(m["day"]), day)]


def main() -> int:
    DOC_FILE.write_text(render(DOC_FILE.read_text(encoding="utf-8"), utc_today()), encoding="utf-8")
    print(f"wrote {DOC_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
