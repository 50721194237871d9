"""Run a Pulumi program against the offline engine, recording what the engine receives.

This is the seam every offline check stands on. As under `pulumi preview`, the engine and the program
are two sides of Pulumi's own protocols: the engine (`ProgramEngine`: a `RecordingMonitor` answering
through Pulumi's mock monitor and the fake ARM, served by `engine.run.monitor.MonitorServer`) keeps
what was registered, Azure's answers and the program's log; the program runs as Pulumi's Python
language host runs it (`engine.run.program_host`) and reaches the engine only over gRPC. A plan runs
the program in a forked child (`engine.run.plan`, `engine.run.isolation`); `run_program`, for tests
of components, runs it in this process against an engine served from this process. What is recorded
is what the engine would see: type, logical name, parent, custom or component, `protect`, and the
inputs with camelCase names as nested plain values.

Each run starts from a fresh root Stack, config and settings (`program_host.run`), so runs do not
leak into each other.
"""

from __future__ import annotations

import gc
import os
import runpy
import sys
import threading
import warnings
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pulumi

from ...fakeazure import FakeArm
from ...fakeazure.mocks import FakeArmMocks
from ...sdk.internals import (
    MockMonitor,
    alias_urns_made_when_read,
    is_output_unknown,
    is_secret,
    recorded_inputs,
    resource_pb2,
    stack_traces_without_source_lines,
    unwrap_secret,
)
from ...sdk.values import unwrap_secrets
from ..errors import InputError
from ..secrets import CREDENTIAL_KEY, SECRET_SHOWN_AS
from . import heap, program_host
from .monitor import MonitorServer
from .socket_channel import SocketServer
from .stack_references import ReferenceMocks, StackReferences

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
    arm_id: str = ""  # the id the resource got (the name an auto-named one was given ends it); "" in a preview

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
    if isinstance(value, (pulumi.Asset, pulumi.Archive)):  # a blob's `source`: shown as exports show it
        return f"[{type(value).__name__}]"
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


class DuplicateResourceUrn(InputError):
    """A second registration of a URN, which Pulumi's engine refuses: the program's error, not the engine's."""


