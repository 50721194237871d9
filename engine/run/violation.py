"""One policy violation, as the pack reported it: decoded once from the analyzer's diagnostic
(`azure_gpu_stacks.engine.run.policy_run`), read by every report, turned into JSON only at the edge."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MANDATORY = "mandatory"
STACK_RESOURCE = "(stack)"  # what a violation of a stack policy names as its resource


@dataclass(frozen=True)
class Violation:
    policy: str
    level: str  # the enforcement level: "mandatory", "advisory", "remediate" or "disabled"
    severity: str  # "low", "medium", "high", "critical" or "unspecified"
    resource: str  # the resource's logical name; STACK_RESOURCE for a stack policy
    type: str  # the resource's type token; "" for a stack policy
    urn: str
    message: str  # the policy's message, without the description the engine puts before it
    description: str

    @property
    def mandatory(self) -> bool:
        """Whether it stops the stack (exit code 1)."""
        return self.level == MANDATORY

    def to_json(self) -> dict[str, Any]:
        return {
            "policy": self.policy,
            "level": self.level,
            "severity": self.severity,
            "resource": self.resource,
            "type": self.type,
            "urn": self.urn,
            "message": self.message,
            "description": self.description,
        }
