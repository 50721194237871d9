"""Plan many stacks on every core: `gpu-stacks check --jobs N` and `cost --jobs N`.

Most of an offline plan's fixed cost is importing pulumi and the azure-native modules (seconds),
and most of its variable cost is Pulumi's runtime evaluating the program (pure Python, one core).
So the parent loads every module a plan needs, plans the first stack itself (an error in the first
stack named is the one reported), and only then forks a worker per remaining stack, at most `--jobs`
at once: each starts with the imports done, shares their memory copy-on-write, and plans its stack.
A plan is a picklable `Plan`; results come back in the order the stacks were named, so the output
is byte-for-byte the serial output. `fork` is Linux's default start method and the only one that
inherits the loaded modules; where it is unavailable (macOS, Windows) plans run serially. What one plan
teaches the next is kept here too: each result but the last is handed to `learn` in this process (the
SDK's reading of the plan's classes, `engine.run.sdk_types`) before the next child is forked.

No process that forks runs threads: each plan's engine runs in an engine process of its own, forked
from the parent or the worker (`engine.run.plan`, `engine.run.children`), which forks the program's
child and answers it over a socket pair (no thread), or starts a gRPC server only after forking a
program it then executes. There is no pool whose queues or locks a dead worker could hold:
each worker is one child with one pipe, waited on with a deadline; one that dies is that stack's
failure, never a hang. Workers ignore Ctrl-C: the parent is interrupted and ends them, and each
program's child dies with its engine process, which dies with its worker.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import InputError
from . import heap

if TYPE_CHECKING:
    pass

T = TypeVar("T")
R = TypeVar("R")

# Classes (`module:attribute`, or a module alone) a plan may load besides the azure-native resources the fake
# ARM knows (those are read from `azure_gpu_stacks.fakeazure.models.RESOURCE_TYPES`): loaded before the fork so
# each worker does not load them again. Only speed depends on this list; a class missing from it is loaded by
# the worker that needs it.
PRELOAD_EXTRA = (
    "pulumi_azure_native.authorization:get_client_config_output",
    "pulumi_kubernetes:Provider",
    "pulumi_kubernetes.core.v1:Namespace",
    "pulumi_kubernetes.apps.v1:DaemonSet",
    # aks-gpu's GPU operator and DCGM exporter (components.nvidia_gpu_operator, aks_gpu_metrics): a Helm release
    # loads helm.v3 (and with it pulumi_kubernetes.yaml and requests, about 0.2 s) and the modules its aliases
    # and outputs name, and a ServiceMonitor loads apiextensions
    "pulumi_kubernetes.helm.v3:Release",
    "pulumi_kubernetes.apiextensions:CustomResource",
    "pulumi_kubernetes.meta.v1:Status",
    "pulumi_kubernetes.apps.v1beta1",
    "pulumi_kubernetes.apps.v1beta2",
    "pulumi_kubernetes.helm.v4:Chart",
    # gRPC's Python modules that an engine's server imports: the method handlers (the socket pair a forked
    # program talks over uses them too: engine.run.socket_channel) and, for a program executed under another
    # interpreter, the server itself; pure Python, no threads (gRPC's C core starts those on the first server,
    # not on import)
    "grpc._server:create_server",
    "grpc._interceptor:intercept_server",
    "grpc._utilities:RpcMethodHandler",
)


_plans_again = False  # this process forks plan after plan: it preloaded (`preload`), and is no worker of one item


def plans_again() -> bool:
    """Whether this process will fork more plans after the one it is making: it loaded what they need
    (`preload`: `gpu-stacks check` of several stacks, a test session) and is not a worker forked for one item.
    Such a process keeps what each plan teaches the next (`plan.plan_stack`: the SDK's reading of its classes)."""
    return _plans_again


def default_jobs() -> int:
    """One worker per core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run_forked(
    task: Callable[[T], R],
    items: Sequence[T],
    jobs: int,
    progress: Callable[[str], None] = lambda _: None,
    describe: Callable[[T], str] = str,
    *,
    failed: Callable[[T, str], R] | None = None,
    timeout_s: float | None = None,
    learn: Callable[[R], None] = lambda _: None,
) -> list[R]:
    """`task(item)` for each item, in order: the first in this process, each of the rest in a worker
    forked for it (at most `jobs` at once), all after the modules a plan needs are loaded. Raises the
    first (in order) exception `task` raised.

    A worker that dies (killed, os._exit, a crash) or runs past `item_deadline(timeout_s)` (`timeout_s`:
    the run's --timeout, default the program's default) is killed and is that item's failure:
    `failed(item, one_line)` in its place when given, else InputError naming the item.

    `learn(result)` is called here with each result but the last, before the next item's child or worker is
    forked from here (what it keeps, every later child inherits: `engine.run.sdk_types`)."""
    return list(_run(task, items, jobs, progress, describe, failed, item_deadline(timeout_s), learn))


# What a worker may take beyond its program's --timeout (the engine process's own deadline is twice the
# timeout plus its grace, `engine.run.plan`): the worker's own work around the plan (a cache record, a diff side).
WORKER_GRACE_S = 60.0


def item_deadline(timeout_s: float | None) -> float:
    """Seconds a worker may take for one item, for a run whose programs may take `timeout_s` each."""
    from .isolation import DEFAULT_TIMEOUT_S, ENGINE_GRACE_S

    return 2 * (timeout_s or DEFAULT_TIMEOUT_S) + ENGINE_GRACE_S + WORKER_GRACE_S


def _run(
    task: Callable[[T], R],
    items: Sequence[T],
    jobs: int,
    progress: Callable[[str], None],
    describe: Callable[[T], str],
    failed: Callable[[T, str], R] | None,
    deadline_s: float,
    learn: Callable[[R], None],
) -> Iterator[R]:
    total = len(items)
    rest = list(items[1:])
    workers = min(jobs, len(rest))
    serial = workers <= 1 or "fork" not in multiprocessing.get_all_start_methods()
    if rest:
        # Each program runs in a child forked from here (and workers are forked from here): loaded
        # once now, the modules are inherited by every one of them instead of loaded by each.
        with heap.no_collection():  # frozen before any collection walks what the preload loaded
            preload()
            # The SDK's modules are hundreds of thousands of objects that live as long as the process; every
            # full collection walked them all, about half of each later plan's time. Frozen, they are never
            # walked again, and forked children do not write to (and so copy) the inherited heap either.
            heap.freeze()
    try:
        for index, item in enumerate(items if serial else items[:1], 1):
            progress(f"[{index}/{total}] planning {describe(item)}…")
            value = task(item)
            if index < total:  # a later item's program is forked from here
                learn(value)
            yield value
        if serial or not rest:
            return
        for index, (item, outcome) in enumerate(_in_workers(task, rest, workers, deadline_s), 2):
            progress(f"[{index}/{total}] planned {describe(item)}")
            kind, value = outcome
            if kind == "ok":
                if index < total:
                    learn(value)
                yield value
            elif kind == "raised":
                raise value
            elif failed is not None:
                yield failed(item, value)
            else:
                raise InputError(f"{describe(item)}: {value}")
    finally:
        if rest:
            heap.unfreeze()


def _in_workers(
    task: Callable[[T], R], items: list[T], workers: int, deadline_s: float
) -> Iterator[tuple[T, tuple[str, Any]]]:
    """(item, outcome) in the order of `items`: ("ok", value), ("raised", what task raised) or ("died",
    one line). One worker is forked per item, from this process (which runs no threads: the engine's
    server runs in each plan's own engine process), at most `workers` at once; each is killed at its
    deadline, and every one is gone when this generator ends, however it ends."""
    from . import children

    children.install_sigterm_cleanup()
    running: dict[int, children.Call] = {}
    done: dict[int, tuple[str, Any]] = {}
    following = 0  # the next index to hand back
    started = 0
    try:
        while following < len(items):
            while started < len(items) and len(running) < workers:
                item = items[started]
                running[started] = children.start(lambda item=item: _one_item(task, item), deadline_s)  # type: ignore[misc]
                started += 1
            children.wait_any(list(running.values()))
            for index, call in list(running.items()):
                if call.open:
                    continue
                del running[index]
                outcome = call.outcome()
                if outcome is None:
                    label = "the worker"
                    outcome = ("died", children.death(call.status, label, deadline_s))
                done[index] = outcome
            while following in done:
                yield items[following], done.pop(following)
                following += 1
    finally:
        for call in running.values():
            call.close(kill=True)


def _one_item(task: Callable[[T], R], item: T) -> R:
    """`task(item)` in a worker, which plans nothing after it: what the plan teaches is learned by the parent."""
    global _plans_again
    _plans_again = False
    return task(item)


def preload() -> None:
    """Load every module a plan may need, so that forked workers inherit them rather than load them.
    `make` also runs it once at set-up with bytecode writing on, so those modules are compiled once
    (a program runs with writing off: runtime.program_environment). Nothing is collected meanwhile
    (`heap.no_collection`): what it loads lives as long as the process."""
    with heap.no_collection():
        _load_what_plans_need()
    global _plans_again
    _plans_again = True


def _load_what_plans_need() -> None:
    from ...catalog.arm import constraints
    from ...catalog.arm.bodies import arm_type
    from ...catalog.arm.registry import placement
    from ...catalog.charges import charge_prices
    from ...catalog.model import catalog
    from ...catalog.usage import shipped_assumptions
    from ...components.registry import component_classes
    from ...fakeazure import enums
    from ...fakeazure.models import RESOURCE_TYPES
    from .policy_run import pack_policies

    component_classes()
    pack_policies()
    # What a plan reads once and keeps, read here: each plan's engine runs in a process forked from this
    # one (`engine.run.plan`), so what it reads is lost with it; read before the fork, it is inherited.
    # The catalog alone is most of a plan's fixed cost beyond the program (vm_sizes.yaml, parsed).
    catalog()
    # The cost report's prices and usage defaults, read with PyYAML's Python parser (the files are small, the
    # parser slow): about a fifth of a shipped stack's engine process when each plan read them again.
    charge_prices()
    shipped_assumptions()
    for token in RESOURCE_TYPES:  # the fake ARM's per-type tables: ARM's body mapping and id shape (the provider's
        arm_type(token)  # path table, read whole), the spec's constraints, enums
        placement(token)
        constraints.violations(token, {})
        enums.violations(token, {})
    names = [f"pulumi_azure_native.{token.split(':')[1]}:{token.split(':')[2]}" for token in RESOURCE_TYPES]
    for name in [*names, *PRELOAD_EXTRA]:
        module, _, attribute = name.partition(":")
        try:
            loaded = importlib.import_module(module)
            if attribute:
                getattr(loaded, attribute)
        except (ImportError, AttributeError):  # a type the installed SDK lacks: the plan will say so
            pass
