"""The pack started exactly as the Pulumi CLI starts it, driven over its gRPC Analyzer service.

The CLI runs `policies/venv/bin/python -u -m pulumi.policy <engine address> <pack>` with the pack
directory as the working directory and reads the port the pack prints (tests/pack_process.py has
the sources); the engine then calls GetAnalyzerInfo, Configure, Analyze per resource and
AnalyzeStack. This is the proof that `pulumi preview --policy-pack policies` works from this
repository: same interpreter, same process model, same wire protocol.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from azure_gpu_stacks.policies.registry import REGISTRY
from azure_gpu_stacks.sdk.internals import analyzer_pb2, analyzer_pb2_grpc
from google.protobuf import empty_pb2

from tests.conftest import REPO
from tests.pack_process import CALL_TIMEOUT_S, URN, analyze, pack_python, running_pack, struct


@pytest.fixture(scope="module")
def stub() -> Iterator[analyzer_pb2_grpc.AnalyzerStub]:
    # policies/venv links to the repository's .venv, which `make` builds: the Python the CLI runs.
    assert pack_python(REPO / "policies").is_file(), "policies/venv/bin/python is missing: run `make`"
    with running_pack(REPO / "policies") as connected:
        yield connected


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
        stub,
        "azure-native:compute:VirtualMachine",
        "fail_vm",
        {"hardwareProfile": {"vmSize": "standard_nc6"}, "identity": {"type": "SystemAssigned"}},
    )

    assert found == [
        (
            "disallow-retired-vm-sizes",
            analyzer_pb2.MANDATORY,
            (
                "VM sizes must not be retired by Azure.\nhardwareProfile.vmSize is 'standard_nc6', which Azure "
                "retired on "
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


def test_grpc_configure_as_of_pins_the_day_sizes_are_judged_on(stub: analyzer_pb2_grpc.AnalyzerStub) -> None:
    """What `pulumi preview --policy-pack-config` sends: `asOf` pins the size policies to one day."""

    def retired_on(day: str) -> list[str]:
        config = {
            p.name: analyzer_pb2.PolicyConfig(
                enforcementLevel=_default(p),
                properties=struct({"asOf": day} if p.name == "disallow-retired-vm-sizes" else {}),
            )
            for p in REGISTRY
        }
        stub.Configure(analyzer_pb2.ConfigureAnalyzerRequest(policyConfig=config), timeout=CALL_TIMEOUT_S)
        found = analyze(
            stub, "azure-native:compute:VirtualMachine", "vm", {"hardwareProfile": {"vmSize": "Standard_NP10s"}}
        )
        return [name for name, _, _ in found if name == "disallow-retired-vm-sizes"]

    try:
        assert retired_on("2027-05-30") == []  # NP retires 2027-05-31
        assert retired_on("2027-05-31") == ["disallow-retired-vm-sizes"]
    finally:
        configure(stub)
