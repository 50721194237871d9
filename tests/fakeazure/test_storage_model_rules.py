"""A storage account as the fake ARM judges and answers it (fakeazure/models/storage.py), in-process
(`FakeArm().put`), no plan.

Expected values are Azure's, observed 2026-11-27: the REST spec's example StorageAccountCreate (Azure/azure-rest-api-
specs, specification/storage/resource-manager/Microsoft.Storage/stable/2024-01-01/examples/StorageAccountCreate.json):
the request (tests/data/azure-specs) and its answer for account `sto4445` (`primaryEndpoints` blob, dfs, file, queue,
table and web under `https://sto4445.<service>.core.windows.net/`, `statusOfPrimary` "available", `provisioningState`
"Succeeded"); ARM's AccountNameInvalid wording, quoted in pulumi/pulumi-azure-native#3665; the spec's required
`sku` and `kind` (catalog/arm/constraints.json).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from azure_gpu_stacks.catalog.arm.bodies import from_arm_body
from azure_gpu_stacks.fakeazure import FakeArm

from tests.conftest import REPO, arm_refusal, arm_with_group

ACCOUNT = "azure-native:storage:StorageAccount"
SPECS = REPO / "tests" / "data" / "azure-specs" / "storage"
RG = "res9101"


def _example() -> dict[str, Any]:
    for path in SPECS.rglob("examples.json"):
        for found in json.loads(path.read_text(encoding="utf-8"))["examples"]:
            if found["title"] == "StorageAccountCreate":
                return from_arm_body(ACCOUNT, found["body"])
    raise LookupError("StorageAccountCreate")


@pytest.fixture
def arm() -> FakeArm:
    return arm_with_group(RG)


def account(**changes: Any) -> dict[str, Any]:
    props = {**_example(), "resourceGroupName": RG, "accountName": "sto4445", **changes}
    return {k: v for k, v in props.items() if v is not None}


def test_the_spec_example_answers_azures_endpoints_and_status(arm: FakeArm) -> None:
    outputs = arm.put(ACCOUNT, "st", account(), "st").outputs

    endpoints = outputs["primaryEndpoints"]
    assert {k: endpoints[k] for k in ("blob", "dfs", "file", "queue", "table")} == {
        "blob": "https://sto4445.blob.core.windows.net/",
        "dfs": "https://sto4445.dfs.core.windows.net/",
        "file": "https://sto4445.file.core.windows.net/",
        "queue": "https://sto4445.queue.core.windows.net/",
        "table": "https://sto4445.table.core.windows.net/",
    }
    # the static website's endpoint: in the example `https://sto4445.web.core.windows.net/`, in a zone Azure picks
    # on Learn's ARM template tutorial (`https://<account>.z19.web.core.windows.net/`)
    assert re.fullmatch(r"https://sto4445\.(z[0-9]+\.)?web\.core\.windows\.net/", endpoints["web"])
    assert (outputs["statusOfPrimary"], outputs["provisioningState"]) == ("available", "Succeeded")


@pytest.mark.parametrize("name", ["Sto4445", "st", "sto-4445", "s" * 25])
def test_a_name_azure_does_not_take_is_refused_in_azures_words(arm: FakeArm, name: str) -> None:
    error = arm_refusal(lambda: arm.put(ACCOUNT, "st", account(accountName=name), "st"))

    assert error.code == "AccountNameInvalid"
    assert error.message == (
        f"{name} is not a valid storage account name. Storage account name must be between 3 and 24 characters in "
        "length and use numbers and lower-case letters only."
    )


@pytest.mark.parametrize(
    "changes", [{"sku": None}, {"sku": {"tier": "Standard"}}, {"kind": None}], ids=["no-sku", "no-sku-name", "no-kind"]
)
def test_an_account_without_a_sku_name_or_kind_is_refused_naming_both(arm: FakeArm, changes: dict[str, Any]) -> None:
    error = arm_refusal(lambda: arm.put(ACCOUNT, "st", account(**changes), "st"))

    assert (error.code, error.message) == ("InvalidParameter", "Storage account 'sto4445' needs sku.name and kind.")
