"""The catalog's encryption-at-host facts: what the saved Resource SKUs copy says, each with its source.

Expected values are read off Azure/karpenter-provider-azure's pkg/fake/zz_generated.sku.southcentralus.go at commit
f4fb1c1d (generated 2025-06-03T21:16:53Z from the Resource SKUs API): `EncryptionAtHostSupported` is "True" for these
six catalog sizes, and the file lists no other size of the catalog.
"""

from __future__ import annotations

from azure_gpu_stacks.catalog import catalog

SOURCE = (
    "https://github.com/Azure/karpenter-provider-azure/blob/f4fb1c1d221908629e0d1c33451d0d5c420e42ff/"
    "pkg/fake/zz_generated.sku.southcentralus.go"
)
SUPPORTED_IN_THE_SAVED_COPY = {
    "Standard_NC16as_T4_v3",
    "Standard_NC24ads_A100_v4",
    "Standard_NC6s_v3",
    "Standard_D2s_v3",
    "Standard_D4s_v3",
    "Standard_DS2_v2",
}


def test_the_catalog_records_encryption_at_host_exactly_where_the_saved_copy_lists_the_size() -> None:
    recorded = {s.name: s.encryption_at_host for s in catalog().sizes if s.encryption_at_host is not None}

    assert set(recorded) == SUPPORTED_IN_THE_SAVED_COPY
    assert {fact.supported for fact in recorded.values()} == {True}
    assert {fact.source for fact in recorded.values()} == {SOURCE}


def test_a_size_the_copy_does_not_list_is_not_recorded_rather_than_guessed_from_its_series() -> None:
    # NC16as_T4_v3 is listed; its series sibling NC4as_T4_v3 is not, and stays unknown.
    assert catalog().get("Standard_NC16as_T4_v3").supports_encryption_at_host is True
    assert catalog().get("Standard_NC4as_T4_v3").supports_encryption_at_host is None
