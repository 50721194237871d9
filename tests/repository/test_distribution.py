"""The wheel another team installs: one import package, the data files the code reads, and a team
project with its own `components/` and `policies/` packages that runs beside it, under the offline
engine and the way Pulumi's Python language host runs a program."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import tomllib
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from azure_gpu_stacks.components.version import __version__
from azure_gpu_stacks.policies.registry import REGISTRY
from google.protobuf import empty_pb2

from tests.conftest import REPO
from tests.distribution import new_venv, pip_install
from tests.pack_process import CALL_TIMEOUT_S, running_pack

TEAM_FILES = {
    "Pulumi.yaml": """\
        name: gpu-team
        runtime:
          name: python
          options:
            toolchain: pip
            virtualenv: venv
        """,
    "Pulumi.dev.yaml": """\
        config:
          azure-native:location: eastus
          gpu-team:sshPublicKey: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGV4YW1wbGUta2V5LXJlcGxhY2UtaXQtd2l0aC15b3Vy
            example-replace-me
          gpu-team:contactEmails: [ml-team@example.com]
        """,
    # The team's own packages, named as ours were before they moved under azure_gpu_stacks.
    "components/__init__.py": """\
        def team_tags(stack):
            return {"team": "gpu-team", "stack": stack}
        """,
    "policies/__init__.py": """\
        BUDGET_USD = 275
        """,
    "__main__.py": """\
        import pulumi
        from pulumi_azure_native import resources

        from azure_gpu_stacks.components import CostAlert, GpuVm
        from components import team_tags
        from policies import BUDGET_USD

        config = pulumi.Config()
        tags = team_tags(pulumi.get_stack())
        rg = resources.ResourceGroup("rg", location="eastus", tags=tags)
        vm = GpuVm("dev-box", {"resource_group_name": rg.name, "location": "eastus", "tags": tags,
                               "ssh_public_key": config.require_secret("sshPublicKey")})
        CostAlert("budget", {"scope": rg.id, "amount": BUDGET_USD,
                             "contact_emails": config.require_object("contactEmails")})
        pulumi.export("ssh", vm.ssh_command)
        """,
}

# What pulumi-language-python-exec does with the program (pulumi/pulumi
# sdk/python/cmd/pulumi-language-python-exec: runpy.run_path(<program directory>, run_name="__main__"),
# which puts that directory first on sys.path; observed 2026-11-22), here under Pulumi's own mocks.
LANGUAGE_HOST = """\
import json, runpy, sys
import pulumi

registered = []

class Mocks(pulumi.runtime.Mocks):
    def new_resource(self, args):
        registered.append(args.typ)
        return [args.name + "-id", dict(args.inputs)]

    def call(self, args):
        return {}

pulumi.runtime.set_all_config(
    {"gpu-team:sshPublicKey": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAITestKeyForUnitTestsOnly team",
     "gpu-team:contactEmails": '["ml-team@example.com"]'},
    ["gpu-team:sshPublicKey"],
)
pulumi.runtime.set_mocks(Mocks(), project="gpu-team", stack="dev", preview=False)

@pulumi.runtime.test
def program():
    runpy.run_path(sys.argv[1], run_name="__main__")

program()
import azure_gpu_stacks.components
print(json.dumps({
    "path0": sys.path[0],
    "components": sys.modules["components"].__file__,
    "policies": sys.modules["policies"].__file__,
    "azure_gpu_stacks.components": azure_gpu_stacks.components.__file__,
    "registered": sorted(set(registered)),
}))
"""


@pytest.fixture(scope="module")
def installed(wheel: Path, third_party: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A team's directory: its project in `project/`, and a new venv with the wheel installed in `venv/`."""
    root = tmp_path_factory.mktemp("team")
    python = new_venv(root / "venv", third_party)
    pip_install(python, str(wheel))
    project = root / "project"
    for name, text in TEAM_FILES.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(textwrap.dedent(text), encoding="utf-8")
    yield root


def site_packages(venv: Path) -> Path:
    return venv / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"


