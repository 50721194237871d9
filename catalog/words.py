"""Counted nouns in what the toolkit says: "1 stack", "2 stacks", "0 findings", never "stack(s)".

The one helper for a count before a noun, in every report, warning and message (English plural: the noun plus
"s", or the plural given for a noun that does not take one).
"""

from __future__ import annotations


def counted(count: float, noun: str, plural: str | None = None) -> str:
    """`count` and `noun`, singular for exactly one: counted(1, "stack") is "1 stack", counted(0, "stack") is
    "0 stacks", counted(2, "policy", "policies") is "2 policies"; a whole float is written as a whole number."""
    shown = f"{count:g}" if isinstance(count, float) else str(count)
    return f"{shown} {noun if count == 1 else (plural or noun + 's')}"
