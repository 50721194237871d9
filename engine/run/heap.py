"""What the garbage collector walks: the objects a run makes, not the SDKs loaded before it.

The SDKs' modules are hundreds of thousands of objects that live as long as the process; a full
collection walks them all, and in a forked child it also writes to (and so copies) every page it
touches. Frozen (`gc.freeze`), they are left alone. A count says who holds the heap frozen (the first
hold froze it, the last one released thaws it), because `gc.get_freeze_count()` counts the whole frozen
list: about 40 ms in each plan's child. A hold for good (`freeze_for_good`: a forked child, a test
session after its preload) is never released, so nothing after it thaws what it froze.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

_holds = 0  # callers holding the heap frozen; 0: nothing frozen by this module


def freeze() -> None:
    """Everything alive now is left out of every later collection (forked children inherit this) until the
    matching `unfreeze`. Under another hold, nothing more is frozen: what was made since stays collectable
    (frozen, it could only be thawed with the outer hold's objects)."""
    global _holds
    if _holds == 0:
        gc.freeze()
    _holds += 1


def unfreeze() -> None:
    """Release a `freeze`: the last hold released thaws the heap."""
    global _holds
    _holds -= 1
    if _holds == 0:
        gc.unfreeze()


def freeze_for_good() -> None:
    """Everything alive now is left out of every later collection for the rest of this process: a forked child
    (what it inherited is never collected there, so its pages are never written and copied), or a process whose
    loaded modules live as long as it does (a test session after `parallel.preload`). Never released."""
    global _holds
    gc.freeze()
    _holds += 1


@contextmanager
def only_new_objects_collectable() -> Iterator[None]:
    """What exists before the block is frozen while it lasts, so a collection inside it (or the one
    after a failed program run) walks only what the block made; thawed afterwards. Under a caller's hold
    (a forked child, a parallel check, a test session) the caller's freeze is kept, and what was made
    since it stays collectable."""
    freeze()
    try:
        yield
    finally:
        unfreeze()


@contextmanager
def no_collection() -> Iterator[None]:
    """No automatic collection while it lasts (an explicit `gc.collect()` still collects): for loading modules
    that live as long as the process. The SDKs' imports (`parallel.preload`) made the collector run full
    collections over the growing heap six times, about a second of CPU, to find next to nothing (measured
    2026-11-27). What the block made is collected, or frozen, afterwards."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def leave_to_exit() -> None:
    """No collection from here on, in a forked child that ends with `os._exit` once its work is done: what
    the work made is freed by the exit, so a collection of it is all cost. The program's run turns the
    collector off while it lasts (`program_host.run`) and back on after; the first allocation after that
    walked every object the run made (5.2 million for a program of 2,000 resource groups: 8.6 of the child's
    25 CPU-seconds, measured 2026-11-27). An explicit `gc.collect()` still collects."""
    gc.disable()
