"""Plan many stacks on every core: `gpu-stacks check --jobs N` and `cost --jobs N`.

Most of an offline plan's fixed cost is importing pulumi and the azure-native modules (seconds),
and most of its variable cost is Pulumi's runtime evaluating the program (pure Python, one core).
So the parent loads every module a plan needs, plans the first stack itself (an error in the first
stack named is the one reported), and only then forks its workers: each starts with the imports
done, shares their memory copy-on-write, and plans whole stacks. A plan is a picklable `Plan`;
results come back in the order the stacks were named, so the output is byte-for-byte the serial
output. `fork` is Linux's default start method and the only one that inherits the loaded modules;
where it is unavailable (macOS, Windows) plans run serially.

Each program runs in its own child process forked from the parent or the worker
(`azure_gpu_stacks.engine.run.isolation`), so nothing of one stack leaks into the next. Workers ignore
Ctrl-C: the parent is interrupted, ends the pool, and each program's child dies with its worker.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from azure_gpu_stacks.engine.run import heap

if TYPE_CHECKING:
    from azure_gpu_stacks.engine.run.isolation import Limits
    from azure_gpu_stacks.engine.run.plan import Plan, ReferenceFiles
    from azure_gpu_stacks.engine.run.policy_config import PolicySettings
    from azure_gpu_stacks.engine.run.project import Project

T = TypeVar("T")
R = TypeVar("R")

# Classes a plan may load besides the azure-native resources the fake ARM knows (those are read from
# `azure_gpu_stacks.fakeazure.models.RESOURCE_TYPES`): loaded before the fork so each worker does not load them again.
# Only speed depends on this list; a class missing from it is loaded by the worker that needs it.
PRELOAD_EXTRA = (
    "pulumi_azure_native.authorization:get_client_config_output",
    "pulumi_kubernetes:Provider",
    "pulumi_kubernetes.core.v1:Namespace",
    "pulumi_kubernetes.apps.v1:DaemonSet",
)

# What forked workers run: set in the parent just before the fork, inherited by the workers (so the
# task, its project and policy settings are not pickled once per item).
_job: tuple[Callable[[Any], Any], Sequence[Any]] | None = None


def default_jobs() -> int:
    """One worker per core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def plan_stacks(
    project: Project,
    names: Sequence[str],
    reference: ReferenceFiles,
    policy_settings: Mapping[str, PolicySettings] | None,
    jobs: int,
    progress: Callable[[str], None] = lambda _: None,
    limits: Limits | None = None,
) -> list[Plan]:
    """A plan per stack, in the order named; raises the first stack's (in that order) InputError."""
    from azure_gpu_stacks.engine.run.plan import plan_stack

    def plan(name: str) -> Plan:
        return plan_stack(project, name, reference, policy_settings=policy_settings, limits=limits)

    return run_forked(plan, names, jobs, progress, str)


def run_forked(
    task: Callable[[T], R],
    items: Sequence[T],
    jobs: int,
    progress: Callable[[str], None] = lambda _: None,
    describe: Callable[[T], str] = str,
) -> list[R]:
    """`task(item)` for each item, in order: the first in this process, the rest in up to `jobs`
    workers forked after it, all after the modules a plan needs are loaded (each program runs in a
    child forked from here or from a worker). Raises the first (in order) exception."""
    return list(_run(task, items, jobs, progress, describe))


def _run(
    task: Callable[[T], R],
    items: Sequence[T],
    jobs: int,
    progress: Callable[[str], None],
    describe: Callable[[T], str],
) -> Iterator[R]:
    total = len(items)
    rest = list(items[1:])
    workers = min(jobs, len(rest))
    serial = workers <= 1 or "fork" not in multiprocessing.get_all_start_methods()
    global _job
    _job = (task, rest)
    if rest:
        # Each program runs in a child forked from here (and workers are forked from here): loaded
        # once now, the modules are inherited by every one of them instead of loaded by each.
        preload()
        # The SDK's modules are hundreds of thousands of objects that live as long as the process; every
        # full collection walked them all, about half of each later plan's time. Frozen, they are never
        # walked again, and forked children do not write to (and so copy) the inherited heap either.
        heap.freeze()
    try:
        for index, item in enumerate(items[:1], 1):
            progress(f"[{index}/{total}] planning {describe(item)}…")
            yield task(item)
        if not rest:
            return
        if serial:
            for index, item in enumerate(rest, 2):
                progress(f"[{index}/{total}] planning {describe(item)}…")
                yield task(item)
            return
        with multiprocessing.get_context("fork").Pool(workers, initializer=_ignore_interrupts) as pool:
            # imap keeps the order named; chunks of one balance stacks of very different sizes.
            for index, result in enumerate(pool.imap(_run_in_worker, range(len(rest)), chunksize=1), 2):
                progress(f"[{index}/{total}] planned {describe(rest[index - 2])}")
                yield result
    finally:
        _job = None
        if rest:
            heap.unfreeze()


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which ends them: one "interrupted", no worker tracebacks;
    and they end with the parent, however it ends."""
    from azure_gpu_stacks.engine.run.isolation import die_with_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()


def preload() -> None:
    """Load every module a plan may need, so that forked workers inherit them rather than load them.
    `make` also runs it once at set-up with bytecode writing on, so those modules are compiled once
    (a program runs with writing off: runtime.program_environment)."""
    from azure_gpu_stacks.components.registry import component_classes
    from azure_gpu_stacks.engine.run.policy_run import pack_policies
    from azure_gpu_stacks.fakeazure.models import RESOURCE_TYPES

    component_classes()
    pack_policies()
    names = [f"pulumi_azure_native.{token.split(':')[1]}:{token.split(':')[2]}" for token in RESOURCE_TYPES]
    for name in [*names, *PRELOAD_EXTRA]:
        module, _, attribute = name.partition(":")
        try:
            getattr(importlib.import_module(module), attribute)
        except (ImportError, AttributeError):  # a type the installed SDK lacks: the plan will say so
            pass


def _run_in_worker(index: int) -> Any:
    assert _job is not None, "workers are forked after the job is set"
    task, items = _job
    return task(items[index])
