"""A cache of stack results that cannot lie: each record is stored under a key made of everything
that can change it, so a hit is the record a fresh run would make, byte for byte.

The key of a stack (`stack_key`) is a SHA-256 over
- the environment: this cache's format, the Python version, every installed distribution and its
  version, and the bytes of every file of the installed azure-gpu-stacks (its catalog included);
- the run: the day verdicts are judged on, every option that changes a plan, and the bytes of each
  file an option names (`--usage`, `--aml-usage`, `--skus`, `--existing`, `--policy-config`,
  `--stack-outputs`), the identity `pulumi up` runs as (as the environment decides it), and where the
  fleet's root is from the working directory (SARIF paths are relative to it);
- the stack: its name and project directory, its stack file, and every other file of its project
  (the program, its modules, `stack-outputs/`, data files) but the other stacks' files; the
  modules it imports from elsewhere under the root; and, when the program has dependencies that
  cannot be read statically (`imports`), every file under the root, other stacks' included.
A program that reads files outside the root at run time is the one thing the key cannot see.

The cache is a directory of `<key>.json` files, written whole to a temporary name and renamed, so
runs sharing it (GitHub Actions' cache restores one directory into each job) never see half a
file; a file that does not parse or whose key differs is a miss. It holds records (`records`): what
the reports print, secrets already masked there, and no file's contents; files are named by hashes.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import json
import os
import sys
import tempfile
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from packaging.utils import canonicalize_name

from ...inputs.files import (
    InputFileError,
    NotRegularFileError,
    TooLargeFileError,
    digest_regular,
    parse_record_json,
    read_bytes,
)
from ..installed import package_directories
from ..run.project import STACK_FILE
from .discover import SKIPPED_DIRECTORIES, Fleet, FleetStack, Member
from .imports import program_graph
from .records import Record, record_problem

CACHE_FORMAT = "gpu-stacks-fleet-cache/2"


def default_directory() -> Path:
    """`$XDG_CACHE_HOME/gpu-stacks/check`, else `~/.cache/gpu-stacks/check`."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gpu-stacks" / "check"


class Unkeyable(Exception):
    """A file whose bytes cannot be hashed whole (not a regular file, or over `MAX_KEYED_BYTES`): what
    depends on it cannot be keyed, so it is planned afresh and not stored; the message is one line."""


# The most of one file a key hashes; a larger file makes its stacks uncached, never keyed by less.
MAX_KEYED_BYTES = 256 * 1024 * 1024


def file_digest(path: Path, label: str | None = None) -> str:
    """SHA-256 of the file's bytes, read by the untrusted reader (a FIFO, a device, a socket is never
    opened); "missing" or "unreadable" when there are none to read; Unkeyable when they cannot be had whole."""
    try:
        return digest_regular(path, MAX_KEYED_BYTES, label)
    except FileNotFoundError:
        return "missing"
    except (NotRegularFileError, TooLargeFileError) as exc:
        raise Unkeyable(str(exc)) from None
    except (OSError, InputFileError):
        return "unreadable"


def option_digest(path: Path) -> str:
    """A named input file's digest for the run's key; one that cannot be hashed is refused by its own reader."""
    try:
        return file_digest(path)
    except Unkeyable as exc:
        return f"unkeyable: {exc}"


def combine(parts: Iterable[str]) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode("utf-8", "surrogateescape"))
        digest.update(b"\0")
    return digest.hexdigest()


def installed_versions() -> dict[str, str]:
    """Each installed distribution's version, as Python finds it: the first of its name on `sys.path`, as
    `importlib.metadata.version` reads it (a copy later on the path, such as the `.egg-info` setuptools leaves in a
    checkout that is also on the path, is shadowed: it changes nothing a run imports). Names compared as packaging
    normalizes them (`canonicalize_name`, as the policy pack's own distribution is found: `run.policy_pack`)."""
    found: dict[str, str] = {}
    for distribution in importlib.metadata.distributions():
        found.setdefault(canonicalize_name(str(distribution.metadata["Name"])), distribution.version)
    return found


@cache
def environment_digest() -> str:
    parts = [CACHE_FORMAT, sys.version]
    parts += sorted(f"{name}=={version}" for name, version in installed_versions().items())
    for directory in package_directories():
        for path in sorted(_files(directory, directory)):
            parts += [path.relative_to(directory.parent).as_posix(), option_digest(path)]
    return combine(parts)


def _files(directory: Path, root: Path, skip: frozenset[Path] = frozenset()) -> Iterable[Path]:
    """Regular files under `directory`, not in skipped, hidden or nested-project directories (`skip`)."""
    for current, subdirectories, names in os.walk(directory):
        here = Path(current)
        subdirectories[:] = sorted(
            d
            for d in subdirectories
            if not d.startswith(".") and d not in SKIPPED_DIRECTORIES and (here / d).resolve() not in skip
        )
        for name in sorted(names):
            if not name.endswith((".pyc", ".pyo")):
                yield here / name


