"""Reading network security rules as Azure applies them: which inbound rules admit the internet, on which ports.

One home for what every NSG policy needs (disallow-internet-ssh-rdp, warn-internet-inbound-to-gpu-hosts):
a rule comes either inline in a `network:NetworkSecurityGroup`'s `securityRules` or as a standalone
`network:SecurityRule`; it admits the internet when it is an inbound Allow rule whose source is any
address. Azure's any-address sources: `*` (and its alias `Any` in the portal), the IPv4 and IPv6
default routes `0.0.0.0/0` and `::/0`, and the `Internet` service tag; Azure compares keywords and tags
without regard to case (Learn, "Network security groups: security rules" and "Virtual network service
tags", https://learn.microsoft.com/azure/virtual-network/network-security-groups-overview and
https://learn.microsoft.com/azure/virtual-network/service-tags-overview, observed 2026-11-26).
Ports are `*`, one port or a `low-high` range (same page). Unknown values are judged after deployment,
not guessed: a rule whose source or ports are unknown admits nothing here.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..catalog.shapes import canonical_type
from .values import UNKNOWN, elements, get, same, text

NSG_TYPE = "azure-native:network:NetworkSecurityGroup"
RULE_TYPE = "azure-native:network:SecurityRule"
ANY_SOURCE = frozenset({"*", "any", "0.0.0.0/0", "0.0.0.0", "::/0", "internet"})
NON_PORT_PROTOCOLS = frozenset({"icmp", "esp", "ah"})
HIGHEST_PORT = 65535


@dataclass(frozen=True)
class OpenRule:
    """An inbound Allow rule that admits any internet address: its name and destination port ranges."""

    name: str
    port_ranges: tuple[str, ...]  # as written, spaces removed: "*", "22", "8000-8999"
    port_based: bool  # False for a protocol without ports (ICMP, ESP, AH): it opens no port

    def covers(self, port: int) -> bool:
        return self.port_based and any(_covers(r, port) for r in self.port_ranges)

    def only_ports(self, ports: frozenset[int]) -> bool:
        """Whether the rule opens nothing but single ports among `ports`."""
        return all(r.isdigit() and int(r) in ports for r in self.port_ranges)


def security_rules(resource_type: str, props: Any) -> list[tuple[str, Any]]:
    """(path, rule) of every security rule a resource declares; [] for other types."""
    kind = canonical_type(resource_type)
    if kind == NSG_TYPE:
        return [(f"securityRules[{i}]", r) for i, r in enumerate(elements(get(props, "securityRules")))]
    if kind == RULE_TYPE:
        return [("", props)]
    return []


def open_to_internet(resource_type: str, props: Any, resource_name: str) -> Iterator[OpenRule]:
    """Each rule of the resource that admits any internet address inbound, named as Azure names it: an inline rule
    by its `name`, a standalone rule by its `securityRuleName`, else by its resource's name (which azure-native
    names it after when the input is left out)."""
    for path, rule in security_rules(resource_type, props):
        opened = _opened(rule)
        if opened is not None:
            name = text(get(rule, "name")) or text(get(rule, "securityRuleName")) or path or resource_name
            yield OpenRule(name, *opened)


def _opened(rule: Any) -> tuple[tuple[str, ...], bool] | None:
    if not same(get(rule, "direction"), "Inbound") or not same(get(rule, "access"), "Allow"):
        return None
    sources = _strings(rule, "sourceAddressPrefix", "sourceAddressPrefixes")
    if sources is None or not any(s.strip().lower() in ANY_SOURCE for s in sources):
        return None
    ranges = _strings(rule, "destinationPortRange", "destinationPortRanges")
    if ranges is None:
        return None
    protocol = text(get(rule, "protocol"))
    port_based = protocol is None or protocol.lower() not in NON_PORT_PROTOCOLS
    return tuple(r.replace(" ", "") for r in ranges), port_based


def _strings(rule: Any, single: str, many: str) -> list[str] | None:
    """The rule's values of a single/plural property pair; None when one is unknown."""
    one, several = get(rule, single), get(rule, many)
    if one is UNKNOWN or several is UNKNOWN:
        return None
    items = elements(several)
    if any(item is UNKNOWN for item in items):
        return None
    return [t for item in [one, *items] if (t := text(item)) is not None]


def _covers(port_range: str, port: int) -> bool:
    if port_range == "*":
        return True
    low, _, high = port_range.partition("-")
    try:
        return int(low) <= port <= int(high or low)
    except ValueError:
        return False
