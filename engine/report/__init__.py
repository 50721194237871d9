"""Plans as people and programs read them: text, JSON, markdown and SARIF, and the verdict over many."""

from __future__ import annotations

from typing import Any

# a JSON document's "formatVersion": raised when a field changes meaning or goes away
JSON_FORMAT_VERSION = 1


def versioned(document: dict[str, Any]) -> dict[str, Any]:
    """A JSON document as a command writes it: `formatVersion` first, then its own keys."""
    return {"formatVersion": JSON_FORMAT_VERSION, **document}
