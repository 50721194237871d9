"""The plans of in-process commands, forked from a lean process instead of from the test worker.

Each plan forks its engine process from the process that plans, and the engine forks the program's child
(`engine.run.plan._in_engine_process`). A fork copies the page tables of the forking process and its exit tears
them down again: about 0.1 ms per MB each way (docs/testing.md, "Tenth session"). A test worker holds 270-430 MB
over a run (the preload, the collected test modules, what earlier tests left); the zygote of tests/cli_process.py,
a fresh interpreter that only preloaded, about 210 MB. And each fork from the worker write-protects the worker's
own pages, so the worker then faults on the pages it writes next.

So each test process (`routed`, for the whole session) has the plans it makes itself, `_in_engine_process` called
in the test process rather than in a `--jobs` worker forked from it, made by a server forked once from its zygote:
the same `_in_engine_process` with the same arguments (pickled: `plan_stack` hands it a `functools.partial`), in the
test's working directory and environment, on the test process's standard streams (passed with each request), its
plan or what it raised handed back. The server learns from each plan as a process that plans again does
(`plan._learn_from_the_last_plan`).

A plan is made in the test process as before whenever something it may read there is patched: a pytest
`MonkeyPatch` (the `monkeypatch` fixture, `MonkeyPatch.context()`) holding an attribute, a `sys.path` change or an
item of anything but `os.environ`, or a `unittest.mock` patch (pytest-mock's too) entered and not yet left
(`patched`). A test that changes a module's attribute by plain assignment is not seen: patch with one of those.

`TESTS_PLAN_SERVER=off` in the environment of a run makes every plan in the test process, as before the server:
to compare the two, or to rule the server out while debugging a test.
"""

from __future__ import annotations

import contextlib
import functools
import os
import pickle
import resource
import socket
import struct
import weakref
from collections import Counter
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


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def serve(fd: int) -> None:
    """The server's loop, in a process forked from the zygote: one plan per request, until the test process
    closes its end. Ends the process itself."""
    import sys
    import tempfile

    from azure_gpu_stacks.engine.run import plan as planning

    sock = socket.socket(fileno=fd)
    _send(sock, pickle.dumps(os.getpid()), [])  # who it is, for a test that ends it
    while (request := _receive(sock)) is not None:
        payload, streams = request
        work, project, stack, limits, environ, cwd = pickle.loads(payload)
        saved = [os.dup(target) for target in range(3)]
        saved_environ, saved_cwd = dict(os.environ), os.getcwd()
        cpu_before = _children_cpu()
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
            reply = pickle.dumps((*outcome, _children_cpu() - cpu_before))
        except Exception as exc:  # noqa: BLE001 - said in the test process instead
            problem = RuntimeError(f"the plan server cannot hand back {outcome[0]}: {exc}")
            reply = pickle.dumps(("raised", problem, _children_cpu() - cpu_before))
        _send(sock, reply, [])
    os._exit(0)


class _Server:
    """The test process's end of its plan server."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        hello = _receive(sock)
        if hello is None:
            raise RuntimeError("the plan server ended as it started (tests/plan_server.py)")
        self.pid: int = pickle.loads(hello[0])

    def plan(self, payload: bytes) -> Any:
        global _server, _server_cpu
        try:
            _send(self.sock, payload, [0, 1, 2])
            reply = _receive(self.sock)
        except OSError:
            reply = None
        if reply is None:  # this plan fails; the next starts a new server
            _server = None
            self.sock.close()
            raise RuntimeError("the plan server ended before it answered (tests/plan_server.py)")
        kind, value, cpu = pickle.loads(reply[0])
        _server_cpu += cpu
        if kind == "raised":
            raise value
        return value


_server: _Server | None = None
_owner = os.getpid()
_server_cpu = 0.0
made_by: Counter[str] = Counter()  # how this test process's plans were made, and why not by the server


def server_process() -> int | None:
    """The pid of this test process's plan server, if it has one now."""
    return _server.pid if _server else None


def server_cpu() -> float:
    """CPU-seconds of the plans the server made for this test process so far (its reaped children's, which this
    process's own `RUSAGE_CHILDREN` never counts): tests/cpu_profile.py adds them to each test's children."""
    return _server_cpu


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


_monkeypatches: weakref.WeakSet[Any] = weakref.WeakSet()
_mock_patches = 0