def run_digest(args: Any, day: str, root: Path) -> str:
    """Everything about the run, beyond the projects, that can change a stack's result."""
    from ..run.plan import IDENTITIES, deployer_type

    files = [("usage", args.usage), ("aml-usage", args.aml_usage), ("skus", args.skus)]
    files += [("policy-config", args.policy_config)]
    files += [("existing", path) for path in args.existing]
    parts = [day, args.organization, str(args.timeout), str(args.memory_limit)]
    parts.append(IDENTITIES[args.identity] if args.identity else deployer_type(os.environ))
    for option, path in files:
        parts += [option, "" if path is None else f"{path}={option_digest(path)}"]
    for value in args.stack_outputs:
        name, _, file = value.partition("=")
        parts += ["stack-outputs", name, file, option_digest(Path(file))]
    parts.append(os.path.relpath(root.resolve(), Path.cwd().resolve()))
    return combine(parts)


class Keys:
    """The cache key of each stack of a fleet, hashing each project's files once. A stack that depends on
    a file that cannot be hashed whole has no key (`key` is None) and `unkeyable` says why, once per file."""

    def __init__(self, fleet: Fleet, environment: str, run: str):
        self.fleet = fleet
        self.base = combine([environment, run])
        nested = frozenset(m.project.root.resolve() for m in fleet.members)
        self._nested = nested
        self._projects: dict[str, tuple[list[str], dict[str, list[str]]] | Unkeyable] = {}
        self._root: str | Unkeyable | None = None
        self.unkeyable: dict[str, str] = {}  # the project directory -> the one line that says why

    def _project(self, member: Member) -> tuple[list[str], dict[str, list[str]]] | Unkeyable:
        """(digest parts of the project's files but its stack files, {stack: digest parts of its files})."""
        if member.directory not in self._projects:
            try:
                self._projects[member.directory] = self._hash_project(member)
            except Unkeyable as exc:
                self._projects[member.directory] = exc
                self.unkeyable[member.directory] = str(exc)
        return self._projects[member.directory]

    def _hash_project(self, member: Member) -> tuple[list[str], dict[str, list[str]]]:
        project = member.project
        root = project.root.resolve()
        stack_dir = project.stack_dir.resolve()
        fleet_root = self.fleet.root.resolve()
        parts: list[str] = []
        stack_files: dict[str, list[str]] = {}
        for path in _files(root, root, self._nested - {root}):
            relative = path.relative_to(root).as_posix()
            match = STACK_FILE.match(path.name) if path.parent.resolve() == stack_dir else None
            held = stack_files.setdefault(match["stack"], []) if match else parts
            held += [relative, file_digest(path, _shown(path, fleet_root))]
        graph = program_graph(project)
        for module in graph.files:
            if not module.is_relative_to(root):
                parts += [str(module), file_digest(module, _shown(module, fleet_root))]
        if graph.unknown:
            parts += ["unknown", *graph.unknown, self._everything()]
        return parts, stack_files

    def _everything(self) -> str:
        """Every file under the fleet's root, stacks' files included."""
        if self._root is None:
            root = self.fleet.root.resolve()
            try:
                self._root = combine(
                    p
                    for path in _files(root, root)
                    for p in (path.relative_to(root).as_posix(), file_digest(path, _shown(path, root)))
                )
            except Unkeyable as exc:
                self._root = exc
        if isinstance(self._root, Unkeyable):
            raise self._root
        return self._root

    def key(self, stack: FleetStack) -> str | None:
        project = self._project(stack.member)
        if isinstance(project, Unkeyable):
            return None
        parts, stack_files = project
        own = stack_files.get(stack.name, [])
        return combine([self.base, stack.member.directory, stack.name, *parts, "stack", *own])


def _shown(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)


class Cache:
    def __init__(self, directory: Path):
        self.directory = directory

    def _path(self, key: str) -> Path:
        return self.directory / f"{key}.json"

    def get(self, key: str) -> Record | None:
        record = self.get_document(key)
        return record if record_problem(record) is None else None

    def put(self, key: str, record: Record) -> None:
        self.put_document(key, record)

    def get_document(self, key: str) -> Any:
        """The JSON stored under `key`; None when there is none, or it is not whole, or it is another key's."""
        try:
            data = parse_record_json(read_bytes(self._path(key), "fleet-record"), str(self._path(key)))
        except (OSError, ValueError):  # InputFileError is a ValueError: not a regular file, not whole, or too deep
            return None
        if not isinstance(data, dict) or data.get("format") != CACHE_FORMAT or data.get("key") != key:
            return None
        return data.get("record")

    def put_document(self, key: str, record: Any) -> None:
        """Store `record` whole or not at all; a cache that cannot be written is only slower."""
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=self.directory, prefix=".tmp-", suffix=".json")
        except OSError:
            return
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump({"format": CACHE_FORMAT, "key": key, "record": record}, out)
            os.replace(temporary, self._path(key))
        except OSError:
            Path(temporary).unlink(missing_ok=True)
