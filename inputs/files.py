"""Reading files people hand the tools (stack files, `Pulumi.yaml`, `az` output, policy configs) as
untrusted input: every failure is one `InputFileError` line naming the file, the key path, the value
(escaped, and elided when long) and what is allowed; never a traceback, a hang or runaway memory.

- What a path is: only a regular file is read. It is opened without blocking and checked on the open
  descriptor, so a FIFO, a device (`/dev/zero`, a terminal) or a socket is refused at once, named as
  such, instead of hanging or reading forever; so is a path through /proc (`/proc/self/fd/0`). A
  directory, a symbolic link loop or a dangling link is said as such.
- Size: a file is read in chunks up to its kind's cap (`MAX_BYTES`) and refused past it (one that grows
  while it is read too), and Ctrl-C is seen between chunks.
- Encoding: UTF-8 only (a UTF-8 byte-order mark is dropped); other bytes are refused with where.
- YAML: read as the Pulumi CLI's gopkg.in/yaml.v3 reads it (`pulumi_yaml`: its booleans, numbers
  and nulls; a key given twice is refused); nesting deeper than `MAX_DEPTH`, aliases that expand
  past `MAX_NODES` nodes ("billion laughs") and recursive aliases are refused before anything is
  built from them; so are whole numbers outside 64 bits and the tags a configuration cannot hold
  (`!!binary`, `!!set`, `!!omap`, `!!pairs`, local tags). Dates stay the text they were written as
  (how the Pulumi CLI itself hands an unquoted date to a program is not verified here:
  gopkg.in/yaml.v3 resolves it to a time). The CLI's YAML library caps alias expansion too
  (gopkg.in/yaml.v3 decode.go, `allowedAliasRatio`, "document contains excessive aliasing", read
  2026-11-22).
- JSON: whole numbers outside 64 bits, NaN/Infinity and nesting past `MAX_DEPTH` are refused.

This module imports nothing of ours but `pulumi_yaml`, so the components, the fake ARM and the CLI share it.
"""

from __future__ import annotations

import errno
import functools
import hashlib
import json
import math
import os
import pickle
import re
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import yaml

from .pulumi_yaml import PulumiYamlLoader

MIB = 1024 * 1024
# The most a file of each kind may hold. `az vm list-skus --all -o json` for every region is tens
# of MB; the others are a few KB in practice.
MAX_BYTES: dict[str, int] = {
    "project": 1 * MIB,  # Pulumi.yaml
    "stack": 1 * MIB,  # Pulumi.<stack>.yaml
    "policy-config": 1 * MIB,  # --policy-config
    "usage": 16 * MIB,  # az vm list-usage -o json
    "existing": 16 * MIB,  # az resource show / az resource list -o json (--existing)
    "skus": 512 * MIB,  # az vm list-skus --all -o json
    "stack-outputs": 16 * MIB,  # pulumi stack output --json (--stack-outputs, stack-outputs/)
    "fleet-record": 64 * MIB,  # one stack's record in the fleet cache (a shard line's cap too)
    "prices": 16 * MIB,  # one saved Retail Prices API page (scripts/refresh_catalog.py; about 100 items)
    "source": 4 * MIB,  # one module of a program, read for its imports (engine/fleet/imports.py)
}
CHUNK = 1 * MIB
MAX_DEPTH = 64  # nesting levels of mappings and lists, aliases followed
MAX_NODES = 100_000  # values in a YAML document once its aliases are expanded
MAX_INT = 2**63 - 1
MIN_INT = -(2**63)
MAX_SHOWN = 200  # characters of a value echoed in a message
INT_RANGE = "whole numbers from -2^63 to 2^63-1"
PLAIN_YAML = "strings, numbers, booleans, null, dates, lists and mappings"

_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")  # all but tab
_YAML_TAG = "tag:yaml.org,2002:"
_ALLOWED_TAGS = frozenset(
    _YAML_TAG + t for t in ("str", "int", "float", "bool", "null", "timestamp", "map", "seq", "merge")
)


