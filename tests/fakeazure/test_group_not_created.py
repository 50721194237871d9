"""A program that deploys into a resource group it does not create (a team's shared group, named in config).

Azure accepts it where the group exists and answers ResourceGroupNotFound ("Resource group 'my_rg' could not be
found.", a public Terraform log: gist.github.com/errygg/f5ae7758873ab01a41fe62424c20d876; Learn: "Resolve errors
for resource not found", azure-resource-manager/troubleshooting/error-not-found: check the resource group name
and subscription; both observed 2026-11-27) where it does not; which is true is only known in the
subscription. So it is not a refusal: the run names the group and how to save it for an offline run, as a
look-up of a resource it does not hold does, and with the group saved it is judged.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from azure_gpu_stacks.engine.cli import main

PROGRAM = """
import pulumi
from pulumi_azure_native import storage

config = pulumi.Config()
account = storage.StorageAccount(
    "sa",
    resource_group_name=config.require("resourceGroupName"),
    kind="StorageV2",
    sku={"name": "Standard_LRS"},
)
pulumi.export("name", account.name)
"""


@pytest.fixture
def shared_group_project(tmp_path: Path) -> Path:
    (tmp_path / "Pulumi.yaml").write_text("name: shared-group\nruntime: python\n")
    (tmp_path / "Pulumi.dev.yaml").write_text(
        "config:\n  azure-native:location: westeurope\n  shared-group:resourceGroupName: rg-platform-shared\n"
    )
    (tmp_path / "__main__.py").write_text(textwrap.dedent(PROGRAM))
    return tmp_path


def test_a_group_the_program_does_not_create_is_one_line_not_a_refusal(
    shared_group_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["check", "dev", "--project", str(shared_group_project)])
    out, err = capsys.readouterr()

    assert code == 2, out + err
    assert "ResourceGroupNotFound" not in out + err
    [line] = err.strip().splitlines()
    assert "rg-platform-shared" in line
    assert "az group show --name rg-platform-shared -o json > FILE" in line and "--existing FILE" in line


def test_the_group_saved_with_az_is_judged(
    shared_group_project: Path, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path_factory.mktemp("az") / "group.json"
    saved.write_text(
        json.dumps(  # `az group show` output's shape (Microsoft.Resources/resourceGroups)
            {
                "id": "/subscriptions/11111111-2222-3333-4444-555555555555/resourceGroups/rg-platform-shared",
                "location": "westeurope",
                "managedBy": None,
                "name": "rg-platform-shared",
                "properties": {"provisioningState": "Succeeded"},
                "tags": None,
                "type": "Microsoft.Resources/resourceGroups",
            }
        )
    )

    code = main(["check", "dev", "--project", str(shared_group_project), "--existing", str(saved)])
    out, err = capsys.readouterr()

    assert (code, err) == (0, ""), out


def test_a_group_the_program_creates_and_azure_refuses_is_the_refusal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # no azure-native:location and none on the group: Azure refuses the group, and the account in it is
    # skipped as depending on it, not reported as a group the program does not create
    (tmp_path / "Pulumi.yaml").write_text("name: no-location\nruntime: python\n")
    (tmp_path / "Pulumi.dev.yaml").write_text("config: {}\n")
    (tmp_path / "__main__.py").write_text(
        "from pulumi_azure_native import resources, storage\n"
        'rg = resources.ResourceGroup("rg")\n'
        'storage.StorageAccount("sa", resource_group_name=rg.name, kind="StorageV2", sku={"name": "Standard_LRS"})\n'
    )

    code = main(["check", "dev", "--project", str(tmp_path)])
    out, err = capsys.readouterr()

    assert (code, err) == (1, ""), out + err
    assert "rg [azure-native:resources:ResourceGroup]: InvalidParameter: location is required" in out
    assert "neither created by the program" not in out


def test_a_reference_into_a_group_the_program_does_not_create_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a team's shared Log Analytics workspace, its id built from the signed-in subscription
    (tmp_path / "Pulumi.yaml").write_text("name: shared-logs\nruntime: python\n")
    (tmp_path / "Pulumi.dev.yaml").write_text("config:\n  azure-native:location: westeurope\n")
    (tmp_path / "__main__.py").write_text(
        "from pulumi_azure_native import applicationinsights, authorization, resources\n"
        "sub = authorization.get_client_config().subscription_id\n"
        'rg = resources.ResourceGroup("rg")\n'
        'applicationinsights.Component("ai", resource_group_name=rg.name, kind="web", application_type="web",\n'
        '    workspace_resource_id=f"/subscriptions/{sub}/resourceGroups/rg-shared/providers/'
        'Microsoft.OperationalInsights/workspaces/logs-shared")\n'
    )

    code = main(["check", "dev", "--project", str(tmp_path)])
    out, err = capsys.readouterr()

    assert code == 2, out + err
    [line] = err.strip().splitlines()
    assert "workspaceResourceId" in line and "resource group 'rg-shared'" in line
    assert "az resource show --ids" in line and "--existing FILE" in line
