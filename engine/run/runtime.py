"""Run a Pulumi program in-process under Pulumi's mock runtime, recording what the engine receives.

This is the seam every offline check stands on: the program runs exactly as the Pulumi CLI's
Python host runs it (`set_all_config`, then `runpy.run_path` of the main file), but each resource
registration reaches a `RecordingMonitor` and is answered by the fake ARM. What is recorded is what
the engine would see: type, logical name, parent, custom or component, `protect`, and the inputs
with camelCase names as nested plain values.

Isolation: the Pulumi runtime keeps its root Stack, config and settings in context variables;
`run_program` resets them before every run, so runs do not leak into each other.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import gc
import logging
import os
import runpy
import sys
import warnings
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pulumi
from azure_gpu_stacks.engine.run import heap
from azure_gpu_stacks.engine.run.stack_references import ReferenceMocks, StackReferences
from azure_gpu_stacks.engine.secrets import CREDENTIAL_KEY, SECRET_SHOWN_AS
from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.fakeazure.mocks import FakeArmMocks
from azure_gpu_stacks.sdk.internals import (
    MockMonitor,
    is_output_unknown,
    is_secret,
    recorded_inputs,
    set_root_directory,
    stack_outputs,
    unwrap_secret,
)
from azure_gpu_stacks.sdk.values import unwrap_secrets

STACK_TYPE = "pulumi:pulumi:Stack"
DIY_ORGANIZATION = "organization"  # what a DIY (file, S3, Azure Blob) backend names every stack's organization


@dataclass(frozen=True)
class RecordedResource:
    """One resource registration as the Pulumi engine receives it."""

    urn: str
    type: str
    name: str
    parent: str | None  # the parent's URN; None for children of the Stack
    custom: bool
    protect: bool
    inputs: dict[str, Any]  # engine names (camelCase); secrets still wrapped, see `shown_inputs`
    dependencies: tuple[str, ...] = ()
    ignore_changes: tuple[str, ...] = ()
    delete_before_replace: bool = False
    secret_values: frozenset[str] = frozenset()  # the run's secret config values, to mask where they appear
    source: tuple[str, int] | None = (
        None  # (file URI, line) of the program line that registered it, as the engine gets it
    )

    def shown_inputs(self) -> dict[str, Any]:
        """Inputs for people and JSON: secrets as "[secret]", unknowns as None.

        Pulumi marks a whole top-level input secret when any value inside it is (a scale set's
        `virtualMachineProfile` for one SSH key). Where the secret part is one of the run's secret
        config values, only the strings holding it are masked and the rest stays readable.
        """
        return shown(self.inputs, self.secret_values)

    def plain_inputs(self) -> dict[str, Any]:
        """Inputs with secret markers removed, as a policy receives them."""
        return unwrap_secrets(self.inputs)

    def to_json(self) -> dict[str, Any]:
        """The resource as a plan's JSON shows it: secrets masked, unknowns as null."""
        return {
            "urn": self.urn,
            "type": self.type,
            "name": self.name,
            "parent": self.parent,
            "custom": self.custom,
            "protect": self.protect,
            "inputs": self.shown_inputs(),
        }


def shown(value: Any, secrets: frozenset[str] = frozenset()) -> Any:
    """A value for people and JSON: secrets as "[secret]", unknowns as None."""
    if is_secret(value):
        inner = unwrap_secret(value)
        if isinstance(inner, (dict, list)) and _holds_secret(inner, secrets):
            return shown(_masked(inner, secrets), secrets)
        return SECRET_SHOWN_AS
    if isinstance(value, dict):
        return {k: shown(v, secrets) for k, v in value.items()}
    if isinstance(value, list):
        return [shown(v, secrets) for v in value]
    if is_output_unknown(value):
        return None
    return value


def _holds_secret(value: Any, secrets: frozenset[str]) -> bool:
    if isinstance(value, str):
        return any(secret in value for secret in secrets)
    if isinstance(value, dict):
        return any(_holds_secret(v, secrets) for v in value.values())
    if isinstance(value, list):
        return any(_holds_secret(v, secrets) for v in value)
    return False


# Inside an unmasked structure, leaves under `CREDENTIAL_KEY` stay hidden whatever their value: they may
# hold a secret that came from somewhere other than the stack's config.


def _masked(value: Any, secrets: frozenset[str]) -> Any:
    if isinstance(value, str):
        return SECRET_SHOWN_AS if _holds_secret(value, secrets) else value
    if isinstance(value, dict):
        return {
            k: SECRET_SHOWN_AS if CREDENTIAL_KEY.search(k) and v is not None else _masked(v, secrets)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_masked(v, secrets) for v in value]
    return value


