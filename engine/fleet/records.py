"""A stack's result as the parts of every report, in JSON: what a cache holds and a shard carries.

A record is made once from a `Plan` (renamed to its fleet id, its stack file relative to the fleet's
root) by the functions the one-project reports are made of, so a fleet's report is the same text a
one-project check prints for the same plans. It holds only what the reports print, every secret of
the plan masked in it as the output edge masks a one-project report (`engine.secrets.Mask` of
`Plan.secret_values`: a cache file or a shard never holds one in clear, and `merge`, which has no
plan, prints them masked), and nothing of the stack's config beyond that.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from ..report.cost import COST_SECTIONS, CostNotes, cost_lines, cost_row
from ..report.markdown import stack_details, stack_row
from ..report.sarif import findings
from ..report.text import check_lines
from ..report.verdicts import counts
from ..run.outcome import NOT_PLANNED_EXIT_CODE, StackFailure
from ..run.plan import Plan
from ..secrets import Mask

Record = dict[str, Any]


def make_record(plan: Plan, stack_id: str, stack_file: str, root: Path) -> Record:
    """The record of `plan`, named `stack_id` with `stack_file` relative to `root`, as JSON would read it back."""
    plan = dataclasses.replace(plan, stack=stack_id, stack_file=stack_file)
    rules, results = findings(plan, root)
    record = {
        "stack": plan.stack,
        "exitCode": plan.exit_code,
        "counts": counts(plan),
        "asOf": plan.as_of.isoformat(),
        "text": check_lines(plan),
        "json": plan.to_json(),
        "markdownRow": stack_row(plan),
        "markdownDetails": stack_details(plan),
        "costRow": cost_row(plan),
        "costNotes": notes_json(CostNotes.of(plan.cost)),
        "costLines": cost_lines(plan),
        "sarifRules": rules,
        "sarifResults": results,
    }
    # What a cache or a shard gives back is JSON read back: a fresh record is the same, so every path
    # to a report renders the same values (tuples as lists, keys as strings).
    masked: Record = Mask(plan.secret_values).values(json.loads(json.dumps(record)))
    return masked


def make_failure_record(failure: StackFailure, stack_id: str, stack_file: str, root: Path) -> Record:
    """The record of a stack that could not be planned, named `stack_id`: an entry in every format, exit code 2.
    Its message was masked with the stack file's declared secrets where it was made (`plan_stack`)."""
    failure = dataclasses.replace(failure, stack=stack_id, stack_file=stack_file)
    rules, results = findings(failure, root)
    record = {
        "stack": failure.stack,
        "exitCode": failure.exit_code,
        "counts": counts(failure),
        "asOf": "",
        "text": check_lines(failure),
        "json": failure.to_json(),
        "markdownRow": stack_row(failure),
        "markdownDetails": stack_details(failure),
        "costRow": cost_row(failure),
        "costNotes": notes_json(CostNotes()),
        "costLines": {key: [] for key in COST_SECTIONS},
        "sarifRules": rules,
        "sarifResults": results,
    }
    made: Record = json.loads(json.dumps(record))
    return made


def derived_exit_code(record: Record) -> int:
    """The exit code a record's own findings give: what its `exitCode` must say (a record whose code was edited
    while its findings were left as they were is not served)."""
    if isinstance(record.get("json"), dict) and "error" in record["json"]:
        return NOT_PLANNED_EXIT_CODE
    found = record["counts"]
    logged = record["json"].get("errors") if isinstance(record.get("json"), dict) else None
    return 1 if found["refusals"] or found["mandatory"] or logged else 0


def notes_json(notes: CostNotes) -> dict[str, Any]:
    return {
        "regions": sorted(notes.regions),
        "oldest": notes.oldest,
        "unpriced": sorted(notes.unpriced),
        "spot": notes.spot,
        "pricesUsed": [list(row) for row in notes.prices_used],
        "sources": [list(pair) for pair in notes.sources],
        "notCounted": sorted(notes.not_counted),
    }


def notes_of(record: Record) -> CostNotes:
    data = record["costNotes"]
    oldest = data["oldest"]
    return CostNotes(
        frozenset(data["regions"]),
        None if oldest is None else ((bool(oldest[0][0]), str(oldest[0][1])), str(oldest[1])),
        frozenset(data["unpriced"]),
        bool(data["spot"]),
        tuple(tuple(str(cell) for cell in row) for row in data["pricesUsed"]),
        tuple((str(key), str(line)) for key, line in data["sources"]),
        frozenset(str(what) for what in data["notCounted"]),
    )


RECORD_KEYS = frozenset(
    {
        "stack",
        "exitCode",
        "counts",
        "asOf",
        "text",
        "json",
        "markdownRow",
        "markdownDetails",
        "costRow",
        "costNotes",
        "costLines",
        "sarifRules",
        "sarifResults",
    }
)


def record_problem(record: Any) -> str | None:
    """What is wrong with a record read from a file (None when it has the shape `make_record` gives)."""
    if not isinstance(record, dict) or set(record) != RECORD_KEYS:
        return f"allowed: a mapping with the keys {', '.join(sorted(RECORD_KEYS))}"
    shapes = {
        "stack": str,
        "exitCode": int,
        "counts": dict,
        "asOf": str,
        "text": list,
        "json": dict,
        "markdownRow": str,
        "markdownDetails": list,
        "costRow": list,
        "costNotes": dict,
        "costLines": dict,
        "sarifRules": list,
        "sarifResults": list,
    }
    for key, kind in shapes.items():
        if not isinstance(record[key], kind):
            return f"{key}: allowed: a {kind.__name__}"
    if record["exitCode"] not in (0, 1, NOT_PLANNED_EXIT_CODE):
        return f"exitCode: {record['exitCode']!r}; allowed: 0, 1 or 2"
    if not all(type(record["counts"].get(k)) is int for k in ("resources", "refusals", "mandatory", "advisory")):
        return "counts: allowed: resources, refusals, mandatory and advisory as whole numbers"
    if record["exitCode"] != (derived := derived_exit_code(record)):
        return f"exitCode: {record['exitCode']!r} disagrees with the record's own findings (they give {derived})"
    if not all(isinstance(x, str) for x in [*record["text"], *record["markdownDetails"], *record["costRow"]]):
        return "text, markdownDetails, costRow: allowed: lists of strings"
    notes = record["costNotes"]
    if set(notes) != {"regions", "oldest", "unpriced", "spot", "pricesUsed", "sources", "notCounted"}:
        return "costNotes: allowed: regions, oldest, unpriced, spot, pricesUsed, sources and notCounted"
    if not isinstance(notes["notCounted"], list) or not all(isinstance(x, str) for x in notes["notCounted"]):
        return "costNotes: notCounted: allowed: a list of strings"
    rows = [*notes["pricesUsed"], *notes["sources"]]
    if not all(isinstance(row, list) and all(isinstance(x, str) for x in row) for row in rows):
        return "costNotes: pricesUsed, sources: allowed: lists of lists of strings"
    lines = record["costLines"]
    if set(lines) != set(COST_SECTIONS) or not all(
        isinstance(found, list) and all(isinstance(x, str) for x in found) for found in lines.values()
    ):
        return f"costLines: allowed: {', '.join(COST_SECTIONS)}, each a list of strings"
    return None
