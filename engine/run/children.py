"""Child processes forked from a process that runs no threads, each waited on with a deadline.

gRPC's C core starts threads as soon as a server or channel exists, and they live on after it is
stopped; a process forked from one of them inherits the core's locks in whatever state those threads
left them (github.com/grpc/grpc doc/fork_support.md, observed 2026-11-25: fork is supported only while
gRPC's threads are idle, and not at all with its default polling engine). So gpu-stacks' own process,
and every `--jobs` worker, never starts gRPC: each plan runs in an engine process of its own, which
forks the program's child and answers it over a socket pair (`engine.run.socket_channel`: no thread at
all), or, for a program executed under the project's interpreter, forks it before it starts the
engine's gRPC server, and hands the plan back pickled. Every child is waited on with a deadline and
killed at it; a child that dies is one line (`death`), never a hang.

This module also keeps what must not outlive gpu-stacks: the children it is waiting on and the
private directories their engines serve from (`track`, `private_directory`). SIGTERM ends the children,
removes the directories and then ends this process as SIGTERM would (`install_sigterm_cleanup`).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import shutil
import signal
import struct
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError
from . import heap

ENGINE_DIRECTORY_PREFIX = "gpu-stacks-engine-"
_HEADER = struct.Struct("!Q")
_TERM_GRACE_S = 2.0  # how long a child ended by SIGTERM is given to remove what it made

_children: set[int] = set()
_directories: set[Path] = set()
_owner = os.getpid()  # the process whose children and directories these are (reset after each fork)


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()


def fork() -> int:
    """`os.fork()`, with this module's bookkeeping: the child starts with no children and no directories
    of its own, and the SIGTERM cleanup of its parent's (it ends its own instead)."""
    _flush()
    pid = os.fork()
    if pid == 0:
        global _owner
        _owner = os.getpid()
        _children.clear()
        _directories.clear()
    else:
        _children.add(pid)
    return pid


@contextlib.contextmanager
def ended_on_sigterm(pid: int) -> Iterator[None]:
    """While the block runs, `pid` (a child forked without `fork()`: isolation's program) is one of the children
    that SIGTERM ends and reaps before this process dies (`install_sigterm_cleanup`). Without it an engine process
    ended by SIGTERM left its program to the parent-death signal: still running, or a zombie for the system to
    reap, after gpu-stacks itself had exited."""
    _children.add(pid)
    try:
        yield
    finally:
        _children.discard(pid)


def reap(pid: int, *, kill: bool) -> int | None:
    """Wait for a child (killed first when `kill`): its wait status, None when it was already reaped."""
    if kill:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        status = None
    _children.discard(pid)
    return status


MAX_SOCKET_PATH = 107


def socket_parent() -> str | None:
    """Where an engine's private directory goes: TMPDIR, unless a socket path under it would not fit a Unix
    socket address (`sun_path` holds 108 bytes with its NUL: unix(7); gRPC refuses longer ones with "Path name
    should not have more than 107 characters"), then /tmp. None: tempfile's own choice (TMPDIR)."""
    longest = len(tempfile.gettempdir()) + 1 + len(ENGINE_DIRECTORY_PREFIX) + 8 + len("/engine.sock")
    return None if longest <= MAX_SOCKET_PATH else "/tmp"


@contextlib.contextmanager
def private_directory() -> Iterator[Path]:
    """A new private directory (mode 0700) for an engine's socket (`socket_parent`), removed afterwards by this
    process, whichever way its user ends (a child killed at its deadline cannot remove it itself)."""
    path = Path(tempfile.mkdtemp(prefix=ENGINE_DIRECTORY_PREFIX, dir=socket_parent()))
    _directories.add(path)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
        _directories.discard(path)


