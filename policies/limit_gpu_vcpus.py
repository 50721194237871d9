"""limit-gpu-vcpus: a team's GPU vCPUs stay within the share of quota the platform team gives it.

Rule: the GPU vCPUs a stack asks for at full scale (each pool billed by a GPU VM size: its vCPUs times
its nodes at full scale, as `gpu-stacks quota` counts them: `catalog.demand`) are compared with
`maxGpuVcpusPerStack`, and those of each team (the value of the `teamTag` tag on each resource; an AKS
pool inline in its cluster takes the cluster's tags) with that team's entry in `maxGpuVcpusPerTeam`.
Both caps are off until configured (0 and {}). Spot and low-priority nodes count too: they draw on a
quota of their own, but the cap is the team's share of GPUs, whatever they are billed at.
Why: a subscription's GPU quota is shared by every team in it (per region and VM family:
https://learn.microsoft.com/azure/quotas/per-vm-quota-requests, observed 2026-11-26); one stack that
asks for all of it leaves the others' deployments to fail with QuotaExceeded. A cap per team, checked
in the pull request, turns that into a review conversation instead of an outage.
Peers: neither checkov nor PSRule for Azure has a quota or capacity rule (observed 2026-11-26).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from pulumi_policy import EnforcementLevel, ReportViolation, Severity, StackValidationArgs, StackValidationPolicy

from ..catalog.demand import collect
from ..catalog.model import catalog
from . import config
from .stack_resources import resource_inputs
from .values import get, text

NAME = "limit-gpu-vcpus"
NO_TEAM = "(no team tag)"

CONFIG = config.schema(
    {
        "maxGpuVcpusPerStack": {
            "type": "integer",
            "minimum": 0,
            "default": 0,
            "description": "Most GPU vCPUs one stack may ask for at full scale; 0: no cap.",
        },
        "teamTag": {
            "type": "string",
            "default": "team",
            "description": "The tag whose value names the team a resource belongs to.",
        },
        "maxGpuVcpusPerTeam": {
            "type": "object",
            "default": {},
            "description": 'Most GPU vCPUs each team may ask for at full scale in one stack, e.g. {"vision": 192}.',
        },
    }
)


def validate(args: StackValidationArgs, report_violation: ReportViolation) -> None:
    values = config.values(args, CONFIG)
    stack_cap = int(values["maxGpuVcpusPerStack"])
    team_caps = _caps(values["maxGpuVcpusPerTeam"])
    if not stack_cap and not team_caps:
        return
    by_team: dict[str, int] = defaultdict(int)
    pools: dict[str, list[str]] = defaultdict(list)
    for resource in args.resources:
        vcpus = _gpu_vcpus(resource)
        if vcpus:
            team = text(get(resource.props, "tags", values["teamTag"])) or NO_TEAM
            by_team[team] += vcpus
            pools[team].append(f"'{resource.name}' {vcpus}")
    total = sum(by_team.values())
    if stack_cap and total > stack_cap:
        every = [p for team in by_team for p in pools[team]]
        report_violation(
            f"the stack asks for {total} GPU vCPUs at full scale ({', '.join(every)}), more than maxGpuVcpusPerStack "
            f"{stack_cap}; lower node counts or sizes, or ask the platform team for a larger share.",
            None,
        )
    for team, vcpus in by_team.items():
        cap = team_caps.get(team)
        if cap is not None and vcpus > cap:
            report_violation(
                f"team '{team}' asks for {vcpus} GPU vCPUs at full scale ({', '.join(pools[team])}), more than its cap "
                f"of {cap} in maxGpuVcpusPerTeam; lower node counts or sizes, or ask the platform team for a "
                "larger share.",
                None,
            )


def _caps(given: Any) -> dict[str, int]:
    """Team caps that are whole numbers of at least 0; anything else in the config is not a cap."""
    if not isinstance(given, Mapping):
        return {}
    return {
        str(team): int(cap)
        for team, cap in given.items()
        if isinstance(cap, (int, float)) and not isinstance(cap, bool) and cap >= 0 and float(cap).is_integer()
    }


def _gpu_vcpus(resource: Any) -> int:
    """GPU vCPUs the resource asks for at full scale (0 for sizes the catalog does not list with GPUs)."""
    total = 0
    for demand in collect([resource_inputs(resource)]):
        entry = catalog().find(demand.size)
        if entry is not None and entry.is_gpu:
            total += entry.vcpus * demand.count
    return total


POLICY = StackValidationPolicy(
    name=NAME,
    description="A stack's, and a team's, GPU vCPUs at full scale stay within the configured caps.",
    validate=validate,
    enforcement_level=EnforcementLevel.ADVISORY,
    severity=Severity.MEDIUM,
    config_schema=CONFIG,
    remediation_steps=(
        "Lower the pools' maximum node counts or pick smaller GPU sizes; or, if the work needs them, raise the cap "
        "in the policy config (maxGpuVcpusPerStack, maxGpuVcpusPerTeam) after the platform team agrees the share."
    ),
    url="https://learn.microsoft.com/azure/quotas/per-vm-quota-requests",
)
