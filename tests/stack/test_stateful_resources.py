"""Resources that hold data survive a mistaken `pulumi destroy` or a replace, and no URN moves.

- Every storage account, key vault and container registry a shipped stack creates is registered
  with `protect` (the engine refuses to delete it until the flag is removed on purpose).
- The URNs of the shipped stacks' resources stay what they are: a renamed component, child or type
  would make `pulumi up` delete the old resource and create a new one (for a protected resource,
  fail), unless the rename carries `aliases`. tests/data/shipped_urns.json holds the URNs; new
  resources may be added freely, but one that disappears fails here with what to do.
  Regenerate the file after adding resources: `UPDATE_URNS=1 python -m pytest tests/stack/test_stateful_resources.py`.
"""

from __future__ import annotations

import json
import os

import pytest
from azure_gpu_stacks.engine.run.plan import Plan

from tests.conftest import REPO

HOLDS_DATA = (
    "azure-native:storage:StorageAccount",
    "azure-native:keyvault:Vault",
    "azure-native:containerregistry:Registry",
)
SHIPPED_URNS = REPO / "tests" / "data" / "shipped_urns.json"


@pytest.fixture
def shipped(shipped_plans: dict[str, Plan]) -> dict[str, list]:
    return {name: plan.resources for name, plan in shipped_plans.items()}


def test_stateful_every_data_resource_is_protected(shipped: dict[str, list]) -> None:
    holding = [(stack, r) for stack, resources in shipped.items() for r in resources if r.type in HOLDS_DATA]

    assert {r.type for _, r in holding} == set(HOLDS_DATA)  # the shipped stacks create each kind (aml-gpu)
    assert [(stack, r.name) for stack, r in holding if not r.protect] == []


def test_stateful_nothing_else_is_protected(shipped: dict[str, list]) -> None:
    """protect is for data: compute that cannot be destroyed would keep billing."""
    assert [r.name for resources in shipped.values() for r in resources if r.protect and r.type not in HOLDS_DATA] == []


def test_stateful_urns_of_shipped_stacks_are_stable(shipped: dict[str, list]) -> None:
    urns = {stack: sorted(r.urn for r in resources) for stack, resources in shipped.items()}
    if os.environ.get("UPDATE_URNS"):
        SHIPPED_URNS.write_text(json.dumps(urns, indent=2) + "\n")
    pinned: dict[str, list[str]] = json.loads(SHIPPED_URNS.read_text())

    gone = {stack: sorted(set(old) - set(urns.get(stack, []))) for stack, old in pinned.items()}
    assert not any(gone.values()), (
        f"resources of shipped stacks would be replaced: {gone}. If a component, a child or a type was "
        "renamed, give the new resource `aliases=[pulumi.Alias(name=<old name>)]` (or `type_=`, `parent=`) "
        "so `pulumi up` keeps it; then regenerate with UPDATE_URNS=1."
    )
