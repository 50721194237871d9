"""A forked program's connection to its engine: Pulumi's own gRPC stubs and messages over a socket pair, without
gRPC's server, channel or threads (issue 41).

Under `pulumi preview` the program's SDK reaches the engine through the generated stubs of
`pulumi.runtime.proto` (`ResourceMonitorStub`, `EngineStub`) on a gRPC channel (pulumi/pulumi
`sdk/python/lib/pulumi/runtime/settings.py`, observed 2026-11-25). A stub only asks its channel for
`unary_unary(method, request_serializer, response_deserializer)` callables, and the SDK only ever sees
their answers or a `grpc.RpcError` with `code()` and `details()`. So a program forked by gpu-stacks is
given `SocketChannel`, which sends each serialised request to its engine process over a socket pair the
engine made before forking it, and `SocketServer` answers it there with the very servicers and
(de)serialisers a gRPC server would use (`engine.run.monitor`), in the engine process's own thread, while
it waits on the child (`engine.run.isolation`). What the program can do is unchanged: send requests.
What is gone is, per stack, a gRPC server's start and stop in the engine process, the child's first
channel (gRPC's C core starting its threads in both processes) and gRPC's cost per call, about 20-30 ms
of a shipped stack's 250 ms (bench/README.md); and no process of a forked plan runs a thread.

A program run under another interpreter (`program_host.py` executed: `engine.run.interpreter`) still
talks real gRPC to `engine.run.monitor.MonitorServer`, as it is a process gpu-stacks did not fork.

Each request is `!IQ` (method name length, message length), the method's full name
(`/pulumirpc.ResourceMonitor/RegisterResource`) and the message; each answer is `!BIQ` (gRPC status
code, details length, message length), the details and the message. As a gRPC server would, the engine
answers UNIMPLEMENTED for a method its servicers do not serve and UNKNOWN for a handler that raised; the
program's side raises `ChannelError` with those, RESOURCE_EXHAUSTED for a message over `MAX_MESSAGE_BYTES`
(before sending it) and UNAVAILABLE once its engine is gone or ended the connection, which it does on
anything that is not a request (the SDK reports that as the resource monitor shutting down).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import select
import socket
import struct
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import grpc

from ...sdk.internals import engine_pb2_grpc, resource_pb2_grpc
from .monitor import MAX_MESSAGE_BYTES, EngineLog, _EngineServicer, _MonitorServicer

_REQUEST = struct.Struct("!IQ")
_REPLY = struct.Struct("!BIQ")
_CODES = {code.value[0]: code for code in grpc.StatusCode}
_MAX_METHOD_BYTES = 1024  # longer than any method's full name
_READ_BYTES = 1 << 20


class ChannelError(grpc.RpcError):
    """A call's failure as the SDK reads a gRPC one (`pulumi.runtime.settings.grpc_error_to_exception`)."""

    def __init__(self, code: grpc.StatusCode, details: str):
        super().__init__(details)
        self._code = code
        self._details = details

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._details


