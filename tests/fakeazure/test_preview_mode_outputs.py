"""`plan --preview` (ids unknown too) gives each new resource the outputs `pulumi preview` gives it (issue 37's
`ssh azureuser@`, issue 39): the inputs, and every property of the type's response schema they do not give
unknown, at any depth (pulumi/pulumi-azure-native `provider/pkg/resources/convert.go`, `PreviewOutputs`), so
a callback on a member Azure fills does not run and what derives from it shows as unknown."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.fakeazure.planned import previewed_outputs
from azure_gpu_stacks.sdk.internals import UNKNOWN_STRING_VALUE, secret

UNKNOWN_IN_TEXT = "(known after deployment)"


def test_t4_stack_preview_shows_its_login_unknown_not_a_command_without_a_host(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # GpuVm's ssh command reads the NIC's ipConfigurations[0].privateIPAddress, which Azure assigns at creation
    code = main(["plan", "inference-t4", "--preview"])
    out, err = capsys.readouterr()
    outputs = dict(
        (line.split(None, 1) + [""])[:2] for line in out.split("Outputs:\n")[1].split("\n\n")[0].splitlines()
    )

    assert (code, err) == (0, "")
    assert "ssh azureuser@" not in out
    assert outputs["sshCommand"] == outputs["vmPrivateIp"] == UNKNOWN_IN_TEXT
    assert outputs["resourceGroupName"] == "rg-inference-t4"  # Pulumi.inference-t4.yaml names it: known


def test_a100_stack_preview_keeps_what_inputs_give_and_leaves_what_azure_gives_unknown(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["plan", "training-a100", "--preview", "--json"])
    out, err = capsys.readouterr()
    outputs = json.loads(out)["outputs"]

    assert (code, err) == (0, "")
    assert outputs["scaleSetId"] is None and outputs["placementGroupId"] is None  # ids: Azure's
    # the first node's host name comes from the scale set's computerNamePrefix, an input: known, as in a preview
    assert outputs["clusterSshCommand"].startswith("ssh azureuser@train")
    assert outputs["scaleSetName"].startswith("train-vmss")  # the auto-name azure-native's preview keeps (#282)
    assert outputs["location"] == "eastus"


def test_public_program_callbacks_on_members_azure_fills_do_not_run_under_preview(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # pulumi/examples azure-py-static-website reads primary_endpoints.web; programs granting roles read
    # identity.principal_id (common-types ManagedServiceIdentity: principalId is read-only, Azure's)
    (tmp_path / "Pulumi.yaml").write_text("name: preview-members\nruntime: python\n")
    (tmp_path / "Pulumi.dev.yaml").write_text("config:\n  azure-native:location: westus2\n")
    (tmp_path / "__main__.py").write_text(
        textwrap.dedent(
            """
            import pulumi
            from pulumi_azure_native import resources, storage
            rg = resources.ResourceGroup("rg")
            account = storage.StorageAccount("sa", resource_group_name=rg.name, kind="StorageV2",
                                             sku={"name": "Standard_LRS"}, identity={"type": "SystemAssigned"})
            pulumi.export("web", account.primary_endpoints.apply(lambda e: e.web.replace("https://", "")))
            pulumi.export("principal", account.identity.apply(lambda i: i.principal_id.upper()))
            pulumi.export("identityType", account.identity.apply(lambda i: i.type))
            """
        )
    )

    code = main(["plan", "dev", "--project", str(tmp_path), "--preview", "--json"])
    out, err = capsys.readouterr()
    outputs = json.loads(out)["outputs"]

    assert (code, err) == (0, "")
    assert outputs["web"] is None and outputs["principal"] is None
    assert outputs["identityType"] is None  # the whole identity holds an unknown: its callbacks wait too


def test_a_nic_keeps_its_given_members_and_leaves_the_private_address_unknown() -> None:
    # network.json NetworkInterfaceIPConfigurationPropertiesFormat: privateIPAddress (the dynamic one is
    # Azure's), provisioningState readOnly; the given subnet and allocation method are the request's
    subnet_id = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/subnets/s"
    inputs = {
        "networkInterfaceName": "nic",
        "ipConfigurations": [
            {"name": "ipconfig1", "subnet": {"id": subnet_id}, "privateIPAllocationMethod": "Dynamic"}
        ],
    }

    out = previewed_outputs("azure-native:network:NetworkInterface", inputs, {"name": "nic"})

    [config] = out["ipConfigurations"]
    assert config["name"] == "ipconfig1" and config["privateIPAllocationMethod"] == "Dynamic"
    assert config["subnet"]["id"] == subnet_id
    assert config["privateIPAddress"] == config["provisioningState"] == UNKNOWN_STRING_VALUE
    assert out["macAddress"] == out["provisioningState"] == UNKNOWN_STRING_VALUE
    assert out["name"] == "nic"


def test_user_assigned_identities_and_secrets_under_preview() -> None:
    identity_id = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.ManagedIdentity/userAssignedIdentities/u"
    password = secret("not-shown")
    inputs = {
        "identity": {"type": "UserAssigned", "userAssignedIdentities": [identity_id]},
        "osProfile": {"adminPassword": password, "computerName": "vm"},
    }

    out = previewed_outputs("azure-native:compute:VirtualMachine", inputs, {})

    # ids in, a map keyed by them out (the SDK's input is a string set): unknown whole, as azure-native answers it
    assert out["identity"]["userAssignedIdentities"] == UNKNOWN_STRING_VALUE
    assert out["identity"]["principalId"] == UNKNOWN_STRING_VALUE
    assert out["osProfile"]["adminPassword"] == password and out["osProfile"]["computerName"] == "vm"
