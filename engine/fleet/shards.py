"""`check --shard K/N` and `gpu-stacks merge`: a deterministic share of the stacks balanced by work, and its files.

The shards split the run's stacks (in its order: project directory, then stack name, after `--affected`
and STACK arguments) by the work each is estimated at before anything is planned (`weight`: the values
its stack file configures, plus a plan's fixed cost): heaviest first, each stack goes to the shard with
the least work so far (ties: the one with fewer stacks, then the lower K), ties between stacks by their
place in the order. Every shard computes the same split from the same files, so the same inputs always
give the same shards, and stacks that cost alike are spread evenly however they are laid out (placing
every N-th stack in one shard put all of a repository's periodic heavy stacks together). A shard writes
JSON Lines (one JSON document per line, https://jsonlines.org): a header naming the shard, the run it
belongs to (a hash of everything that changes results or the split, so shards of different runs, days,
options or files are never merged) and what the merged report needs besides the stacks; then one line
per stack, its place in the order, why it was checked and its record (`records`). `merge` reads the
lines of all shards in order, one at a time (never a whole file), after checking every file and that
each place is in exactly one shard, so a bad file writes nothing.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, TypeVar

import yaml

from ...inputs.files import InputFileError, parse_record_json, read_head
from ..errors import InputError
from .records import Record, record_problem
from .render import Affected, Entry

SHARD_FORMAT = "gpu-stacks-shard/1"
SHARD = re.compile(r"^([1-9][0-9]{0,3})/([1-9][0-9]{0,3})$")
MAX_LINE_BYTES = 64 * 1024 * 1024
# A plan's fixed cost (Pulumi's runtime, the program's child process, the pack) in values of a stack file:
# plans of 3-value files took 0.12 s, of 30-41 values 0.27-0.34 s, about 0.105 s + 0.0056 s a value
# (bench/README.md, 2026-11-25). Only the balance of the shards depends on it, never what they hold together.
PLAN_FLOOR_VALUES = 20
MAX_WEIGHED_BYTES = 1024 * 1024  # of a stack file read to weigh it; the rest is not counted
# libyaml's parser where PyYAML has it (a thousand stack files weighed in 0.06 s), else PyYAML's own
_EVENTS = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
T = TypeVar("T")


def parse_shard(text: str) -> tuple[int, int]:
    """argparse type for --shard: `K/N` with 1 <= K <= N <= 9999."""
    import argparse

    match = SHARD.match(text)
    if not match or int(match[1]) > int(match[2]):
        raise argparse.ArgumentTypeError(f"{text!r}; allowed: K/N, whole numbers with 1 <= K <= N <= 9999, e.g. 3/8")
    return int(match[1]), int(match[2])


def weight(stack_file: Path) -> int:
    """The work a stack's plan is estimated at before planning: the scalars (keys and values) of its stack
    file, YAML or JSON, plus `PLAN_FLOOR_VALUES`; a file that cannot be read or parsed counts what was read."""
    try:
        text = read_head(stack_file, MAX_WEIGHED_BYTES).decode("utf-8", "replace")
    except InputFileError:  # a FIFO or a device is never opened: it weighs the floor
        text = ""
    values = 0
    try:
        for event in yaml.parse(text, Loader=_EVENTS):
            values += isinstance(event, yaml.ScalarEvent)
    except yaml.YAMLError:
        pass  # a file a plan will refuse: what parsed is its weight, the same in every shard
    return PLAN_FLOOR_VALUES + values


def assign(weights: Sequence[int], count: int) -> list[int]:
    """The shard (0 for 1/N) of each place, whose work is `weights[place]`: heaviest first, each to the
    shard with the least work so far (then fewer stacks, then the lower shard), equal weights by place."""
    held: list[tuple[int, int, int]] = [(0, 0, shard) for shard in range(count)]  # (work, stacks, shard)
    shards = [0] * len(weights)
    for place in sorted(range(len(weights)), key=lambda p: (-weights[p], p)):
        work, stacks, shard = heapq.heappop(held)
        shards[place] = shard
        heapq.heappush(held, (work + weights[place], stacks + 1, shard))
    return shards


def share(items: Sequence[T], weights: Sequence[int], shard: tuple[int, int]) -> list[tuple[int, T]]:
    """(place, item) of the items shard K of N checks, in the run's order."""
    index, count = shard
    chosen = assign(weights, count)
    return [(place, item) for place, item in enumerate(items) if chosen[place] == index - 1]


def header(
    shard: tuple[int, int], run: str, total: int, pack_rules: dict[str, Any], affected: Affected | None
) -> dict[str, Any]:
    return {
        "format": SHARD_FORMAT,
        "shard": f"{shard[0]}/{shard[1]}",
        "run": run,
        "stacks": total,
        "packRules": pack_rules,
        "affected": None if affected is None else {"base": affected.base, "unchanged": list(affected.unchanged)},
    }


def line(place: int, reasons: list[str], record: Record) -> dict[str, Any]:
    return {"place": place, "reasons": reasons, "record": record}