def run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": ""}  # nothing of the test environment but the third-party .pth
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False)


def test_wheel_has_one_import_package_with_its_data_files_and_nothing_else(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    top_level = {n.split("/")[0] for n in names if ".dist-info/" not in n}

    assert wheel.name == f"azure_gpu_stacks-{__version__}-py3-none-any.whl"
    assert top_level == {"azure_gpu_stacks"}
    assert {
        "azure_gpu_stacks/catalog/vm_sizes.yaml",
        "azure_gpu_stacks/components/scripts/node_health_check.sh",
        "azure_gpu_stacks/components/dashboards/gpu.json",
        "azure_gpu_stacks/policies/PulumiPolicy.yaml",
        "azure_gpu_stacks/policies/requirements.txt",
        "azure_gpu_stacks/policies/__main__.py",
        "azure_gpu_stacks/sdk/internals.py",
    } <= set(names)
    assert [
        n for n in names if any(part in n.split("/") for part in ("tests", "bench", "examples", "stacks", "venv"))
    ] == []
    entry_points = zipfile.ZipFile(wheel).read(f"azure_gpu_stacks-{__version__}.dist-info/entry_points.txt").decode()
    declared = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]["gpu-stacks"]
    assert declared.startswith("azure_gpu_stacks.engine.cli:")
    assert f"gpu-stacks = {declared}" in entry_points


def test_team_project_with_its_own_components_and_policies_checks_green_offline(installed: Path) -> None:
    done = run(
        [str(installed / "venv" / "bin" / "gpu-stacks"), "check", "--project", "project", "--format", "json"], installed
    )

    assert done.returncode == 0, done.stderr
    (stack,) = json.loads(done.stdout)["stacks"]
    by_name = {r["name"]: r for r in stack["resources"]}
    assert by_name["rg"]["inputs"]["tags"] == {"team": "gpu-team", "stack": "dev"}  # the team's components
    assert by_name["budget-budget"]["inputs"]["amount"] == 275  # the team's policies
    assert by_name["dev-box-vm"]["type"] == "azure-native:compute:VirtualMachine"  # ours, from the wheel
    assert stack["refusals"] == []
    # the one note every GPU VM without encryption at host gets (the installed pack's policy, advisory)
    assert [(v["policy"], v["level"]) for v in stack["violations"]] == [
        ("warn-gpu-host-without-encryption-at-host", "advisory")
    ]


def test_team_project_imports_as_pulumis_language_host_runs_it(installed: Path) -> None:
    (installed / "host.py").write_text(LANGUAGE_HOST, encoding="utf-8")
    project = installed / "project"

    done = run([str(installed / "venv" / "bin" / "python"), "host.py", str(project)], installed)

    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen["components"] == str(project / "components" / "__init__.py")
    assert seen["policies"] == str(project / "policies" / "__init__.py")
    installed_components = site_packages(installed / "venv") / "azure_gpu_stacks" / "components" / "__init__.py"
    assert seen["azure_gpu_stacks.components"] == str(installed_components)
    assert {
        "azure-gpu-stacks:index:GpuVm",
        "azure-native:compute:VirtualMachine",
        "azure-native:consumption:Budget",
    } <= set(seen["registered"])


def test_installed_pack_runs_as_the_cli_runs_it_from_policy_pack_path(installed: Path) -> None:
    done = run([str(installed / "venv" / "bin" / "gpu-stacks"), "policy-pack", "path"], installed / "project")

    assert done.returncode == 0, done.stderr
    pack = Path(done.stdout.strip())
    assert pack == site_packages(installed / "venv") / "azure_gpu_stacks" / "policies"
    assert (pack / "venv").resolve() == (installed / "venv").resolve()
    with running_pack(pack) as stub:
        info = stub.GetAnalyzerInfo(empty_pb2.Empty(), timeout=CALL_TIMEOUT_S)
    # (the version the engine shows comes from PulumiPolicy.yaml, which the wheel test checks is shipped)
    assert info.name == "azure-gpu-stacks"
    assert [p.name for p in info.policies] == [p.name for p in REGISTRY]
