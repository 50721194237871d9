"""`gpu-stacks check --root DIR` (and `--affected`, `--shard`, the cache): many projects, one verdict.

The stacks of every project under the root are put in one order (project directory, then stack
name); `--affected BASE` keeps those a change can alter (`affected`), `--shard K/N` a 1/N share of
those, balanced by their estimated work (`shards`). Each stack's record comes from the cache when its
key is there (`cache`), else from planning it exactly as a one-project check does (on `--jobs`
workers) and is stored. The report is streamed from the records (`render`), or, with `--shard`, the
shard's JSON Lines are written for `gpu-stacks merge`.
"""

from __future__ import annotations

import argparse
import datetime as dt
import difflib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from ..errors import InputError
from ..fleet.cache import (
    Cache,
    Keys,
    combine,
    default_directory,
    environment_digest,
    run_digest,
)
from ..fleet.discover import Fleet, FleetStack, Member, find_fleet
from ..fleet.records import Record, make_failure_record, make_record
from ..fleet.render import Affected, Entry
from ..fleet.shards import header, line, share, weight
from ..installed import package_directories
from ..run.outcome import NOT_PLANNED_EXIT_CODE
from . import options
from .options import Target
from .said import Said

if TYPE_CHECKING:
    from ..run.policy_config import PolicySettings

# the checked --policy-config settings and the run's one day (`options.run_settings`)
RunSettings: TypeAlias = "tuple[dict[str, PolicySettings], dt.date]"

FLEET_OPTIONS = ("root", "affected", "shard", "cache_dir", "no_cache")


def wanted(args: argparse.Namespace) -> bool:
    """Whether the check is a fleet's: --root or any option only a fleet has."""
    return any(getattr(args, name) not in (None, False) for name in FLEET_OPTIONS)


def run(args: argparse.Namespace, targets: list[Target]) -> Said:
    """The check of every stack under the root (or the shard's share), in each format of `targets`."""
    if args.root is not None and args.project is not None:
        raise InputError("--root and --project: allowed: one of them (--root checks every project under DIR)")
    if args.shard is not None and targets != [("text", None)]:
        named = next(fmt for fmt, _ in targets if fmt != "text" or _ is not None)
        raise InputError(
            f"--shard with --format {named}: allowed: --shard alone "
            "(a shard writes JSON Lines; `gpu-stacks merge` writes the report in any format)"
        )
    said = Said()
    root = args.root if args.root is not None else options.project_dir(args.project)
    # --affected, --shard or the cache options on one project check that project's stacks, as a plain check
    # does: never every project below it (test fixtures, examples), which only --root asks for
    fleet = find_fleet(root) if args.root is not None else _one_project(root)
    for other in fleet.not_python:
        print(f"gpu-stacks: note: {other}: not checked (gpu-stacks runs Python programs)", file=sys.stderr)
    stacks = _named(fleet, args.stacks)
    settings, day = options.run_settings(args)  # the run's one day, also the cache's and --affected's
    reasons: dict[str, list[str]] = {}
    affected = None
    base_commit = ""
    if args.affected is not None:
        from ..fleet.affected import read_change, select

        change = read_change(root, args.affected)
        base_commit = change.commit
        reasons = select(fleet, stacks, change, day, _input_files(args), package_directories(), args.stack_outputs)
        affected = Affected(args.affected, tuple(s.id for s in stacks if s.id not in reasons))
        stacks = [s for s in stacks if s.id in reasons]
    cache = None if args.no_cache else Cache(args.cache_dir or default_directory())
    run_hash = run_digest(args, day.isoformat(), root)
    keys = Keys(fleet, environment_digest(), run_hash) if cache is not None else None
    weights = [weight(s.file) for s in stacks] if args.shard is not None else []
    chosen = share(stacks, weights, args.shard) if args.shard is not None else list(enumerate(stacks))
    records = _records(args, fleet, [s for _, s in chosen], cache, keys, (settings, day), said)
    entries: list[Entry] = [(record, reasons.get(s.id, [])) for (_, s), record in zip(chosen, records)]
    rules = _pack_rules(cache)
    if args.shard is not None:
        identity = combine(
            [
                environment_digest(),
                run_hash,
                args.affected or "",
                base_commit,
                str(args.shard[1]),
                *(s.id for s in stacks),
                *map(str, weights),  # the split: shards of files that weigh otherwise are another run's
            ]
        )
        said.text(json.dumps(header(args.shard, identity, len(stacks), rules(), affected)))
        for (place, _), (record, why) in zip(chosen, entries):
            said.text(json.dumps(line(place, why, record)))
        worst = max((record["exitCode"] for record, _ in entries), default=0)
        advisory = sum(record["counts"]["advisory"] for record, _ in entries)
        said.exit_code = options.judged(worst, advisory, args.fail_level)  # each record keeps its own code for merge
        return said
    return options.reported(said, targets, lambda: iter(entries), rules, affected, args.fail_level, args.sarif_category)


def _one_project(root: Path) -> Fleet:
    from ..run.project import load_project

    root = root.resolve()  # as find_fleet: programs run in their own directory
    return Fleet(root, (Member(".", load_project(root)),), ())


