"""warn-public-aks-api-server reads each authorized range as a network: one written with host bits and a
zero-length prefix (an office address typed with /0) is still every address, and an entry that is no
address at all is never called "every address"."""

from __future__ import annotations

import pytest

from tests.policies.test_warn_public_aks_api_server import COMPLIANT_PROFILE, POLICY, cluster, reachable
from tests.policy_helpers import found


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
