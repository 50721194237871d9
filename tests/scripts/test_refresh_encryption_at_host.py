"""The catalog refresh reads the Resource SKUs API's `EncryptionAtHostSupported` into `encryptionAtHost`, with the
CLI's page as its source and the day the list was saved, and keeps a recorded fact the list confirms as it is."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from azure_gpu_stacks.catalog import load_catalog

from tests.conftest import REPO
from tests.scripts.test_refresh_catalog import A100, NV6, SKUS, T4, apply

LIST_SKUS_DOC = "https://learn.microsoft.com/cli/azure/vm#az-vm-list-skus"
SAVED_ON = dt.date(2026, 12, 1)  # `apply`'s --observed
ND = "Standard_ND96asr_v4"


def skus_saying(tmp_path: Path, capabilities: dict[str, str]) -> Path:
    """tests/data/list-skus.json with `EncryptionAtHostSupported` added to the sizes named."""
    records = json.loads(SKUS.read_text())
    for record in records:
        if record["name"] in capabilities:
            record["capabilities"].append({"name": "EncryptionAtHostSupported", "value": capabilities[record["name"]]})
    path = tmp_path / "skus.json"
    path.write_text(json.dumps(records))
    return path


@pytest.fixture
def catalog_copy(tmp_path: Path) -> Path:
    path = tmp_path / "vm_sizes.yaml"
    path.write_text((REPO / "catalog" / "vm_sizes.yaml").read_text())
    return path


def test_refresh_records_encryption_at_host_where_the_list_says_it_and_keeps_what_it_confirms(
    catalog_copy: Path, tmp_path: Path
) -> None:
    before = load_catalog(catalog_copy)
    assert before.get(T4).encryption_at_host is None  # not in the saved copy the catalog cites
    recorded = before.get(A100).encryption_at_host
    assert recorded is not None and recorded.supported is True
    said = {T4: "True", ND: "False", A100: "True"}

    assert apply(catalog_copy, "--skus", str(skus_saying(tmp_path, said))) == 0

    after = load_catalog(catalog_copy)
    t4, nd = after.get(T4).encryption_at_host, after.get(ND).encryption_at_host
    assert (t4.supported, t4.source, t4.observed) == (True, LIST_SKUS_DOC, SAVED_ON)
    assert (nd.supported, nd.source, nd.observed) == (False, LIST_SKUS_DOC, SAVED_ON)
    assert after.get(A100).encryption_at_host == recorded  # the same value: its source and day are kept
    assert after.get(NV6).encryption_at_host is None  # no such capability in its record: nothing is written