class InputFileError(ValueError):
    """A file that cannot be read as its kind; the message is the one line to print."""


class NotRegularFileError(InputFileError):
    """The path is not a regular file (a FIFO, a device, a socket, a directory): nothing was read."""


class TooLargeFileError(InputFileError):
    """The file holds more than its cap; it was not read whole."""


def escaped(text: str, *, keep_newlines: bool = False) -> str:
    """`text` with control characters (terminal escapes, NUL...) written as Python escapes."""

    def escape(match: re.Match[str]) -> str:
        char = match.group()
        return char if keep_newlines and char == "\n" else repr(char)[1:-1]

    return _CONTROL.sub(escape, text)


def shown(value: Any) -> str:
    """A value for a message: its repr, control characters escaped, at most `MAX_SHOWN` characters."""
    text = escaped(repr(value))
    if len(text) <= MAX_SHOWN:
        return text
    return f"a value of {len(text):,} characters (not shown)"


_LONG_QUOTED = re.compile(r"'(?:[^'\\]|\\.){%d,}'|\"(?:[^\"\\]|\\.){%d,}\"" % (MAX_SHOWN, MAX_SHOWN))


def elided(message: str) -> str:
    """`message` with each quoted value longer than `MAX_SHOWN` characters replaced by its length."""
    return _LONG_QUOTED.sub(lambda m: f"a value of {len(m.group()) - 2:,} characters (not shown)", message)


# --- bytes -----------------------------------------------------------------------------------


def read_bytes(path: Path, kind: str, label: str | None = None) -> bytes | bytearray:
    """The file's bytes, at most `MAX_BYTES[kind]`; InputFileError saying what is wrong otherwise.

    Opened without blocking (O_NONBLOCK: a FIFO with no writer would wait forever), then asked what it
    is (fstat on the open descriptor, so what is checked is what is read): only a regular file is read.
    A path that leads through /proc (`/proc/self/fd/0`, `/dev/stdin`) is refused before it is opened: what
    it holds depends on the process that opens it (in CI, stdin and stdout are pipes)."""
    label = label or str(path)
    cap = MAX_BYTES[kind]
    if (proc := _through_proc(path)) is not None:
        raise InputFileError(
            f"{label}: a link into /proc ({shown(proc)}), whose content depends on the process reading it; "
            "allowed: a regular file"
        )
    fd = _open_regular(path, label)
    try:
        info = os.fstat(fd)
        if info.st_size > cap:
            raise InputFileError(f"{label}: {info.st_size:,} bytes; allowed: at most {_size(cap)}")
        data = bytearray()
        while chunk := os.read(fd, CHUNK):  # a file that grows while read still stops at the cap
            data += chunk
            if len(data) > cap:
                raise InputFileError(f"{label}: more than {_size(cap)}; allowed: at most {_size(cap)}")
    except OSError as exc:
        raise InputFileError(f"{label}: cannot read: {exc.strerror}") from None
    finally:
        os.close(fd)
    return data  # not copied into bytes: a file near the cap would be held twice