def _source_position(request: Any) -> tuple[str, int] | None:
    """The registration's `sourcePosition` (pulumi/pulumi sdk/proto/resource.proto), when the SDK sent one."""
    if not request.HasField("sourcePosition") or not request.sourcePosition.uri:
        return None
    return request.sourcePosition.uri, int(request.sourcePosition.line)


class RecordingMonitor(MockMonitor):
    """A mock resource monitor that keeps every registration request, in order."""

    def __init__(self, mocks: pulumi.runtime.Mocks, secret_values: frozenset[str] = frozenset()):
        super().__init__(mocks)
        self.recorded: list[RecordedResource] = []
        self.stack_urn = ""
        self.secret_values = secret_values

    def make_urn(self, parent: str, type_: str, name: str) -> str:
        # The engine's URN: the parent's qualified type joins only for parents below the Stack.
        if parent and parent != self.stack_urn:
            type_ = parent.split("::")[2] + "$" + type_
        return "urn:pulumi:" + "::".join([pulumi.get_stack(), pulumi.get_project(), type_, name])

    def RegisterResource(self, request: Any) -> Any:
        response = super().RegisterResource(request)
        if request.type == STACK_TYPE:
            self.stack_urn = response.urn
            return response
        self.recorded.append(
            RecordedResource(
                urn=response.urn,
                type=request.type,
                name=request.name,
                parent=request.parent if request.parent and request.parent != self.stack_urn else None,
                custom=request.custom,
                protect=bool(request.protect),
                inputs=recorded_inputs(request.object),
                dependencies=tuple(request.dependencies),
                ignore_changes=tuple(request.ignoreChanges),
                delete_before_replace=request.deleteBeforeReplace,
                secret_values=self.secret_values,
                source=_source_position(request),
            )
        )
        return response


@dataclass
class LogRecord:
    severity: str
    message: str


class _CollectingHandler(logging.Handler):
    def __init__(self, sink: list[LogRecord]):
        super().__init__(logging.DEBUG)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.WARNING:
            self.sink.append(LogRecord(record.levelname.lower(), record.getMessage()))


@dataclass
class RunResult:
    """What one program run produced."""

    resources: list[RecordedResource]
    outputs: dict[str, Any]
    secret_outputs: set[str]
    logs: list[LogRecord] = field(default_factory=list)


def run_program(
    program: Callable[[], None],
    *,
    project: str,
    stack: str,
    config: Mapping[str, str],
    secret_keys: list[str],
    arm: FakeArm,
    preview: bool = False,
    organization: str = DIY_ORGANIZATION,
    root_directory: Path | None = None,
    references: StackReferences | None = None,
) -> RunResult:
    """Run `program` once under the mock runtime with a fresh root Stack; raise what it raises.

    `pulumi.get_organization()` answers `organization` (the DIY backend's fixed "organization"
    unless told: pulumi/pulumi `pkg/backend/diy/backend.go`), `get_root_directory()` the project's
    directory, and `StackReference`s are answered from `references`.
    """
    # A fresh event loop and fresh settings for every run: the SDK keeps both in module globals
    # (pulumi/pulumi sdk/python/lib/pulumi/runtime/settings.py), which a previous run would leave behind.
    loop = asyncio.new_event_loop()
    # A failed invoke fails every Output derived from it; the first failure is raised to the caller,
    # and the copies asyncio would print (with tracebacks) when those futures are collected are dropped.
    loop.set_exception_handler(_drop_unretrieved_future_errors)
    loop.set_default_executor(_InlineExecutor())
    asyncio.set_event_loop(loop)
    pulumi.runtime.reset_options()
    pulumi.runtime.set_all_config(dict(config), list(secret_keys))
    mocks: pulumi.runtime.Mocks = FakeArmMocks(arm, preview=preview)
    if references is not None:
        mocks = ReferenceMocks(mocks, references)
    # Only non-empty values: an empty string would "appear" in every string.
    monitor = RecordingMonitor(mocks, frozenset(v for k, v in config.items() if k in secret_keys and v))
    logs: list[LogRecord] = []
    # A Logger of this run only: one from logging.getLogger would stay in logging's registry, with
    # its handler and records, for the life of the process (a leak per stack in a fleet's check).
    logger = logging.Logger(f"azure_gpu_stacks.engine.program.{stack}")  # noqa: LOG001 - on purpose, see above
    logger.propagate = False
    logger.addHandler(_CollectingHandler(logs))
    pulumi.runtime.set_mocks(
        mocks, project=project, stack=stack, preview=preview, logger=logger, monitor=monitor, organization=organization
    )
    if root_directory is not None:  # set_mocks leaves it unset; the CLI passes --root_directory
        set_root_directory(str(root_directory))
    outputs: dict[str, Any] = {}
    secrets: set[str] = set()

    @pulumi.runtime.test
    def _run() -> Any:
        program()
        exported = stack_outputs()

        async def resolve() -> None:
            for key, value in exported.items():
                out = pulumi.Output.from_input(value)
                outputs[key] = await out.future(with_unknowns=True)
                if await out.is_secret():
                    secrets.add(key)

        return pulumi.Output.from_input(asyncio.ensure_future(resolve()))

    # A program that fails mid-run leaves the SDK's coroutines unawaited, and Python warns about each
    # when it is collected; pulumi-language-python-exec silences asyncio's equivalent complaints
    # for the same reason ("we simply turn off the logger for asyncio"). The failure itself is raised.
    with warnings.catch_warnings(), heap.only_new_objects_collectable():
        warnings.filterwarnings("ignore", message="coroutine .* was never awaited", category=RuntimeWarning)
        try:
            _run()
        except BaseException:
            _close(loop)
            gc.collect()  # now, while the filter holds, not in the middle of a later report
            raise
    _close(loop)
    return RunResult(monitor.recorded, outputs, secrets, logs)


