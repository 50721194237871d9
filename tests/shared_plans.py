"""Plans that a test module's commands share: `check`, `cost` and the other commands that plan several stacks of a
project (`engine.run.outcome.plan_outcomes`) answered from the module's store when an earlier command of the module
planned the same stacks of the same project with the same reference files, policy settings, workers, limits and day.

A plan is about 0.15-0.2 CPU-s of forks (docs/testing.md); a module whose tests each assert on another command's
report of the same stacks plans them once. The plans are frozen dataclasses: nothing a command does to report one
changes it, so the second command reports from the plans it would have made itself. What each command does with
them (its rendering, its totals, its exit code, the failures it names) runs as before. The progress lines of a
shared plan are not said again: a test about progress lines plans its own stacks."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from azure_gpu_stacks.engine.run import outcome

Store = dict[tuple[object, ...], list[Any]]


def share_plans(patch: pytest.MonkeyPatch, made: Store) -> None:
    """While `patch` holds, the commands' plans come from `made` when there, and are kept there when made."""
    real = outcome.plan_outcomes

    def plan_outcomes(
        project: Any,
        names: Sequence[str],
        reference: Any,
        policy_settings: Any,
        jobs: int,
        progress: Callable[[str], None] = lambda _: None,
        limits: Any = None,
        *,
        day: Any,
    ) -> list[Any]:
        key = (project.root, tuple(names), repr(reference), repr(policy_settings), jobs, repr(limits), repr(day))
        if key not in made:
            made[key] = real(project, names, reference, policy_settings, jobs, progress, limits, day=day)
        return made[key]

    patch.setattr(outcome, "plan_outcomes", plan_outcomes)