class RecordingMonitor(MockMonitor):
    """The engine's resource monitor, offline: answers each request through Pulumi's mock monitor (and
    so the fake ARM) and keeps every registration, in order, and the stack's outputs.

    It lives in the engine's process and is reached only through `engine.run.monitor.MonitorServer`."""

    def __init__(
        self,
        mocks: pulumi.runtime.Mocks,
        *,
        project: str,
        stack: str,
        secret_values: frozenset[str] = frozenset(),
        gate_invokes: bool = False,
        unknown_inputs: dict[tuple[str, str], frozenset[str]] | None = None,
    ):
        super().__init__(mocks)
        # As the engine does during `pulumi preview`: an output-form invoke whose arguments depend on a
        # resource pending creation is not made, its result wholly unknown (pulumi/pulumi
        # `proto/pulumi/resource.proto`, RESOURCE_MONITOR_FEATURE_INVOKE_DEPENDS_ON: "gates the invoke on
        # the created-ness of the dependencies, returning `unknown` ... when they are pending"; the SDK's
        # side: `sdk/python/lib/pulumi/runtime/invoke.py`; observed 2026-11-26). In a plan every resource
        # the program registers is pending creation; a read (`<Resource>.get`) exists already.
        self.gate_invokes = gate_invokes
        self.pending: set[str] = set()
        self.unknown_inputs = unknown_inputs if unknown_inputs is not None else {}
        self.project = project
        self.stack = stack
        self.recorded: list[RecordedResource] = []
        self.registered: set[str] = set()
        self.stack_urn = ""
        self.secret_values = secret_values
        self.outputs: dict[str, Any] = {}
        self.secret_outputs: set[str] = set()
        # The SDK registers the Stack's outputs once the program's code is done (`run_in_stack`): until
        # then the run has not ended, whatever the program's process says.
        self.stack_finished = False

    def make_urn(self, parent: str, type_: str, name: str) -> str:
        # The engine's URN: the parent's qualified type joins only for parents below the Stack.
        if parent and parent != self.stack_urn:
            type_ = parent.split("::")[2] + "$" + type_
        return "urn:pulumi:" + "::".join([self.stack, self.project, type_, name])

    def SupportsFeature(self, request: Any) -> Any:
        # The mock monitor answers with an ad-hoc object; over gRPC the answer must be the message.
        return resource_pb2.SupportsFeatureResponse(hasSupport=super().SupportsFeature(request).hasSupport)

    def GetDeploymentInfo(self, request: Any) -> Any:
        info = super().GetDeploymentInfo(request)
        if self.gate_invokes:
            info.supportedFeatures.append(resource_pb2.RESOURCE_MONITOR_FEATURE_INVOKE_DEPENDS_ON)
        return info

    def Invoke(self, request: Any) -> Any:
        if self.gate_invokes and any(urn in self.pending for urn in request.dependsOn):
            return resource_pb2.ResourceInvokeResponse(unknown=True)
        return super().Invoke(request)

    def ExistsResource(self, request: Any) -> Any:
        prefix = f"urn:pulumi:{self.stack}::{self.project}::"
        exists = any(
            r.id == request.id and r.urn[len(prefix) :].split("::")[0].split("$")[-1] == request.type
            for r in self.resources.values()
        )
        return resource_pb2.ExistsResourceResponse(exists=exists)

    def RegisterResourceOutputs(self, request: Any) -> Any:
        if request.urn == self.stack_urn and self.stack_urn:  # `pulumi.export`s, sent once at the end
            for key, value in recorded_inputs(request.outputs).items():
                if holds_secret(value):
                    self.secret_outputs.add(key)
                self.outputs[key] = _whole_numbers(unwrap_secrets(value))
            self.stack_finished = True
        return super().RegisterResourceOutputs(request)

    def RegisterResource(self, request: Any) -> Any:
        inputs = recorded_inputs(request.object)  # read once: for the unknowns now, recorded below
        unknown = frozenset(key for key, value in inputs.items() if _holds_unknown(value))
        if unknown:
            self.unknown_inputs[(request.type, request.name)] = unknown
        urn = self.make_urn(request.parent, request.type, request.name)
        if request.type != STACK_TYPE and urn in self.registered:
            # The engine stops a program that registers one URN twice (pulumi/pulumi `pkg/diag/errors.go`,
            # GetDuplicateResourceURNError, code 2001; Pulumi's docs, "Resource names": "If you create two
            # resources with the same name, type, and parent path ... you will see an error"; read 2026-11-27);
            # the mock monitor would silently keep the second.
            at = _source_position(request)
            where = f"; at {Path(at[0]).name}:{at[1]}" if at else ""
            raise DuplicateResourceUrn(
                f"Duplicate resource URN '{urn}'; try giving it a unique name (Pulumi's error for a second resource "
                f"of one name, type and parent{where})"
            )
        self.registered.add(urn)
        response = super().RegisterResource(request)
        if request.type == STACK_TYPE:
            self.stack_urn = response.urn
            return response
        if request.custom and not request.importId:
            self.pending.add(response.urn)
        self.recorded.append(
            RecordedResource(
                urn=response.urn,
                type=request.type,
                name=request.name,
                parent=request.parent if request.parent and request.parent != self.stack_urn else None,
                custom=request.custom,
                protect=bool(request.protect),
                inputs=inputs,
                dependencies=tuple(request.dependencies),
                ignore_changes=tuple(request.ignoreChanges),
                delete_before_replace=request.deleteBeforeReplace,
                secret_values=self.secret_values,
                source=_source_position(request),
                arm_id=str(response.id or ""),
            )
        )
        return response


def _holds_unknown(value: Any) -> bool:
    if is_output_unknown(value):
        return True
    if isinstance(value, dict):
        return any(_holds_unknown(v) for v in value.values())
    if isinstance(value, list):
        return any(_holds_unknown(v) for v in value)
    return False


