"""What planning one stack of several gives: its plan, or the one line saying why it could not be planned.

A command that handles several stacks (`check A B C`, `check` of a project, `check --root`, `cost`) plans
every stack it can and reports each that failed as an entry of its own, in every format, instead of
ending at the first: one team's bad value or crashing program must not blank every other team's report.
A failure's exit code is 2, what a bad input gives a one-stack command, so the command exits with the
worst code of its stacks. A single stack named alone still fails the command as before (one line on
stderr, exit 2).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from ...inputs.files import elided
from ..errors import InputError
from .isolation import Limits
from .plan import Plan, ReferenceFiles
from .project import Project, find_stack

if TYPE_CHECKING:
    from .policy_config import PolicySettings

NOT_PLANNED_EXIT_CODE = 2


@dataclass(frozen=True)
class StackFailure:
    """A stack that could not be planned: `message` is the one line the command would have printed (a long value
    in it elided, as the CLI's error line elides it)."""

    project: str
    stack: str
    stack_file: str
    message: str

    @property
    def exit_code(self) -> int:
        return NOT_PLANNED_EXIT_CODE

    def to_json(self) -> dict[str, Any]:
        return {
            "project": self.project,
            "stack": self.stack,
            "stackFile": self.stack_file,
            "error": self.message,
            "exitCode": self.exit_code,
        }


Outcome: TypeAlias = Plan | StackFailure


def plans_of(outcomes: list[Outcome]) -> list[Plan]:
    return [o for o in outcomes if isinstance(o, Plan)]


def plan_outcomes(
    project: Project,
    names: Sequence[str],
    reference: ReferenceFiles,
    policy_settings: Mapping[str, PolicySettings] | None,
    jobs: int,
    progress: Callable[[str], None] = lambda _: None,
    limits: Limits | None = None,
    *,
    day: dt.date,
) -> list[Outcome]:
    """A plan or a failure per stack, each judged on the run's `day`, in the order named, on `jobs` workers
    (`parallel.run_forked`). The files every
    stack reads (`--usage`, `--skus`, `--existing`...) are the command's input: one that cannot be read fails
    the command, once, before any stack is planned."""
    from .parallel import run_forked
    from .plan import check_reference_files, plan_stack
    from .sdk_types import read_classes_of

    check_reference_files(reference)

    def plan(name: str) -> Outcome:
        try:
            return plan_stack(project, name, reference, day=day, policy_settings=policy_settings, limits=limits)
        except InputError as exc:  # plan_stack masked the stack file's declared secrets in it
            stack, stack_file = named(project, name)
            return StackFailure(project.name, stack, stack_file, elided(str(exc)))

    def died(name: str, why: str) -> Outcome:  # a worker killed, crashed or past its deadline: that stack's failure
        stack, stack_file = named(project, name)
        return StackFailure(project.name, stack, stack_file, why)

    def learn(outcome: Outcome) -> None:  # the SDK's reading of a plan's classes, for the programs forked later
        if isinstance(outcome, Plan):
            read_classes_of(outcome.resources)

    timeout_s = (limits or Limits()).timeout_s
    return run_forked(plan, names, jobs, progress, str, failed=died, timeout_s=timeout_s, learn=learn)


def named(project: Project, given: str) -> tuple[str, str]:
    """(stack name, stack file relative to the project) of a stack given by name or path; the name as given and
    no file when it matches none."""
    try:
        stack, path = find_stack(project, given)
    except InputError:
        return given, ""
    return stack, project.relative(path)