def _open_regular(path: Path, label: str) -> int:
    """A descriptor open for reading on `path`, which is a regular file; InputFileError otherwise.

    What the path is, is asked first without opening it (opening a device or a FIFO can block or act),
    then again on the open descriptor (so what is checked is what is read)."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise InputFileError(f"{label}: {_open_problem(path, exc)}") from None
    if not stat.S_ISREG(mode):
        raise NotRegularFileError(f"{label}: {_not_regular(mode)}")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as exc:
        raise InputFileError(f"{label}: {_open_problem(path, exc)}") from None
    try:
        mode = os.fstat(fd).st_mode
    except OSError as exc:
        os.close(fd)
        raise InputFileError(f"{label}: cannot read: {exc.strerror}") from None
    if not stat.S_ISREG(mode):  # replaced between the two looks
        os.close(fd)
        raise NotRegularFileError(f"{label}: {_not_regular(mode)}")
    return fd


def read_head(path: Path, limit: int, label: str | None = None) -> bytes:
    """At most the first `limit` bytes of a regular file (what is past them is not read); InputFileError
    naming what the path is otherwise (a FIFO, a device, a socket, a directory, a dangling link)."""
    label = label or str(path)
    fd = _open_regular(path, label)
    try:
        data = bytearray()
        while len(data) < limit and (chunk := os.read(fd, min(CHUNK, limit - len(data)))):
            data += chunk
    except OSError as exc:
        raise InputFileError(f"{label}: cannot read: {exc.strerror}") from None
    finally:
        os.close(fd)
    return bytes(data)


def digest_regular(path: Path, cap: int, label: str | None = None) -> str:
    """SHA-256 of a regular file's bytes, read in chunks; InputFileError when the path is not a regular
    file or holds more than `cap` bytes (one that grows while it is read too). A missing file is
    FileNotFoundError, so a caller can tell "not there" (a key may hold that) from "cannot be known"."""
    label = label or str(path)
    if not os.path.lexists(path):
        raise FileNotFoundError(errno.ENOENT, "no such file", str(path))
    fd = _open_regular(path, label)
    digest = hashlib.sha256()
    read = 0
    try:
        if (size := os.fstat(fd).st_size) > cap:  # a sparse file of any size is refused without reading it
            raise TooLargeFileError(f"{label}: {size:,} bytes; allowed: at most {_size(cap)}")
        while chunk := os.read(fd, CHUNK):
            read += len(chunk)
            if read > cap:
                raise TooLargeFileError(f"{label}: more than {_size(cap)}; allowed: at most {_size(cap)}")
            digest.update(chunk)
    except OSError as exc:
        raise InputFileError(f"{label}: cannot read: {exc.strerror}") from None
    finally:
        os.close(fd)
    return digest.hexdigest()


# What a path that is not a regular file is, in the words of its refusal.
_FILE_TYPES: tuple[tuple[Callable[[int], bool], str], ...] = (
    (stat.S_ISDIR, "is a directory; allowed: a file"),
    (stat.S_ISFIFO, "is a FIFO (named pipe), not a regular file; allowed: a regular file"),
    (stat.S_ISCHR, "is a character device, not a regular file; allowed: a regular file"),
    (stat.S_ISBLK, "is a block device, not a regular file; allowed: a regular file"),
    (stat.S_ISSOCK, "is a socket, not a regular file; allowed: a regular file"),
)


def _not_regular(mode: int) -> str:
    return next((said for test, said in _FILE_TYPES if test(mode)), "is not a regular file; allowed: a regular file")


def _in_proc(path: str) -> bool:
    return path == "/proc" or path.startswith("/proc/")


def _through_proc(path: Path) -> str | None:
    """The first place in /proc that `path` or a symbolic link it follows names; None if it stays outside."""
    current = os.path.abspath(path)
    for _ in range(40):  # the kernel's own limit on links followed (MAXSYMLINKS)
        if _in_proc(current):
            return current
        try:
            target = os.readlink(current)
        except OSError:
            break
        current = os.path.normpath(os.path.join(os.path.dirname(current), target))
    real = os.path.realpath(path)  # a directory on the way that is a link (/dev/fd -> /proc/self/fd)
    return real if _in_proc(real) else None


def _open_problem(path: Path, exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "a symbolic link that loops; allowed: a file"
    if exc.errno == errno.ENOENT and path.is_symlink():
        return f"a symbolic link to {shown(os.readlink(path))}, which does not exist; allowed: a file"
    if exc.errno == errno.ENXIO:  # a socket, or a device with nothing behind it
        try:
            return _not_regular(os.stat(path).st_mode)
        except OSError:
            pass
    return f"cannot read: {exc.strerror}"


def _size(cap: int) -> str:
    return f"{cap // MIB} MiB" if cap % MIB == 0 else f"{cap:,} bytes"


def read_text(path: Path, kind: str, label: str | None = None) -> str:
    """The file as UTF-8 text (a leading byte-order mark dropped)."""
    label = label or str(path)
    return decode(read_bytes(path, kind, label), label)


def decode(data: bytes | bytearray, label: str) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputFileError(f"{label}: UTF-16 text (it starts with a UTF-16 byte-order mark); allowed: UTF-8 text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputFileError(
            f"{label}: not UTF-8: byte 0x{data[exc.start]:02x} at line {line}, column {column}; allowed: UTF-8 text"
        ) from None


# --- YAML ------------------------------------------------------------------------------------


class _Refused(Exception):
    def __init__(self, where: str, problem: str):
        super().__init__(where, problem)
        self.where = where
        self.problem = problem


class _Loader(PulumiYamlLoader):
    """The Pulumi CLI's YAML reading (`pulumi_yaml`) with a nesting cap while composing, and dates kept as text."""

    depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                mark = self.peek_event().start_mark
                raise _Refused(
                    f"line {mark.line + 1}, column {mark.column + 1}",
                    f"nested deeper than {MAX_DEPTH} levels; allowed: at most {MAX_DEPTH}",
                )
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1

    def construct_yaml_timestamp(self, node: Any) -> Any:  # type: ignore[override]
        return self.construct_scalar(node)