def install_sigterm_cleanup() -> None:
    """On SIGTERM: end the children (SIGTERM, then SIGKILL after a grace), remove the private
    directories, and die of SIGTERM as before. Only from the main thread, and only over the default
    action (a handler someone else set is left alone)."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _on_sigterm)


def _on_sigterm(number: int, frame: Any) -> None:  # pragma: no cover - exercised through a real subprocess
    if os.getpid() == _owner:
        end_children()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)


def end_children() -> None:
    """Every child this process waits on ended, and every private directory it made removed."""
    children = list(_children)
    for pid in children:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + _TERM_GRACE_S
    for pid in children:
        while time.monotonic() < deadline:
            with contextlib.suppress(ChildProcessError):
                if os.waitpid(pid, os.WNOHANG)[0]:
                    break
                time.sleep(0.01)
                continue
            break
        else:
            reap(pid, kill=True)
        _children.discard(pid)
    for path in list(_directories):
        shutil.rmtree(path, ignore_errors=True)
        _directories.discard(path)


def death(status: int | None, label: str, timeout_s: float) -> str:
    """One line for a child that handed nothing back: its deadline passed, a signal, or an exit status."""
    if status is None:
        return f"{label} did not finish within {timeout_s:g} s (--timeout); it was stopped"
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        name = signal.Signals(number).name if number in signal.Signals._value2member_map_ else str(number)
        return f"{label} died of signal {name} (its Python interpreter crashed or was killed) before it finished"
    return f"{label} ended its process with status {os.WEXITSTATUS(status)} (os._exit or a crash) before it finished"


# --- a call in a child ------------------------------------------------------------------------------


@dataclass
class Call:
    """`work()` running in a forked child; what it sends back arrives on `fd` (one length-prefixed pickle)."""

    pid: int
    fd: int
    deadline: float
    data: bytearray = field(default_factory=bytearray)
    status: int | None = None
    open: bool = True

    def read(self) -> None:
        """What the child wrote; at end of file the pipe is closed and the child reaped."""
        chunk = os.read(self.fd, 1 << 20)
        if not chunk:
            self.close(kill=False)
            return
        self.data += chunk
        if self.outcome() is not None:  # whole: done, even if a process the child forked still holds the pipe
            self.close(kill=True)

    def close(self, *, kill: bool) -> None:
        if self.open:
            os.close(self.fd)
            self.open = False
            status = reap(self.pid, kill=kill)
            self.status = None if kill else status  # killed: stopped at its deadline (or its result was whole)

    def outcome(self) -> tuple[str, Any] | None:
        """("ok", value) or ("raised", exception) as the child sent it; None when it sent nothing whole."""
        if len(self.data) < _HEADER.size:
            return None
        (size,) = _HEADER.unpack_from(self.data)
        if len(self.data) - _HEADER.size != size:  # checked before any copy: a plan arrives in many reads
            return None
        try:
            kind, value = pickle.loads(memoryview(self.data)[_HEADER.size :])
        except Exception as exc:  # noqa: BLE001 - a value that pickles but does not unpickle
            return ("raised", InputError(f"a result could not be read back: {type(exc).__name__}: {exc}"))
        return (kind, value)


def start(work: Callable[[], Any], timeout_s: float) -> Call:
    """Fork a child that runs `work()` and sends back ("ok", value) or ("raised", exception); the child
    dies with this process and leaves Ctrl-C to it."""
    read_fd, write_fd = os.pipe()
    pid = fork()
    if pid == 0:  # pragma: no cover - the child; seen through what it sends back
        code = 0
        try:
            # What this child inherited is never collected here, so its pages are never written (and copied):
            # an engine process's one full collection walked the whole inherited heap, a third of its CPU.
            heap.freeze_for_good()
            os.close(read_fd)
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            _die_with_parent()
            try:
                message = ("ok", work())
            except BaseException as exc:  # noqa: BLE001 - handed to the parent, which raises it
                message = ("raised", exc)
            _send(write_fd, message)
            _flush()
        except BaseException:  # noqa: BLE001 - nothing may escape into the parent's code
            code = 70
        finally:
            os._exit(code)
    os.close(write_fd)
    return Call(pid, read_fd, time.monotonic() + timeout_s)


def _send(fd: int, message: tuple[str, Any]) -> None:  # pragma: no cover - child only
    try:
        body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as exc:  # noqa: BLE001 - an exception or value that cannot cross processes
        kind, value = message
        text = f"{type(value).__name__}: {value}" if kind == "raised" else f"{type(exc).__name__}: {exc}"
        error = value if isinstance(value, InputError) else None
        body = pickle.dumps(("raised", InputError(str(error) if error else f"a result could not be sent back: {text}")))
    data = memoryview(_HEADER.pack(len(body)) + body)
    while data:
        data = data[os.write(fd, data) :]


def wait_any(calls: list[Call]) -> None:
    """Read from the open calls until at least one has ended (or passed its deadline, then killed)."""
    while True:
        now = time.monotonic()
        expired = [c for c in calls if c.open and c.deadline <= now]
        for call in expired:
            call.close(kill=True)
        live = [c for c in calls if c.open]
        if expired or not live:
            return
        wait = max(min(c.deadline for c in live) - now, 0.0)
        ready, _, _ = select.select([c.fd for c in live], [], [], min(wait, 1.0))
        for call in live:
            if call.fd in ready:
                call.read()
        if any(not c.open for c in live):
            return


def call(work: Callable[[], Any], timeout_s: float, label: str) -> Any:
    """`work()` in a child forked from here: its value, or what it raised raised here; InputError, one
    line, when the child died or passed `timeout_s`."""
    running = start(work, timeout_s)
    try:
        while running.open:
            wait_any([running])
    finally:
        running.close(kill=True)
    outcome = running.outcome()
    if outcome is None:
        raise InputError(death(running.status, label, timeout_s))
    kind, value = outcome
    if kind == "raised":
        raise value
    return value


def _die_with_parent() -> None:  # pragma: no cover - children only
    from .isolation import die_with_parent

    die_with_parent()
