"""disallow-internet-ssh-rdp: from an NSG rule allowing SSH from a known range, one change per test."""

from __future__ import annotations

from typing import Any

import pytest

from tests.policy_helpers import UNKNOWN, Res, found

POLICY = "disallow-internet-ssh-rdp"
NSG = "azure-native:network:NetworkSecurityGroup"
COMPLIANT_RULE = {
    "name": "allow-ssh-0",
    "priority": 100.0,
    "direction": "Inbound",
    "access": "Allow",
    "protocol": "Tcp",
    "sourceAddressPrefix": "203.0.113.0/24",
    "sourcePortRange": "*",
    "destinationAddressPrefix": "*",
    "destinationPortRange": "22",
}


def open_to_internet(rule: str, ports: str) -> str:
    return (
        f"rule '{rule}' allows {ports} from any internet address; allow only known ranges (e.g. 203.0.113.0/24) "
        "or reach the VMs through Azure Bastion or a VPN."
    )


def nsg(name: str, **rule_changes: Any) -> Res:
    rule = {k: v for k, v in {**COMPLIANT_RULE, **rule_changes}.items() if v is not ...}
    return Res(NSG, name, {"resourceGroupName": "rg", "securityRules": [rule]})


def test_passes_ssh_from_a_known_range() -> None:
    assert found([nsg("pass_nsg")], POLICY) == []


@pytest.mark.parametrize(
    "changes",
    [
        {"sourceAddressPrefix": "*"},
        {"sourceAddressPrefix": "0.0.0.0/0"},
        {"sourceAddressPrefix": "::/0"},
        {"sourceAddressPrefix": "Any"},
        {"sourceAddressPrefix": "internet"},
        {"sourceAddressPrefix": "Internet"},
        {"sourceAddressPrefix": ..., "sourceAddressPrefixes": ["10.0.0.0/8", "any"]},
        {"sourceAddressPrefix": "*", "destinationPortRange": "20-25"},
        {"sourceAddressPrefix": "*", "destinationPortRange": ..., "destinationPortRanges": ["80", "22"]},
        {"sourceAddressPrefix": "*", "protocol": "*", "direction": "inbound", "access": "allow"},
    ],
    ids=[
        "star",
        "zero-cidr",
        "ipv6-default-route",
        "any-keyword",
        "lower-case-tag",
        "service-tag",
        "prefixes",
        "port-range",
        "port-ranges",
        "odd-casing",
    ],
)
def test_refuses_ssh_open_to_any_address(changes: dict[str, Any]) -> None:
    assert found([nsg("fail_nsg", **changes)], POLICY) == [
        ("mandatory", "fail_nsg", open_to_internet("allow-ssh-0", "SSH (22)"))
    ]


def test_refuses_rdp_and_standalone_rules() -> None:
    rule = Res(
        "azure-native:network:SecurityRule",
        "fail_rule",
        {**COMPLIANT_RULE, "name": "rdp", "sourceAddressPrefix": "*", "destinationPortRange": "*"},
    )

    assert found([rule], POLICY) == [("mandatory", "fail_rule", open_to_internet("rdp", "SSH (22), RDP (3389)"))]


def test_a_standalone_rule_without_a_name_input_is_named_by_its_resource_name() -> None:
    # azure-native names a SecurityRule left without securityRuleName after its resource: "rule 'the rule'" before
    rule = {k: v for k, v in COMPLIANT_RULE.items() if k != "name"}
    standalone = Res(
        "azure-native:network:SecurityRule",
        "allow-ssh-anywhere",
        {**rule, "resourceGroupName": "rg", "networkSecurityGroupName": "nsg", "sourceAddressPrefix": "*"},
    )

    assert found([standalone], POLICY) == [
        (
            "mandatory",
            "allow-ssh-anywhere",
            "rule 'allow-ssh-anywhere' allows SSH (22) from any internet address; allow only known ranges "
            "(e.g. 203.0.113.0/24) or reach the VMs through Azure Bastion or a VPN.",
        )
    ]


@pytest.mark.parametrize(
    "changes",
    [
        {"access": "Deny"},
        {"direction": "Outbound"},
        {"protocol": "Icmp"},
        {"destinationPortRange": "443"},
        {"sourceAddressPrefix": UNKNOWN},
        {"destinationPortRange": "2x-25"},  # no port range: ARM refuses the rule, the policy does not guess
    ],
    ids=["deny", "outbound", "icmp", "https", "unknown-source", "not-a-port-range"],
)
def test_passes_rules_that_do_not_open_ssh(changes: dict[str, Any]) -> None:
    # From a rule open to any address, each change closes it (or makes it unknowable before deployment).
    assert found([nsg("pass_nsg", **{"sourceAddressPrefix": "*", **changes})], POLICY) == []


RULE = "azure-native:network:SecurityRule"
OPEN_SSH = {k: v for k, v in {**COMPLIANT_RULE, "sourceAddressPrefix": "*"}.items() if k != "name"}


@pytest.mark.parametrize(
    ("resource", "named"),
    [
        (Res(NSG, "fail_nsg", {"resourceGroupName": "rg", "securityRules": [OPEN_SSH]}), "securityRules[0]"),
        (Res(RULE, "fail_rule", {**OPEN_SSH, "securityRuleName": "allow-ssh"}), "allow-ssh"),
        (
            Res(RULE, "fail_rule", {**OPEN_SSH, "securityRuleName": UNKNOWN}),
            "fail_rule",
        ),  # named at deployment: by its resource name
    ],
    ids=["inline-unnamed", "standalone", "standalone-unnamed"],
)
# an inline rule without a name is named by where it is; a standalone one by its securityRuleName
def test_the_violation_names_the_rule_as_the_program_does(resource: Res, named: str) -> None:
    assert found([resource], POLICY) == [("mandatory", resource.name, open_to_internet(named, "SSH (22)"))]


def test_a_configured_port_without_a_service_name_is_named_as_a_port() -> None:
    # WinRM's 5985 (Learn, "Installation and configuration for Windows Remote Management", observed 2026-11-27)
    config = {POLICY: {"ports": [22, 5985]}}

    assert found([nsg("fail_nsg", sourceAddressPrefix="*", destinationPortRange="*")], POLICY, config) == [
        ("mandatory", "fail_nsg", open_to_internet("allow-ssh-0", "SSH (22), port (5985)"))
    ]
