"""One report out of records, streamed: the text, JSON, markdown or SARIF `gpu-stacks check` prints.

The records are read in passes (the totals first, as the markdown heading and SARIF's rules come
before the stacks), each pass a new iteration over where they are (a list, or shard files on disk),
so merging shards holds one record at a time, whatever the number of stacks. JSON documents are
written by `json.dumps` around the list of stacks or results, which is streamed element by element in
the layout `json.dumps(..., indent=2)` gives it; the bytes are those of dumping the whole document.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ...catalog.words import counted
from ..escapes import cell
from ..report import JSON_FORMAT_VERSION, versioned
from ..report.check_total import total_json, total_lines
from ..report.cost import COST_HEADERS, COST_RIGHT, CostNotes, cost_sections, total_row
from ..report.cost_total import CostTotal
from ..report.junit import render_junit
from ..report.markdown import days_text, heading
from ..report.sarif import sarif_document
from ..report.tables import table
from ..report.verdicts import total
from .records import Record, notes_of

Entry = tuple[Record, list[str]]  # a stack's record and why it was checked (--affected), in report order
Entries = Callable[[], Iterator[Entry]]  # a new pass over the entries each call


@dataclass(frozen=True)
class Affected:
    """What `--affected BASE` left out: the stacks a change cannot alter, by id."""

    base: str
    unchanged: tuple[str, ...]


@dataclass
class Totals:
    """What one pass over the entries reduces to: the summary, the days, the cost notes and SARIF's rules."""

    summary: dict[str, Any]
    days: set[str] = field(default_factory=set)
    notes: CostNotes = field(default_factory=CostNotes)
    rules: dict[str, dict[str, Any]] = field(default_factory=dict)
    cost: CostTotal = field(default_factory=CostTotal)


def totals(entries: Entries, pack_rules: dict[str, dict[str, Any]]) -> Totals:
    found = Totals(summary={}, rules=dict(pack_rules))

    def each() -> Iterator[tuple[str, int, dict[str, int]]]:
        for record, _ in entries():
            if record["asOf"]:  # a stack not planned was judged on no day
                found.days.add(record["asOf"])
            found.notes = found.notes.then(notes_of(record))
            found.cost = found.cost.then(CostTotal.of_stack(None if "error" in record["json"] else _cost_json(record)))
            for rule in record["sarifRules"]:
                found.rules.setdefault(rule["id"], rule)
            yield record["stack"], record["exitCode"], record["counts"]

    found.summary = total(each())
    return found


def _cost_json(record: Record) -> dict[str, Any]:
    """A planned stack's cost in its record (an empty one, a lower bound of 0, where a record lacks it)."""
    cost = record["json"].get("cost")
    return cost if isinstance(cost, dict) else {}


def report_chunks(
    fmt: str,
    entries: Entries,
    pack_rules: Callable[[], dict[str, dict[str, Any]]],
    affected: Affected | None,
    sarif_category: str | None = None,
) -> tuple[int, int, Callable[[], Iterator[str]]]:
    """The report's exit code (the worst stack's), its number of advisory notes and its text in `fmt`, made chunk
    by chunk as it is written."""
    found = totals(entries, pack_rules() if fmt == "sarif" else {})
    policies = list(pack_rules()) if fmt == "junit" else []
    return (
        int(found.summary["exitCode"]),
        int(found.summary["advisory"]),
        lambda: _chunks(fmt, entries, found, affected, policies, sarif_category),
    )


