"""A planted secret never appears in what gpu-stacks prints, in any format."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.engine.secrets import Mask

from tests.shared_plans import plans_shared

MARKER = "MARKER-5f2c9a-do-not-print"

PROGRAM = f"""
import pulumi
from pulumi_azure_native import compute, resources

token = pulumi.Output.secret("{MARKER}")
rg = resources.ResourceGroup("rg", location="eastus", tags={{"owner": token}})
compute.VirtualMachine("vm", resource_group_name=rg.name, location="eastus",
    hardware_profile=compute.HardwareProfileArgs(vm_size="Standard_NC4as_T4_v3"),
    os_profile=compute.OSProfileArgs(admin_username="azureuser", admin_password=token, computer_name="vm"))
pulumi.export("token", token)
pulumi.export("tokenInText", token.apply(lambda t: "the token is " + t))
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The secretive project, written once for the file; no test changes it."""
    root = tmp_path_factory.mktemp("secrets") / "secretive"
    root.mkdir()
    (root / "Pulumi.yaml").write_text("name: secretive\nruntime: python\n")
    (root / "__main__.py").write_text(textwrap.dedent(PROGRAM))
    (root / "Pulumi.dev.yaml").write_text("config:\n  secretive:apiKey:\n    secure: v1:c2VjcmV0\n")
    return root


@pytest.fixture(scope="module", autouse=True)
def plans(project: Path) -> Iterator[dict[str, Any]]:
    """The project's plans by their arguments (tests/shared_plans.py): each command and format prints the same
    plan, masked at the output edge."""
    with plans_shared(unchanged=(project,)) as plans:
        yield plans


EVERY_FORMAT = [
    ["plan", "dev"],
    ["plan", "dev", "--json"],
    ["plan", "dev", "--preview"],
    ["plan", "dev", "--preview", "--json"],
    *(["check", "--format", fmt] for fmt in ("text", "json", "markdown", "sarif")),
    ["check", "--json", "--jobs", "2"],
    *(["cost", "--format", fmt] for fmt in ("text", "markdown", "json")),
    *(["quota", "dev", "--format", fmt] for fmt in ("text", "markdown", "json")),
]


@pytest.mark.parametrize("argv", EVERY_FORMAT, ids=" ".join)
def test_secrets_never_printed(project: Path, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code = main([*argv, "--project", str(project)])
    out, err = capsys.readouterr()

    assert code in (0, 1) and out.strip() and "error" not in err  # a real report of the stack, not an error
    assert MARKER not in out and MARKER not in err
    assert "v1:c2VjcmV0" not in out  # nor the ciphertext of a secure: value


def test_secrets_shown_as_secret_where_they_were(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    main(["plan", "dev", "--json", "--project", str(project)])
    document = json.loads(capsys.readouterr().out)
    [vm] = [r for r in document["resources"] if r["type"] == "azure-native:compute:VirtualMachine"]

    assert document["outputs"] == {"token": "[secret]", "tokenInText": "[secret]"}
    assert vm["inputs"]["osProfile"] == "[secret]"


def test_secrets_beside_a_config_secret_stay_hidden(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A structure unmasked for readability (it holds the SSH key from config) still hides a
    password that came from elsewhere."""
    root = tmp_path / "mixed"
    root.mkdir()
    (root / "Pulumi.yaml").write_text("name: mixed\nruntime: python\n")
    (root / "Pulumi.dev.yaml").write_text("config:\n  mixed:key:\n    secure: v1:abc\n")
    (root / "__main__.py").write_text(
        textwrap.dedent(f"""
        import pulumi
        from pulumi_azure_native import compute, resources
        key = pulumi.Config().require_secret("key")
        rg = resources.ResourceGroup("rg", location="eastus")
        compute.VirtualMachine("vm", resource_group_name=rg.name, location="eastus",
            hardware_profile=compute.HardwareProfileArgs(vm_size="Standard_NC4as_T4_v3"),
            os_profile=compute.OSProfileArgs(admin_username="azureuser", computer_name="vm",
                admin_password=pulumi.Output.secret("{MARKER}"),
                linux_configuration=compute.LinuxConfigurationArgs(ssh=compute.SshConfigurationArgs(
                    public_keys=[compute.SshPublicKeyArgs(path="/home/azureuser/.ssh/authorized_keys",
                    key_data=key)]))))
    """)
    )

    main(["plan", "dev", "--json", "--project", str(root)])
    out = capsys.readouterr().out

    assert MARKER not in out


def test_no_module_keeps_a_mask_for_the_process() -> None:
    """One output edge and no global state: a mask made at import time would carry one run's secrets into the
    next run of the same process (a fleet's records, a test session) and need every call site to feed it."""
    import importlib
    import pkgutil

    import azure_gpu_stacks.engine as engine

    held = []
    for module_info in pkgutil.walk_packages(engine.__path__, "azure_gpu_stacks.engine."):
        if module_info.name.endswith("__main__"):  # the command itself, run on import
            continue
        module = importlib.import_module(module_info.name)
        held += [f"{module_info.name}.{name}" for name, value in vars(module).items() if isinstance(value, Mask)]

    assert held == []
