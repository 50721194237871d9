"""`gpu-stacks` as users run it: the plan document, exit codes, and one clean message for bad input."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from preflight.cli import main
from preflight.project import OFFLINE_SECRET
from tests.conftest import REPO

GPU_STACKS = Path(sys.executable).with_name("gpu-stacks")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def snapshot(root: Path) -> dict[str, float]:
    return {str(p): p.stat().st_mtime for p in root.rglob("*") if "__pycache__" not in p.parts}


def write_project(root: Path, program: str, stack_yaml: str = "config: {}\n", pulumi_yaml: str | None = None) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "Pulumi.yaml").write_text(pulumi_yaml or "name: team-project\nruntime: python\n")
    (root / "__main__.py").write_text(textwrap.dedent(program))
    (root / "Pulumi.dev.yaml").write_text(stack_yaml)
    return root


@pytest.fixture(scope="module")
def plan_document() -> dict:
    """`gpu-stacks plan inference-t4 --json`, run as a user runs it: the installed console script."""
    done = subprocess.run([str(GPU_STACKS), "plan", "inference-t4", "--json"], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_cli_plan_json_has_the_documented_shape(plan_document: dict) -> None:
    assert set(plan_document) >= {"project", "stack", "resources", "outputs", "refusals", "violations", "cost"}
    assert (plan_document["project"], plan_document["stack"]) == ("azure-gpu-stacks", "inference-t4")
    assert all(set(r) == {"urn", "type", "name", "parent", "custom", "protect", "inputs"} for r in plan_document["resources"])


def test_cli_plan_json_records_the_t4_vm_as_the_engine_sees_it(plan_document: dict) -> None:
    [vm] = [r for r in plan_document["resources"] if r["type"] == "azure-native:compute:VirtualMachine"]

    assert vm["inputs"]["hardwareProfile"] == {"vmSize": "Standard_NC4as_T4_v3"}
    linux = vm["inputs"]["osProfile"]["linuxConfiguration"]
    assert linux["ssh"]["publicKeys"][0]["keyData"] == "[secret]"  # the SSH key stays a secret
    assert linux["disablePasswordAuthentication"] is True  # what holds it stays readable
    assert vm["parent"].endswith("azure-gpu-stacks:index:GpuVm::gpu-vm")
    assert vm["custom"] is True


def test_cli_plan_json_has_budget_on_the_resource_group(plan_document: dict) -> None:
    [budget] = [r for r in plan_document["resources"] if r["type"] == "azure-native:consumption:Budget"]
    [rg] = [r for r in plan_document["resources"] if r["type"] == "azure-native:resources:ResourceGroup"]

    assert budget["inputs"]["scope"].endswith(f"/resourceGroups/{rg['inputs']['resourceGroupName']}")
    assert budget["inputs"]["amount"] == 300


def test_cli_plan_json_exports_the_stack_outputs(plan_document: dict) -> None:
    outputs = plan_document["outputs"]

    assert outputs["sshCommand"] == f"ssh azureuser@{outputs['vmPrivateIp']}"
    assert outputs["vmId"].split("/")[-2] == "virtualMachines"
    assert outputs["budgetId"].split("/")[-2] == "budgets"
    assert plan_document["refusals"] == []


def test_cli_plan_text_shows_the_tree_and_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "plan", "inference-t4")

    assert code == 0
    assert "    gpu-vm-vm  [azure-native:compute:VirtualMachine]  size=Standard_NC4as_T4_v3" in out
    assert "Secrets offline: azure-gpu-stacks:sshPublicKey" in out
    assert out.rstrip().endswith("OK: inference-t4 deploys as planned (11 resources).")


def test_cli_stack_file_path_is_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "plan", str(REPO / "stacks" / "Pulumi.inference-t4.yaml"), "--json")

    assert code == 0 and json.loads(out)["stack"] == "inference-t4"


def test_cli_check_passes_the_shipped_stacks(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check")

    assert code == 0 and "OK: inference-t4" in out


def test_cli_refusal_exits_1_and_names_resource_and_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = write_project(tmp_path / "p", """
        from pulumi_azure_native import compute, resources
        rg = resources.ResourceGroup("rg", location="eastus")
        compute.VirtualMachine("old", resource_group_name=rg.name, location="eastus",
            hardware_profile=compute.HardwareProfileArgs(vm_size="Standard_NC24s_v3"))
    """)

    code, out, _ = run(capsys, "plan", "dev", "--project", str(project))

    assert code == 1
    assert "  - old [azure-native:compute:VirtualMachine]: SkuNotAvailable: The requested VM size 'Standard_NC24s_v3'" in out
    assert "FAILED: dev: 1 resource(s) Azure would refuse." in out


def test_cli_plans_another_teams_project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = write_project(tmp_path / "team", """
        import pulumi
        from pulumi_azure_native import resources
        rg = resources.ResourceGroup("rg", location=pulumi.Config("azure-native").require("location"))
        pulumi.export("token", pulumi.Config().require_secret("token"))
        pulumi.export("rg", rg.name)
    """, stack_yaml="config:\n  azure-native:location: westeurope\n  team-project:token:\n    secure: v1:abc\n")

    code, out, _ = run(capsys, "plan", "dev", "--project", str(project), "--json")
    document = json.loads(out)

    assert code == 0
    assert document["outputs"]["token"] == "[secret]"
    assert document["resources"][0]["inputs"]["location"] == "westeurope"


BAD_STACK_FILES = {
    "invalid-yaml": ("config: [\n", "stack.yaml: not valid YAML (line 2, column 1)"),
    "empty": ("", "azure-native:location: required key is missing"),
    "list-at-top": ("- a\n- b\n", "expected a mapping with a `config` key, got list"),
    "config-is-a-list": ("config:\n  - a\n", "config: expected a mapping of namespace:key to values, got list"),
    "key-without-namespace": ("config:\n  vm: {}\n", "config: key 'vm' is not of the form <namespace>:<name>"),
    "misspelt-key": (
        "config:\n  azure-native:location: eastus\n  azure-gpu-stacks:cosAlert: {amount: 1}\n",
        "azure-gpu-stacks:cosAlert: unknown key; did you mean 'costAlert'?",
    ),
    "wrong-type": (
        "config:\n  azure-native:location: eastus\n  azure-gpu-stacks:costAlert: {amount: lots, contactEmails: [a@b.co]}\n",
        "azure-gpu-stacks:costAlert.amount: 'lots' is not allowed: Input should be a valid number",
    ),
    "retired-size": (
        "config:\n  azure-native:location: eastus\n  azure-gpu-stacks:vm: {vmSize: Standard_NV6}\n",
        "azure-gpu-stacks:vm.vmSize: 'Standard_NV6' was retired on 2023-09-06",
    ),
    "unknown-region": ("config:\n  azure-native:location: moon\n", "azure-native:location: 'moon' is not an Azure region"),
}


@pytest.mark.parametrize("case", sorted(BAD_STACK_FILES))
def test_cli_bad_stack_file_exits_2_with_one_clean_message(tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str) -> None:
    text, expected = BAD_STACK_FILES[case]
    stack_file = tmp_path / "Pulumi.stack.yaml"
    stack_file.write_text(text)
    before = snapshot(tmp_path)

    code, out, err = run(capsys, "plan", str(stack_file))

    assert code == 2
    assert out == ""
    assert err.startswith(f"gpu-stacks: error: {stack_file}: ") and expected in err  # names the file read
    assert "Traceback" not in err and err.count("gpu-stacks: error:") == 1
    assert snapshot(tmp_path) == before


def test_cli_unknown_stack_lists_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "plan", "inference-t5")

    assert code == 2
    assert err.startswith("gpu-stacks: error: unknown stack 'inference-t5' in stacks/; known stacks: ")
    assert "inference-t4" in err


@pytest.mark.parametrize(
    ("pulumi_yaml", "program", "expected"),
    [
        ("name: x\nruntime: nodejs\n", "", "runtime: 'nodejs'; allowed: python"),
        ("runtime: python\n", "", "name: missing"),
        ("name: x\nruntime: python\nmain: src/\n", "", "main: no Python program at"),
        ("name: x\nruntime: python\n", "raise ValueError('boom')\n", "the program raised ValueError: boom (at __main__.py:1)"),
    ],
)
def test_cli_bad_project_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], pulumi_yaml: str, program: str, expected: str) -> None:
    project = write_project(tmp_path / "p", program, pulumi_yaml=pulumi_yaml)

    code, _, err = run(capsys, "plan", "dev", "--project", str(project))

    assert code == 2 and expected in err and "Traceback" not in err


def test_cli_project_directory_without_pulumi_yaml(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "plan", "dev", "--project", str(tmp_path))

    assert code == 2 and f"{tmp_path}: no Pulumi.yaml" in err


def test_cli_secret_placeholder_is_a_wellformed_public_key() -> None:
    from components.config import SSH_KEY_PATTERN

    assert SSH_KEY_PATTERN.match(OFFLINE_SECRET)


def test_cli_usage_flag_makes_quota_shortfalls_refusals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    usage = tmp_path / "usage.json"
    usage.write_text(json.dumps([{"currentValue": "0", "limit": "0", "name": {"value": "standardNCASv3_T4Family"}}]))

    code, out, _ = run(capsys, "plan", "inference-t4", "--usage", str(usage))

    assert code == 1 and "QuotaExceeded" in out


def test_cli_module_entry_point_matches_console_script() -> None:
    done = subprocess.run([sys.executable, "-m", "preflight", "stacks"], capture_output=True, text=True, cwd=REPO, timeout=60)

    assert done.returncode == 0 and "inference-t4" in done.stdout.split()


def test_cli_preview_leaves_ids_unknown_and_refuses_nothing_known_good(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "plan", "inference-t4", "--preview", "--json")
    outputs = json.loads(out)["outputs"]

    assert code == 0
    assert outputs["vmId"] is None and outputs["location"] == "eastus"


def test_cli_preview_still_refuses_a_retired_size(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = write_project(tmp_path / "p", """
        from pulumi_azure_native import compute, resources
        rg = resources.ResourceGroup("rg", location="eastus")
        compute.VirtualMachine("old", resource_group_name=rg.name, location="eastus",
            hardware_profile=compute.HardwareProfileArgs(vm_size="Standard_NC6"))
    """)

    code, out, _ = run(capsys, "plan", "dev", "--project", str(project), "--preview")

    assert code == 1 and "old [azure-native:compute:VirtualMachine]: SkuNotAvailable" in out
