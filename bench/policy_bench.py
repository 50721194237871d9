"""Benchmark: resources per second through the policy pack, in-process and over gRPC.

The resources are the shipped stacks' own, as `gpu-stacks plan` records them. One pass is what the
engine does for a stack: `Analyze` for each resource, then `AnalyzeStack` with all of them.
- in-process: `azure_gpu_stacks.engine.run.policy_run.analyze`, the path `gpu-stacks check` takes;
- gRPC: the pack started as `pulumi preview --policy-pack policies` starts it
  (`python -u -m pulumi.policy <engine> .` in policies/), driven through its Analyzer service.

    python bench/policy_bench.py [--passes 20]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from floors import machine_line  # noqa: E402 - bench/ is not a package; its path is set above


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--passes", type=int, default=20)
    args = parser.parse_args()
    import grpc
    from azure_gpu_stacks.catalog.clock import utc_today
    from azure_gpu_stacks.engine.run.plan import plan_stack
    from azure_gpu_stacks.engine.run.policy_config import resolve
    from azure_gpu_stacks.engine.run.policy_run import (
        analyze,
        analyze_request,
        analyzer_resource,
        configure_request,
        pack_policies,
    )
    from azure_gpu_stacks.engine.run.project import load_project
    from azure_gpu_stacks.sdk.internals import analyzer_pb2, analyzer_pb2_grpc

    print(machine_line())
    project = load_project(REPO)
    stacks = [plan_stack(project, name, day=utc_today()).resources for name in project.stacks()]
    count = sum(len(s) for s in stacks)

    start = time.perf_counter()
    for _ in range(args.passes):
        for resources in stacks:
            analyze(resources)
    in_process = args.passes * count / (time.perf_counter() - start)
    print(
        f"in-process   {in_process:8.0f} resources/s  ({args.passes} passes over {count} resources of "
        f"{len(stacks)} stacks)"
    )

    env = {
        **os.environ,
        "PULUMI_PROJECT": project.name,
        "PULUMI_STACK": "bench",
        "PULUMI_DRY_RUN": "true",
        "PYTHONPATH": "",
    }
    proc = subprocess.Popen(
        [sys.executable, "-u", "-m", "pulumi.policy", "127.0.0.1:1", "."],
        cwd=REPO / "policies",
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        port = int(proc.stdout.readline())
        channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        grpc.channel_ready_future(channel).result(timeout=60)
        stub = analyzer_pb2_grpc.AnalyzerStub(channel)
        stub.Configure(configure_request(resolve(list(pack_policies()))))
        requests = [
            (
                [analyze_request(r) for r in s],
                analyzer_pb2.AnalyzeStackRequest(resources=[analyzer_resource(r) for r in s]),
            )
            for s in stacks
        ]
        start = time.perf_counter()
        for _ in range(args.passes):
            for analyze_requests, stack_request in requests:
                for request in analyze_requests:
                    stub.Analyze(request)
                stub.AnalyzeStack(stack_request)
        over_grpc = args.passes * count / (time.perf_counter() - start)
        channel.close()
    finally:
        proc.kill()
        proc.wait()
    print(f"over gRPC    {over_grpc:8.0f} resources/s  (the pack as `pulumi preview --policy-pack` starts it)")


if __name__ == "__main__":
    main()
