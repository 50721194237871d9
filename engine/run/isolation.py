"""Run a user's program in a child process, so that nothing it does can break the report.

The child is forked from this process after the SDK's imports (as `--jobs` forks its workers), so
it starts with pulumi and the azure-native modules loaded and costs a fork, not an import. The
engine's side of the run stays in this process: a socket pair it answers while it waits on the child
(`engine.run.socket_channel`), or for a program executed under another interpreter a gRPC server
(`engine.run.monitor`) started once the child exists; the child connects, and only then are its
limits set. In it:
- stdout and stderr (Python's and the file descriptors) go to a pipe; what the program printed comes
  back as its output, never mixed into `--json` or SARIF;
- a memory limit (`RLIMIT_AS`, the given MiB above what the imports and the connection already take,
  set as the soft and the hard limit, with the right to raise a hard limit dropped) turns runaway
  allocation into a MemoryError that the program cannot lift;
- every descriptor it inherited, other than its standard streams, its result pipe and its connection, points at
  /dev/null: nothing the engine process or its caller holds (the pipe a plan goes back on) is the program's;
- Ctrl-C is left to this process, which kills the child; the child also dies with its parent
  (`PR_SET_PDEATHSIG`), so no worker outlives an interrupted run;
- `sys.exit`, any BaseException, threads left running, a value that cannot cross back and an
  interpreter that dies (`os._exit`, a signal) are each said in one line, and a run that did not
  end by handing back a result is never a result.
This process enforces the wall-clock limit by killing the child.
"""

from __future__ import annotations

import contextlib
import ctypes
import faulthandler
import io
import json
import os
import pickle
import select
import signal
import struct
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar, runtime_checkable

from ..errors import InputError
from . import children, heap
from .program_host import limit_memory

T = TypeVar("T")

DEFAULT_TIMEOUT_S = 120.0
# What a plan's engine process (`plan.plan_stack`) may take beyond the program's --timeout: the environment's probe
# (bounded by --timeout too), then the fake ARM, the policy pack and the cost, which take well under a second (the
# stack file and the files beside it are read before the engine process is forked). Here, beside the program's own
# limits, so that `parallel` reads it without importing `plan`, which imports `parallel`.
ENGINE_GRACE_S = 30.0
DEFAULT_MEMORY_MIB = 2048
MAX_OUTPUT_BYTES = 64 * 1024  # what is kept of a program's stdout and stderr
_PR_SET_PDEATHSIG = 1
_HEADER = struct.Struct("!Q")


@dataclass(frozen=True)
class Limits:
    """What one program run may take: seconds of wall-clock time, MiB of memory above the imports."""

    timeout_s: float = DEFAULT_TIMEOUT_S
    memory_mib: int = DEFAULT_MEMORY_MIB


class ProgramFailed(InputError):
    """The program did something that leaves no plan; the message is one line saying what."""


def positive_number(text: str) -> float:
    """argparse type for --timeout and --memory-limit."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < float("inf"):
        import argparse

        raise argparse.ArgumentTypeError(f"{text!r}; allowed: a number greater than 0")
    return value


class Server(Protocol):
    """The engine's side of a run, served from this process while the child runs (`engine.run.monitor`)."""

    def start(self) -> None: ...
    def stop(self) -> None: ...


@runtime_checkable
class Served(Server, Protocol):
    """A server this process answers itself while it waits on the child (`engine.run.socket_channel`): `serve`
    whenever `fileno()` is readable, False once the program's end is gone."""

    def fileno(self) -> int: ...
    def program_fileno(self) -> int: ...
    def serve(self, deadline: float) -> bool: ...


def isolation_available() -> bool:
    return hasattr(os, "fork") and sys.platform.startswith("linux")