class SocketChannel:
    """The program's side, in its child: what the generated stubs ask of a `grpc.Channel`, over one socket."""

    def __init__(self, connection: socket.socket):
        self._socket = connection

    def unary_unary(
        self,
        method: str,
        request_serializer: Callable[[Any], bytes],
        response_deserializer: Callable[[bytes], Any],
        **_: Any,
    ) -> Callable[..., Any]:
        def call(request: Any, *args: Any, **kwargs: Any) -> Any:
            return self._call(method, request_serializer(request), response_deserializer)

        return call

    def _not_served(self, method: str, *args: Any, **kwargs: Any) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            raise ChannelError(grpc.StatusCode.UNIMPLEMENTED, "Method not found!")

        return call

    unary_stream = stream_unary = stream_stream = _not_served  # the engine serves none: none is ever called

    def stubs(self) -> tuple[Any, Any]:
        """The SDK's generated ResourceMonitor and Engine stubs on this channel, for `pulumi.runtime.Settings`."""
        return resource_pb2_grpc.ResourceMonitorStub(self), engine_pb2_grpc.EngineStub(self)

    def close(self) -> None:
        self._socket.close()

    def fileno(self) -> int:
        return self._socket.fileno()

    def _call(self, method: str, body: bytes, deserialize: Callable[[bytes], Any]) -> Any:
        if len(body) > MAX_MESSAGE_BYTES:  # as the engine's server refuses it (grpc.max_receive_message_length)
            raise ChannelError(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"Sent message larger than max ({len(body)} vs. {MAX_MESSAGE_BYTES})",
            )
        name = method.encode()
        try:
            self._socket.sendall(_REQUEST.pack(len(name), len(body)) + name + body)
            code, details_size, size = _REPLY.unpack(self._read(_REPLY.size))
            answer = self._read(details_size + size)
        except (OSError, EOFError):
            raise ChannelError(grpc.StatusCode.UNAVAILABLE, "the engine closed its connection") from None
        if code:
            raise ChannelError(
                _CODES.get(code, grpc.StatusCode.UNKNOWN), answer[:details_size].decode("utf-8", "replace")
            )
        return deserialize(answer[details_size:])

    def _read(self, size: int) -> bytes:
        data = bytearray(size)
        view = memoryview(data)
        while view:
            got = self._socket.recv_into(view)
            if not got:
                raise EOFError
            view = view[got:]
        return bytes(data)


class _Context:
    """What a servicer is handed for one call: `abort` and the status a default (unserved) method sets."""

    def __init__(self) -> None:
        self.code: grpc.StatusCode | None = None
        self.details = ""

    def set_code(self, code: grpc.StatusCode) -> None:
        self.code = code

    def set_details(self, details: str) -> None:
        self.details = details

    def abort(self, code: grpc.StatusCode, details: str) -> None:
        self.code, self.details = code, details
        raise _Aborted

    def is_active(self) -> bool:
        return True

    def invocation_metadata(self) -> tuple[()]:
        return ()


class _Aborted(Exception):
    pass


class _Collected:
    """Stands for a gRPC server while the generated `add_*Servicer_to_server` hand it their handlers."""

    def __init__(self) -> None:
        self.handlers: list[Any] = []

    def add_generic_rpc_handlers(self, handlers: Any) -> None:
        self.handlers.extend(handlers)

    def add_registered_method_handlers(self, service: str, handlers: dict[str, Any]) -> None:
        self.handlers.append(grpc.method_handlers_generic_handler(service, handlers))


