"""The exported pack alone in an empty directory, with a virtual environment made from nothing but
its own requirements.txt, driven over gRPC as the Pulumi engine drives it: what a published pack
does on the machine that runs `pulumi up` (Pulumi Cloud installs it into `venv` from its
requirements.txt: pulumi/pulumi pkg/backend/httpstate/policypack.go, installRequiredPolicy,
observed 2026-11-22).

Offline: requirements.txt's `azure-gpu-stacks==<version>` is satisfied from the wheel built from
this checkout (`--find-links`, `--no-index`), and the distribution's own dependencies come from the
test environment through a `.pth` file (tests/distribution.py) rather than from an index
(`--no-deps`): what is proven is that the pack needs nothing beside its requirements.txt.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.sdk.internals import analyzer_pb2, analyzer_pb2_grpc
from google.protobuf import empty_pb2

from tests.distribution import new_venv, pip_install
from tests.pack_process import CALL_TIMEOUT_S, URN, analyze, analyze_stack, running_pack

GPU_VM = "azure-native:compute:VirtualMachine"


@pytest.fixture(scope="module")
def exported(wheel: Path, third_party: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    pack = tmp_path_factory.mktemp("empty") / "gpu-policy-pack"
    assert main(["policy-pack", "export", str(pack)]) == 0
    python = new_venv(pack / "venv", third_party)
    pip_install(python, "--find-links", str(wheel.parent), "-r", "requirements.txt", cwd=pack)
    yield pack


@pytest.fixture(scope="module")
def stub(exported: Path) -> Iterator[analyzer_pb2_grpc.AnalyzerStub]:
    with running_pack(exported) as connected:
        info = connected.GetAnalyzerInfo(empty_pb2.Empty(), timeout=CALL_TIMEOUT_S)
        # Configure as the engine does with no --policy-pack-config: each policy at its own level.
        config = {p.name: analyzer_pb2.PolicyConfig(enforcementLevel=p.enforcementLevel) for p in info.policies}
        connected.Configure(analyzer_pb2.ConfigureAnalyzerRequest(policyConfig=config), timeout=CALL_TIMEOUT_S)
        yield connected


def test_exported_pack_holds_only_its_own_files_and_its_venv(exported: Path) -> None:
    assert sorted(p.name for p in exported.iterdir()) == [
        ".gitignore", "PulumiPolicy.yaml", "__main__.py", "requirements.txt", "venv",
    ]  # fmt: skip


def test_exported_pack_lists_its_policies(stub: analyzer_pb2_grpc.AnalyzerStub) -> None:
    info = stub.GetAnalyzerInfo(empty_pb2.Empty(), timeout=CALL_TIMEOUT_S)
    levels = {p.name: p.enforcementLevel for p in info.policies}

    assert info.name == "azure-gpu-stacks"
    assert levels["disallow-retired-vm-sizes"] == levels["require-cost-alerts"] == analyzer_pb2.MANDATORY


def test_exported_pack_refuses_a_retired_size(stub: analyzer_pb2_grpc.AnalyzerStub) -> None:
    found = analyze(
        stub, GPU_VM, "old_vm", {"hardwareProfile": {"vmSize": "Standard_NC6"}, "identity": {"type": "SystemAssigned"}}
    )

    assert [(name, level) for name, level, _ in found] == [("disallow-retired-vm-sizes", analyzer_pb2.MANDATORY)]
    assert "which Azure retired on 2023-09-06" in found[0][2]


def test_exported_pack_requires_a_budget_for_a_gpu_stack(stub: analyzer_pb2_grpc.AnalyzerStub) -> None:
    props = {
        "resourceGroupName": "rg-team",
        "hardwareProfile": {"vmSize": "Standard_NC4as_T4_v3"},
        "identity": {"type": "SystemAssigned"},
    }

    found = analyze_stack(stub, [(GPU_VM, "gpu_vm", props)])

    assert ("require-cost-alerts", analyzer_pb2.MANDATORY, f"{URN}{GPU_VM}::gpu_vm") in found
    assert [name for name, level, _ in found if level == analyzer_pb2.MANDATORY] == ["require-cost-alerts"]
