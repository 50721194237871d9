"""disallow-internet-ssh-rdp: no network security rule opens SSH or RDP to the whole internet.

Rule: an inbound Allow rule (in a `network:NetworkSecurityGroup`'s `securityRules`, or a standalone
`network:SecurityRule`) whose source is any address (`*`, `Any`, `0.0.0.0/0`, `::/0`, `Internet`:
`policies/nsg_rules.py`) and whose destination ports include one of `ports` (default 22 and 3389) is
a violation. Unknown values are judged after deployment, not guessed.
Why: internet-wide SSH and RDP are scanned and brute-forced within minutes of a VM appearing; GPU VMs
are a prized target for crypto-mining.
Azure doc: https://learn.microsoft.com/azure/virtual-network/network-security-groups-overview
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, ReportViolation, ResourceValidationArgs, ResourceValidationPolicy, Severity

from . import config
from .nsg_rules import open_to_internet

NAME = "disallow-internet-ssh-rdp"
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
    for rule in open_to_internet(args.resource_type, args.props, args.name):
        opened = [p for p in ports if rule.covers(p)]
        if opened:
            services = ", ".join(f"{PORT_NAMES.get(p, 'port')} ({p})" for p in opened)
            report_violation(
                f"rule '{rule.name}' allows {services} from any internet address; allow only known ranges "
                "(e.g. 203.0.113.0/24) or reach the VMs through Azure Bastion or a VPN.",
                None,
            )


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
