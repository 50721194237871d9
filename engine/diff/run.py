"""`gpu-stacks diff BASE`: plan every stack at BASE and in the working tree, then compare them.

Both revisions' plans run in this process (or in workers forked from it after the first plan), so
pulumi and pulumi-azure-native are imported once for both. BASE is read from a temporary git
worktree (`azure_gpu_stacks.engine.diff.revision`); the user's checkout is never touched.

Stacks are matched by name. A stack file that disappeared while another appeared with mostly the
same lines (half of them or more, as git's default rename threshold) is a renamed stack
(`pulumi stack rename` keeps its resources; their URNs are compared without the stack name).
"""

from __future__ import annotations

import datetime as dt
import difflib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from ...catalog.az_files import AzFileError, Usage, read_aml_usage, read_usage
from ...inputs.files import InputFileError, read_text
from ..errors import InputError
from ..report.cost import prices_note, unpriced
from ..run.interpreter import at_base
from ..run.isolation import Limits
from ..run.parallel import run_forked
from ..run.plan import LOCATION_KEY, Plan, ReferenceFiles, plan_stack
from ..run.policy_config import PolicySettings
from ..run.project import PROJECT_FILE, Project, find_stack, load_project, load_stack
from .compare import Side, StackDiff, diff_stack
from .revision import (
    Revision,
    base_clock_pinned,
    checkout,
    repository_root,
    resolve,
    toolkit_from,
    toolkit_packages_at,
)

RENAME_SIMILARITY = 0.5

Where = Literal["base", "head"]


@dataclass
class DiffReport:
    base: Revision
    stacks: list[StackDiff] = field(default_factory=list)
    usage_file: str | None = None
    prices: str = "catalog list prices"  # with the oldest price used and its source, over both revisions
    secrets: frozenset[str] = frozenset()  # both revisions' secrets (old and new values), for the CLI to mask

    @property
    def exit_code(self) -> int:
        return 1 if any(s.problems for s in self.stacks) else 0

    @property
    def busy(self) -> float:
        """The change in full-scale cost over every stack, USD a month: the one total every format shows."""
        return sum(s.cost.busy for s in self.stacks)

    @property
    def idle(self) -> float:
        """The change in idle cost over every stack, USD a month."""
        return sum(s.cost.idle for s in self.stacks)


@dataclass(frozen=True)
class _Task:
    where: Where
    stack: str

    def __str__(self) -> str:
        return f"{self.stack} ({'base' if self.where == 'base' else 'working tree'})"


def run_diff(
    project_dir: Path,
    base_name: str,
    names: Sequence[str],
    reference: ReferenceFiles,
    policy_settings: Mapping[str, PolicySettings] | None,
    jobs: int,
    allowed: Sequence[str] = (),
    progress: Callable[[str], None] = lambda _: None,
    limits: Limits | None = None,
    *,
    day: dt.date,
) -> DiffReport:
    """Both revisions of each stack planned on the run's one `day` (the base with its clock pinned to it)."""
    head = load_project(project_dir)
    repo = repository_root(project_dir)
    revision = resolve(repo, base_name)
    usage = _usage(reference.usage, reference.aml_usage)
    with checkout(repo, revision) as tree:
        base = _base_project(head, repo, tree, revision)
        toolkit = toolkit_packages_at(repo, tree)
        pairs = _pairs(base, head, names)
        if not pairs:
            raise InputError(
                f"{head.relative(head.stack_dir) or '.'}/: no stack files to diff, at BASE or in the working tree"
            )
        tasks = [_Task("head", h) for _, h in pairs if h] + [_Task("base", b) for b, _ in pairs if b]

        def plan(task: _Task) -> Side:
            if task.where == "head":
                return _side(head, task.stack, reference, policy_settings, limits, day)
            with toolkit_from(toolkit), base_clock_pinned(day):
                try:
                    return _side(base, task.stack, reference, policy_settings, limits, day)
                except InputError as exc:
                    raise InputError(
                        f"the project does not plan at BASE {revision.name} ({revision.short}): {exc}"
                    ) from None

        planned = run_forked(plan, tasks, jobs, progress, str, timeout_s=(limits or Limits()).timeout_s)
        sides = dict(zip(tasks, planned, strict=True))
    costs = [side.plan.cost for side in sides.values()]
    prices = prices_note(costs)
    if missing := unpriced(costs):
        prices += f"; lower bounds: no price is known for {', '.join(missing)}"
    report = DiffReport(
        revision,
        usage_file=str(reference.usage) if reference.usage else None,
        prices=prices,
        secrets=frozenset(secret for side in sides.values() for secret in side.plan.secret_values),
    )
    for b, h in pairs:
        before = sides[_Task("base", b)] if b else None
        after = sides[_Task("head", h)] if h else None
        text = _stack_text(head.root / after.plan.stack_file) if after else ""
        report.stacks.append(
            diff_stack(
                h or b or "",
                before,
                after,
                allowed=allowed,
                usage=usage,
                stack_file_text=text,
                policy_settings=policy_settings,
            )
        )
    return report


