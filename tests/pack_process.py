"""A policy pack started as the Pulumi CLI starts it, and a gRPC client for it.

The CLI resolves PulumiPolicy.yaml's `virtualenv` against the pack directory and runs
`<venv>/bin/python -u -m pulumi.policy <engine address> <pack directory>` there, then reads the
port the pack prints (pulumi/pulumi sdk/go/common/resource/plugin/plugin.go and
sdk/python/cmd/pulumi-language-python/main.go, RunPlugin; observed 2026-11-22).
"""

from __future__ import annotations

import os
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import grpc
import pytest
import yaml
from azure_gpu_stacks.sdk.internals import analyzer_pb2, analyzer_pb2_grpc
from google.protobuf import struct_pb2

START_TIMEOUT_S = 60  # a cold interpreter importing pulumi and the catalog; far above what it needs
CALL_TIMEOUT_S = 30
URN = "urn:pulumi:ci::azure-gpu-stacks::"


def pack_python(pack: Path) -> Path:
    """The interpreter the CLI would run the pack with: `<pack>/<virtualenv>/bin/python`."""
    spec = yaml.safe_load((pack / "PulumiPolicy.yaml").read_text(encoding="utf-8"))
    return pack / spec["runtime"]["options"]["virtualenv"] / "bin" / "python"


def _read_port(proc: subprocess.Popen[str]) -> int:
    """The first line the pack prints, read with a deadline so a broken pack cannot hang the suite."""
    line: list[str] = []
    reader = threading.Thread(target=lambda: line.append(proc.stdout.readline() if proc.stdout else ""), daemon=True)
    reader.start()
    reader.join(START_TIMEOUT_S)
    if not line or not line[0].strip().isdigit():
        proc.kill()
        _, err = proc.communicate(timeout=10)
        pytest.fail(f"the pack printed no port within {START_TIMEOUT_S}s: {line!r}\n{err}")
    return int(line[0])


@contextmanager
def running_pack(pack: Path) -> Iterator[analyzer_pb2_grpc.AnalyzerStub]:
    """The pack at `pack`, started with its own virtualenv, as a connected Analyzer stub."""
    env = {
        **os.environ,
        "PULUMI_PROJECT": "azure-gpu-stacks",
        "PULUMI_STACK": "ci",
        "PULUMI_DRY_RUN": "true",
        # Nothing of the test's own environment: the pack's virtualenv alone must import what it needs.
        "PYTHONPATH": "",
    }
    proc = subprocess.Popen(
        [str(pack_python(pack)), "-u", "-m", "pulumi.policy", "127.0.0.1:1", str(pack)],
        cwd=pack,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        port = _read_port(proc)
        channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        grpc.channel_ready_future(channel).result(timeout=CALL_TIMEOUT_S)
        yield analyzer_pb2_grpc.AnalyzerStub(channel)
        channel.close()
    finally:
        proc.kill()
        try:
            _, err = proc.communicate(timeout=10)
        except (subprocess.TimeoutExpired, ValueError):
            err = ""
        print(err)  # shown by pytest only when a test failed: the pack's own traceback


def struct(value: dict[str, Any]) -> struct_pb2.Struct:
    s = struct_pb2.Struct()
    s.update(value)
    return s


def analyze(
    stub: analyzer_pb2_grpc.AnalyzerStub, type_: str, name: str, props: dict[str, Any]
) -> list[tuple[str, int, str]]:
    request = analyzer_pb2.AnalyzeRequest(type=type_, name=name, urn=f"{URN}{type_}::{name}", properties=struct(props))
    response = stub.Analyze(request, timeout=CALL_TIMEOUT_S)
    return [(d.policyName, d.enforcementLevel, d.message) for d in response.diagnostics]


def analyze_stack(
    stub: analyzer_pb2_grpc.AnalyzerStub, resources: list[tuple[str, str, dict[str, Any]]]
) -> list[tuple[str, int, str]]:
    """AnalyzeStack over (type, name, properties); (policy, level, urn) per diagnostic, sorted."""
    request = analyzer_pb2.AnalyzeStackRequest(
        resources=[
            analyzer_pb2.AnalyzerResource(type=t, name=n, urn=f"{URN}{t}::{n}", properties=struct(p))
            for t, n, p in resources
        ]
    )
    response = stub.AnalyzeStack(request, timeout=CALL_TIMEOUT_S)
    return sorted((d.policyName, d.enforcementLevel, d.urn) for d in response.diagnostics)