def _chunks(
    fmt: str, entries: Entries, found: Totals, affected: Affected | None, policies: list[str], category: str | None
) -> Iterator[str]:
    if fmt == "json":
        document: dict[str, Any] = {
            "formatVersion": JSON_FORMAT_VERSION,
            "stacks": _STREAMED,
            "summary": found.summary,
            "costTotal": total_json(found.cost),
            "exitCode": found.summary["exitCode"],
        }
        if affected is not None:
            document["affected"] = _affected_json(entries, affected)
        # each stack as `plan --json` prints it
        yield from dump_streamed(document, (versioned(record["json"]) for record, _ in entries()))
        yield "\n"
    elif fmt == "markdown":
        yield from (line + "\n" for line in _markdown(entries, found, affected))
    elif fmt == "junit":
        yield render_junit((record["json"] for record, _ in entries()), policies)
    elif fmt == "sarif":
        results = (result for record, _ in entries() for result in record["sarifResults"])
        yield from dump_streamed(sarif_document(found.rules, _STREAMED, category=category), results)
        yield "\n"
    else:
        for record, _ in entries():
            for line in record["text"]:
                yield line + "\n"
        for line in total_lines(found.cost):
            yield line + "\n"
        if affected is not None:
            for line in _affected_text(entries, affected):
                yield line + "\n"


# Where the streamed list goes in a document dumped around it: a string json.dumps writes as itself.
_STREAMED = "\u0000streamed\u0000"


def dump_streamed(document: Any, items: Iterable[Any]) -> Iterator[str]:
    """`json.dumps(document, indent=2)` with `items` in place of the one `_STREAMED` value, item by item."""
    text = json.dumps(document, indent=2)
    head, tail = text.split(json.dumps(_STREAMED))
    line = head.rsplit("\n", 1)[-1]
    outer = " " * (len(line) - len(line.lstrip(" ")))
    inner = outer + "  "
    yield head
    first = True
    for item in items:
        yield ("[\n" if first else ",\n") + inner + json.dumps(item, indent=2).replace("\n", "\n" + inner)
        first = False
    yield "[]" if first else f"\n{outer}]"
    yield tail


def _markdown(entries: Entries, found: Totals, affected: Affected | None) -> Iterator[str]:
    """The markdown report, line by line."""
    yield from heading(found.summary, days_text(found.days))
    for record, _ in entries():
        yield record["markdownRow"]
    for record, _ in entries():
        yield from record["markdownDetails"]
    yield from ["", "#### Cost", "", *table(COST_HEADERS, [], "markdown", right=COST_RIGHT).split("\n")]
    sections = []  # each stack's lines under the table, as `cost_table` renders them for one project's check
    for record, _ in entries():
        yield table(COST_HEADERS, [record["costRow"]], "markdown", right=COST_RIGHT).split("\n")[-1]
        sections.append(record["costLines"])
    if found.cost.rows > 1:
        yield table(COST_HEADERS, [total_row(found.cost)], "markdown", right=COST_RIGHT).split("\n")[-1]
    for block in cost_sections(sections, "markdown"):
        yield ""
        yield block
    yield ""
    yield found.notes.text("markdown")
    if affected is not None:
        yield ""
        checked = [(record["stack"], reasons) for record, reasons in entries()]
        yield f"#### Affected since `{cell(affected.base)}`: {counted(len(checked), 'stack')} checked"
        yield ""
        if checked:
            yield "| Stack | Why it was checked |"
            yield "| --- | --- |"
            for stack, reasons in checked:
                yield f"| `{cell(stack)}` | {cell('; '.join(reasons))} |"
            yield ""
        yield f"<details><summary>{counted(len(affected.unchanged), 'stack')} unchanged, not checked</summary>"
        yield ""
        for stack in affected.unchanged:
            yield f"- `{cell(stack)}`"
        yield ""
        yield "</details>"


def _affected_json(entries: Entries, affected: Affected) -> dict[str, Any]:
    return {
        "base": affected.base,
        "checked": [{"stack": record["stack"], "reasons": reasons} for record, reasons in entries()],
        "unchanged": list(affected.unchanged),
    }


def _affected_text(entries: Entries, affected: Affected) -> Iterator[str]:
    checked = [(record["stack"], reasons) for record, reasons in entries()]
    yield ""
    checked_count, unchanged = counted(len(checked), "stack"), len(affected.unchanged)
    yield f"Affected since {affected.base}: {checked_count} checked, {unchanged} unchanged."
    for stack, reasons in checked:
        yield f"  checked {stack}: {'; '.join(reasons)}"
    for stack in affected.unchanged:
        yield f"  unchanged {stack}"
