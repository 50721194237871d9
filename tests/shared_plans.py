"""One plan per stack and arguments for a test file's in-process commands (`main([...])`), when the tests only
read what the command does with the plan: Azure's recorded answers to its template, a report's format, an exit
code decided after planning.

    @pytest.fixture(scope="module", autouse=True)
    def plans() -> Iterator[dict[str, Any]]:
        with plans_shared() as plans:
            yield plans

Module-scoped and autouse, so that the file's module fixtures plan through it too. `engine.run.plan.plan_stack`
is what every command calls; `share_plans` puts in its place, in every module that holds it, one that plans for
real the first time it is asked for a stack of a committed project (one under the repository) or of a project
in `unchanged` (a module fixture's that no test of the file changes), never of a test's temporary copy, and
hands the same Plan, frozen, to each later call with the same arguments. The key is everything plan_stack is
given, written out with its defaults (the project as loaded, the reference files with their contents, the day,
the policy settings, the limits, preview) and the deployer the environment says (`deployer_type`); a plan that
raises is not kept. Tests that change what a plan reads in any other way (the catalog, a patched module) must
not use it.

Two files that plan the same committed projects share a `corpus(name)` for the whole process, in one xdist group
(`pytestmark = pytest.mark.xdist_group(...)`, and no module-scoped fixture, which would give the file a group of
its own): one keeps what its commands plan (`share_plans(monkeypatch, corpus(name))`), the other asks
`plan_once(corpus(name), ...)` instead of calling plan_stack.

A level up, `share_outcomes(patch, store)` answers `engine.run.outcome.plan_outcomes` (what `check`, `cost` and the
other commands that plan several stacks call, and what forks `--jobs` workers) from a module's store when an earlier
command of the module planned the same stacks of the same project with the same reference files, policy settings,
workers, limits and day: plans made in `--jobs` workers, which `share_plans` never sees come back, are kept too.
The progress lines of a shared plan are not said again: a test about progress lines plans its own stacks.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.engine.run import outcome

from tests.conftest import REPO

# Plans kept for the whole test process, by corpus: files that plan the same committed projects (a check of a team's
# stack, its ARM round trip) share them when they run in one process (one xdist group, `pytestmark`).
CORPORA: dict[str, dict[str, Any]] = {}


def corpus(name: str) -> dict[str, Any]:
    """The plans kept for the process under `name`."""
    return CORPORA.setdefault(name, {})


def _contents(reference: Any) -> list[str]:
    """A digest of each file the reference names: a test may write the same path twice."""
    paths = [reference.usage, reference.aml_usage, reference.skus, *reference.existing]
    paths += list(reference.stack_outputs.values())
    return [
        f"{path}={hashlib.sha256(Path(path).read_bytes()).hexdigest()}" if Path(path).is_file() else str(path)
        for path in paths
        if path is not None
    ]


def _key(plan_module: Any, project: Any, stack: str, reference: Any, options: dict[str, Any]) -> str:
    """Everything the plan depends on, with plan_stack's defaults written out (no reference files, the pack's
    settings for the day, the default limits), so that a command that passes them and a test that leaves them out
    ask for the same plan."""
    rest = dict(options)
    day = rest.pop("day")
    policies = list(plan_module.pack_policies())
    given = rest.pop("policy_settings", None)
    settings = plan_module.with_day(
        policies, given if given is not None else plan_module.configure(policies, None), day
    )
    reference = reference or plan_module.ReferenceFiles()
    return repr(
        (
            project,
            stack,
            reference,
            _contents(reference),
            day,
            rest.pop("preview", False),
            sorted(settings.items()),
            rest.pop("limits", None) or plan_module.Limits(),
            sorted(rest.items()),
            plan_module.deployer_type(os.environ),
        )
    )


def _kept(project: Any, unchanged: tuple[Path, ...]) -> bool:
    kept = [REPO.resolve(), *(Path(d).resolve() for d in unchanged)]
    where = [Path(d).resolve() for d in (project.root, project.stack_dir)]
    return all(any(d.is_relative_to(k) for k in kept) for d in where)


def plan_once(
    plans: dict[str, Any],
    project: Any,
    stack: str,
    reference: Any = None,
    *,
    unchanged: tuple[Path, ...] = (),
    **options: Any,
) -> Any:
    """engine.run.plan.plan_stack's Plan, made once per key in `plans` for a committed (or unchanged) project."""
    from azure_gpu_stacks.engine.run import plan as plan_module

    real = _REAL.get("plan_stack") or plan_module.plan_stack
    if not _kept(project, unchanged):
        return real(project, stack, reference, **options)
    key = _key(plan_module, project, stack, reference, options)
    if key not in plans:
        plans[key] = real(project, stack, reference, **options)
    return plans[key]


_REAL: dict[str, Any] = {}


def share_plans(monkeypatch: pytest.MonkeyPatch, plans: dict[str, Any], unchanged: tuple[Path, ...] = ()) -> None:
    from azure_gpu_stacks.engine.run import plan as plan_module

    real = _REAL.setdefault("plan_stack", plan_module.plan_stack)

    def shared(project: Any, stack: str, reference: Any = None, **options: Any) -> Any:
        return plan_once(plans, project, stack, reference, unchanged=unchanged, **options)

    # every module that holds it: the commands import it when they run, engine.estimate.quota and engine.diff.run
    # when they are imported (here, first: imported while it is patched, one would keep `shared` for good)
    importlib.import_module("azure_gpu_stacks.engine.estimate.quota")
    importlib.import_module("azure_gpu_stacks.engine.diff.run")
    holders = [m for name, m in list(sys.modules.items()) if name.startswith("azure_gpu_stacks.") and m is not None]
    for module in holders:
        if getattr(module, "plan_stack", None) is real:
            monkeypatch.setattr(module, "plan_stack", shared)


@contextlib.contextmanager
def plans_shared(unchanged: tuple[Path, ...] = (), plans: dict[str, Any] | None = None) -> Iterator[dict[str, Any]]:
    """`share_plans` for as long as the block runs, keeping them in `plans` (a new dict by default); yields them
    (a test may clear them)."""
    plans = {} if plans is None else plans
    with pytest.MonkeyPatch.context() as patch:
        share_plans(patch, plans, unchanged)
        yield plans


Store = dict[tuple[object, ...], list[Any]]


def share_outcomes(patch: pytest.MonkeyPatch, made: Store) -> None:
    """While `patch` holds, the commands' plans of several stacks come from `made` when there, and are kept there
    when made."""
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
