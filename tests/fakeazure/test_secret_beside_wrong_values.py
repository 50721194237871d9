"""A `secure:` config value the offline run cannot decrypt skips only the rules that depend on its value.

The program gets a placeholder for the secret (`inputs.offline_secret`); Azure judges the user's real value, so a
refusal some value of the secret would avoid is not the fake's to give. Every other rule still applies: the other
properties of the same resource, and what holds whatever the secret is (a secret sent where the spec asks for a
number). Before, any placeholder in a resource skipped every value rule of that resource.

Expected refusals are Azure's: Key Vault's REST spec (Microsoft.KeyVault 2024-11-01, VaultProperties:
softDeleteRetentionInDays "accepts >=7 and <=90", sku.name an enum of standard and premium, tenantId a string in
GUID format) and Linux's host name limit of 64 characters (Azure's message quoted in
hashicorp/terraform-provider-azurerm#280; Learn's resource-name-rules); observed 2026-11-27.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.fakeazure.errors import ArmError
from azure_gpu_stacks.inputs.offline_secret import OFFLINE_SECRET

TENANT = "72f988bf-86f1-41af-91ab-2d7cd011db47"


def _vault(properties: dict[str, Any]) -> ArmError | None:
    arm = FakeArm(default_location="westeurope")
    arm.put("azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": "rg1"}, "rg")
    body = {"sku": {"family": "A", "name": "standard"}, **properties}
    try:
        arm.put(
            "azure-native:keyvault:Vault",
            "kv",
            {"vaultName": "kv-team1", "resourceGroupName": "rg1", "properties": body},
            "kv",
        )
    except ArmError as error:
        return error
    return None


def test_a_secret_tenant_alone_is_left_to_azure() -> None:
    assert _vault({"tenantId": OFFLINE_SECRET}) is None


@pytest.mark.parametrize(
    ("wrong", "words"),
    [
        ({"softDeleteRetentionInDays": 100}, "softDeleteRetentionInDays 100; allowed: 7 to 90"),
        ({"sku": {"family": "A", "name": "gold"}}, "The value 'gold' of properties.sku.name is not valid"),
    ],
)
def test_a_wrong_property_beside_a_secret_one_is_still_refused(wrong: dict[str, Any], words: str) -> None:
    refused = _vault({"tenantId": OFFLINE_SECRET, **wrong})

    assert refused is not None and refused.code == "InvalidParameter"
    assert words in str(refused)
    assert OFFLINE_SECRET not in str(refused)


def test_a_secret_where_the_spec_asks_a_number_is_refused_whatever_its_value() -> None:
    refused = _vault({"tenantId": TENANT, "softDeleteRetentionInDays": OFFLINE_SECRET})

    assert refused is not None and refused.code == "InvalidParameter"
    assert "properties.softDeleteRetentionInDays is invalid: a number is expected, not a string" in str(refused)
    assert OFFLINE_SECRET not in str(refused)


PROGRAM = """
import pulumi
from pulumi_azure_native import compute, network, resources

config = pulumi.Config()
rg = resources.ResourceGroup("rg")
vnet = network.VirtualNetwork(
    "vnet",
    resource_group_name=rg.name,
    address_space={"address_prefixes": ["10.0.0.0/16"]},
    subnets=[{"name": "default", "address_prefix": "10.0.1.0/24"}],
)
nic = network.NetworkInterface(
    "nic",
    resource_group_name=rg.name,
    ip_configurations=[{"name": "ip", "subnet": {"id": vnet.subnets[0].id}, "private_ip_allocation_method": "Dynamic"}],
)
compute.VirtualMachine(
    "vm",
    resource_group_name=rg.name,
    network_profile={"network_interfaces": [{"id": nic.id}]},
    hardware_profile={"vm_size": "Standard_D2s_v5"},
    os_profile={
        "computer_name": "web" * 22,
        "admin_username": "webadmin",
        "admin_password": config.require("password"),
        "linux_configuration": {"disable_password_authentication": False},
    },
    storage_profile={
        "os_disk": {"create_option": "FromImage"},
        "image_reference": {
            "publisher": "Canonical",
            "offer": "0001-com-ubuntu-server-jammy",
            "sku": "22_04-lts-gen2",
            "version": "latest",
        },
    },
)
"""


def test_a_vm_with_a_secret_password_is_still_refused_its_too_long_host_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "Pulumi.yaml").write_text("name: webserver\nruntime: python\n")
    (tmp_path / "Pulumi.dev.yaml").write_text(
        "config:\n  azure-native:location: westus2\n  webserver:password:\n    secure: v1:d2Vic2VydmVyLXBhc3N3b3Jk\n"
    )
    (tmp_path / "__main__.py").write_text(textwrap.dedent(PROGRAM))

    code = main(["check", "dev", "--project", str(tmp_path)])
    out, err = capsys.readouterr()

    assert code == 1, out + err
    assert f"Linux host name '{'web' * 22}' cannot exceed 64 characters in length" in out  # 66 characters
    assert "1 resource Azure would refuse" in out and "supplied password" not in out