def _whole_numbers(value: Any) -> Any:
    """Numbers as the engine shows them: the wire carries every number as a double, and Pulumi prints
    a whole one without a fraction (`pulumi stack output --json` prints 3, not 3.0)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _whole_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_whole_numbers(v) for v in value]
    return value


def holds_secret(value: Any) -> bool:
    """Whether a value as the engine received it is, or holds, a secret (Pulumi marks the whole export)."""
    if is_secret(value):
        return True
    if isinstance(value, dict):
        return any(holds_secret(v) for v in value.values())
    if isinstance(value, list):
        return any(holds_secret(v) for v in value)
    return False


@dataclass
class LogRecord:
    severity: str
    message: str


@dataclass
class RunResult:
    """What one program run produced."""

    resources: list[RecordedResource]
    outputs: dict[str, Any]
    secret_outputs: set[str]
    logs: list[LogRecord] = field(default_factory=list)


@dataclass
class ProgramEngine:
    """The engine's state for one run of a program: the monitor (and behind it the fake ARM) and the
    server the program reaches it through. Made in the engine's process; the program, in this process
    (`run_program`) or a child (`engine.run.plan`), runs `host_arguments()` against its address."""

    project: str
    stack: str
    config: Mapping[str, str]
    secret_keys: list[str]
    arm: FakeArm
    preview: bool = False
    # False: the program runs as under `pulumi preview` (dry run, outputs Azure computes unknown:
    # `fakeazure.planned`), as `check` and `plan` run it; True: every output known, as after `pulumi up`.
    known_outputs: bool = True
    organization: str = DIY_ORGANIZATION
    root_directory: Path | None = None
    references: StackReferences | None = None
    # True: the program is forked from the engine's process and reaches it over a socket pair
    # (`engine.run.socket_channel`); False: over gRPC (`engine.run.monitor`), in this process or from another
    # interpreter
    over_socket: bool = False
    monitor: RecordingMonitor = field(init=False)
    server: MonitorServer | SocketServer = field(init=False)

    def __post_init__(self) -> None:
        fake = FakeArmMocks(self.arm, preview=self.preview, known_outputs=self.known_outputs)
        mocks: pulumi.runtime.Mocks = fake
        if self.references is not None:
            mocks = ReferenceMocks(mocks, self.references)
        # Only non-empty values: an empty string would "appear" in every string.
        secrets = frozenset(v for k, v in self.config.items() if k in self.secret_keys and v)
        self.monitor = RecordingMonitor(
            mocks,
            project=self.project,
            stack=self.stack,
            secret_values=secrets,
            gate_invokes=self.preview or not self.known_outputs,
            unknown_inputs=fake.unknown_inputs,
        )
        self.server = SocketServer(self.monitor) if self.over_socket else MonitorServer(self.monitor)

    def connect(self) -> object:
        """In the program's process, before its limits are set: its connection to the engine, kept open."""
        if isinstance(self.server, SocketServer):
            return self.server.connect()
        return program_host.connect(self.server.address)

    def host_arguments(self) -> dict[str, Any]:
        """`program_host.run`'s keyword arguments, as the Pulumi CLI gives them to its language host."""
        return {
            "address": self.server.address,
            "project": self.project,
            "stack": self.stack,
            "config": dict(self.config),
            "secret_keys": list(self.secret_keys),
            "dry_run": self.preview or not self.known_outputs,
            "organization": self.organization,
            "root_directory": None if self.root_directory is None else str(self.root_directory),
        }

    def engine_failure(self) -> BaseException | None:
        """The first error the engine's side raised while answering the program (an unreadable
        `--stack-outputs` file...): the cause of whatever the program then did."""
        return self.server.failures[0] if self.server.failures else None

    def result(self) -> RunResult:
        self.arm.settle()  # the program has ended: a child still waiting for its parent is refused
        logs = [LogRecord(severity, message) for severity, message in self.server.log.records]
        return RunResult(
            list(self.monitor.recorded), dict(self.monitor.outputs), set(self.monitor.secret_outputs), logs
        )


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
    """Run `program` in this process against an engine served from this process; raise what it raises.

    The same two sides as a plan's (`engine.run.plan`, where the program runs in a child): the program
    talks to the engine only through the SDK's stubs on the socket pair a forked program uses
    (`engine.run.socket_channel`), answered by a thread of this process that ends with the run (no gRPC
    server or channel, so no thread of gRPC's outlives it to be inherited by a later fork).
    `pulumi.get_organization()` answers `organization`
    (the DIY backend's fixed "organization" unless told: pulumi/pulumi `pkg/backend/diy/backend.go`),
    `get_root_directory()` the project's directory, and `StackReference`s are answered from `references`.
    """
    engine = ProgramEngine(
        project=project,
        stack=stack,
        config=config,
        secret_keys=secret_keys,
        arm=arm,
        preview=preview,
        organization=organization,
        root_directory=root_directory,
        references=references,
        over_socket=True,
    )
    server = cast(SocketServer, engine.server)
    serving = threading.Thread(target=server.serve_until_closed, name="offline engine", daemon=True)
    serving.start()
    try:
        run_hosted(program, engine.host_arguments())
    finally:
        server.address.close()  # the engine's thread answers what was sent, then sees the end and returns
        serving.join()
        server.stop()
    failure = engine.engine_failure()
    if failure is not None:
        raise failure
    return engine.result()