_Loader.add_constructor(_YAML_TAG + "timestamp", _Loader.construct_yaml_timestamp)


def load_yaml(path: Path, kind: str, label: str | None = None) -> Any:
    """One YAML document of plain values (see the module's docstring for what is refused)."""
    label = label or str(path)
    return parse_yaml(read_text(path, kind, label), label)


# A document parsed before is not parsed again: a command reads each stack file for the secrets it declares and again to
# plan it, and a process may run many commands (a test session: about 5,500 reads). PyYAML's Python loader takes about
# 4 ms for a 4 KB stack file; a copy of what it made, unpickled, well under a tenth of that. Only a document that
# parsed is kept (a refused one is parsed, and refused, again), by its text and label; the last 256 of them, each at
# most 65,536 characters long.
_REMEMBERED = 256
_REMEMBERED_CHARS = 64 * 1024


def parse_yaml(text: str, label: str) -> Any:
    """One YAML document of plain values, as `load_yaml` reads it; each caller gets its own copy."""
    if len(text) > _REMEMBERED_CHARS:
        return _parse_yaml(text, label)
    return pickle.loads(_parsed(text, label))


@functools.lru_cache(maxsize=_REMEMBERED)
def _parsed(text: str, label: str) -> bytes:
    return pickle.dumps(_parse_yaml(text, label), protocol=pickle.HIGHEST_PROTOCOL)


