"""examples/python-team: a Pulumi project of its own that imports the components from Python,
planned and checked offline with the same commands a team runs on its own project."""

from __future__ import annotations

import contextlib
import io
import json
import textwrap
from pathlib import Path

import pytest
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.stack.config import EXAMPLE_SSH_KEY

from tests.conftest import REPO

PROJECT = "examples/python-team"


@pytest.fixture
def at_repository_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)  # PROJECT is relative, as a user types it


@pytest.fixture(scope="module")
def plan() -> dict:
    """`gpu-stacks plan dev --project examples/python-team --json` from the repository's root, planned once for
    the two tests that only read it."""
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        patch.chdir(REPO)  # PROJECT is relative, as a user types it
        code = main(["plan", "dev", "--project", PROJECT, "--json"])
    assert code == 0, err.getvalue()
    return json.loads(out.getvalue())


def test_python_team_plan_builds_both_components_from_this_repository(plan: dict) -> None:
    assert (plan["project"], plan["stack"]) == ("python-team", "dev")
    assert plan["refusals"] == []
    assert sorted((r["type"], r["name"]) for r in plan["resources"]) == sorted(
        [
            ("azure-native:resources:ResourceGroup", "rg"),
            ("azure-gpu-stacks:index:GpuVm", "dev-box"),
            ("azure-native:network:VirtualNetwork", "dev-box-vnet"),
            ("azure-native:network:Subnet", "dev-box-subnet"),
            ("azure-native:network:NetworkSecurityGroup", "dev-box-nsg"),
            ("azure-native:network:NetworkInterface", "dev-box-nic"),
            ("azure-native:compute:VirtualMachine", "dev-box-vm"),
            ("azure-native:compute:VirtualMachineExtension", "dev-box-gpu-driver"),
            ("azure-native:devtestlab:GlobalSchedule", "dev-box-shutdown"),
            ("azure-gpu-stacks:index:CostAlert", "budget"),
            ("azure-native:consumption:Budget", "budget-budget"),
        ]
    )


def test_python_team_plan_takes_its_stack_config(plan: dict) -> None:
    by_name = {r["name"]: r for r in plan["resources"]}

    assert by_name["dev-box-vm"]["inputs"]["hardwareProfile"] == {"vmSize": "Standard_NC4as_T4_v3"}
    # the key is asked for with require_secret: Pulumi marks the whole osProfile input secret
    assert by_name["dev-box-vm"]["inputs"]["osProfile"] == "[secret]"
    assert by_name["budget-budget"]["inputs"]["amount"] == 250
    assert by_name["rg"]["inputs"]["resourceGroupName"] == "rg-python-team-dev"
    assert plan["outputs"]["sshCommand"] is None  # built from the NIC's dynamic address: unknown in a plan


def test_python_team_check_passes(at_repository_root: None, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", "--project", PROJECT])
    out, err = capsys.readouterr()

    assert code == 0, err
    # The one advisory: its GPU VM runs without encryption at host (warn-gpu-host-without-encryption-at-host).
    assert out.startswith("OK: dev deploys as planned (11 resources, 1 advisory policy note).")


def test_python_team_stack_file_holds_no_secret_only_the_example_public_key() -> None:
    text = (REPO / PROJECT / "Pulumi.dev.yaml").read_text()

    assert "secure:" not in text
    assert f"python-team:sshPublicKey: {EXAMPLE_SSH_KEY}\n" in text


def test_plan_runs_a_project_given_by_relative_path_with_its_own_modules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The program runs after a chdir into its project, so a relative --project must still find
    # the main file and put the project's directory, not a relative name, on the import path.
    project = tmp_path / "team"
    project.mkdir()
    (project / "Pulumi.yaml").write_text("name: team\nruntime: python\n")
    (project / "Pulumi.dev.yaml").write_text("config: {}\n")
    (project / "naming.py").write_text("PREFIX = 'rg-team'\n")
    (project / "__main__.py").write_text(
        textwrap.dedent(
            """
            from pulumi_azure_native import resources
            from naming import PREFIX
            resources.ResourceGroup("rg", resource_group_name=PREFIX, location="eastus")
            """
        )
    )
    monkeypatch.chdir(tmp_path)

    code = main(["plan", "dev", "--project", "team", "--json"])
    out, err = capsys.readouterr()

    assert code == 0, err
    assert json.loads(out)["resources"][0]["inputs"]["resourceGroupName"] == "rg-team"


def test_python_team_project_has_nothing_that_shadows_the_components_package() -> None:
    # Pulumi puts the project's directory first on sys.path, so a local `components` would win
    # over the installed package (and over this repository's).
    example = REPO / PROJECT

    assert not (example / "components").exists() and not (example / "components.py").exists()