class SocketServer:
    """The engine's side, in the engine process: serves `monitor` and an Engine keeping the program's log (the same
    servicers as `MonitorServer`) to one forked program over a socket pair made here, before the fork.

    `address` is what the program's child connects with (`program_host.run` takes it as it takes a gRPC address);
    `connect()` in the child, `start()` here once the child exists, `serve()` whenever the socket is readable
    (`engine.run.isolation` waits on it with the child's other pipes), `stop()` when the child is gone."""

    def __init__(self, monitor: Any):
        self.monitor = monitor
        self.failures: list[BaseException] = []
        self.log = EngineLog()
        self._engine_end, program_end = socket.socketpair()
        self.address = SocketChannel(program_end)
        collected = _Collected()
        resource_pb2_grpc.add_ResourceMonitorServicer_to_server(_MonitorServicer(monitor, self.failures), collected)
        engine_pb2_grpc.add_EngineServicer_to_server(_EngineServicer(self.log), collected)
        self._generic = collected.handlers
        self._handlers: dict[str, Any] = {}  # a method's full name -> its handler (None: not served)
        self._buffer = bytearray()

    def connect(self) -> SocketChannel:
        """In the program's child: the channel, with the engine's end of the pair closed here."""
        self._engine_end.close()
        return self.address

    def start(self) -> None:
        """In the engine process, once the child exists: the program's end is the child's alone."""
        self.address.close()

    def stop(self) -> None:
        self._engine_end.close()
        self.address.close()

    def fileno(self) -> int:
        return self._engine_end.fileno()

    def program_fileno(self) -> int:
        """The program's end of the pair, the one descriptor of this engine its child keeps (`isolation`)."""
        return self.address.fileno()

    def serve(self, deadline: float) -> bool:
        """Read what the program sent and answer every whole request (each answer written by `deadline`). False
        once the program's end is closed, or the connection is ended here: the program sent what is not a request
        or stopped reading its answers (its next call then fails, as over a gRPC connection the server closed)."""
        if not self._read(deadline):
            with contextlib.suppress(OSError):
                self._engine_end.shutdown(socket.SHUT_RDWR)
            return False
        return True

    def serve_until_closed(self) -> None:
        """Answer the program until it closes its end: the engine's side of a run in one process
        (`engine.run.runtime.run_program`), on a thread of its own with its own event loop (the mock monitor's
        answers run coroutines to completion on the thread's loop, as they did on a gRPC server's thread)."""
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            while select.select([self._engine_end], [], [])[0] and self.serve(math.inf):
                pass
        finally:
            asyncio.set_event_loop(None)
            loop.close()

    def _read(self, deadline: float) -> bool:
        try:
            chunk = self._engine_end.recv(_READ_BYTES, socket.MSG_DONTWAIT)
        except BlockingIOError:
            return True
        except OSError:
            return False
        if not chunk:
            return False
        self._buffer += chunk
        while len(self._buffer) >= _REQUEST.size:
            name_size, size = _REQUEST.unpack_from(self._buffer)
            if name_size > _MAX_METHOD_BYTES or size > MAX_MESSAGE_BYTES:
                return False  # not a request the program's side sends: nothing more of it can be read as one
            start = _REQUEST.size + name_size
            if len(self._buffer) < start + size:
                break
            method = bytes(self._buffer[_REQUEST.size : start]).decode("utf-8", "replace")
            body = bytes(self._buffer[start : start + size])
            del self._buffer[: start + size]
            if not self._reply(*self._answer(method, body), deadline):
                return False
        return True

    def _answer(self, method: str, body: bytes) -> tuple[grpc.StatusCode, str, bytes]:
        handler = self._handler(method)
        if handler is None:
            return grpc.StatusCode.UNIMPLEMENTED, "Method not found!", b""
        context = _Context()
        try:
            request = handler.request_deserializer(body)
        except Exception:  # noqa: BLE001 - as gRPC answers a message it cannot parse
            return grpc.StatusCode.INTERNAL, "Exception deserializing request!", b""
        try:
            response = handler.unary_unary(request, context)
        except Exception as exc:  # noqa: BLE001 - answered as a gRPC server answers a handler that raised
            if context.code is not None:
                return context.code, context.details, b""
            return grpc.StatusCode.UNKNOWN, f"Exception calling application: {exc}", b""
        return grpc.StatusCode.OK, "", handler.response_serializer(response)

    def _handler(self, method: str) -> Any:
        if method not in self._handlers:
            details = SimpleNamespace(method=method, invocation_metadata=())
            found = (generic.service(details) for generic in self._generic)
            self._handlers[method] = next((h for h in found if h is not None), None)
        return self._handlers[method]

    def _reply(self, code: grpc.StatusCode, details: str, body: bytes, deadline: float) -> bool:
        text = details.encode("utf-8", "replace")
        data = memoryview(_REPLY.pack(code.value[0], len(text), len(body)) + text + body)
        while data:
            try:
                data = data[self._engine_end.send(data, socket.MSG_DONTWAIT) :]
                continue
            except BlockingIOError:  # the program has not read what was sent yet: wait for room, until the deadline
                pass
            except OSError:
                return False
            remaining = deadline - time.monotonic()
            wait = None if math.isinf(remaining) else remaining
            if remaining <= 0 or not select.select([], [self._engine_end], [], wait)[1]:
                return False  # the program does not read its answer: its deadline will stop it
        return True
