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
import gc
import logging
import os
import runpy
import sys
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
    address: str,
    project: str,
    stack: str,
    config: Mapping[str, str],
    secret_keys: Sequence[str],
    dry_run: bool,
    organization: str,
    root_directory: str | None,
) -> None:
    """Run `program` inside a new root Stack against the engine at `address`; raise what it raises."""
    pulumi.runtime.reset_options()  # a new root Stack (and nothing of an earlier run in this process)
    pulumi.runtime.set_all_config(dict(config), list(secret_keys))
    settings = pulumi.runtime.Settings(
        monitor=address,
        engine=address,
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
    the environment. Exit 0 when the program ran to its end, 1 when it failed (its traceback on stderr)."""
    parser = argparse.ArgumentParser(description="Run a Pulumi Python program against an engine")
    parser.add_argument("--project", required=True)
    parser.add_argument("--stack", required=True)
    parser.add_argument("--organization", required=True)
    parser.add_argument("--root-directory")
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--monitor", required=True, help="the engine's gRPC address (resource monitor and engine)")
    parser.add_argument("PROGRAM")
    args = parser.parse_args(argv)
    sys.argv = [args.PROGRAM]
    connect(args.monitor).close()
    run(
        lambda: runpy.run_path(args.PROGRAM, run_name="__main__"),
        address=args.monitor,
        project=args.project,
        stack=args.stack,
        config=pulumi.runtime.get_config_env(),
        secret_keys=pulumi.runtime.get_config_secret_keys_env(),
        dry_run=args.dry_run,
        organization=args.organization,
        root_directory=args.root_directory,
    )
    sys.stdout.flush()
    return 0


if __name__ == "__main__":  # pragma: no cover - run by another interpreter
    os.environ.setdefault("GRPC_VERBOSITY", "ERROR")
    sys.exit(main())
