"""Tables for people: aligned plain text for terminals, GitHub markdown for pull-request comments."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ..escapes import cell

Format = Literal["text", "markdown"]
FORMATS: tuple[Format, ...] = ("text", "markdown")


def table(
    headers: Sequence[str], rows: Sequence[Sequence[str]], fmt: Format = "text", *, right: Sequence[int] = ()
) -> str:
    """`rows` under `headers`; columns whose index is in `right` are right-aligned (numbers)."""
    if fmt == "markdown":
        rule = ["---:" if i in right else "---" for i in range(len(headers))]
        lines = [headers, rule, *rows]
        return "\n".join("| " + " | ".join(cell(str(c)) for c in line) + " |" for line in lines)
    widths = [max(len(str(line[i])) for line in [headers, *rows]) for i in range(len(headers))]

    def fit(line: Sequence[str]) -> str:
        cells = [str(c).rjust(w) if i in right else str(c).ljust(w) for i, (c, w) in enumerate(zip(line, widths))]
        return "  ".join(cells).rstrip()

    return "\n".join([fit(headers), fit(["-" * w for w in widths]), *(fit(r) for r in rows)])
