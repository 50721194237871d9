"""How the formats escape text put inside them: the one home of each escape, which the renderers apply and the
output edge's mask knows (`engine.secrets.ESCAPES`), so that a secret is masked after escaping in any form."""

from __future__ import annotations

# Mermaid's entity codes: "#quot;" and HTML character names (mermaid.js.org, "Flowcharts syntax", "Entity codes
# to escape characters", observed 2026-11-27). A backtick is written as "#96;" so that no name ends the
# ```mermaid fence it is drawn in; a line break as a space.
MERMAID_ENTITIES = {'"': "#quot;", "<": "#lt;", ">": "#gt;", "`": "#96;", "\r": " ", "\n": " "}


def cell(text: str) -> str:
    """Text safe inside a markdown table cell: no pipes or line breaks (GitHub Flavored Markdown, "Tables
    (extension)": a pipe inside a cell is escaped as `\\|`; a line break ends the row)."""
    return str(text).replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def mermaid_text(text: str) -> str:
    """Text safe inside a quoted Mermaid node label."""
    return "".join(MERMAID_ENTITIES.get(char, char) for char in str(text))
