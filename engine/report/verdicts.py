"""The verdict over several plans: counts per stack and in all, shared by the check formats."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from azure_gpu_stacks.engine.run.plan import Plan


def counts(plan: Plan) -> dict[str, int]:
    return {
        "resources": len(plan.resources),
        "refusals": len(plan.refusals),
        "mandatory": plan.mandatory,
        "advisory": plan.advisory,
    }


def summary(plans: Sequence[Plan]) -> dict[str, Any]:
    """`{"stacks": 2, "failed": ["aks-gpu"], "refusals": 0, "mandatory": 1, "advisory": 3, "exitCode": 1}`."""
    per_stack = [counts(p) for p in plans]
    return {
        "stacks": len(plans),
        "failed": [p.stack for p in plans if p.exit_code != 0],
        "refusals": sum(c["refusals"] for c in per_stack),
        "mandatory": sum(c["mandatory"] for c in per_stack),
        "advisory": sum(c["advisory"] for c in per_stack),
        "exitCode": max((p.exit_code for p in plans), default=0),
    }
