"""The program's side: run a Pulumi program against an engine's gRPC address, as Pulumi's Python
language host does. Imports only the Python standard library, grpc and pulumi, so that it also runs
as a script under a project's own interpreter and SDK (`python program_host.py ... PROGRAM`).

What `pulumi preview` does (pulumi/pulumi `sdk/python/cmd/pulumi-language-python-exec`, and
`sdk/python/lib/pulumi/runtime/settings.py`, `stack.py`; observed 2026-11-25):
1. config from the environment, `PULUMI_CONFIG` (a JSON object of `<namespace>:<key>` to string) and
   `PULUMI_CONFIG_SECRET_KEYS` (a JSON list), given to `pulumi.runtime.set_all_config`;
2. `pulumi.runtime.configure(Settings(monitor, engine, project, stack, parallel, dry_run,
   organization, root_directory))`, the monitor and engine being gRPC addresses;
3. a new event loop, asyncio's own logger silenced ("we simply turn off the logger for asyncio");
4. `loop.run_until_complete(pulumi.runtime.run_in_stack(lambda: runpy.run_path(PROGRAM,
   run_name="__main__")))`.

One difference, for a plan that is the same every run: the language host leaves the SDK's calls to
the loop's default executor, a pool of threads, and the order in which registrations reach the
engine then depends on which thread is scheduled first. Here each call to the engine is made at once,
on the loop's thread, and waits for the answer (`_InlineExecutor`): the event loop is one thread
and the engine answers each request before the next is sent, so the program's coroutines run in
the same order every time and the engine receives the same sequence of registrations, whatever
`--jobs` is and however busy the machine. (The SDK's `parallel` setting is only stored in
`Settings`, pulumi 3.272.0; it does not order anything.) Unlike an in-process mock monitor, the
engine's answer is computed in another thread or process, so waiting for it never runs the event
loop again from inside a call: the stack does not grow with the number of resources.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import ctypes
import gc
import json
import logging
import os
import resource
import runpy
import sys
import threading
import traceback
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import grpc
import pulumi
import pulumi.runtime

PARALLEL = 1  # stored by the SDK and otherwise unused; see the module's docstring
DEBUG = 0  # LogSeverity.DEBUG (pulumi/pulumi proto/pulumi/engine.proto)


class _WithoutDebugLines:
    """The SDK's engine stub, keeping to itself the debug lines it would send (four per resource).

    `pulumi preview` shows them only when asked (`--debug`, pulumi/pulumi `pkg/cmd/pulumi`, observed
    2026-11-25) and a plan never does; sent, they were four of every five requests of a registration."""

    def __init__(self, stub: Any):
        self._stub = stub

    def Log(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        if request.severity == DEBUG:
            return None
        return self._stub.Log(request, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stub, name)


# The SDK's own message limit (pulumi/runtime/_grpc_settings.py: 400 MiB); the SDK's channels set it too.
CHANNEL_OPTIONS = [("grpc.max_receive_message_length", 400 * 1024 * 1024)]


class _InlineExecutor(concurrent.futures.ThreadPoolExecutor):
    """Runs each call the SDK hands an executor at once, on the event loop's thread (see the module's
    docstring). asyncio only accepts a ThreadPoolExecutor as the default executor; none is started."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # noqa: BLE001 - delivered to the awaiting coroutine, as a pool thread would
            future.set_exception(exc)
        return future


