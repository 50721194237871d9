"""warn-unknown-vm-sizes: a size the catalog does not know is advisory, with close matches. From a size the
catalog knows, one change per test; the message is built once (`unknown`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.policy_helpers import UNKNOWN, Res, catalog_entries, found

POLICY = "warn-unknown-vm-sizes"
VM = "azure-native:compute:VirtualMachine"
KNOWN = "Standard_NC4as_T4_v3"
MISSPELT = KNOWN.removesuffix("_v3")


def unknown(written: str, close: str) -> str:
    return (
        f"hardwareProfile.vmSize is '{written}', which the size catalog does not know (did you mean {close}?); "
        "its retirement and GPU cost cannot be checked."
    )


def vm(size: Any, name: str) -> Res:
    return Res(VM, name, {"resourceGroupName": "rg", "hardwareProfile": {"vmSize": size}})


def test_passes_a_size_the_catalog_knows() -> None:
    assert KNOWN in {e["name"] for e in catalog_entries()}
    assert found([vm(KNOWN, "pass_vm")], POLICY) == []


def test_is_advisory_with_close_matches_the_catalog_knows() -> None:
    [(level, resource, message)] = found([vm(MISSPELT, "fail_vm")], POLICY)
    close = message.split("did you mean ", 1)[1].split("?)", 1)[0].split(", ")

    assert (level, resource) == ("advisory", "fail_vm")
    assert close[0] == KNOWN and set(close) <= {e["name"] for e in catalog_entries()}
    assert message == unknown(MISSPELT, ", ".join(close))


def test_can_be_ignored_by_config() -> None:
    config = {POLICY: {"ignoredSizes": [MISSPELT.lower()]}}

    assert found([vm(MISSPELT, "pass_vm")], POLICY, config) == []


def test_ignores_kubernetes_instance_types_of_online_deployments() -> None:
    deployment = Res(
        "azure-native:machinelearningservices:OnlineDeployment",
        "pass_k8s",
        {"properties": {"endpointComputeType": "Kubernetes", "instanceType": MISSPELT}},
    )

    assert found([deployment], POLICY) == []


@pytest.mark.parametrize(
    "size",
    [None, 42.0, True, [MISSPELT], {"name": MISSPELT}, "", UNKNOWN],
    ids=["none", "number", "bool", "list", "dict", "empty", "unknown-sentinel"],
)
def test_passes_missing_odd_and_unknown_values(size: Any) -> None:
    assert found([vm(size, "pass_vm")], POLICY) == []