def run_isolated(
    work: Callable[[], T],
    describe: Callable[[BaseException], str],
    limits: Limits,
    label: str,
    *,
    server: Server | None = None,
    connect: Callable[[], object] | None = None,
) -> tuple[T, str]:
    """`work()` run in a forked child: its result and what it printed; ProgramFailed otherwise.

    `describe` turns what the program raised into the one line to show (it runs in the child, where
    the traceback is); `label` names the program in the other lines ("the program"). `server` is
    started in this process once the child exists (so the child is forked before the server's threads)
    and stopped when the child is gone; the child waits for it, then runs `connect()` before its
    limits are set (what connecting maps, threads and their stacks, is not the program's to pay).
    """
    if not isolation_available():  # pragma: no cover - macOS and Windows run the program in-process
        if server is not None:
            server.start()
        try:
            if connect is not None:
                connect()
            return work(), ""
        finally:
            if server is not None:
                server.stop()
    out_r, out_w = os.pipe()
    res_r, res_w = os.pipe()
    ready_r, ready_w = os.pipe()
    _flush()
    keep = {0, 1, 2, out_w, res_w, ready_r, *([server.program_fileno()] if isinstance(server, Served) else [])}
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child; what it does is seen through the parent's tests
        only_these_descriptors(keep)
        _child(work, describe, limits, out_w, res_w, label, ready_r, connect)
    with children.ended_on_sigterm(pid):
        text, result = _supervise(pid, (out_w, res_w, ready_r), out_r, res_r, ready_w, server, limits)
    messages = dict(pickle.loads(m) for m in _frames(result.data))
    if "ok" in messages:
        return messages["ok"], text
    if "failed" in messages:
        raise ProgramFailed(messages["failed"])
    raise ProgramFailed(_unfinished(result.status, messages.get("threads"), limits, label))


@dataclass(frozen=True)
class Collected:
    """What a child left: the bytes it wrote on its result descriptor and its wait status (None: it
    was killed at the deadline)."""

    data: bytes
    status: int | None


MAX_RESULT_BYTES = 64 * 1024  # what is read of an executed host's JSON lines (`program_host.Report`)


def run_executed(
    argv: Sequence[str],
    env: Mapping[str, str],
    cwd: Path,
    limits: Limits,
    label: str,
    *,
    server: Server,
    result_fd_flag: str = "--result-fd",
) -> tuple[list[dict[str, Any]], str]:
    """`argv` (another interpreter running `program_host.py`) executed in a child with the fork path's
    guarantees: its stdout and stderr captured, killed at the deadline, dying with its parent, Ctrl-C
    left to this process. `server` is started once the child exists (as for a fork). The host is given
    `result_fd_flag N` and the memory limit (it sets it as a hard limit after its imports and its
    connection, as a forked child does); returns its JSON lines (`program_host.Report`), in order, and
    what it printed; ProgramFailed when it left none that says how it ended."""
    out_r, out_w = os.pipe()
    res_r, res_w = os.pipe()
    ready_r, ready_w = os.pipe()
    # the host's own arguments go before the program's path, which argparse reads last
    command = [*argv[:-1], result_fd_flag, str(res_w), "--memory-limit-mib", str(limits.memory_mib), argv[-1]]
    environment = dict(env)
    _flush()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child, until it becomes the host
        try:
            os.close(out_r)
            os.close(res_r)
            os.close(ready_w)
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's; SIG_IGN survives exec
            die_with_parent()  # so does the parent-death signal (prctl(2))
            if os.read(ready_r, 1) != b"1":
                os._exit(70)
            os.close(ready_r)
            os.dup2(out_w, 1)
            os.dup2(out_w, 2)
            os.close(out_w)
            os.set_inheritable(res_w, True)
            os.chdir(cwd)
            os.execve(command[0], command, environment)
        finally:
            os._exit(127)
    with children.ended_on_sigterm(pid):
        text, result = _supervise(pid, (out_w, res_w, ready_r), out_r, res_r, ready_w, server, limits, MAX_RESULT_BYTES)
    lines = []
    for line in result.data.splitlines():
        with contextlib.suppress(ValueError):
            message = json.loads(line)
            if isinstance(message, dict):
                lines.append(message)
    if any(key in m for m in lines for key in ("ok", "failed")):
        return lines, text
    threads = next((m["threads"] for m in reversed(lines) if "threads" in m), None)
    shown = ", ".join(str(t) for t in threads) if isinstance(threads, list) else None
    raise ProgramFailed(_unfinished(result.status, shown, limits, label))


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()


