"""A forked program reaches its engine over a socket pair (engine/run/socket_channel.py, issue 41): the SDK gets
the answers and errors it would get over gRPC, no process of a plan runs a thread, each stack's engine knows
nothing of the stack before it, and an engine that dies is that stack's one line while the next is planned."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path
from typing import Any

import grpc
import pytest
from azure_gpu_stacks.catalog.clock import utc_today
from azure_gpu_stacks.engine.run import children, isolation, program_host, socket_channel
from azure_gpu_stacks.engine.run.monitor import MonitorServer
from azure_gpu_stacks.engine.run.outcome import Plan, StackFailure, plan_outcomes
from azure_gpu_stacks.engine.run.plan import ReferenceFiles
from azure_gpu_stacks.engine.run.project import load_project
from azure_gpu_stacks.engine.run.socket_channel import SocketServer
from azure_gpu_stacks.sdk.internals import engine_pb2, resource_pb2, resource_pb2_grpc

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="programs run in forked children on Linux")


class _Monitor:
    """An engine that answers one feature and fails one invoke, as the fake ARM fails a provider function."""

    def SupportsFeature(self, request: Any) -> Any:
        return resource_pb2.SupportsFeatureResponse(hasSupport=request.id == "secrets")

    def Invoke(self, request: Any) -> Any:
        raise ValueError(f"no function {request.tok}")


def _calls(channel: Any) -> list[Any]:
    """What the program's side sees of four calls through the SDK's own generated stub."""
    stub = resource_pb2_grpc.ResourceMonitorStub(channel)
    seen: list[Any] = [
        stub.SupportsFeature(resource_pb2.SupportsFeatureRequest(id="secrets")).hasSupport,
        stub.SupportsFeature(resource_pb2.SupportsFeatureRequest(id="outputValues")).hasSupport,
    ]
    for call in (
        lambda: stub.Invoke(resource_pb2.ResourceInvokeRequest(tok="azure-native:x:getY")),
        lambda: stub.ExistsResource(resource_pb2.ExistsResourceRequest(id="/x", type="t")),  # not served
    ):
        try:
            call()
        except grpc.RpcError as exc:
            seen.append((exc.code(), exc.details()))
    return seen


def _over(transport: str) -> list[Any]:
    """In a child of the test (gRPC's threads never start in pytest's process): the calls over `transport`."""
    server: Any = SocketServer(_Monitor()) if transport == "socket" else MonitorServer(_Monitor())

    def connect() -> Any:
        return server.connect() if transport == "socket" else program_host.connect(server.address)

    connection: list[Any] = []
    value, _ = isolation.run_isolated(
        lambda: _calls(connection[0]),
        str,
        isolation.Limits(timeout_s=60),
        "the program",
        server=server,
        connect=lambda: connection.append(connect()),
    )
    return [value, [type(f).__name__ for f in server.failures]]


def test_the_sdks_stub_gets_over_the_socket_pair_what_it_gets_over_grpc() -> None:
    over_socket = children.call(lambda: _over("socket"), 120, "the socket side")
    over_grpc = children.call(lambda: _over("grpc"), 120, "the gRPC side")

    assert over_socket == over_grpc
    assert over_socket == [
        [
            True,
            False,
            (grpc.StatusCode.UNKNOWN, "no function azure-native:x:getY"),
            (grpc.StatusCode.UNIMPLEMENTED, "Method not implemented!"),
        ],
        ["ValueError"],  # kept for the engine's caller, which reports the cause rather than what followed
    ]


def test_the_engines_log_comes_over_the_socket_pair() -> None:
    def logged() -> list[tuple[str, str]]:
        server = SocketServer(_Monitor())
        connection: list[Any] = []

        def program() -> None:
            _, stub = connection[0].stubs()
            stub.Log(engine_pb2.LogRequest(severity=engine_pb2.WARNING, message="low quota"))
            stub.Log(engine_pb2.LogRequest(severity=engine_pb2.DEBUG, message="not shown"))

        isolation.run_isolated(
            program,
            str,
            isolation.Limits(timeout_s=60),
            "p",
            server=server,
            connect=lambda: connection.append(server.connect()),
        )
        return server.log.records

    assert children.call(logged, 120, "the engine") == [("warning", "low quota")]


# --- whole plans ----------------------------------------------------------------------------------------

PROGRAM = """
import os
import pulumi
import pulumi_azure_native as azure_native

config = pulumi.Config()
stack = pulumi.get_stack()
seen = {
    "token": config.get("token"),
    "region": config.get("region"),
    "threads in the program": len(os.listdir("/proc/self/task")),
    "threads in its engine": len(os.listdir(f"/proc/{os.getppid()}/task")),
}
with open(os.path.join(os.environ["SEEN"], stack), "w") as fh:
    fh.write(repr(seen))
