"""disallow-internet-ssh-rdp: no network security rule opens SSH or RDP to the whole internet.

Rule: an inbound Allow rule (in a `network:NetworkSecurityGroup`'s `securityRules`, or a standalone
`network:SecurityRule`) whose source is any address (`*`, `0.0.0.0/0`, `::/0`, `Internet`, `Any`) and
whose destination ports include one of `ports` (default 22 and 3389) is a violation. Unknown values
are judged after deployment, not guessed.
Why: internet-wide SSH and RDP are scanned and brute-forced within minutes of a VM appearing; GPU VMs
are a prized target for crypto-mining.
Azure doc: https://learn.microsoft.com/azure/virtual-network/network-security-groups-overview
"""

from __future__ import annotations

from typing import Any

from azure_gpu_stacks.catalog.shapes import canonical_type
from azure_gpu_stacks.policies import config
from azure_gpu_stacks.policies.values import UNKNOWN, elements, get, same, text
from pulumi_policy import EnforcementLevel, ReportViolation, ResourceValidationArgs, ResourceValidationPolicy, Severity

NAME = "disallow-internet-ssh-rdp"
ANY_SOURCE = frozenset({"*", "0.0.0.0/0", "0.0.0.0", "::/0", "internet", "any"})
NON_PORT_PROTOCOLS = frozenset({"icmp", "esp", "ah"})
PORT_NAMES = {22: "SSH", 3389: "RDP"}

CONFIG = config.schema(
    {
        "ports": {
            "type": "array",
            "items": {"type": "integer"},
            "default": [22, 3389],
            "description": "Destination ports that must not be open to the internet.",
        }
    }
)


def validate(args: ResourceValidationArgs, report_violation: ReportViolation) -> None:
    ports = [int(p) for p in config.values(args, CONFIG)["ports"]]
    kind = canonical_type(args.resource_type)
    if kind == "azure-native:network:NetworkSecurityGroup":
        rules = [(f"securityRules[{i}]", r) for i, r in enumerate(elements(get(args.props, "securityRules")))]
    elif kind == "azure-native:network:SecurityRule":
        rules = [("", args.props)]
    else:
        return
    for path, rule in rules:
        opened = _opened(rule, ports)
        if opened:
            name = text(get(rule, "name")) or text(get(rule, "securityRuleName")) or path or "the rule"
            services = ", ".join(f"{PORT_NAMES.get(p, 'port')} ({p})" for p in opened)
            report_violation(
                f"rule '{name}' allows {services} from any internet address; allow only known ranges "
                "(e.g. 203.0.113.0/24) or reach the VMs through Azure Bastion or a VPN.",
                None,
            )


def _opened(rule: Any, ports: list[int]) -> list[int]:
    """The `ports` the rule opens to the internet; [] when it does not, or cannot be known yet."""
    if not same(get(rule, "direction"), "Inbound") or not same(get(rule, "access"), "Allow"):
        return []
    protocol = text(get(rule, "protocol"))
    if protocol is not None and protocol.lower() in NON_PORT_PROTOCOLS:
        return []
    sources = _strings(rule, "sourceAddressPrefix", "sourceAddressPrefixes")
    if sources is None or not any(s.lower() in ANY_SOURCE for s in sources):
        return []
    ranges = _strings(rule, "destinationPortRange", "destinationPortRanges")
    if ranges is None:
        return []
    return [p for p in ports if any(_covers(r, p) for r in ranges)]


def _strings(rule: Any, single: str, many: str) -> list[str] | None:
    """The rule's values of a single/plural property pair; None when one is unknown."""
    one, several = get(rule, single), get(rule, many)
    if one is UNKNOWN or several is UNKNOWN:
        return None
    items = elements(several)
    if any(item is UNKNOWN for item in items):
        return None
    found = [t for item in [one, *items] if (t := text(item)) is not None]
    return found


def _covers(port_range: str, port: int) -> bool:
    value = port_range.replace(" ", "")
    if value == "*":
        return True
    low, _, high = value.partition("-")
    try:
        return int(low) <= port <= int(high or low)
    except ValueError:
        return False


POLICY = ResourceValidationPolicy(
    name=NAME,
    description="Network security rules must not open SSH or RDP to the internet.",
    validate=validate,
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.CRITICAL,
    config_schema=CONFIG,
    remediation_steps=(
        "Replace the any-address source with the ranges that need access (the GpuVm component's sshAllowedCidrs), "
        "or remove the rule and connect through Azure Bastion, a VPN or a jump host in the VNet."
    ),
    url="https://learn.microsoft.com/azure/virtual-network/network-security-groups-overview",
)