def caller_side() -> tuple[Callable[..., Any], ...]:
    """The functions that run only in the process that plans, around `_in_engine_process`, never in a plan's engine
    process or its program, as they were before any test patched them: what tests/shared_plans.py wraps to share
    plans, and the fleet's planning a test spies on. A patch that replaced one of them changes nothing a plan reads
    (tests/engine/run/test_plan_server.py checks that none of them runs in an engine process)."""
    global _caller_side
    if _caller_side is None:
        from azure_gpu_stacks.engine.commands import check_root
        from azure_gpu_stacks.engine.run import outcome, plan

        _caller_side = (plan.plan_stack, outcome.plan_outcomes, check_root._plan)
    return _caller_side


_caller_side: tuple[Callable[..., Any], ...] | None = None


def patched() -> bool:
    """Whether anything a plan may read in this process is patched now: a pytest MonkeyPatch holding an attribute
    (unless it replaced a `caller_side` function), an item of anything but os.environ, or a sys.path change; or a
    unittest.mock patch (pytest-mock's too) entered and not yet left. Environment variables and the working
    directory travel with each request instead."""
    if _mock_patches:
        return True
    harmless = caller_side()
    for monkeypatch in _monkeypatches:
        if monkeypatch._savesyspath is not None:
            return True
        if any(not any(old is function for function in harmless) for _, _, old in monkeypatch._setattr):
            return True
        if any(target is not os.environ for target, _, _ in monkeypatch._setitem):
            return True
    return False


@contextlib.contextmanager
def _patches_watched() -> Iterator[None]:
    """While it lasts, each MonkeyPatch that patches is noted and the unittest.mock patches entered and not yet
    left are counted (`patched`)."""
    from unittest import mock

    from _pytest.monkeypatch import MonkeyPatch

    originals: list[tuple[type, str, Any]] = []

    def wrap(owner: type, name: str, wrapper: Callable[[Any], Callable[..., Any]]) -> None:
        real = getattr(owner, name)
        originals.append((owner, name, real))
        setattr(owner, name, wrapper(real))

    def noting(real: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(real)
        def note(self: Any, *args: Any, **kwargs: Any) -> Any:
            _monkeypatches.add(self)
            return real(self, *args, **kwargs)

        return note

    def counting(step: int) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        def wrapper(real: Callable[..., Any]) -> Callable[..., Any]:
            @functools.wraps(real)
            def count(self: Any, *args: Any) -> Any:
                global _mock_patches
                _mock_patches += step
                return real(self, *args)

            return count

        return wrapper

    for name in ("setattr", "delattr", "setitem", "delitem", "syspath_prepend"):
        wrap(MonkeyPatch, name, noting)
    # mock.patch and patch.object enter and leave through these (start/stop, decorators and `with` too); patch.dict
    # through its own pair
    wrap(mock._patch, "__enter__", counting(1))  # type: ignore[attr-defined]
    wrap(mock._patch, "__exit__", counting(-1))  # type: ignore[attr-defined]
    wrap(mock._patch_dict, "_patch_dict", counting(1))  # type: ignore[attr-defined]
    wrap(mock._patch_dict, "_unpatch_dict", counting(-1))  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for owner, name, real in reversed(originals):
            setattr(owner, name, real)


def _route(work: Callable[[], Any], project: Any, stack: str, limits: Any) -> tuple[_Server | None, bytes, str]:
    """The server that makes this plan and its request, or None and why the test process makes it itself."""
    if os.environ.get("TESTS_PLAN_SERVER") == "off":
        return None, b"", "TESTS_PLAN_SERVER=off"
    if os.getpid() != _owner:
        return None, b"", "a process forked from the test process"
    if patched():
        return None, b"", "a patch active"
    try:
        request = pickle.dumps((work, project, stack, limits, dict(os.environ), os.getcwd()))
    except Exception:  # noqa: BLE001 - a closure, or a test's own object in the work
        return None, b"", "work that cannot be pickled"
    server = _started()
    return (server, request, "the plan server") if server else (None, b"", "the zygote busy")


@contextlib.contextmanager
def routed() -> Iterator[None]:
    """While it lasts, the plans this test process makes itself are made by its plan server, unless patched."""
    from azure_gpu_stacks.engine.run import plan as planning

    real = planning._in_engine_process
    caller_side()  # the functions as they are before any test patches them

    def in_server(work: Callable[[], Any], project: Any, stack: str, limits: Any) -> Any:
        server, request, why = _route(work, project, stack, limits)
        made_by[why] += 1
        return real(work, project, stack, limits) if server is None else server.plan(request)

    with _patches_watched():
        planning._in_engine_process = in_server  # type: ignore[assignment]
        try:
            yield
        finally:
            planning._in_engine_process = real  # type: ignore[assignment]