if stack == "dies":
    os.kill(os.getppid(), 9)  # the program kills its engine's process mid-run
azure_native.resources.ResourceGroup(f"rg-{stack}", location=config.get("region") or "westeurope")
if config.get("token"):
    pulumi.export("token", pulumi.Output.secret(config.get("token")))
"""


@pytest.fixture(scope="module")
def three_stacks(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Any], dict[str, dict[str, Any]]]:
    """One run of plans of stacks `first` (a secret, a region), `dies` and `second` (neither), one after another."""
    root = tmp_path_factory.mktemp("p")
    seen = tmp_path_factory.mktemp("seen")
    (root / "Pulumi.yaml").write_text("name: p\nruntime: python\n")
    (root / "__main__.py").write_text(textwrap.dedent(PROGRAM))
    (root / "Pulumi.first.yaml").write_text(
        "config:\n  p:region: northeurope\n  p:token:\n    secure: v1:the-first-secret\n"
    )
    (root / "Pulumi.dies.yaml").write_text("config: {}\n")
    (root / "Pulumi.second.yaml").write_text("config: {}\n")
    patch = pytest.MonkeyPatch()
    patch.setenv("SEEN", str(seen))
    try:
        outcomes = plan_outcomes(
            load_project(root), ["first", "dies", "second"], ReferenceFiles(), None, jobs=1, day=utc_today()
        )
    finally:
        patch.undo()
    views = {p.name: eval(p.read_text()) for p in Path(seen).iterdir()}  # noqa: S307 - the test's own repr
    return outcomes, views


def test_no_process_of_a_plan_runs_a_thread(three_stacks: tuple[list[Any], dict[str, dict[str, Any]]]) -> None:
    _, seen = three_stacks
    # one OS thread each (/proc/<pid>/task), while the program runs: no gRPC server, channel or pool anywhere
    assert {stack: (v["threads in the program"], v["threads in its engine"]) for stack, v in seen.items()} == {
        "first": (1, 1),
        "dies": (1, 1),
        "second": (1, 1),
    }


def test_a_stacks_engine_knows_nothing_of_the_stack_before_it(
    three_stacks: tuple[list[Any], dict[str, dict[str, Any]]],
) -> None:
    outcomes, seen = three_stacks
    first, _, second = outcomes
    assert isinstance(first, Plan) and isinstance(second, Plan)
    assert seen["second"]["token"] is None and seen["second"]["region"] is None
    assert [r.name for r in second.resources] == ["rg-second"]
    assert second.resources[0].inputs["location"] == "westeurope"
    assert second.outputs == {} and second.secret_values == frozenset()
    assert "the-first-secret" not in repr(second)
    assert [r.name for r in first.resources] == ["rg-first"]


def test_an_engine_killed_mid_run_is_that_stacks_one_line_and_the_next_is_planned(
    three_stacks: tuple[list[Any], dict[str, dict[str, Any]]],
) -> None:
    outcomes, _ = three_stacks
    assert outcomes[1] == StackFailure(
        "p",
        "dies",
        "Pulumi.dies.yaml",
        "dies: the offline engine's process died of signal SIGKILL (its Python interpreter crashed or was killed) "
        "before it finished",
    )
    assert isinstance(outcomes[2], Plan) and outcomes[2].exit_code == 0


def test_an_oversized_message_is_refused_and_garbage_ends_the_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket_channel, "MAX_MESSAGE_BYTES", 64)  # inherited by the children forked below

    def calls() -> list[Any]:
        server = SocketServer(_Monitor())
        connection: list[Any] = []

        def program() -> list[Any]:
            stub = resource_pb2_grpc.ResourceMonitorStub(connection[0])
            seen = []
            for call in (
                lambda: stub.SupportsFeature(resource_pb2.SupportsFeatureRequest(id="x" * 100)),
                lambda: stub.SupportsFeature(resource_pb2.SupportsFeatureRequest(id="secrets")),  # still answered
                lambda: connection[0]._socket.sendall(b"\xff" * 12),  # not a request
                lambda: stub.SupportsFeature(resource_pb2.SupportsFeatureRequest(id="secrets")),
            ):
                try:
                    answer = call()
                    seen.append(answer if answer is None else answer.hasSupport)
                except grpc.RpcError as exc:
                    seen.append(exc.code())
            return seen

        value, _ = isolation.run_isolated(
            program,
            str,
            isolation.Limits(timeout_s=60),
            "p",
            server=server,
            connect=lambda: connection.append(server.connect()),
        )
        return value

    assert children.call(calls, 120, "the engine") == [
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        True,
        None,
        grpc.StatusCode.UNAVAILABLE,  # the SDK's "Resource monitor has terminated, shutting down"
    ]