def _parse_yaml(text: str, label: str) -> Any:
    try:
        loader = _Loader(text)
    except yaml.reader.ReaderError as exc:
        raise InputFileError(f"{label}: not valid YAML ({_at(text, exc.position)}): {_reader_problem(exc)}") from None
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _Walk(loader).check(node)
        return loader.construct_document(node)
    except _Refused as refused:
        raise InputFileError(f"{label}: {refused.where}: {refused.problem}") from None
    except yaml.reader.ReaderError as exc:
        raise InputFileError(f"{label}: not valid YAML ({_at(text, exc.position)}): {_reader_problem(exc)}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        problem = escaped(getattr(exc, "problem", None) or str(exc))
        raise InputFileError(f"{label}: not valid YAML{where}: {problem}") from None
    except (ValueError, TypeError, KeyError, OverflowError, RecursionError) as exc:  # a constructor's own failure
        raise InputFileError(f"{label}: not valid YAML: {type(exc).__name__}: {shown(str(exc))}") from None
    finally:
        loader.dispose()


def _at(text: str, position: int) -> str:
    line = text.count("\n", 0, position) + 1
    return f"line {line}, column {position - (text.rfind(chr(10), 0, position) + 1) + 1}"


def _reader_problem(exc: yaml.reader.ReaderError) -> str:
    char = exc.character if isinstance(exc.character, str) else chr(exc.character)
    return (
        f"character {shown(char)} is not allowed in YAML; "
        "allowed: printable characters (in double quotes, write it as an escape)"
    )


class _Walk:
    """Checks a composed YAML node graph before it is built: cycles, expansion, depth, tags, numbers."""

    def __init__(self, loader: _Loader) -> None:
        self.loader = loader
        self.seen: dict[int, tuple[int, int]] = {}
        self.open: set[int] = set()

    def check(self, node: Any) -> None:
        self._measure(node, "", 1)

    def _measure(self, node: Any, path: str, depth: int) -> tuple[int, int]:
        """(values, levels) of `node` with its aliases expanded; refuses what is too deep or cyclic."""
        where = path or "the document"
        if depth > MAX_DEPTH:
            raise _Refused(
                where, f"nested deeper than {MAX_DEPTH} levels (aliases followed); allowed: at most {MAX_DEPTH}"
            )
        if id(node) in self.seen:
            size, height = self.seen[id(node)]
        elif id(node) in self.open:
            mark = node.start_mark
            raise _Refused(
                where,
                f"an alias refers to the value that holds it (line {mark.line + 1}); "
                "allowed: aliases of values defined before",
            )
        else:
            self.open.add(id(node))
            size, height = self._measure_new(node, path, where, depth)
            self.open.discard(id(node))
            self.seen[id(node)] = (size, height)
        if depth + height - 1 > MAX_DEPTH:
            raise _Refused(
                where, f"nested deeper than {MAX_DEPTH} levels (aliases followed); allowed: at most {MAX_DEPTH}"
            )
        return size, height

    def _measure_new(self, node: Any, path: str, where: str, depth: int) -> tuple[int, int]:
        if isinstance(node, yaml.ScalarNode):
            self._check_scalar(node, where)
            return 1, 1
        if node.tag not in _ALLOWED_TAGS:
            raise _Refused(where, f"{_tag_name(node.tag)} is not allowed; allowed: {PLAIN_YAML}")
        size, height = 1, 1
        for child, child_path in _children(node, path):
            child_size, child_height = self._measure(child, child_path, depth + 1)
            size, height = size + child_size, max(height, child_height + 1)
            if size > MAX_NODES:
                raise _Refused(
                    where, f"expands to more than {MAX_NODES:,} values through aliases; allowed: at most {MAX_NODES:,}"
                )
        return size, height

    def _check_scalar(self, node: Any, where: str) -> None:
        if node.tag not in _ALLOWED_TAGS:
            raise _Refused(where, f"{_tag_name(node.tag)} {shown(node.value)} is not allowed; allowed: {PLAIN_YAML}")
        kind = _SCALAR_KINDS.get(node.tag)
        if kind is None:
            return
        if kind == "whole number" and len(node.value.replace("_", "")) > 70:  # 64 bits in binary, a sign, a prefix
            raise _Refused(where, f"a number of {len(node.value):,} characters is out of range; allowed: {INT_RANGE}")
        try:
            value = self.loader.construct_object(node)
        except (ValueError, KeyError, TypeError, OverflowError):  # an explicit tag on text that is not of its kind
            raise _Refused(
                where, f"{_tag_name(node.tag)} {shown(node.value)} is not a {kind}; allowed: a {kind}"
            ) from None
        if kind == "whole number" and not MIN_INT <= value <= MAX_INT:
            raise _Refused(where, f"{shown(value)} is out of range; allowed: {INT_RANGE}")


_SCALAR_KINDS = {_YAML_TAG + "int": "whole number", _YAML_TAG + "float": "number", _YAML_TAG + "bool": "boolean"}


def _children(node: Any, path: str) -> Iterator[tuple[Any, str]]:
    if isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            yield item, f"{path}[{i}]"
        return
    for key, value in node.value:
        name = escaped(str(key.value)) if isinstance(key, yaml.ScalarNode) else "?"
        yield key, f"{path}.{name}" if path else name
        yield value, f"{path}.{name}" if path else name


def _tag_name(tag: str) -> str:
    return "!!" + tag.removeprefix(_YAML_TAG) if tag.startswith(_YAML_TAG) else f"the tag {shown(tag)}"


# --- JSON ------------------------------------------------------------------------------------


def load_json(path: Path, kind: str, label: str | None = None) -> Any:
    """One JSON document with bounded whole numbers and nesting."""
    label = label or str(path)
    return parse_json(read_text(path, kind, label), label)


def parse_json(text: str, label: str) -> Any:
    try:
        data = json.loads(text, parse_int=_json_int, parse_float=_json_float, parse_constant=_Unbounded)
    except json.JSONDecodeError as exc:
        raise InputFileError(f"{label}: not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except RecursionError:
        raise InputFileError(f"{label}: nested deeper than {MAX_DEPTH} levels; allowed: at most {MAX_DEPTH}") from None
    _check_json(data, label)
    return data


# What gpu-stacks itself wrote and reads back (a fleet cache entry, a shard line) nests as deep as a
# program's resource inputs do, deeper than a hand-written input file; past this it is not ours.
MAX_RECORD_DEPTH = 256


def parse_record_json(data: str | bytes | bytearray, label: str) -> Any:
    """JSON that gpu-stacks wrote and reads back from outside (a cache entry, a shard line): nesting bounded
    at `MAX_RECORD_DEPTH`, walked without recursion; InputFileError naming `label` otherwise. Numbers are
    kept as written (a record carries what the program made)."""
    try:
        value = json.loads(data)
    except RecursionError:
        raise InputFileError(
            f"{label}: nested deeper than {MAX_RECORD_DEPTH} levels; allowed: at most {MAX_RECORD_DEPTH}"
        ) from None
    except ValueError as exc:  # JSONDecodeError, and bytes that are not UTF-8
        raise InputFileError(f"{label}: not JSON ({exc})") from None
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > MAX_RECORD_DEPTH:
                raise InputFileError(
                    f"{label}: nested deeper than {MAX_RECORD_DEPTH} levels; allowed: at most {MAX_RECORD_DEPTH}"
                )
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return value


class _Unbounded(str):
    """A number the parser met that no model may receive (NaN, Infinity, a float that overflows to
    infinity, a whole number past 64 bits)."""


def _json_float(text: str) -> Any:
    value = float(text)
    return value if math.isfinite(value) else _Unbounded(text)


def _json_int(text: str) -> Any:
    if len(text) > 20 or not MIN_INT <= int(text) <= MAX_INT:
        return _Unbounded(text)
    return int(text)


def _check_json(data: Any, label: str) -> None:
    """Nesting and numbers, walked without recursion (the parser already stopped at Python's limit)."""
    stack: list[tuple[Any, str, int]] = [(data, "", 1)]
    while stack:
        value, path, depth = stack.pop()
        where = f"{label}: {path}: " if path else f"{label}: "
        if isinstance(value, _Unbounded):
            number = value if len(value) <= 40 else f"a number of {len(value):,} digits"
            if not value.lstrip("-").isdigit():  # NaN, Infinity, or a float past Python's (1e999)
                raise InputFileError(f"{where}{number} is not allowed; allowed: finite numbers")
            raise InputFileError(f"{where}{number} is out of range; allowed: {INT_RANGE}")
        if isinstance(value, (dict, list)):
            if depth > MAX_DEPTH:
                raise InputFileError(f"{where}nested deeper than {MAX_DEPTH} levels; allowed: at most {MAX_DEPTH}")
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                step = f"[{key}]" if isinstance(key, int) else (f".{key}" if path else str(key))
                stack.append((item, escaped(path + step), depth + 1))
