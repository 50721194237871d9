"""Plans of an in-process command forked from a lean process instead of from the test worker.

Each plan forks its engine process from the process that plans, and the engine forks the program's child
(`engine.run.plan._in_engine_process`); a fork's system time, and the page faults of both processes after it,
grow with the forking process's memory. A test worker holds about 340 MB by the middle of a run (the preload,
the collected tests, what earlier tests left), the zygote of tests/cli_process.py about 210 MB: a plan forked
from the worker cost about 17 ms more CPU than one forked from the zygote (docs/testing.md, ninth session).

So a test module that sets `PLANS_IN_A_LEAN_PROCESS = True` has each plan its in-process commands make
(`plan_stack` in the test process itself, not in a `--jobs` worker forked from it) run by a server forked once
from the zygote: the same `_in_engine_process` with the same arguments (pickled: `plan_stack` hands it a
`functools.partial`), in the test's working directory and environment, on the test process's standard streams
(passed with each request), its plan or what it raised handed back. The server learns from each plan as a
process that plans again does (`plan._learn_from_the_last_plan`). A module whose tests patch anything a plan
reads in the test process, or look at the test process's children, leaves it unset.
"""

from __future__ import annotations

import contextlib
import functools
import os
import pickle
import socket
import struct
from collections.abc import Callable, Iterator
from typing import Any

_HEADER = struct.Struct("!Q")


def _send(sock: socket.socket, payload: bytes, fds: list[int]) -> None:
    data = _HEADER.pack(len(payload)) + payload
    sent = socket.send_fds(sock, [data[: 1 << 16]], fds)
    sock.sendall(data[sent:])


def _receive(sock: socket.socket) -> tuple[bytes, list[int]] | None:
    """One message and the descriptors sent with it; None once the other end has closed."""
    data, fds, _, _ = socket.recv_fds(sock, 1 << 16, 3)
    if not data:
        return None
    while len(data) < _HEADER.size:
        data += sock.recv(_HEADER.size - len(data))
    (size,) = _HEADER.unpack_from(data)
    chunks = [data[_HEADER.size :]]
    have = len(chunks[0])
    while have < size:
        chunk = sock.recv(min(size - have, 1 << 20))
        if not chunk:
            raise EOFError("the plan server's connection closed mid-message")
        chunks.append(chunk)
        have += len(chunk)
    return b"".join(chunks), fds


def serve(fd: int) -> None:
    """The server's loop, in a process forked from the zygote: one plan per request, until the test process
    closes its end. Ends the process itself."""
    import sys
    import tempfile

    from azure_gpu_stacks.engine.run import plan as planning

    sock = socket.socket(fileno=fd)
    while (request := _receive(sock)) is not None:
        payload, streams = request
        work, project, stack, limits, environ, cwd = pickle.loads(payload)
        saved = [os.dup(target) for target in range(3)]
        saved_environ, saved_cwd = dict(os.environ), os.getcwd()
        try:
            for target, stream in enumerate(streams):
                os.dup2(stream, target)
            os.chdir(cwd)
            os.environ.clear()
            os.environ.update(environ)
            tempfile.tempdir = None  # TMPDIR as the test's environment says
            planning._learn_from_the_last_plan()
            try:
                made = planning._in_engine_process(work, project, stack, limits)
                planning._last_resources = made.resources
                outcome: tuple[str, Any] = ("value", made)
            except BaseException as exc:  # noqa: BLE001 - raised again in the test process
                outcome = ("raised", exc)
        finally:
            for stream in (sys.stdout, sys.stderr):
                with contextlib.suppress(Exception):
                    stream.flush()
            for target, fd_saved in enumerate(saved):
                os.dup2(fd_saved, target)
                os.close(fd_saved)
            for stream in streams:
                os.close(stream)
            os.chdir(saved_cwd)
            os.environ.clear()
            os.environ.update(saved_environ)
            tempfile.tempdir = None
        try:
            reply = pickle.dumps(outcome)
        except Exception as exc:  # noqa: BLE001 - said in the test process instead
            reply = pickle.dumps(("raised", RuntimeError(f"the plan server cannot hand back {outcome[0]}: {exc}")))
        _send(sock, reply, [])
    os._exit(0)


class _Server:
    """The test process's end of its plan server."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    def plan(self, work: Callable[[], Any], project: Any, stack: str, limits: Any) -> Any:
        payload = pickle.dumps((work, project, stack, limits, dict(os.environ), os.getcwd()))
        _send(self.sock, payload, [0, 1, 2])
        reply = _receive(self.sock)
        if reply is None:
            raise RuntimeError("the plan server ended")
        kind, value = pickle.loads(reply[0])
        if kind == "raised":
            raise value
        return value


_server: _Server | None = None
_owner = os.getpid()


def _started() -> _Server | None:
    """This test process's plan server, started on first use; None while the zygote serves a running command
    (it serves one child at a time), for a plan made here meanwhile."""
    global _server
    if _server is None:
        from tests import cli_process
        from tests.conftest import REPO

        if cli_process.zygote_busy():
            return None
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            cli_process.start_beside_the_zygote({"serve_plans": str(REPO)}, theirs.fileno())
        finally:
            theirs.close()
        _server = _Server(ours)
    return _server


@contextlib.contextmanager
def routed() -> Iterator[None]:
    """While it lasts, the plans this test process makes itself are made by its plan server."""
    from azure_gpu_stacks.engine.run import plan as planning

    real = planning._in_engine_process

    def in_server(work: Callable[[], Any], project: Any, stack: str, limits: Any) -> Any:
        server = _started() if os.getpid() == _owner and isinstance(work, functools.partial) else None
        if server is None:
            return real(work, project, stack, limits)
        return server.plan(work, project, stack, limits)

    planning._in_engine_process = in_server  # type: ignore[assignment]
    try:
        yield
    finally:
        planning._in_engine_process = real  # type: ignore[assignment]
