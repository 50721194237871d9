"""The deploy risks found in review, fixed in the components and checked offline: explicit outbound
for driver extensions, one fault domain, no plain Ubuntu on InfiniBand, Windows time zones, the
deployer's principal type, kubelogin, and SARIF findings on the line that caused them."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.components.checks import ComponentInputError
from azure_gpu_stacks.engine.cli import main

from tests.components.test_aks_gpu_pool import build_pool
from tests.components.test_gpu_vm import build_vm
from tests.components.test_training_cluster import VMSS, build_cluster
from tests.conftest import RAW_VM_PROGRAM, Recording

SUBNET = "azure-native:network:Subnet"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("build", [build_vm, build_cluster], ids=["GpuVm", "TrainingCluster"])
def test_created_subnets_keep_an_explicit_outbound_path_for_the_driver_downloads(
    record: Callable[..., Recording], build: Callable[..., Callable[[], None]]
) -> None:
    rec = record(build())

    assert rec.inputs(SUBNET)["defaultOutboundAccess"] is True
    assert rec.refusals == []


def test_training_scale_set_has_one_platform_fault_domain(record: Callable[..., Recording]) -> None:
    assert record(build_cluster()).inputs(VMSS)["platformFaultDomainCount"] == 1


def test_training_cluster_refuses_plain_ubuntu_with_the_reason(record: Callable[..., Recording]) -> None:
    with pytest.raises(ComponentInputError) as refused:
        record(build_cluster(image="ubuntu"))

    assert (
        "image: 'ubuntu': plain Ubuntu 22.04 cannot drive InfiniBand: the InfiniBand driver extension supports Ubuntu "
        "16.04, 18.04 and 20.04 only (Azure/azhpc-extensions); allowed: ubuntu-hpc" in str(refused.value)
    )


def test_the_plan_of_a_stack_deploying_kubernetes_objects_warns_about_kubelogin(
    record: Callable[..., Recording],
) -> None:
    logs = [log.message for log in record(build_pool()).result.logs]

    assert any(
        "needs kubelogin on the PATH" in m and "`az aks install-cli`" in m and "AAD_LOGIN_METHOD=azurecli" in m
        for m in logs
    )


def test_no_kubelogin_warning_without_kubernetes_objects(record: Callable[..., Recording]) -> None:
    logs = [log.message for log in record(build_pool(gpu_driver="None")).result.logs]

    assert not any("kubelogin" in m for m in logs)


@pytest.mark.parametrize(
    ("argv", "env", "refused"),
    [
        (["--identity", "service-principal"], {}, True),
        ([], {"ARM_CLIENT_ID": "00000000-0000-0000-0000-000000000001"}, True),
        (["--identity", "user"], {"ARM_CLIENT_ID": "00000000-0000-0000-0000-000000000001"}, False),
        ([], {}, False),
    ],
)
def test_check_refuses_the_deployer_role_when_the_deployer_is_another_principal_type(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    env: dict[str, str],
    refused: bool,
) -> None:
    monkeypatch.delenv("ARM_CLIENT_ID", raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)

    code, out, _ = run(capsys, "check", "aks-gpu", "--format", "json", *argv)
    refusals = [(r["resource"], r["code"]) for r in json.loads(out)["stacks"][0]["refusals"]]

    assert refusals == ([("aks-gpu-deployer-admin", "UnmatchedPrincipalType")] if refused else [])
    assert code == (1 if refused else 0)


@pytest.fixture
def repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository whose Pulumi project lives in `team/`; `check` runs at the repository root."""
    project = tmp_path / "team"
    project.mkdir()
    (project / "Pulumi.yaml").write_text("name: vision\nruntime: python\n", encoding="utf-8")
    (project / "__main__.py").write_text(RAW_VM_PROGRAM, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return project


def _locations(out: str, rule: str) -> list[dict[str, Any]]:
    [result] = [r for r in json.loads(out)["runs"][0]["results"] if r["ruleId"] == rule]
    return [loc["physicalLocation"] for loc in result["locations"]]


def test_sarif_points_at_the_stack_file_line_of_the_offending_key(
    capsys: pytest.CaptureFixture[str], repository: Path
) -> None:
    size_line = "  vision:size: Standard_NC6  # K80"
    (repository / "Pulumi.dev.yaml").write_text(
        f"config:\n  azure-native:location: eastus\n  # the trainer's size\n{size_line}\n", encoding="utf-8"
    )

    code, out, _ = run(capsys, "check", "--project", "team", "--format", "sarif")

    assert code == 1
    region = {"startLine": 4, "startColumn": size_line.index("Standard_NC6") + 1}
    for rule in ("disallow-retired-vm-sizes", "azure/SkuNotAvailable"):
        assert _locations(out, rule) == [
            {"artifactLocation": {"uri": "team/Pulumi.dev.yaml", "uriBaseId": "%SRCROOT%"}, "region": region}
        ]


def test_sarif_points_at_the_program_line_that_registered_the_resource(
    capsys: pytest.CaptureFixture[str], repository: Path
) -> None:
    (repository / "Pulumi.dev.yaml").write_text("config:\n  azure-native:location: eastus\n", encoding="utf-8")

    code, out, _ = run(capsys, "check", "--project", "team", "--format", "sarif")

    assert code == 1
    line = RAW_VM_PROGRAM.splitlines().index("compute.VirtualMachine(") + 1
    assert _locations(out, "disallow-retired-vm-sizes") == [
        {"artifactLocation": {"uri": "team/__main__.py", "uriBaseId": "%SRCROOT%"}, "region": {"startLine": line}}
    ]