def _named(fleet: Fleet, names: list[str]) -> list[FleetStack]:
    stacks = fleet.stacks()
    if not names:
        if not stacks:
            raise InputError(f"--root {fleet.root}: no stack files in any project under it")
        return stacks
    by_id = {s.id: s for s in stacks}
    unknown = [n for n in names if n not in by_id]
    if unknown:
        guess = difflib.get_close_matches(unknown[0], list(by_id), n=1)
        known = ", ".join(guess or list(by_id)[:5]) + ("" if guess or len(by_id) <= 5 else ", ...")
        hint = "did you mean" if guess else "allowed: DIR:STACK such as"
        raise InputError(f"unknown stack {unknown[0]!r} under {fleet.root}; {hint} {known}")
    return [by_id[n] for n in dict.fromkeys(names)]


def _input_files(args: argparse.Namespace) -> list[tuple[str, Path]]:
    files = [("--usage", args.usage), ("--aml-usage", args.aml_usage), ("--skus", args.skus)]
    files += [("--policy-config", args.policy_config)]
    files += [("--existing", path) for path in args.existing]
    files += [("--stack-outputs", Path(value.partition("=")[2])) for value in args.stack_outputs]
    return [(option, path) for option, path in files if path is not None]


def _records(
    args: argparse.Namespace,
    fleet: Fleet,
    stacks: list[FleetStack],
    cache: Cache | None,
    keys: Keys | None,
    run: RunSettings,
    said: Said,
) -> list[Record]:
    """Each stack's record, from the cache or planned (and stored), in the order given."""
    found: dict[int, Record] = {}
    key_of: dict[int, str] = {}
    if cache is not None and keys is not None:
        for index, stack in enumerate(stacks):
            if (key := keys.key(stack)) is None:
                continue
            key_of[index] = key
            if (hit := cache.get(key)) is not None:
                found[index] = hit
        for problem in keys.unkeyable.values():  # a special file is named, never opened; its stacks are planned
            print(
                f"gpu-stacks: warning: {problem}; its project's stacks are planned without the cache", file=sys.stderr
            )
    missing = [index for index in range(len(stacks)) if index not in found]
    if missing:
        planned = _plan([stacks[i] for i in missing], args, fleet.root, run)
        for index, record in zip(missing, planned):
            found[index] = record
            if record["exitCode"] == NOT_PLANNED_EXIT_CODE:  # said here, in order, whichever worker planned it
                said.error(f"{record['stack']}: {record['json']['error']}")
            if (
                cache is not None and index in key_of and record["exitCode"] != NOT_PLANNED_EXIT_CODE
            ):  # a failure may pass next time
                cache.put(key_of[index], record)
    return [found[index] for index in range(len(stacks))]


def _plan(stacks: list[FleetStack], args: argparse.Namespace, root: Path, run: RunSettings) -> list[Record]:
    from ...inputs.files import elided
    from ..run.outcome import StackFailure, named
    from ..run.parallel import run_forked
    from ..run.plan import plan_stack
    from ..run.sdk_types import read_classes_of_json

    settings, day = run
    reference = options.reference(args)
    limits = options.limits(args)

    def task(stack: FleetStack) -> Record:
        """The stack's record; a stack that cannot be planned is a record of its own (one line, exit code 2),
        and every other stack is still planned."""
        project = stack.member.project
        try:
            plan = plan_stack(project, stack.name, reference, day=day, policy_settings=settings, limits=limits)
        except InputError as exc:
            failure = StackFailure(project.name, stack.id, named(project, stack.name)[1], elided(str(exc)))
            return make_failure_record(failure, stack.id, stack.member.path(failure.stack_file), root)
        return make_record(plan, stack.id, stack.member.path(plan.stack_file), root)

    def died(stack: FleetStack, why: str) -> Record:  # a worker killed, crashed or past its deadline
        failure = StackFailure(stack.member.project.name, stack.id, named(stack.member.project, stack.name)[1], why)
        return make_failure_record(failure, stack.id, stack.member.path(failure.stack_file), root)

    def learn(record: Record) -> None:  # the SDK's reading of a plan's classes, for the programs forked later
        read_classes_of_json(record.get("json", {}).get("resources"))

    return run_forked(
        task,
        stacks,
        args.jobs,
        options.progress(args),
        lambda s: s.id,
        failed=died,
        timeout_s=limits.timeout_s,
        learn=learn,
    )


def _pack_rules(cache: Cache | None) -> Callable[[], dict[str, Any]]:
    """SARIF's rule per policy of the pack, kept in the cache with the environment's hash (loading the pack
    imports the SDKs, seconds that a run served from the cache does not otherwise spend)."""

    def rules() -> dict[str, Any]:
        key = combine([environment_digest(), "pack-rules"])
        if cache is not None and isinstance(held := cache.get_document(key), dict):
            return held
        from ..report.sarif import pack_rules

        made: dict[str, Any] = json.loads(json.dumps(pack_rules()))
        if cache is not None:
            cache.put_document(key, made)
        return made

    return rules
