"""`gpu-stacks` as users run it: the plan document, exit codes, and one clean message for bad input."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.engine.run.project import OFFLINE_SECRET
from azure_gpu_stacks.stack.config import EXAMPLE_SSH_KEY

from tests.conftest import REPO


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write_project(root: Path, program: str, stack_yaml: str = "config: {}\n", pulumi_yaml: str | None = None) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "Pulumi.yaml").write_text(pulumi_yaml or "name: team-project\nruntime: python\n")
    (root / "__main__.py").write_text(textwrap.dedent(program))
    (root / "Pulumi.dev.yaml").write_text(stack_yaml)
    return root


@pytest.fixture
def plan_document(shipped_plan_json: Callable[[str], dict[str, Any]]) -> dict:
    """`gpu-stacks plan inference-t4 --json`, as conftest's session fixture runs it once for every test that reads
    it (the console script as a process: test_cli_module_entry_point_matches_console_script here and
    tests/e2e/test_check_cli.py's test_check_as_a_subprocess_exits_0_on_the_shipped_t4_stack)."""
    return shipped_plan_json("inference-t4")


def test_cli_plan_json_has_the_documented_shape(plan_document: dict) -> None:
    assert set(plan_document) >= {"project", "stack", "resources", "outputs", "refusals", "violations", "cost"}
    assert (plan_document["project"], plan_document["stack"]) == ("azure-gpu-stacks", "inference-t4")
    assert all(
        set(r) == {"urn", "type", "name", "parent", "custom", "protect", "inputs"} for r in plan_document["resources"]
    )


def test_cli_plan_json_records_the_t4_vm_as_the_engine_sees_it(plan_document: dict) -> None:
    [vm] = [r for r in plan_document["resources"] if r["type"] == "azure-native:compute:VirtualMachine"]

    assert vm["inputs"]["hardwareProfile"] == {"vmSize": "Standard_NC4as_T4_v3"}
    linux = vm["inputs"]["osProfile"]["linuxConfiguration"]
    # the stack file holds the example public key in plain text (a `secure:` one stays secret: test_secrets.py)
    assert linux["ssh"]["publicKeys"][0]["keyData"] == EXAMPLE_SSH_KEY
    assert linux["disablePasswordAuthentication"] is True
    assert vm["parent"].endswith("azure-gpu-stacks:index:GpuVm::gpu-vm")
    assert vm["custom"] is True


def test_cli_plan_json_has_budget_on_the_resource_group(plan_document: dict) -> None:
    [budget] = [r for r in plan_document["resources"] if r["type"] == "azure-native:consumption:Budget"]
    [rg] = [r for r in plan_document["resources"] if r["type"] == "azure-native:resources:ResourceGroup"]

    assert budget["inputs"]["scope"].endswith(f"/resourceGroups/{rg['inputs']['resourceGroupName']}")
    assert budget["inputs"]["amount"] == 300


def test_cli_plan_json_exports_the_stack_outputs(plan_document: dict) -> None:
    outputs = plan_document["outputs"]

    # a dynamic private address is Azure's to give at create time: unknown in a plan, as in `pulumi preview`
    assert outputs["sshCommand"] is None and outputs["vmPrivateIp"] is None
    assert outputs["vmId"].split("/")[-2] == "virtualMachines"
    assert outputs["budgetId"].split("/")[-2] == "budgets"
    assert plan_document["refusals"] == []


def test_cli_plan_text_shows_the_tree_and_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "plan", "inference-t4")

    assert code == 0
    assert "    gpu-vm-vm  [azure-native:compute:VirtualMachine]  size=Standard_NC4as_T4_v3" in out
    assert "  - azure-gpu-stacks:sshPublicKey: the repository's example key, which opens nothing; set yours with" in out
    # The one advisory: the GPU VM runs without encryption at host (opt-in: the subscription registers the feature).
    assert out.rstrip().endswith("OK: inference-t4 deploys as planned (11 resources, 1 advisory policy note).")


def test_cli_stack_file_path_is_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "plan", str(REPO / "stacks" / "Pulumi.inference-t4.yaml"), "--json")

    assert code == 0 and json.loads(out)["stack"] == "inference-t4"


def test_cli_refusal_exits_1_and_names_resource_and_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = write_project(
        tmp_path / "p",
        """
        from pulumi_azure_native import compute, resources
        rg = resources.ResourceGroup("rg", location="eastus")
        compute.VirtualMachine("old", resource_group_name=rg.name, location="eastus",
            hardware_profile=compute.HardwareProfileArgs(vm_size="Standard_NC24s_v3"))
    """,
    )

    code, out, _ = run(capsys, "plan", "dev", "--project", str(project))

    assert code == 1
    assert (
        "  - old [azure-native:compute:VirtualMachine]: SkuNotAvailable: The requested VM size 'Standard_NC24s_v3'"
        in out
    )
    assert "FAILED: dev: 1 resource Azure would refuse; " in out


def test_cli_plans_another_teams_project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = write_project(
        tmp_path / "team",
        """
        import pulumi
        from pulumi_azure_native import resources
        rg = resources.ResourceGroup("rg", location=pulumi.Config("azure-native").require("location"))
        pulumi.export("token", pulumi.Config().require_secret("token"))
        pulumi.export("rg", rg.name)
    """,
        stack_yaml="config:\n  azure-native:location: westeurope\n  team-project:token:\n    secure: v1:abc\n",
    )

    code, out, _ = run(capsys, "plan", "dev", "--project", str(project), "--json")
    document = json.loads(out)

    assert code == 0
    assert document["outputs"]["token"] == "[secret]"
    assert document["resources"][0]["inputs"]["location"] == "westeurope"


# Bad stack files and projects: tests/e2e/test_bad_input.py (the corpus in tests/data/bad_stacks/).


def test_cli_secret_placeholder_is_a_wellformed_public_key() -> None:
    from azure_gpu_stacks.stack.config import SSH_KEY_PATTERN

    assert SSH_KEY_PATTERN.match(OFFLINE_SECRET)


def test_cli_usage_flag_makes_quota_shortfalls_refusals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    usage = tmp_path / "usage.json"
    usage.write_text(json.dumps([{"currentValue": "0", "limit": "0", "name": {"value": "standardNCASv3_T4Family"}}]))

    code, out, _ = run(capsys, "plan", "inference-t4", "--usage", str(usage))

    assert code == 1 and "OperationNotAllowed" in out


def test_cli_module_entry_point_matches_console_script() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "azure_gpu_stacks.engine", "stacks"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )

    assert done.returncode == 0 and "inference-t4" in done.stdout.split()


def test_cli_preview_leaves_ids_unknown_and_refuses_nothing_known_good(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "plan", "inference-t4", "--preview", "--json")
    outputs = json.loads(out)["outputs"]

    assert code == 0
    assert outputs["vmId"] is None and outputs["location"] == "eastus"


def test_cli_preview_still_refuses_a_retired_size(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = write_project(
        tmp_path / "p",
        """
        from pulumi_azure_native import compute, resources
        rg = resources.ResourceGroup("rg", location="eastus")
        compute.VirtualMachine("old", resource_group_name=rg.name, location="eastus",
            hardware_profile=compute.HardwareProfileArgs(vm_size="Standard_NC6"))
    """,
    )

    code, out, _ = run(capsys, "plan", "dev", "--project", str(project), "--preview")

    assert code == 1 and "old [azure-native:compute:VirtualMachine]: SkuNotAvailable" in out