def _supervise(
    pid: int,
    child_ends: tuple[int, ...],
    out_r: int,
    res_r: int,
    ready_w: int,
    server: Server | None,
    limits: Limits,
    max_result: int | None = None,
) -> tuple[str, Collected]:
    """The parent's side of a child just forked: start the engine's server, let the child go on, read
    what it writes until it ends or the deadline passes; the child never outlives this call."""
    for fd in child_ends:
        os.close(fd)
    try:
        if server is not None:
            server.start()
        os.write(ready_w, b"1")
        served = server if isinstance(server, Served) else None
        output, data, status = _collect(pid, out_r, res_r, limits.timeout_s, max_result, served)
        pid = 0
    finally:
        os.close(out_r)
        os.close(res_r)
        os.close(ready_w)
        if pid:  # interrupted, or failed while collecting: the child must not outlive this call
            _kill(pid)
        if server is not None:
            server.stop()
    return output.decode("utf-8", "replace"), Collected(data, status)


def _unfinished(status: int | None, threads: str | None, limits: Limits, label: str) -> str:
    """Why a child that handed back no outcome has none: the deadline, or how its process ended."""
    if status is None:
        if threads:
            return (
                f"{label} returned, but left threads running ({threads}) that did not end within "
                f"{limits.timeout_s:g} s (--timeout); Pulumi waits for them, so `pulumi up` would hang"
            )
        return f"{label} did not finish within {limits.timeout_s:g} s (--timeout); it was stopped"
    return _death(status, label)


def _death(status: int, label: str) -> str:
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        name = signal.Signals(number).name if number in signal.Signals._value2member_map_ else str(number)
        return f"{label} died of signal {name} (its Python interpreter crashed or was killed) before it finished"
    code = os.WEXITSTATUS(status)
    return f"{label} ended its process with status {code} (os._exit or a crash) before it finished"


def _collect(
    pid: int, out_r: int, res_r: int, timeout_s: float, max_result: int | None, served: Served | None = None
) -> tuple[bytes, bytes, int | None]:
    """Read the child's output and result (the first `max_result` bytes of it, when given), and answer its
    requests to `served`, until it exits or the deadline passes (then kill it)."""
    deadline = time.monotonic() + timeout_s
    output = bytearray()
    dropped = 0
    result = bytearray()
    open_fds = [out_r, res_r]
    requests = served.fileno() if served is not None else -1
    if served is not None:
        open_fds.append(requests)
    status: int | None = None
    pause = 0.0005
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            _kill(pid)
            return bytes(output), bytes(result), None
        ready, _, _ = select.select(open_fds, [], [], min(remaining, 0.1)) if open_fds else ([], [], [])
        for fd in ready:
            if fd == requests:
                if served is not None and not served.serve(deadline):
                    open_fds.remove(fd)
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                open_fds.remove(fd)
            elif fd == out_r:
                keep = max(MAX_OUTPUT_BYTES - len(output), 0)
                output += chunk[:keep]
                dropped += len(chunk) - min(len(chunk), keep)
            elif max_result is None or len(result) < max_result:
                result += chunk
        if res_r not in open_fds or not ready:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
        if not [
            fd for fd in open_fds if fd != requests
        ]:  # both pipes closed: the child is exiting; poll briefly rather than block
            pause = min(pause * 2, 0.05)
            time.sleep(min(max(deadline - time.monotonic(), 0), pause))
    # The child is gone, but what it wrote just before it ended may still be unread: its exit can fall
    # between a `select` that found nothing and the `waitpid` that saw it gone. Take what is in both
    # pipes (a grandchild may still hold one open: what is there, no more).
    while res_r in open_fds and select.select([res_r], [], [], 0)[0]:
        chunk = os.read(res_r, 65536)
        if not chunk:
            break
        if max_result is None or len(result) < max_result:
            result += chunk
    while out_r in open_fds and select.select([out_r], [], [], 0)[0]:
        chunk = os.read(out_r, 65536)
        if not chunk:
            break
        keep = max(MAX_OUTPUT_BYTES - len(output), 0)
        output += chunk[:keep]
        dropped += len(chunk) - min(len(chunk), keep)
    if dropped:
        output += f"\n[{dropped:,} more bytes of output not kept]\n".encode()
    return bytes(output), bytes(result), status


