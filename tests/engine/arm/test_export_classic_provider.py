"""A resource of the classic azure provider (pulumi-azure, built on Terraform's azurerm) is Azure's: export-arm
cannot write its ARM body (its inputs are Terraform's), and says so, never "Azure never sees it". The public program
this came from, jaxxstorm/pulumi-examples python/azure/storage_account (commit 400071f0), creates a classic
`azure.storage.Account` beside azure-native resources."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from azure_gpu_stacks.engine.arm.template import CLASSIC_AZURES, NOT_AZURES, export
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.engine.run.runtime import RecordedResource

from tests.conftest import REPO, recorded_resource

TOKEN = "azure:storage/account:Account"


def recorded(token: str, name: str) -> RecordedResource:
    return recorded_resource(token, name, {"resourceGroupName": "rg", "accountTier": "Standard"})


def test_a_classic_provider_resource_is_outside_as_azure_s_not_as_another_provider_s() -> None:
    classic, pet = recorded(TOKEN, "classic"), recorded("random:index/randomPet:RandomPet", "pet")
    outside = {o["urn"]: o["why"] for o in export([classic, pet], project="p", stack="dev").document["metadata"][
        "outsideTemplate"
    ]}  # fmt: skip

    assert outside[classic.urn] == CLASSIC_AZURES
    assert "Validate and What-If do not see it" in outside[classic.urn]
    assert outside[pet.urn] == NOT_AZURES


def test_export_arm_warns_of_the_classic_resources_it_leaves_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(REPO / "tests" / "data" / "provider_stand_ins"))
    root = tmp_path / "p"
    root.mkdir()
    (root / "Pulumi.yaml").write_text("name: p\nruntime: python\n")
    (root / "Pulumi.dev.yaml").write_text("config:\n  azure-native:location: westus2\n")
    (root / "__main__.py").write_text(
        "import pulumi_azure as azure\nfrom pulumi_azure_native import resources\n"
        "group = resources.ResourceGroup('rg')\n"
        "azure.storage.Account('classic', resource_group_name=group.name, account_tier='Standard',"
        " account_replication_type='LRS')\n"
    )

    assert main(["export-arm", "dev", "--project", str(root), "-o", str(tmp_path / "t.json")]) == 0
    err = capsys.readouterr().err
    document = json.loads((tmp_path / "t.json").read_text())

    assert "1 resource of the classic azure provider is Azure's but not in the template" in err
    assert [o["why"] for o in document["metadata"]["outsideTemplate"]] == [CLASSIC_AZURES]
