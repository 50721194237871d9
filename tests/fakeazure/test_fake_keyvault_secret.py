"""The fake ARM's key vault secret (`keyvault:Secret`, which team programs put beside the toolkit's
components): each rule it checks, with the code and message of its refusal, driven through Pulumi's
mocks (issue: Azure fidelity). The sources of the rules are in `fakeazure/models/keyvault.py`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.conftest import Recording, in_resource_group


def vault_with_secret(**secret: Any) -> Callable[[], None]:
    """A program: the resource group, the vault `kv-gpu` and the secret `token` (default name `hf-token`)
    in the vault named `secret_vault` (default: `kv-gpu`)."""

    def build(rg: Any) -> None:
        from pulumi_azure_native import keyvault

        options = dict(secret)  # each run reads its own copy: a program built once may run more than once

        keyvault.Vault(
            "kv",
            vault_name="kv-gpu",
            resource_group_name=rg.name,
            location="eastus",
            properties=keyvault.VaultPropertiesArgs(
                tenant_id="00000000-0000-0000-0000-0000000000bb", sku=keyvault.SkuArgs(family="A", name="standard")
            ),
        )
        keyvault.Secret(
            "token",
            secret_name=options.pop("name", "hf-token"),
            vault_name=options.pop("secret_vault", "kv-gpu"),
            resource_group_name=rg.name,
            properties=keyvault.SecretPropertiesArgs(**{"value": "hf_abc", **options}),
        )

    return in_resource_group(build)


def test_secret_in_its_vault_is_accepted_and_its_value_never_returned(record: Callable[..., Recording]) -> None:
    rec = record(vault_with_secret(content_type="text/plain"))

    assert rec.refusals == []
    [secret] = [r for r in rec.arm.resources() if r.type == "Microsoft.KeyVault/vaults/secrets"]
    assert secret.id.endswith("/resourceGroups/rg-test/providers/Microsoft.KeyVault/vaults/kv-gpu/secrets/hf-token")
    properties = secret.outputs["properties"]
    assert "value" not in properties
    assert properties["contentType"] == "text/plain"
    assert properties["secretUri"] == "https://kv-gpu.vault.azure.net/secrets/hf-token"


@pytest.mark.parametrize(
    ("program", "code", "message"),
    [
        (
            vault_with_secret(secret_vault="kv-other"),
            "ParentResourceNotFound",
            "Can not perform requested operation on nested resource. Parent resource 'kv-other' not found (vaults).",
        ),
        (
            vault_with_secret(name="hf_token"),
            "InvalidParameter",
            "'hf_token' is not a valid key vault secret name; allowed: 1 to 127 letters, digits and '-'.",
        ),
        (
            vault_with_secret(value="x" * (25 * 1024 + 1)),
            "InvalidParameter",
            "Key vault secret 'hf-token': the value is 25601 bytes; allowed: at most 25600.",
        ),
        (
            vault_with_secret(content_type="t" * 256),
            "InvalidParameter",
            "Key vault secret 'hf-token': contentType is 256 characters; allowed: at most 255.",
        ),
    ],
    ids=["missing-vault", "underscore-name", "value-over-25k", "content-type-over-255"],
)
def test_secret_azure_refuses(
    record: Callable[..., Recording], program: Callable[[], None], code: str, message: str
) -> None:
    rec = record(program)

    assert [(r.resource, r.code, r.message) for r in rec.refusals] == [("token", code, message)]