def _close(loop: asyncio.AbstractEventLoop) -> None:
    pulumi.runtime.reset_options()
    asyncio.set_event_loop(None)
    loop.close()


class _InlineExecutor(concurrent.futures.ThreadPoolExecutor):
    """Runs each call the SDK hands an executor at once, on the event loop's thread.

    The SDK sends every registration and invoke to the monitor through `run_in_executor`; with a
    pool of threads, the order registrations reach the monitor (and so the order of the recorded
    resources, refusals and violations) changed from run to run. The mock monitor answers at once
    and never waits on the loop, so running it inline is safe, saves the thread hand-offs, and makes
    a plan the same every time, which `--jobs` relies on to print what a serial run prints.
    (asyncio only accepts a ThreadPoolExecutor as the default executor; no thread is ever started.)
    """

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # noqa: BLE001 - delivered to the awaiting coroutine, as a pool thread would
            future.set_exception(exc)
        return future


def _drop_unretrieved_future_errors(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    if context.get("message") not in ("Future exception was never retrieved", "Task exception was never retrieved"):
        loop.default_exception_handler(context)


@contextmanager
def program_environment(program: Path, project_root: Path) -> Iterator[None]:
    """The working directory, import path and `sys.argv` the Pulumi CLI gives a Python program.

    pulumi/pulumi `pkg/engine/project.go` (`getPwdMain`, observed 2026-11-22): the program runs in
    the directory of `main:` (the project's when unset), and is `.` when `main:` is a directory and
    the file's name otherwise; `pulumi-language-python-exec` then `runpy.run_path`s it, which puts a
    directory program, and only a directory program, first on `sys.path`: beside a `main:` file,
    sibling modules are not importable (pulumi/pulumi#7360). `main_file_runner` does the run_path;
    here the cwd moves, entries meaning "the current directory" leave `sys.path` for the run (they
    would make the program's directory importable where Pulumi does not), and modules the program
    imported from its project are forgotten afterwards, as each `pulumi preview` is a new process.
    Python writes no bytecode while the program runs, whatever PYTHONDONTWRITEBYTECODE says: a check
    leaves nothing in the project, not even the `__pycache__` a real run writes beside the program's
    modules (the SDK modules a plan imports are compiled once at set-up: `make`, parallel.preload).
    """
    previous_cwd = os.getcwd()
    previous_argv = sys.argv
    previous_dont_write = sys.dont_write_bytecode
    sys.dont_write_bytecode = True
    directory = program if program.is_dir() else program.parent
    relative_entries = [p for p in sys.path if p in ("", ".")]
    for entry in relative_entries:
        sys.path.remove(entry)
    loaded = set(sys.modules)
    os.chdir(directory.resolve())
    sys.argv = ["." if program.is_dir() else program.name]
    try:
        yield
    finally:
        os.chdir(previous_cwd)
        sys.argv = previous_argv
        sys.dont_write_bytecode = previous_dont_write
        sys.path[:0] = relative_entries
        _forget_program_modules(loaded, project_root.resolve())


def _forget_program_modules(loaded: set[str], root: Path) -> None:
    """Drop modules first imported by this run from the project's own files (not its packages)."""
    for name in set(sys.modules) - loaded:
        file = getattr(sys.modules[name], "__file__", None)
        if not file or name.startswith("azure_gpu_stacks") or "site-packages" in file:
            continue
        try:
            Path(file).resolve().relative_to(root)
        except ValueError:
            continue
        del sys.modules[name]


def main_file_runner(program: Path) -> Callable[[], None]:
    """What the CLI's Python host does with the program: `runpy.run_path` of `main:` as `__main__`
    (a directory runs its `__main__.py`, from a path that starts with the directory)."""

    def run() -> None:
        runpy.run_path(str(program), run_name="__main__")

    return run
