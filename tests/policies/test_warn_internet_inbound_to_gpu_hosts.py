"""warn-internet-inbound-to-gpu-hosts: from a GPU VM beside an NSG that admits a known range, one change per test."""

from __future__ import annotations

from typing import Any

import pytest

from tests.policy_helpers import UNKNOWN, Res, catalog_size, found

POLICY = "warn-internet-inbound-to-gpu-hosts"
NSG = "azure-native:network:NetworkSecurityGroup"
VM = "azure-native:compute:VirtualMachine"
GPU_SIZE = "Standard_NC4as_T4_v3"
CPU_SIZE = "Standard_D4s_v5"
RULE = {
    "name": "jupyter",
    "priority": 200.0,
    "direction": "Inbound",
    "access": "Allow",
    "protocol": "Tcp",
    "sourceAddressPrefix": "203.0.113.0/24",
    "sourcePortRange": "*",
    "destinationAddressPrefix": "*",
    "destinationPortRange": "8888",
}


def vm(size: str = GPU_SIZE) -> Res:
    return Res(VM, "gpu-vm", {"resourceGroupName": "rg", "hardwareProfile": {"vmSize": size}})


def nsg(**changes: Any) -> Res:
    rule = {k: v for k, v in {**RULE, **changes}.items() if v is not ...}
    return Res(NSG, "nsg", {"resourceGroupName": "rg", "securityRules": [rule]})


def opened(ports: str) -> str:
    return (
        f"rule 'jupyter' of 'nsg' admits any internet address on {ports} in a stack with GPU hosts ('gpu-vm'); allow "
        "only known ranges, or reach the service through a VPN, Azure Bastion, a private endpoint or a gateway with "
        "its own rules."
    )


def test_the_sizes_are_what_the_catalog_says() -> None:
    assert catalog_size(GPU_SIZE)["gpus"] > 0
    assert catalog_size(CPU_SIZE)["gpus"] == 0


def test_passes_a_known_source() -> None:
    assert found([vm(), nsg()], POLICY) == []


@pytest.mark.parametrize(
    ("changes", "ports"),
    [
        ({"sourceAddressPrefix": "*"}, "8888"),
        ({"sourceAddressPrefix": "Internet"}, "8888"),
        ({"sourceAddressPrefix": "internet"}, "8888"),
        ({"sourceAddressPrefix": "::/0"}, "8888"),
        ({"sourceAddressPrefix": "0.0.0.0/0", "destinationPortRange": "*"}, "every port"),
        ({"sourceAddressPrefix": ..., "sourceAddressPrefixes": ["10.0.0.0/8", "Any"]}, "8888"),
        (
            {"sourceAddressPrefix": "*", "destinationPortRange": ..., "destinationPortRanges": ["22", "6006"]},
            "22, 6006",
        ),
        ({"sourceAddressPrefix": "*", "destinationPortRange": "20-25"}, "20-25"),
        ({"sourceAddressPrefix": "*", "destinationPortRange": " 8000 - 8999 "}, "8000-8999"),  # named without spaces
    ],
    ids=[
        "star",
        "service-tag",
        "tag-lower-case",
        "ipv6",
        "all-ports",
        "prefix-list",
        "ssh-and-more",
        "range-over-ssh",
        "range-with-spaces",
    ],
)
def test_reports_a_port_open_to_the_internet(changes: dict[str, Any], ports: str) -> None:
    assert found([vm(), nsg(**changes)], POLICY) == [("advisory", "nsg", opened(ports))]


@pytest.mark.parametrize(
    "changes",
    [
        {"sourceAddressPrefix": "*", "destinationPortRange": "22"},
        {"sourceAddressPrefix": "*", "destinationPortRange": ..., "destinationPortRanges": ["22", "3389"]},
        {"sourceAddressPrefix": "*", "access": "Deny"},
        {"sourceAddressPrefix": "*", "direction": "Outbound"},
        {"sourceAddressPrefix": "*", "protocol": "Icmp"},
        {"sourceAddressPrefix": UNKNOWN},
        {"sourceAddressPrefix": "VirtualNetwork"},
    ],
    ids=["ssh-only", "ssh-rdp-only", "deny", "outbound", "icmp", "unknown", "vnet-tag"],
)
def test_leaves_rules_that_admit_no_new_port_from_the_internet(changes: dict[str, Any]) -> None:
    assert found([vm(), nsg(**changes)], POLICY) == []


def test_stacks_without_gpu_hosts_are_not_its_business() -> None:
    assert found([vm(CPU_SIZE), nsg(sourceAddressPrefix="*")], POLICY) == []
    assert found([nsg(sourceAddressPrefix="*")], POLICY) == []


def _hosts(count: int) -> list[Res]:
    return [
        Res(VM, f"gpu-{i}", {"resourceGroupName": "rg", "hardwareProfile": {"vmSize": GPU_SIZE}})
        for i in range(1, count + 1)
    ]


@pytest.mark.parametrize(
    ("count", "named"),
    [
        (3, "'gpu-1', 'gpu-2', 'gpu-3'"),
        (4, "'gpu-1', 'gpu-2', 'gpu-3' and 1 more"),
        (6, "'gpu-1', 'gpu-2', 'gpu-3' and 3 more"),
    ],
)
def test_names_the_first_three_gpu_hosts_and_counts_the_others(count: int, named: str) -> None:
    (violation,) = found([*_hosts(count), nsg(sourceAddressPrefix="*")], POLICY)

    assert f"in a stack with GPU hosts ({named});" in violation[2]


def test_a_rule_after_an_ssh_only_rule_of_the_same_group_is_judged() -> None:
    ssh = {**RULE, "name": "ssh", "priority": 100.0, "sourceAddressPrefix": "*", "destinationPortRange": "22"}
    group = Res(NSG, "nsg", {"resourceGroupName": "rg", "securityRules": [ssh, {**RULE, "sourceAddressPrefix": "*"}]})

    assert found([vm(), group], POLICY) == [("advisory", "nsg", opened("8888"))]


def test_a_standalone_rule_without_a_rule_name_is_named_after_its_resource() -> None:
    props = {k: v for k, v in RULE.items() if k != "name"}
    rule = Res(
        "azure-native:network:SecurityRule",
        "web-rule",
        {**props, "resourceGroupName": "rg", "networkSecurityGroupName": "nsg", "sourceAddressPrefix": "*"},
    )

    ((_, resource, message),) = found([vm(), rule], POLICY)

    assert (resource, message.split(" admits")[0]) == ("web-rule", "rule 'web-rule' of 'web-rule'")