def run_hosted(program: Callable[[], None], arguments: Mapping[str, Any]) -> None:
    """`program_host.run` with what a failed program leaves behind kept quiet.

    A program that fails mid-run leaves the SDK's coroutines unawaited, and Python warns about each
    when it is collected; pulumi-language-python-exec silences asyncio's equivalent complaints for the
    same reason ("we simply turn off the logger for asyncio"). The failure itself is raised.

    A resource's alias URNs are made only if read (`alias_urns_made_when_read`): this engine takes aliases as
    specs, so the SDK never reads them, and making them was most of a plan's CPU. Each registration's stack
    trace is the SDK's own message made without reading source lines (`stack_traces_without_source_lines`)."""
    with (
        warnings.catch_warnings(),
        heap.only_new_objects_collectable(),
        alias_urns_made_when_read(),
        stack_traces_without_source_lines(),
    ):
        warnings.filterwarnings("ignore", message="coroutine .* was never awaited", category=RuntimeWarning)
        try:
            program_host.run(program, **arguments)
        except BaseException:
            gc.collect()  # now, while the filter holds, not in the middle of a later report
            raise


@contextmanager
def program_environment(program: Path, project_root: Path, *, forget_modules: bool = True) -> Iterator[None]:
    """The working directory, import path and `sys.argv` the Pulumi CLI gives a Python program.

    pulumi/pulumi `pkg/engine/project.go` (`getPwdMain`, observed 2026-11-22): the program runs in
    the directory of `main:` (the project's when unset), and is `.` when `main:` is a directory and
    the file's name otherwise; `pulumi-language-python-exec` then `runpy.run_path`s it, which puts a
    directory program, and only a directory program, first on `sys.path`: beside a `main:` file,
    sibling modules are not importable (pulumi/pulumi#7360). `main_file_runner` does the run_path;
    here the cwd moves, entries meaning "the current directory" leave `sys.path` for the run (they
    would make the program's directory importable where Pulumi does not), and modules the program
    imported from its project are forgotten afterwards, as each `pulumi preview` is a new process.
    `forget_modules=False` in a process thrown away after the program (a forked child): the snapshot of the
    names of every loaded module wrote, and so copied, about 1,400 inherited pages (their reference counts).
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
    loaded = set(sys.modules) if forget_modules else None
    os.chdir(directory.resolve())
    sys.argv = ["." if program.is_dir() else program.name]
    try:
        yield
    finally:
        os.chdir(previous_cwd)
        sys.argv = previous_argv
        sys.dont_write_bytecode = previous_dont_write
        sys.path[:0] = relative_entries
        if loaded is not None:
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
