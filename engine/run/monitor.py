"""The engine's side of Pulumi's protocols: the ResourceMonitor and Engine gRPC services a program talks to.

Under `pulumi preview` the engine serves two gRPC services on a local address and hands both
addresses to the language host (`--monitor`, `--engine`); the program's SDK sends every resource
registration, read, invoke and stack output to the first and its log lines to the second
(pulumi/pulumi `proto/pulumi/resource.proto`, `engine.proto`; observed 2026-11-25). Offline, this
process serves the same two services, from the generated `pulumi.runtime.proto` modules, on a Unix
socket of a private directory, so what the program registered, the fake ARM's answers and the
verdict stay here, out of the program's reach: a program can only send requests, as it can to the
real engine.

A program forked by gpu-stacks reaches the same servicers over a socket pair instead
(`engine.run.socket_channel`), answered in the engine process's own thread: no server, channel or
thread. This server serves a program executed under another interpreter (`engine.run.interpreter`).

Each request is handled by one worker thread, in the order it arrives: the monitor behind it (the
fake ARM) is not thread-safe, and one worker keeps its answers in the program's order. A handler
that raises answers the program with a gRPC error; the exception itself is kept for the caller
(`failures`), which reports the first one rather than what the program made of it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from concurrent import futures
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
from google.protobuf import empty_pb2

from ...sdk.internals import engine_pb2, engine_pb2_grpc, resource_pb2_grpc
from .children import ENGINE_DIRECTORY_PREFIX, socket_parent

# gRPC's own log lines (a connection closed at the end of a run, garbage on the socket) are not the
# program's output nor the report's: errors only (github.com/grpc/grpc doc/environment_variables.md).
os.environ.setdefault("GRPC_VERBOSITY", "ERROR")

# What the SDK may ask the resource monitor (resource.proto's `service ResourceMonitor`); a method not
# listed answers UNIMPLEMENTED, which the SDK treats as an older engine.
MONITOR_METHODS = (
    "SupportsFeature",
    "GetDeploymentInfo",
    "Invoke",
    "Call",
    "ReadResource",
    "RegisterResource",
    "RegisterResourceOutputs",
    "RegisterStackTransform",
    "RegisterStackInvokeTransform",
    "RegisterResourceHook",
    "RegisterErrorHook",
    "RegisterPackage",
    "SignalAndWaitForShutdown",
)
SEVERITIES = {engine_pb2.WARNING: "warning", engine_pb2.ERROR: "error"}  # what a plan shows of the log
# Messages as large as the SDK's own limit (pulumi/runtime/_grpc_settings.py: 400 MiB).
MAX_MESSAGE_BYTES = 400 * 1024 * 1024
CHANNEL_OPTIONS = (
    ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
    ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
)


# The private directory servers made in this process put their socket in: a new one in TMPDIR, unless an
# engine process was handed one its parent owns and removes (`engine.run.children.private_directory`).
_base_directory: Path | None = None


def serve_under(directory: Path) -> None:
    """Servers made from now on in this process keep their socket in `directory` (an engine process's)."""
    global _base_directory
    _base_directory = directory


@dataclass
class EngineLog:
    """What the program logged at warning and error severity, in order (`pulumi.log.warn`, `.error`)."""

    records: list[tuple[str, str]] = field(default_factory=list)  # (severity, message)
    root_resource: str = ""


def _delegate(name: str) -> Any:
    def handle(self: _MonitorServicer, request: Any, context: grpc.ServicerContext) -> Any:
        try:
            return getattr(self.monitor, name)(request)
        except Exception as exc:  # noqa: BLE001 - answered as the engine answers a failed step
            self.failures.append(exc)
            context.abort(grpc.StatusCode.UNKNOWN, str(exc) or type(exc).__name__)

    handle.__name__ = name
    return handle


class _MonitorServicer(resource_pb2_grpc.ResourceMonitorServicer):  # type: ignore[misc]
    def __init__(self, monitor: Any, failures: list[BaseException]):
        self.monitor = monitor
        self.failures = failures


for _name in MONITOR_METHODS:
    setattr(_MonitorServicer, _name, _delegate(_name))


class _EngineServicer(engine_pb2_grpc.EngineServicer):  # type: ignore[misc]
    def __init__(self, log: EngineLog):
        self.log = log

    def Log(self, request: Any, context: grpc.ServicerContext) -> Any:
        severity = SEVERITIES.get(request.severity)
        if severity is not None:
            self.log.records.append((severity, request.message))
        return empty_pb2.Empty()

    def GetRootResource(self, request: Any, context: grpc.ServicerContext) -> Any:
        return engine_pb2.GetRootResourceResponse(urn=self.log.root_resource)

    def SetRootResource(self, request: Any, context: grpc.ServicerContext) -> Any:
        self.log.root_resource = request.urn
        return engine_pb2.SetRootResourceResponse()


class MonitorServer:
    """Serves `monitor` (an object with the ResourceMonitor's methods, each taking the request) and an
    Engine that keeps the program's log, on `address`, from `start()` until `stop()`.

    The address is chosen at construction and the socket made at `start()`, so that a child can be
    forked before this process starts gRPC's threads (gRPC supports fork only in processes whose
    gRPC threads are idle: github.com/grpc/grpc doc/fork_support.md, observed 2026-11-25)."""

    def __init__(self, monitor: Any):
        self.monitor = monitor
        self.failures: list[BaseException] = []
        self.log = EngineLog()
        # private (mode 0700); an engine process's is made and removed by its parent, whatever ends it
        self._directory = _base_directory or Path(tempfile.mkdtemp(prefix=ENGINE_DIRECTORY_PREFIX, dir=socket_parent()))
        self.address = f"unix:{self._directory / 'engine.sock'}"
        self._server: grpc.Server | None = None

    def start(self) -> None:
        server = grpc.server(futures.ThreadPoolExecutor(max_workers=1), options=CHANNEL_OPTIONS)
        resource_pb2_grpc.add_ResourceMonitorServicer_to_server(_MonitorServicer(self.monitor, self.failures), server)
        engine_pb2_grpc.add_EngineServicer_to_server(_EngineServicer(self.log), server)
        server.add_insecure_port(self.address)
        server.start()
        self._server = server

    def stop(self) -> None:
        if self._server is not None:
            self._server.stop(None).wait()
            self._server = None
        with contextlib.suppress(OSError):
            shutil.rmtree(self._directory)

    def __enter__(self) -> MonitorServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
