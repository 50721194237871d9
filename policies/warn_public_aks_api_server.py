"""warn-public-aks-api-server: an AKS cluster's Kubernetes API server is not open to the whole internet.

Rule: a `containerservice:ManagedCluster` is private (`apiServerAccessProfile.enablePrivateCluster:
true`) or lists `apiServerAccessProfile.authorizedIPRanges`; a range that covers every address
(`0.0.0.0/0`, `::/0`) counts as none. Unknown values (known only after deployment) are not judged.
Why: AKS gives the API server a public address that accepts connections from anywhere by default;
Entra ID still authenticates every request, but authorized ranges shrink who can even try.
Azure doc: https://learn.microsoft.com/azure/aks/api-server-authorized-ip-ranges (observed 2026-11-22)
"""

from __future__ import annotations

import ipaddress

from pulumi_policy import EnforcementLevel, ReportViolation, ResourceValidationArgs, ResourceValidationPolicy, Severity

from ..catalog.shapes import canonical_type
from . import config
from .values import UNKNOWN, elements, flag, get, text

NAME = "warn-public-aks-api-server"
CLUSTER = "azure-native:containerservice:ManagedCluster"
CONFIG = config.schema({})


def _every_address(value: str) -> bool:
    try:
        return ipaddress.ip_network(value, strict=False).prefixlen == 0
    except ValueError:
        return False


def validate(args: ResourceValidationArgs, report_violation: ReportViolation) -> None:
    if canonical_type(args.resource_type) != CLUSTER:
        return
    profile = get(args.props, "apiServerAccessProfile")
    if profile is UNKNOWN:
        return
    private = get(profile, "enablePrivateCluster")
    ranges_value = get(profile, "authorizedIPRanges")
    if private is UNKNOWN or flag(private) is True or ranges_value is UNKNOWN:
        return
    items = elements(ranges_value)
    if any(item is UNKNOWN for item in items):
        return
    ranges = [r for item in items if (r := text(item)) is not None]
    open_ranges = [r for r in ranges if _every_address(r)]
    if ranges and not open_ranges:
        return
    found = (
        f"authorizedIPRanges lists {', '.join(open_ranges)}, which is every address"
        if open_ranges
        else ("no apiServerAccessProfile.authorizedIPRanges and it is not private")
    )
    report_violation(
        f"the cluster's Kubernetes API server is reachable from the whole internet ({found}); list the public ranges "
        "you administer it from in apiServerAccessProfile.authorizedIPRanges (aksGpuPool.apiServerAuthorizedIpRanges), "
        "e.g. 73.140.245.0/24.",
        None,
    )


POLICY = ResourceValidationPolicy(
    name=NAME,
    description="AKS API servers should accept connections only from authorized IP ranges.",
    validate=validate,
    enforcement_level=EnforcementLevel.ADVISORY,
    severity=Severity.MEDIUM,
    config_schema=CONFIG,
    remediation_steps=(
        "Set apiServerAccessProfile.authorizedIPRanges to the public IPv4 ranges you administer the cluster from "
        "(the AksGpuPool component's api_server_authorized_ip_ranges; at most 200, 0.0.0.0/32 alone for the "
        "cluster's outbound IP only), include your CI runners' and egress addresses, or make the cluster private."
    ),
    url="https://learn.microsoft.com/azure/aks/api-server-authorized-ip-ranges",
)
