"""pulumi.StackReference offline: outputs of other stacks from `pulumi stack output --json` files."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from azure_gpu_stacks.engine.cli import main

PROGRAM = """
import pulumi
network = pulumi.StackReference("{name}")
pulumi.export("subnet", network.require_output("subnetId"))
pulumi.export("key", network.get_output("workspaceKey"))
pulumi.export("keyIsSecret", network.get_output("workspaceKey").is_secret())
pulumi.export("missing", network.get_output("nothing"))
"""
OUTPUTS = {
    "subnetId": "/subscriptions/1/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/subnets/s",
    "workspaceKey": "[secret]",
}


def project(root: Path, reference: str = "acme/network/prod") -> Path:
    root.mkdir(parents=True)
    (root / "Pulumi.yaml").write_text("name: app\nruntime: python\n")
    (root / "Pulumi.dev.yaml").write_text("config: {}\n")
    (root / "__main__.py").write_text(textwrap.dedent(PROGRAM.format(name=reference)))
    return root


def save(path: Path, outputs: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(outputs, indent=2))
    return path


def plan(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:
    code = main([*argv, "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def test_outputs_come_from_the_committed_file_and_secrets_stay_secret(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path / "app")
    save(root / "stack-outputs" / "acme" / "network" / "prod.json", OUTPUTS)

    outputs = plan(capsys, ["plan", "dev", "--project", str(root)])["outputs"]
    # An output the other stack does not have reads as None, and an export of None never reaches the
    # engine (the SDK drops properties that serialize to None: pulumi/runtime/rpc.py serialize_properties).
    assert outputs == {"subnet": OUTPUTS["subnetId"], "key": "[secret]", "keyIsSecret": True}


def test_stack_outputs_option_names_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = project(tmp_path / "app")
    save(root / "stack-outputs" / "acme" / "network" / "prod.json", {"subnetId": "committed"})
    given = save(tmp_path / "prod-outputs.json", {"subnetId": "from-option", "workspaceKey": "plain"})

    outputs = plan(capsys, ["plan", "dev", "--project", str(root), "--stack-outputs", f"acme/network/prod={given}"])[
        "outputs"
    ]
    assert (outputs["subnet"], outputs["key"], outputs["keyIsSecret"]) == ("from-option", "plain", False)


@pytest.mark.parametrize(
    ("reference", "file"),
    [("prod", "organization/app/prod"), ("acme/prod", "acme/app/prod")],
)
def test_short_names_resolve_as_the_pulumi_cloud_backend_resolves_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], reference: str, file: str
) -> None:
    root = project(tmp_path / "app", reference)
    save(root / "stack-outputs" / f"{file}.json", OUTPUTS)

    assert plan(capsys, ["plan", "dev", "--project", str(root)])["outputs"]["subnet"] == OUTPUTS["subnetId"]


def test_a_reference_with_no_outputs_is_exit_2_saying_how_to_supply_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path / "app")

    for argv in (["plan", "dev"], ["check"], ["cost"]):
        assert main([*argv, "--project", str(root)]) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert err == (
            "gpu-stacks: error: StackReference 'acme/network/prod': no outputs of that stack offline; allowed: save "
            "them in the project with `pulumi stack output --json --stack acme/network/prod > "
            "stack-outputs/acme/network/prod.json`, "
            "or pass --stack-outputs acme/network/prod=FILE\n"
        )


@pytest.mark.parametrize("value", ["acme/network=x.json", "acme/network/prod", "a//b=x.json"])
def test_a_bad_stack_outputs_option_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str) -> None:
    root = project(tmp_path / "app")

    assert main(["plan", "dev", "--project", str(root), "--stack-outputs", value]) == 2
    assert capsys.readouterr().err == (
        f"gpu-stacks: error: --stack-outputs {value!r}: allowed: ORG/PROJECT/STACK=FILE, FILE written by "
        "`pulumi stack output --json --stack ORG/PROJECT/STACK`\n"
    )


def test_a_stack_outputs_file_that_is_not_json_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = project(tmp_path / "app")
    bad = tmp_path / "bad.json"
    bad.write_text("subnetId: x\n")

    assert main(["plan", "dev", "--project", str(root), "--stack-outputs", f"acme/network/prod={bad}"]) == 2
    assert capsys.readouterr().err == f"gpu-stacks: error: {bad}: not JSON (line 1, column 1: Expecting value)\n"
