"""warn-internet-inbound-to-gpu-hosts: a stack with GPU hosts opens no port to the whole internet.

Rule: in a stack that holds a resource billed by a GPU VM size (`policies.vm_size_lifecycle.classify`),
each inbound Allow rule (an NSG's `securityRules`, or a `network:SecurityRule`) whose source is any
internet address, IPv4 or IPv6 (`*`, `Any`, `0.0.0.0/0`, `::/0` or the `Internet` service tag, in any
case: `policies/nsg_rules.py`) is reported with the ports it opens. A rule that opens only SSH (22)
or RDP (3389) is left to disallow-internet-ssh-rdp, which refuses it.
Why: a GPU host answering the internet on any port (Jupyter on 8888, TensorBoard on 6006, an inference
server on 8000, a metrics exporter on 9400) is found by scanners within hours, and a GPU is a prized
target for crypto-mining. Expose a service through a load balancer or gateway with its own rules, or
reach it over a VPN, Azure Bastion or a private endpoint.
Peers: PSRule for Azure `Azure.NSG.AnyInboundSource` flags inbound Allow rules whose source is `*` only
(PSRule.Rules.Azure rules/Azure.NSG.Rule.ps1, observed 2026-11-26); this rule also reads the `Internet`
tag, the IPv4 and IPv6 default routes and `sourceAddressPrefixes` lists, and keeps to stacks with GPU hosts.
Azure doc: https://learn.microsoft.com/azure/virtual-network/network-security-groups-overview
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, ReportViolation, Severity, StackValidationArgs, StackValidationPolicy

from . import config
from .nsg_rules import open_to_internet
from .vm_size_lifecycle import classify

NAME = "warn-internet-inbound-to-gpu-hosts"
CONFIG = config.schema({})
# What disallow-internet-ssh-rdp refuses by default: a rule opening only these is its finding, not this one's.
SSH_RDP = frozenset({22, 3389})


def validate(args: StackValidationArgs, report_violation: ReportViolation) -> None:
    hosts = [r for r in args.resources if any(v.entry and v.entry.is_gpu for v in classify(r.resource_type, r.props))]
    if not hosts:
        return
    named = ", ".join(f"'{r.name}'" for r in hosts[:3]) + (f" and {len(hosts) - 3} more" if len(hosts) > 3 else "")
    for resource in args.resources:
        for rule in open_to_internet(resource.resource_type, resource.props, resource.name):
            if not rule.port_based or rule.only_ports(SSH_RDP):
                continue
            ports = ", ".join("every port" if r == "*" else r for r in rule.port_ranges)
            report_violation(
                f"rule '{rule.name}' of '{resource.name}' admits any internet address on {ports} in a stack with GPU "
                f"hosts ({named}); allow only known ranges, or reach the service through a VPN, Azure Bastion, a "
                "private endpoint or a gateway with its own rules.",
                resource.urn,
            )


POLICY = StackValidationPolicy(
    name=NAME,
    description="A stack with GPU hosts should open no port to the whole internet.",
    validate=validate,
    enforcement_level=EnforcementLevel.ADVISORY,
    config_schema=CONFIG,
    severity=Severity.HIGH,
    remediation_steps=(
        "Replace the any-address source (`*`, `Any`, `Internet`, `0.0.0.0/0`, `::/0`) with the ranges that need the "
        "service, or remove the rule and reach the service through a VPN, Azure Bastion, a private endpoint or an "
        "application gateway."
    ),
    url="https://learn.microsoft.com/azure/virtual-network/network-security-groups-overview",
)