@dataclass(frozen=True)
class ShardFile:
    path: Path
    shard: tuple[int, int]
    run: str
    stacks: int
    pack_rules: dict[str, Any]
    affected: Affected | None

    def entries(self) -> Iterator[tuple[int, Entry]]:
        """(place, entry) of each stack line, checked, in the file's order."""
        with _open(self.path) as handle:
            _read_line(handle, self.path, 1)
            last = -1
            number = 1
            while True:
                number += 1
                data = _read_line(handle, self.path, number)
                if data is None:
                    return
                where = f"{self.path}:{number}"
                if not isinstance(data, dict) or set(data) != {"place", "reasons", "record"}:
                    raise InputError(f"{where}: allowed: a mapping with place, reasons and record")
                place, reasons, record = data["place"], data["reasons"], data["record"]
                if type(place) is not int or not last < place < self.stacks:
                    raise InputError(f"{where}: place: {place!r}; allowed: increasing places below {self.stacks}")
                if not isinstance(reasons, list) or not all(isinstance(r, str) for r in reasons):
                    raise InputError(f"{where}: reasons: allowed: a list of strings")
                if problem := record_problem(record):
                    raise InputError(f"{where}: record: {problem}")
                last = place
                yield place, (record, reasons)


def _open(path: Path) -> IO[bytes]:
    try:
        if not path.is_file():
            raise InputError(f"{path}: no such shard file; allowed: a file `gpu-stacks check --shard K/N` wrote")
        return path.open("rb")
    except OSError as exc:
        raise InputError(f"{path}: cannot be read: {exc.strerror}") from None


def _read_line(handle: IO[bytes], path: Path, number: int) -> Any:
    raw = handle.readline(MAX_LINE_BYTES + 1)
    if not raw:
        return None
    if len(raw) > MAX_LINE_BYTES:
        raise InputError(f"{path}:{number}: a line longer than 64 MiB; allowed: a shard file gpu-stacks wrote")
    try:
        return parse_record_json(raw, f"{path}:{number}")
    except InputFileError as exc:
        raise InputError(f"{exc}; allowed: a shard file gpu-stacks wrote") from None


def read_header(path: Path) -> ShardFile:
    with _open(path) as handle:
        data = _read_line(handle, path, 1)
    keys = {"format", "shard", "run", "stacks", "packRules", "affected"}
    if not isinstance(data, dict) or data.get("format") != SHARD_FORMAT or set(data) != keys:
        raise InputError(
            f"{path}:1: not a gpu-stacks shard ({SHARD_FORMAT}); allowed: a file `gpu-stacks check --shard K/N` wrote"
        )
    match = SHARD.match(str(data["shard"]))
    if not match or int(match[1]) > int(match[2]):
        raise InputError(f"{path}:1: shard: {data['shard']!r}; allowed: K/N with 1 <= K <= N")
    if type(data["stacks"]) is not int or data["stacks"] < 0 or not isinstance(data["run"], str):
        raise InputError(f"{path}:1: stacks, run: allowed: a whole number and the run's hash")
    if not isinstance(data["packRules"], dict):
        raise InputError(f"{path}:1: packRules: allowed: a mapping of rule ids to SARIF rules")
    affected = data["affected"]
    if affected is not None and not (
        isinstance(affected, dict)
        and isinstance(affected.get("base"), str)
        and isinstance(affected.get("unchanged"), list)
        and all(isinstance(s, str) for s in affected["unchanged"])
    ):
        raise InputError(f"{path}:1: affected: allowed: null, or base and a list of unchanged stacks")
    return ShardFile(
        path,
        (int(match[1]), int(match[2])),
        data["run"],
        data["stacks"],
        data["packRules"],
        None if affected is None else Affected(affected["base"], tuple(affected["unchanged"])),
    )


class Merged:
    """The shards of one run, checked to be all of them; `entries()` is a new pass over them in order."""

    def __init__(self, paths: Sequence[Path]):
        self.shards = [read_header(path) for path in paths]
        first = self.shards[0]
        count = first.shard[1]
        for shard in self.shards[1:]:
            if (shard.run, shard.shard[1], shard.stacks) != (first.run, count, first.stacks):
                raise InputError(
                    f"{shard.path}: shard {shard.shard[0]}/{shard.shard[1]} of another run than {first.path} "
                    "(other stacks, options, day or gpu-stacks); allowed: the shards of one run"
                )
        given = sorted(s.shard[0] for s in self.shards)
        if given != list(range(1, count + 1)):
            missing = sorted(set(range(1, count + 1)) - set(given))
            twice = sorted({k for k in given if given.count(k) > 1})
            raise InputError(
                f"merge: shards of {count}: "
                + (f"missing {', '.join(f'{k}/{count}' for k in missing)}" if missing else "")
                + ("; " if missing and twice else "")
                + (f"given twice {', '.join(f'{k}/{count}' for k in twice)}" if twice else "")
                + f"; allowed: each of 1/{count} to {count}/{count} once"
            )
        self.pack_rules = first.pack_rules
        self.affected = first.affected
        expected = 0
        for place, _ in self._ordered():  # every line checked before anything is written
            if place < expected:
                raise InputError(f"merge: the stack at place {place} of {first.stacks} is in two shards")
            if place > expected:
                raise InputError(f"merge: the stack at place {expected} of {first.stacks} is in no shard")
            expected += 1
        if expected != first.stacks:
            raise InputError(f"merge: {expected} of {first.stacks} stacks in the shards; allowed: shards whole")

    def _ordered(self) -> Iterator[tuple[int, Entry]]:
        return heapq.merge(*(s.entries() for s in self.shards), key=lambda item: item[0])

    def entries(self) -> Iterator[Entry]:
        return (entry for _, entry in self._ordered())