def _frames(data: bytes) -> list[bytes]:
    """The child's whole length-prefixed messages (one it did not finish writing is dropped)."""
    frames = []
    while len(data) >= _HEADER.size:
        (size,) = _HEADER.unpack_from(data)
        body = data[_HEADER.size : _HEADER.size + size]
        if len(body) < size:
            break
        frames.append(body)
        data = data[_HEADER.size + size :]
    return frames


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


# --- the child ---------------------------------------------------------------------------------


def only_these_descriptors(keep: set[int]) -> None:  # pragma: no cover - runs in the forked child only
    """Point every descriptor the child inherited, other than `keep`, at /dev/null.

    A fork inherits every descriptor of its parent, close-on-exec or not; the program's child of an engine process
    held that process's pipe to its own caller, where a program could write a plan of its own making (one pickled
    frame: `engine.run.children`), and in a test worker the zygote's socket (tests/cli_process.py), where
    tests/data/tampering's garbage arrived. Pointed at /dev/null rather than closed: an object inherited from the
    parent that closes its descriptor when freed then closes its own copy of /dev/null, never a descriptor the
    program has opened since under the same number. Descriptors are read from /proc/self/fd (isolation is
    Linux-only, `isolation_available`)."""
    null = os.open(os.devnull, os.O_RDWR)
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd not in keep and fd != null:
            with contextlib.suppress(OSError):  # the directory's own descriptor, already closed
                os.dup2(null, fd, inheritable=False)
    os.close(null)


def _child(  # pragma: no cover - runs in the forked child only
    work: Callable[[], Any],
    describe: Callable[[BaseException], str],
    limits: Limits,
    out_w: int,
    res_w: int,
    label: str,
    ready_r: int,
    connect: Callable[[], object] | None,
) -> None:
    code = 0
    try:
        heap.freeze_for_good()  # what the parent built is never collected here, so its pages are never copied
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        die_with_parent()
        if os.read(ready_r, 1) != b"1":  # the parent ended before its server started
            os._exit(70)
        os.close(ready_r)
        if connect is not None:
            connect()
        limit_memory(limits.memory_mib)
        os.dup2(out_w, 1)
        os.dup2(out_w, 2)
        os.close(out_w)
        sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), write_through=True)
        sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), write_through=True)
        if faulthandler.is_enabled():  # a crash's dump goes with the program's output, not the parent's stderr
            faulthandler.enable(file=sys.stderr)
        _send(res_w, _outcome(work, describe, limits, label, res_w))
    except BaseException:  # noqa: BLE001 - nothing may escape the child into the parent's code
        code = 70
    finally:
        os._exit(code)


def _outcome(
    work: Callable[[], Any], describe: Callable[[BaseException], str], limits: Limits, label: str, res_w: int
) -> bytes:  # pragma: no cover - child only
    before = set(threading.enumerate())
    try:
        value = work()
    except MemoryError:
        return _pickle(
            ("failed", f"{label} ran out of memory: it needed more than {limits.memory_mib:,} MiB (--memory-limit)")
        )
    except SystemExit as exc:
        return _pickle(("failed", f"{label} called sys.exit({exc.code!r}) before it finished"))
    except BaseException as exc:  # noqa: BLE001 - KeyboardInterrupt and GeneratorExit from a program included
        return _pickle(("failed", describe(exc)))
    left = [t for t in threading.enumerate() if t not in before and t.is_alive() and not t.daemon]
    if left:  # Pulumi's language host waits for them too; the parent's deadline stops the wait
        _send(res_w, _pickle(("threads", ", ".join(t.name for t in left))))
        for thread in left:
            thread.join()
    try:
        return _pickle(("ok", value))
    except Exception as exc:  # noqa: BLE001
        return _pickle(("failed", f"{label} produced a value that cannot be reported: {type(exc).__name__}: {exc}"))


def _pickle(message: tuple[str, Any]) -> bytes:
    return pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)


def _send(fd: int, body: bytes) -> None:  # pragma: no cover - child only
    data = _HEADER.pack(len(body)) + body
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def die_with_parent() -> None:  # pragma: no cover - children only
    """Linux: this process gets SIGKILL when its parent ends, however the parent ends."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
