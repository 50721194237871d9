"""warn-unknown-vm-sizes: a size the catalog does not know is advisory, with close matches. From a size the
catalog knows, one change per test; the message is built once (`unknown`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.policy_helpers import UNKNOWN, Res, catalog_document, catalog_entries, found

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


UNCONFIRMED = next(e for e in catalog_document()["unconfirmed"] if e["name"] == "Standard_ND96is_H200_v5")
NO_MATCH = "Standard_Q1_v9"  # no size family Q: nothing in the catalog is close


def test_an_unconfirmed_size_is_named_with_why_the_catalog_cannot_confirm_it() -> None:
    assert found([vm(UNCONFIRMED["name"], "fail_vm")], POLICY) == [
        (
            "advisory",
            "fail_vm",
            f"hardwareProfile.vmSize is '{UNCONFIRMED['name']}', which Azure's SKU list offers but the size catalog "
            f"lists as unconfirmed ({UNCONFIRMED['why']}); its retirement and GPU cost cannot be checked.",
        )
    ]


def test_a_size_nothing_is_close_to_is_named_without_a_suggestion() -> None:
    assert found([vm(NO_MATCH, "fail_vm")], POLICY) == [
        (
            "advisory",
            "fail_vm",
            f"hardwareProfile.vmSize is '{NO_MATCH}', which the size catalog does not know; its retirement and GPU "
            "cost cannot be checked.",
        )
    ]


@pytest.mark.parametrize("first", [KNOWN, UNCONFIRMED["name"], UNKNOWN], ids=["known", "unconfirmed", "unknown"])
def test_every_pool_of_a_cluster_is_judged_whatever_comes_before_it(first: str) -> None:
    pools = [{"name": "first", "vmSize": first}, {"name": "gpu", "vmSize": NO_MATCH}]
    cluster = Res(
        "azure-native:containerservice:ManagedCluster", "aks", {"resourceGroupName": "rg", "agentPoolProfiles": pools}
    )

    assert [m.split(" is ")[0] for _, _, m in found([cluster], POLICY)][-1] == "agentPoolProfiles[1].vmSize"