def _drop_unretrieved_future_errors(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    # A failed call fails every Output derived from it; the first failure is raised to the caller.
    if context.get("message") not in ("Future exception was never retrieved", "Task exception was never retrieved"):
        loop.default_exception_handler(context)


def connect(address: str, timeout_s: float = 30.0) -> grpc.Channel:
    """A channel to the engine at `address`, connected before it returns: gRPC's threads are started,
    and a program that cannot reach its engine fails here, before it runs."""
    channel = grpc.insecure_channel(address, options=CHANNEL_OPTIONS)
    grpc.channel_ready_future(channel).result(timeout=timeout_s)
    return channel


def run(
    program: Callable[[], Any],
    *,
    address: str | Any,
    project: str,
    stack: str,
    config: Mapping[str, str],
    secret_keys: Sequence[str],
    dry_run: bool,
    organization: str,
    root_directory: str | None,
) -> None:
    """Run `program` inside a new root Stack against the engine at `address` (a gRPC address, or a channel to it:
    `engine.run.socket_channel`); raise what it raises."""
    pulumi.runtime.reset_options()  # a new root Stack (and nothing of an earlier run in this process)
    pulumi.runtime.set_all_config(dict(config), list(secret_keys))
    # a channel gives the SDK's own generated stubs on it (`socket_channel.SocketChannel.stubs`)
    monitor, engine = (address, address) if isinstance(address, str) else address.stubs()
    settings = pulumi.runtime.Settings(
        monitor=monitor,
        engine=engine,
        project=project,
        stack=stack,
        parallel=PARALLEL,
        dry_run=dry_run,
        organization=organization,
        root_directory=root_directory,
    )
    settings.engine = _WithoutDebugLines(settings.engine)
    pulumi.runtime.configure(settings)
    # No cyclic garbage collection while the program runs: the SDK makes hundreds of objects per
    # resource (Outputs, futures, callbacks), and each full collection walks all that are alive, so
    # collections made a program of n resources cost about n² (1.65x the time per resource at 500
    # resources as at 100). Reference counting still frees what is not in a cycle; the cycles left
    # (about 0.1 MB per resource) go with the run (the process ends, or the caller collects).
    collecting = gc.isenabled()
    gc.disable()
    loop = asyncio.new_event_loop()
    loop.set_default_executor(_InlineExecutor())
    loop.set_exception_handler(_drop_unretrieved_future_errors)
    asyncio.set_event_loop(loop)
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)
    try:
        loop.run_until_complete(pulumi.runtime.run_in_stack(program))
    finally:
        pulumi.runtime.reset_options()
        asyncio.set_event_loop(None)
        loop.close()
        if collecting:
            gc.enable()


def main(argv: Sequence[str] | None = None) -> int:
    """As `pulumi-language-python-exec`: arguments name the engine and the program, config comes from
    the environment. Exit 0 when the program ran to its end, 1 when it failed: its traceback on stderr,
    or, with `--result-fd`, one JSON line there saying what happened (`Report`)."""
    parser = argparse.ArgumentParser(description="Run a Pulumi Python program against an engine")
    parser.add_argument("--project", required=True)
    parser.add_argument("--stack", required=True)
    parser.add_argument("--organization", required=True)
    parser.add_argument("--root-directory")
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--monitor", required=True, help="the engine's gRPC address (resource monitor and engine)")
    parser.add_argument("--result-fd", type=int, help="where to write the one JSON line of what happened")
    parser.add_argument("--memory-limit-mib", type=int, help="address space the program may add (hard limit)")
    parser.add_argument("PROGRAM")
    args = parser.parse_args(argv)
    sys.argv = [args.PROGRAM]
    channel = connect(args.monitor)  # kept open: gRPC's threads are started before the limit, as in a fork
    if args.memory_limit_mib is not None:
        limit_memory(args.memory_limit_mib)
    arguments: dict[str, Any] = {
        "address": args.monitor,
        "project": args.project,
        "stack": args.stack,
        "config": pulumi.runtime.get_config_env(),
        "secret_keys": pulumi.runtime.get_config_secret_keys_env(),
        "dry_run": args.dry_run,
        "organization": args.organization,
        "root_directory": args.root_directory,
    }

    def program() -> None:
        runpy.run_path(args.PROGRAM, run_name="__main__")

    if args.result_fd is None:
        run(program, **arguments)
        sys.stdout.flush()
        channel.close()
        return 0
    report = Report(args.result_fd, args.root_directory or os.getcwd())
    code = report.outcome(lambda: run(program, **arguments))
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    return code


