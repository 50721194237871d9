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
