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
given, written out (the project as loaded, the reference files with their contents, the day, the policy
settings, the limits, preview) and the deployer the environment says (`deployer_type`); a plan that raises is
not kept. Tests that change what a plan reads in any other way (the catalog, a patched module) must not use it.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO


def _contents(reference: Any) -> list[str]:
    """A digest of each file the reference names: a test may write the same path twice."""
    if reference is None:
        return []
    paths = [reference.usage, reference.aml_usage, reference.skus, *reference.existing]
    paths += list(reference.stack_outputs.values())
    return [
        f"{path}={hashlib.sha256(Path(path).read_bytes()).hexdigest()}" if path and Path(path).is_file() else str(path)
        for path in paths
    ]


def share_plans(monkeypatch: pytest.MonkeyPatch, plans: dict[str, Any], unchanged: tuple[Path, ...] = ()) -> None:
    from azure_gpu_stacks.engine.run import plan as plan_module

    real = plan_module.plan_stack
    kept = [REPO.resolve(), *(Path(d).resolve() for d in unchanged)]

    def shared(project: Any, stack: str, reference: Any = None, **options: Any) -> Any:
        where = [Path(d).resolve() for d in (project.root, project.stack_dir)]
        if not all(any(d.is_relative_to(k) for k in kept) for d in where):
            return real(project, stack, reference, **options)
        key = repr(
            (
                project,
                stack,
                reference,
                _contents(reference),
                sorted(options.items()),
                plan_module.deployer_type(os.environ),
            )
        )
        if key not in plans:
            plans[key] = real(project, stack, reference, **options)
        return plans[key]

    # every module that holds it: the commands import it when they run, engine.estimate.quota and engine.diff.run
    # when they are imported (here, first: imported while it is patched, one would keep `shared` for good)
    importlib.import_module("azure_gpu_stacks.engine.estimate.quota")
    importlib.import_module("azure_gpu_stacks.engine.diff.run")
    holders = [m for name, m in list(sys.modules.items()) if name.startswith("azure_gpu_stacks.") and m is not None]
    for module in holders:
        if getattr(module, "plan_stack", None) is real:
            monkeypatch.setattr(module, "plan_stack", shared)


@contextlib.contextmanager
def plans_shared(unchanged: tuple[Path, ...] = ()) -> Iterator[dict[str, Any]]:
    """`share_plans` for as long as the block runs; yields the plans kept (a test may clear them)."""
    plans: dict[str, Any] = {}
    with pytest.MonkeyPatch.context() as patch:
        share_plans(patch, plans, unchanged)
        yield plans
