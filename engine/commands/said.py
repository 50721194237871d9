"""What a command says, and the one edge it leaves the tool through.

A command returns a `Said`: its exit code, what goes to stdout (text, JSON documents, or text made as it
is written, such as a merge of shard files), the files it writes (`export-arm -o`, `preflight --record`,
`--format FORMAT=FILE`), its stderr lines, and the secrets it learned from its plans. The CLI
(`engine.cli`) masks all of it once, with those secrets and the secrets the stack files declare (known
before any program starts), after each format's escaping (`engine.secrets.Mask` knows every escaped form),
and only then writes it. Nothing is masked by global state.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ...inputs.files import escaped
from ..errors import InputError
from ..secrets import Mask

if TYPE_CHECKING:
    from ..run.plan import Plan


@dataclass(frozen=True)
class Text:
    """Report text: control characters from the input (NUL, terminal escapes) are escaped when written."""

    text: str
    end: str = "\n"

    def written(self, mask: Mask) -> Iterable[str]:
        yield mask(escaped(self.text, keep_newlines=True)) + self.end


@dataclass(frozen=True)
class Document:
    """A JSON document: masked value by value (a secret number becomes "[secret]", so the JSON stays JSON)."""

    value: Any

    def written(self, mask: Mask) -> Iterable[str]:
        yield json.dumps(mask.values(self.value), indent=2) + "\n"


@dataclass(frozen=True)
class Streamed:
    """Report text made while it is written (`chunks` is called once, when the CLI writes), each chunk escaped
    as `Text` is, then masked."""

    chunks: Callable[[], Iterable[str]]

    def written(self, mask: Mask) -> Iterable[str]:
        for chunk in self.chunks():
            yield mask(escaped(chunk, keep_newlines=True))


Part = Text | Document | Streamed


@dataclass
class Said:
    """What one command says; `engine.cli` masks and writes it."""

    exit_code: int = 0
    stdout: list[Part] = field(default_factory=list)
    files: list[tuple[Path, str, list[Part]]] = field(default_factory=list)  # (path, the option that named it, parts)
    stderr: list[str] = field(default_factory=list)
    secrets: set[str] = field(default_factory=set)

    def text(self, text: str, end: str = "\n") -> None:
        self.stdout.append(Text(text, end))

    def json(self, document: Any) -> None:
        self.stdout.append(Document(document))

    def file(self, path: Path, part: Part, option: str = "--output") -> None:
        self.files.append((path, option, [part]))

    def error(self, line: str) -> None:
        """One line on stderr, as the CLI says an error (a stack that failed while the report goes on)."""
        self.stderr.append(f"gpu-stacks: error: {line}")

    def learn(self, plans: Iterable[Plan]) -> None:
        """The secrets of plans made here or in workers (a plan carries its own)."""
        for plan in plans:
            self.secrets.update(plan.secret_values)

    def write(self, mask: Mask, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
        """Everything said, masked: the files first (whole or not at all), then stderr, then stdout."""
        stdout = stdout or sys.stdout
        stderr = stderr or sys.stderr
        for path, option, parts in self.files:
            write_whole(path, "".join(chunk for part in parts for chunk in part.written(mask)), option)
        for line in self.stderr:
            print(mask(escaped(line)), file=stderr, flush=True)
        for part in self.stdout:
            for chunk in part.written(mask):
                stdout.write(chunk)
        return self.exit_code


def write_whole(path: Path, text: str, option: str = "--output") -> None:
    """Write `text` whole or not at all: a temporary file beside `path`, renamed over it; only to a new path
    or over a regular file (`refuse_unwritable_target`)."""
    refuse_unwritable_target(path, option)
    try:
        fd, temporary = tempfile.mkstemp(dir=path.parent if str(path.parent) else ".", prefix=f".{path.name}.")
    except OSError as exc:
        raise InputError(f"{option} {path}: cannot write: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def refuse_unwritable_target(path: Path, option: str = "--output") -> None:
    """An output (`export-arm -o`, `preflight --record`, `--format FORMAT=FILE`) goes only to a new path in an
    existing directory or over a regular file: a directory, FIFO, device node or socket there (or a symlink to
    one) is refused in one line, before any work, and left as it is."""
    import stat

    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        if not path.absolute().parent.is_dir():
            raise InputError(f"{option} {path}: its directory does not exist; allowed: a file in an existing directory")
        return
    except OSError as exc:
        raise InputError(f"{option} {path}: cannot write: {exc.strerror}") from None
    if stat.S_ISDIR(mode):
        raise InputError(f"{option} {path}: is a directory; allowed: a file path")
    if not stat.S_ISREG(mode):
        raise InputError(
            f"{option} {path}: not a regular file (a FIFO, device or socket); allowed: a new or regular file"
        )
