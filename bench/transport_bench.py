"""What a forked program's connection to its engine costs: gRPC (a server in the engine process, a channel in the
program's child) against the socket pair of engine/run/socket_channel.py, in CPU time of both processes (issue 41).

Each side runs in an engine process forked for it, as a plan's does: the engine's side is built, the program's
child is forked (`isolation.run_isolated`), connects and makes `--calls` calls of `SupportsFeature` (the SDK's
smallest request) through the SDK's generated stub. Printed per side: the CPU seconds of the engine process
(server start, answers, stop; gRPC's threads included) and of the child (connection set-up, then the calls),
so the set-up and the cost per call can be read apart, alternately (A B A B) for `--repeat` rounds. CPU time is
steadier than wall time on a shared machine; a long-lived gRPC server (one per run) would still pay each
child's channel set-up and gRPC's cost per call, the socket pair's column is what is left.

    python bench/transport_bench.py [--calls 200] [--repeat 3]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from azure_gpu_stacks.engine.run import children, isolation, parallel, program_host
from azure_gpu_stacks.engine.run.monitor import MonitorServer
from azure_gpu_stacks.engine.run.socket_channel import SocketServer
from azure_gpu_stacks.sdk.internals import resource_pb2, resource_pb2_grpc
from floors import load_line, machine_line


class _Answers:
    def SupportsFeature(self, request: Any) -> Any:
        return resource_pb2.SupportsFeatureResponse(hasSupport=True)


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def _side(transport: str, calls: int) -> tuple[float, float, float]:
    """In an engine process: (engine CPU, child's connection CPU, child's calls CPU), seconds."""
    start = _cpu()
    server: Any = SocketServer(_Answers()) if transport == "socket pair" else MonitorServer(_Answers())
    connection: list[Any] = []
    connected: list[float] = []

    def connect() -> None:
        begin = _cpu()
        connection.append(server.connect() if transport == "socket pair" else program_host.connect(server.address))
        connected.append(_cpu() - begin)

    def program() -> tuple[float, float]:
        stub = resource_pb2_grpc.ResourceMonitorStub(connection[0])
        begin = _cpu()
        for _ in range(calls):
            stub.SupportsFeature(resource_pb2.SupportsFeatureRequest(id="secrets"))
        return connected[0], _cpu() - begin

    (connecting, calling), _ = isolation.run_isolated(
        program, str, isolation.Limits(timeout_s=120), "p", server=server, connect=connect
    )
    return _cpu() - start, connecting, calling


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(machine_line())
    print(load_line("before"))
    parallel.preload()  # as a check does before its first fork
    best: dict[str, tuple[float, float, float]] = {}
    for round_ in range(args.repeat):
        for transport in ("gRPC", "socket pair"):
            began = time.perf_counter()
            found = children.call(lambda t=transport: _side(t, args.calls), 300, transport)
            engine, connecting, calling = found
            print(
                f"round {round_ + 1} {transport:11}: engine process {1000 * engine:6.1f} ms CPU, child's connection "
                f"{1000 * connecting:5.1f} ms, {args.calls} calls {1000 * calling:6.1f} ms "
                f"({1e6 * calling / args.calls:5.0f} us a call in the child)  wall {time.perf_counter() - began:.2f} s",
                flush=True,
            )
            previous = best.get(transport)
            best[transport] = found if previous is None or sum(found) < sum(previous) else previous
    for transport, (engine, connecting, calling) in best.items():
        per_call = (engine + calling) / args.calls  # the engine's CPU grows with the calls too
        print(
            f"best {transport:11}: set-up and {args.calls} calls {1000 * (engine + connecting + calling):6.1f} ms CPU "
            f"in both processes ({1e6 * per_call:.0f} us a call at most)"
        )
    print(load_line("after"))


if __name__ == "__main__":
    main()
