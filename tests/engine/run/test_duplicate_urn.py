"""A program that registers one URN twice is stopped, as Pulumi's engine stops it (pulumi/pulumi `pkg/diag/errors.go`,
GetDuplicateResourceURNError: "Duplicate resource URN '%v'; try giving it a unique name"; read 2026-11-27). The
public program this came from, spaceoddite/pulumi-azure-vm-component-resource-python (commit bbb78f49), creates two
VM components whose children have fixed names: offline the second silently replaced the first, and the check judged
a run no `pulumi preview` would finish. A child's URN holds its parent's type, not its parent's name (Pulumi's docs,
"Resource names"), so two components of one type need their children named apart."""

from __future__ import annotations

from pathlib import Path

import pytest
from azure_gpu_stacks.engine.cli import main

PROGRAM = """
import pulumi
from pulumi_azure_native import network, resources


class Box(pulumi.ComponentResource):
    def __init__(self, name, prefixed):
        super().__init__("team:index:Box", name)
        group = resources.ResourceGroup(name + "-rg")
        nsg = f"{name}-nsg" if prefixed else "nsg"
        network.NetworkSecurityGroup(nsg, resource_group_name=group.name, opts=pulumi.ResourceOptions(parent=self))


PREFIXED = pulumi.Config().get_bool("prefixed")
Box("one", PREFIXED)
Box("two", PREFIXED)
"""


def team(root: Path, prefixed: bool) -> Path:
    root.mkdir()
    (root / "Pulumi.yaml").write_text("name: team\nruntime: python\n")
    (root / "__main__.py").write_text(PROGRAM)
    (root / "Pulumi.dev.yaml").write_text(
        f"config:\n  azure-native:location: westeurope\n  team:prefixed: {prefixed}\n"
    )
    return root


def test_a_second_resource_of_one_urn_is_the_one_line_pulumi_gives(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["check", "dev", "--project", str(team(tmp_path / "p", prefixed=False))])
    out, err = capsys.readouterr()

    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(
        "gpu-stacks: error: Duplicate resource URN "
        "'urn:pulumi:dev::team::team:index:Box$azure-native:network:NetworkSecurityGroup::nsg'"
        "; try giving it a unique name"
    )
    assert "at __main__.py:11" in err


def test_children_named_after_their_component_are_distinct_resources(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "dev", "--project", str(team(tmp_path / "p", prefixed=True))]) == 0
    assert capsys.readouterr().out.startswith("OK: dev deploys as planned (6 resources")
