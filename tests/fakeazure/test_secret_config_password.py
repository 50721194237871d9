"""`secure:` config values reaching Azure's rules: a VM's admin password (pulumi/examples azure-py-webserver,
azure-py-minecraft-server), a vault's tenant id, a role assignment's principal.

Offline the ciphertext cannot be decrypted, so the program gets a placeholder in its place; Azure would judge the
user's value, which is unknown here, never the placeholder (100 characters, past Linux's 6-72 for a password; not a
GUID for an id): those refusals were ours. The resource's value rules wait, as for a value unknown during a
preview; a value written in the stack file itself is still judged.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from azure_gpu_stacks.engine.cli import main

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
        "computer_name": "web",
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


def project(tmp_path: Path, password: str, computer_name: str = "web") -> Path:
    (tmp_path / "Pulumi.yaml").write_text("name: webserver\nruntime: python\n")
    (tmp_path / "Pulumi.dev.yaml").write_text(
        f"config:\n  azure-native:location: westus2\n  webserver:password:{password}\n"
    )
    program = PROGRAM.replace('"computer_name": "web",', f'"computer_name": "{computer_name}",')
    (tmp_path / "__main__.py").write_text(textwrap.dedent(program))
    return tmp_path


def test_a_password_from_a_secure_config_value_is_not_judged_offline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path, "\n    secure: v1:d2Vic2VydmVyLXBhc3N3b3Jk")

    main(["check", "dev", "--project", str(root), "--fail-level", "none"])
    out, err = capsys.readouterr()

    assert "InvalidParameter" not in out + err
    assert "supplied password" not in out + err


def test_a_password_written_in_the_stack_file_is_still_judged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path, " abc")  # 3 characters: Linux asks for 6 to 72

    main(["check", "dev", "--project", str(root), "--fail-level", "none"])
    out, err = capsys.readouterr()

    assert "The supplied password must be between 6-72 characters long" in out + err


GUIDS_PROGRAM = """
import pulumi
from pulumi_azure_native import authorization, keyvault, resources

config = pulumi.Config()
rg = resources.ResourceGroup("rg")
keyvault.Vault(
    "kv",
    resource_group_name=rg.name,
    properties={
        "tenant_id": config.require("tenantId"),
        "sku": {"family": "A", "name": "standard"},
        "access_policies": [
            {
                "tenant_id": config.require("tenantId"),
                "object_id": config.require("objectId"),
                "permissions": {"secrets": ["get"]},
            }
        ],
    },
)
authorization.RoleAssignment(
    "reader",
    principal_id=config.require("objectId"),
    principal_type="ServicePrincipal",
    scope=rg.id,
    role_definition_id="/providers/Microsoft.Authorization/roleDefinitions/acdd72a7-3385-48ef-bd42-f606fba81ae7",
)
"""


def test_ids_kept_as_secure_config_values_are_not_judged_offline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a team keeps its tenant and object ids as secrets; the vault's tenantId pattern (a GUID) and the role
    # assignment's principal are Azure's to judge on the real values, which only the stack's key decrypts
    (tmp_path / "Pulumi.yaml").write_text("name: vault\nruntime: python\n")
    (tmp_path / "Pulumi.dev.yaml").write_text(
        "config:\n  azure-native:location: westeurope\n"
        "  vault:tenantId:\n    secure: v1:dGVuYW50LWlk\n  vault:objectId:\n    secure: v1:b2JqZWN0LWlk\n"
    )
    (tmp_path / "__main__.py").write_text(textwrap.dedent(GUIDS_PROGRAM))

    code = main(["check", "dev", "--project", str(tmp_path)])
    out, err = capsys.readouterr()

    assert code == 0, out + err
    assert "InvalidParameter" not in out and "InvalidPrincipalId" not in out


def test_a_vm_with_a_secret_password_is_still_refused_its_too_long_host_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # only the rules that depend on the secret's value wait (fakeazure/offline_secrets.py): Linux's 64-character
    # host name limit (Azure's message quoted in hashicorp/terraform-provider-azurerm#280) still holds
    root = project(tmp_path, "\n    secure: v1:d2Vic2VydmVyLXBhc3N3b3Jk", computer_name="web" * 22)

    code = main(["check", "dev", "--project", str(root)])
    out, err = capsys.readouterr()

    assert code == 1, out + err
    assert f"Linux host name '{'web' * 22}' cannot exceed 64 characters in length" in out  # 66 characters
    assert "1 resource Azure would refuse" in out and "supplied password" not in out
