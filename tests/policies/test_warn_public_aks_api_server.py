"""warn-public-aks-api-server: from a public cluster whose API server admits listed ranges only, one change
per test."""

from __future__ import annotations

from typing import Any

import pytest
from azure_gpu_stacks.sdk.internals import UNKNOWN_STRING_VALUE

from tests.policy_helpers import Res, found

POLICY = "warn-public-aks-api-server"
CLUSTER = "azure-native:containerservice:ManagedCluster"
COMPLIANT_PROFILE = {"authorizedIPRanges": ["73.140.245.0/24"]}


def reachable(why: str) -> str:
    return (
        f"the cluster's Kubernetes API server is reachable from the whole internet ({why}); list the public ranges "
        "you administer it from in apiServerAccessProfile.authorizedIPRanges (aksGpuPool.apiServerAuthorizedIpRanges), "
        "e.g. 73.140.245.0/24."
    )


NOT_LIMITED = reachable("no apiServerAccessProfile.authorizedIPRanges and it is not private")


def cluster(name: str, profile: Any) -> Res:
    props: dict[str, Any] = {"resourceName": name, "dnsPrefix": name}
    if profile is not None:
        props["apiServerAccessProfile"] = profile
    return Res(CLUSTER, name, props)


@pytest.mark.parametrize(
    "profile",
    [COMPLIANT_PROFILE, {"authorizedIPRanges": ["0.0.0.0/32"]}, {"enablePrivateCluster": True}],
    ids=["ranges", "outbound-only", "private"],
)
def test_passes_a_cluster_reachable_from_listed_ranges_only(profile: dict[str, Any]) -> None:
    assert found([cluster("pass_cluster", profile)], POLICY) == []


@pytest.mark.parametrize(
    ("profile", "message"),
    [
        (None, NOT_LIMITED),
        ({"authorizedIPRanges": []}, NOT_LIMITED),
        (
            {"authorizedIPRanges": [*COMPLIANT_PROFILE["authorizedIPRanges"], "0.0.0.0/0"]},
            reachable("authorizedIPRanges lists 0.0.0.0/0, which is every address"),
        ),
    ],
    ids=["no-profile", "no-ranges", "every-address"],
)
def test_warns_about_an_open_api_server(profile: Any, message: str) -> None:
    assert found([cluster("fail_cluster", profile)], POLICY) == [("advisory", "fail_cluster", message)]


@pytest.mark.parametrize(
    "profile",
    [{"authorizedIPRanges": [UNKNOWN_STRING_VALUE]}, {"enablePrivateCluster": UNKNOWN_STRING_VALUE}],
    ids=["unknown-ranges", "unknown-private"],
)
def test_leaves_values_known_only_after_deployment(profile: dict[str, Any]) -> None:
    assert found([cluster("pass_cluster", profile)], POLICY) == []


# --- each range read as a network -------------------------------------------------------------------
# warn-public-aks-api-server reads each authorized range as a network: one written with host bits and a
# zero-length prefix (an office address typed with /0) is still every address, and an entry that is no
# address at all is never called "every address".


@pytest.mark.parametrize("typed", ["203.0.113.7/0", "2001:db8::7/0"], ids=["ipv4", "ipv6"])
def test_an_address_with_a_zero_length_prefix_is_every_address(typed: str) -> None:
    # Learn (api-server-authorized-ip-ranges): ranges are CIDR; a /0 prefix covers every address whatever the
    # host bits written before it
    profile = {"authorizedIPRanges": [*COMPLIANT_PROFILE["authorizedIPRanges"], typed]}
    assert found([cluster("fail_cluster", profile)], POLICY) == [
        ("advisory", "fail_cluster", reachable(f"authorizedIPRanges lists {typed}, which is every address"))
    ]


def test_every_open_range_is_named() -> None:
    profile = {"authorizedIPRanges": ["0.0.0.0/0", *COMPLIANT_PROFILE["authorizedIPRanges"], "::/0"]}
    assert found([cluster("fail_cluster", profile)], POLICY) == [
        ("advisory", "fail_cluster", reachable("authorizedIPRanges lists 0.0.0.0/0, ::/0, which is every address"))
    ]


def test_an_entry_that_is_no_address_is_not_called_every_address() -> None:
    profile = {"authorizedIPRanges": [*COMPLIANT_PROFILE["authorizedIPRanges"], "office-vpn"]}
    assert found([cluster("pass_cluster", profile)], POLICY) == []