class Report:
    """What happened to the program, as JSON lines on a file descriptor of the engine's (the last line
    counts): `{"ok": true}`, `{"threads": [names]}` (written before waiting for them, as the language
    host waits), or `{"failed": {"kind": "memory" | "exit" | "raised", ...}}` with, for an exception,
    its type, message and the last line of the project's own code it passed through (`where`), and
    `plain` for Pulumi's errors meant for users, whose message is the whole story. Machine-readable,
    so the engine never parses a traceback; the engine trusts "ok" only when it also saw the stack end."""

    def __init__(self, fd: int, root: str):
        os.set_inheritable(fd, False)  # not for what the program starts
        self.fd = fd
        self.root = root

    def write(self, message: Mapping[str, Any]) -> None:
        data = (json.dumps(message) + "\n").encode()
        while data:
            data = data[os.write(self.fd, data) :]

    def outcome(self, work: Callable[[], None]) -> int:
        before = set(threading.enumerate())
        try:
            work()
        except MemoryError:
            self.write({"failed": {"kind": "memory"}})
            return 1
        except SystemExit as exc:
            self.write({"failed": {"kind": "exit", "code": repr(exc.code)}})
            return 1
        except BaseException as exc:  # noqa: BLE001 - KeyboardInterrupt and GeneratorExit from a program included
            self.write({"failed": self.raised(exc)})
            return 1
        left = [t for t in threading.enumerate() if t not in before and t.is_alive() and not t.daemon]
        if left:  # Pulumi's language host waits for them too; the engine's deadline stops the wait
            self.write({"threads": [t.name for t in left]})
            for thread in left:
                thread.join()
        self.write({"ok": True})
        return 0

    def raised(self, exc: BaseException) -> dict[str, Any]:
        return {
            "kind": "raised",
            "type": type(exc).__name__,
            "message": str(exc),
            "where": where(exc, self.root),
            "plain": isinstance(exc, USER_ERRORS),
        }


# Pulumi's errors meant for the user: their message says it all (no type, no traceback under `pulumi preview`).
USER_ERRORS = (pulumi.RunError, pulumi.ConfigMissingError, pulumi.ConfigTypeError)


def where(exc: BaseException, root: str) -> str | None:
    """`file:line` of the last frame of the traceback in the project's own code (under `root`, not in
    an installed package), relative to `root`; None when the exception never passed through it."""
    root = os.path.realpath(root)
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        path = os.path.realpath(frame.filename)
        if path.startswith(root + os.sep) and "site-packages" not in path:
            return f"{os.path.relpath(path, root)}:{frame.lineno}"
    return None


# --- limits the program cannot lift --------------------------------------------------------------


def limit_memory(mib: int) -> None:
    """Address space: what this process maps now (the imports, the engine's connection) plus `mib`, as
    the soft and the hard limit, so the program cannot raise it (setrlimit(2): only a privileged process
    raises a hard limit; as root, the privilege, CAP_SYS_RESOURCE, is dropped first). Linux only."""
    with open("/proc/self/statm") as fh:
        pages = int(fh.read().split()[0])
    limit = pages * resource.getpagesize() + mib * 1024 * 1024
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    drop_resource_privilege()


_CAP_SYS_RESOURCE = 24  # linux/capability.h
_PR_CAPBSET_DROP = 24  # linux/prctl.h
_LINUX_CAPABILITY_VERSION_3 = 0x20080522


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def drop_resource_privilege() -> None:
    """Linux: this process (and what it starts) loses CAP_SYS_RESOURCE, the right to raise hard limits
    (capabilities(7); capget/capset(2)). Nothing to do where the process never had it."""
    libc = ctypes.CDLL(None, use_errno=True)
    with contextlib.suppress(OSError, AttributeError):
        libc.prctl(_PR_CAPBSET_DROP, _CAP_SYS_RESOURCE, 0, 0, 0)  # not for programs it executes either
    header = _CapHeader(_LINUX_CAPABILITY_VERSION_3, 0)
    data = (_CapData * 2)()
    if libc.capget(ctypes.byref(header), data) != 0:
        return
    bit = 1 << _CAP_SYS_RESOURCE
    data[0].effective &= ~bit
    data[0].permitted &= ~bit
    data[0].inheritable &= ~bit
    libc.capset(ctypes.byref(header), data)


if __name__ == "__main__":  # pragma: no cover - run by another interpreter
    os.environ.setdefault("GRPC_VERBOSITY", "ERROR")
    sys.exit(main())