def _stack_text(path: Path) -> str:
    """A stack file's text (for annotations and rename detection), read with the stack file caps."""
    try:
        return read_text(path, "stack")
    except InputFileError as exc:
        raise InputError(str(exc)) from None


def _usage(path: Path | None, aml_path: Path | None = None) -> Mapping[str, Usage] | None:
    """Compute's counters and Azure ML's in one mapping (their names never coincide), or None without either."""
    if path is None and aml_path is None:
        return None
    try:
        return {**(read_usage(path) if path else {}), **(read_aml_usage(aml_path) if aml_path else {})}
    except AzFileError as exc:
        raise InputError(str(exc)) from None


def _base_project(head: Project, repo: Path, tree: Path, revision: Revision) -> Project:
    inside = head.root.resolve().relative_to(repo.resolve())
    root = tree / inside
    where = f"BASE {revision.name} ({revision.short})"
    if not (root / PROJECT_FILE).is_file():
        raise InputError(
            f"{inside / PROJECT_FILE}: not in {where}; the project does not exist there, so there is nothing to compare"
        )
    try:
        return at_base(load_project(root), head)
    except InputError as exc:
        raise InputError(f"the project does not plan at {where}: {exc}") from None


def _side(
    project: Project,
    stack: str,
    reference: ReferenceFiles,
    policy_settings: Mapping[str, PolicySettings] | None,
    limits: Limits | None,
    day: dt.date,
) -> Side:
    plan: Plan = plan_stack(project, stack, reference, day=day, policy_settings=policy_settings, limits=limits)
    return Side(plan, load_stack(project, stack).config.get(LOCATION_KEY))


def _pairs(base: Project, head: Project, names: Sequence[str]) -> list[tuple[str | None, str | None]]:
    """(name at BASE, name in the working tree) per stack, sorted; None where the stack is not there."""
    at_base, at_head = set(base.stacks()), set(head.stacks())
    if names:
        unknown = [n for n in names if n not in at_base | at_head]
        if unknown:
            find_stack(head, unknown[0])  # raises the usual message, naming the known stacks
        at_base &= set(names)
        at_head &= set(names)
    pairs: list[tuple[str | None, str | None]] = [(n, n) for n in at_base & at_head]
    removed, added = sorted(at_base - at_head), sorted(at_head - at_base)
    for old, new in _renamed(base, head, removed, added):
        removed.remove(old)
        added.remove(new)
        pairs.append((old, new))
    pairs += [(n, None) for n in removed] + [(None, n) for n in added]
    return sorted(pairs, key=lambda p: (p[1] or p[0] or ""))


def _renamed(base: Project, head: Project, removed: list[str], added: list[str]) -> list[tuple[str, str]]:
    def text(project: Project, name: str) -> list[str]:
        return _stack_text(find_stack(project, name)[1]).splitlines()

    scored = sorted(
        (
            (difflib.SequenceMatcher(None, text(base, old), text(head, new)).ratio(), old, new)
            for old in removed
            for new in added
        ),
        key=lambda t: (-t[0], t[1], t[2]),
    )
    pairs: list[tuple[str, str]] = []
    for score, old, new in scored:
        if score >= RENAME_SIMILARITY and all(old != o and new != n for o, n in pairs):
            pairs.append((old, new))
    return pairs
