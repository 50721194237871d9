"""The pack started exactly as the Pulumi CLI starts it, driven over its gRPC Analyzer service.

`pulumi-analyzer-policy-python` runs `python -u -m pulumi.policy <engine address> .` with the pack
directory as the working directory and reads the port the pack prints; the engine then calls
GetAnalyzerInfo, Configure, Analyze per resource and AnalyzeStack. This is the proof that
`pulumi preview --policy-pack policies` works: same process model, same wire protocol.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from google.protobuf import empty_pb2, struct_pb2
from pulumi.runtime.proto import analyzer_pb2, analyzer_pb2_grpc

from azure_gpu_stacks.policies.registry import REGISTRY
from tests.conftest import REPO

START_TIMEOUT_S = 60  # a cold interpreter importing pulumi and the catalog; far above what it needs
CALL_TIMEOUT_S = 30
URN = "urn:pulumi:ci::azure-gpu-stacks::"


def _read_port(proc: subprocess.Popen[str]) -> int:
    """The first line the pack prints, read with a deadline so a broken pack cannot hang the suite."""
    line: list[str] = []
    reader = threading.Thread(target=lambda: line.append(proc.stdout.readline() if proc.stdout else ""), daemon=True)
    reader.start()
    reader.join(START_TIMEOUT_S)
    if not line or not line[0].strip().isdigit():
        proc.kill()
        pytest.fail(f"the pack printed no port within {START_TIMEOUT_S}s: {line!r}")
    return int(line[0])


@pytest.fixture(scope="module")
def stub() -> Iterator[analyzer_pb2_grpc.AnalyzerStub]:
    env = {
        **os.environ,
        "PULUMI_PROJECT": "azure-gpu-stacks",
        "PULUMI_STACK": "ci",
        "PULUMI_DRY_RUN": "true",
        # The pack finds the repository through its own __main__.py, not through the test's path.
        "PYTHONPATH": "",
    }
    proc = subprocess.Popen(
        [sys.executable, "-u", "-m", "pulumi.policy", "127.0.0.1:1", "."],
        cwd=REPO / "policies",
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


def configure(stub: analyzer_pb2_grpc.AnalyzerStub, **levels: int) -> None:
    config = {
        p.name: analyzer_pb2.PolicyConfig(enforcementLevel=levels.get(p.name.replace("-", "_"), _default(p)))
        for p in REGISTRY
    }
    stub.Configure(analyzer_pb2.ConfigureAnalyzerRequest(policyConfig=config), timeout=CALL_TIMEOUT_S)


def _default(policy: Any) -> int:
    return analyzer_pb2.MANDATORY if policy.enforcement_level.value == "mandatory" else analyzer_pb2.ADVISORY


def test_grpc_pack_lists_every_policy_with_level_and_config_schema(stub: analyzer_pb2_grpc.AnalyzerStub) -> None:
    info = stub.GetAnalyzerInfo(empty_pb2.Empty(), timeout=CALL_TIMEOUT_S)
    listed = {p.name: p for p in info.policies}

    assert info.name == "azure-gpu-stacks"
    assert list(listed) == [p.name for p in REGISTRY]
    assert listed["disallow-retired-vm-sizes"].enforcementLevel == analyzer_pb2.MANDATORY
    assert listed["require-cost-alerts"].policy_type == analyzer_pb2.POLICY_TYPE_STACK
    assert listed["warn-retiring-vm-sizes"].configSchema.properties["retiringWindowDays"]["default"] == 365


def test_grpc_analyze_reports_a_retired_size_as_mandatory(stub: analyzer_pb2_grpc.AnalyzerStub) -> None:
    configure(stub)
    found = analyze(
        stub, "azure-native:compute:VirtualMachine", "fail_vm", {"hardwareProfile": {"vmSize": "standard_nc6"}}
    )

    assert found == [
        (
            "disallow-retired-vm-sizes",
            analyzer_pb2.MANDATORY,
            (
                "VM sizes must not be retired by Azure.\nhardwareProfile.vmSize is 'standard_nc6', which Azure retired on "
                "2023-09-06 and can no longer deploy; use Standard_NC4as_T4_v3 or another current size."
            ),
        )
    ]


def test_grpc_analyze_handles_preview_unknowns_and_secrets(stub: analyzer_pb2_grpc.AnalyzerStub) -> None:
    configure(stub)
    props = {
        "hardwareProfile": {"vmSize": "04da6b54-80e4-46f7-96ec-b56ff0331ba9"},  # unknown during preview
        "osProfile": {
            "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
            "value": {"linuxConfiguration": {"disablePasswordAuthentication": True}},
        },
    }

    assert analyze(stub, "azure-native:compute:VirtualMachine", "pass_vm", props) == []


def test_grpc_configure_changes_a_level(stub: analyzer_pb2_grpc.AnalyzerStub) -> None:
    configure(stub, disallow_retired_vm_sizes=analyzer_pb2.ADVISORY)
    try:
        found = analyze(
            stub,
            "azure-native:containerservice:AgentPool",
            "fail_pool",
            {"vmSize": "Standard_NC6", "nodeTaints": ["sku=gpu:NoSchedule"]},
        )
    finally:
        configure(stub)

    assert [(name, level) for name, level, _ in found] == [("disallow-retired-vm-sizes", analyzer_pb2.ADVISORY)]


def test_grpc_analyze_stack_requires_a_budget_for_gpus(stub: analyzer_pb2_grpc.AnalyzerStub) -> None:
    configure(stub)
    vm_urn = f"{URN}azure-native:compute:VirtualMachine::fail_vm"
    resources = [
        analyzer_pb2.AnalyzerResource(
            type="azure-native:compute:VirtualMachine",
            name="fail_vm",
            urn=vm_urn,
            properties=struct({"resourceGroupName": "rg-ci", "hardwareProfile": {"vmSize": "Standard_NC4as_T4_v3"}}),
        )
    ]
    response = stub.AnalyzeStack(analyzer_pb2.AnalyzeStackRequest(resources=resources), timeout=CALL_TIMEOUT_S)
    found = sorted((d.policyName, d.enforcementLevel, d.urn) for d in response.diagnostics)

    assert found == [
        ("require-cost-alerts", analyzer_pb2.MANDATORY, vm_urn),
        ("require-gpu-vm-auto-shutdown", analyzer_pb2.ADVISORY, vm_urn),
    ]
