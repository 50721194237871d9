"""The cost guardrail on a change: `limit-stack-cost`'s `maxIncreaseUsd` and `maxIncreasePercent`, applied by
`gpu-stacks diff` to each stack's full-scale monthly cost at BASE and in the working tree.

The limits and their level come from the policy config (`--policy-config`, the file `pulumi preview
--policy-pack-config` reads), so one section sets the total limit the pack judges and the increase limits
the diff judges. Mandatory: an increase past a limit fails the diff (exit 1); advisory: it is noted in
every format; disabled: not judged.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pulumi_policy import EnforcementLevel

from ...policies.limit_stack_cost import NAME, POLICY, increase_problems
from ..run.policy_config import PolicySettings


@dataclass(frozen=True)
class CostGuardrail:
    """What a stack's cost increase broke, at the level the team set."""

    level: str = EnforcementLevel.ADVISORY.value
    exceeded: list[str] = field(default_factory=list)

    @property
    def blocks(self) -> bool:
        return bool(self.exceeded) and self.level == EnforcementLevel.MANDATORY.value

    def to_json(self) -> dict[str, Any]:
        return {"policy": NAME, "level": self.level, "exceeded": self.exceeded}


def cost_guardrail(before_usd: float, after_usd: float, settings: Mapping[str, PolicySettings] | None) -> CostGuardrail:
    """The guardrail's verdict on a full-scale monthly cost going from `before_usd` to `after_usd`."""
    own = POLICY.enforcement_level.value if POLICY.enforcement_level else EnforcementLevel.ADVISORY.value
    chosen = (settings or {}).get(NAME)
    level = chosen.level if chosen else own
    if level == EnforcementLevel.DISABLED.value:
        return CostGuardrail(level)
    return CostGuardrail(level, increase_problems(before_usd, after_usd, chosen.properties if chosen else {}))
