"""The collector's view of the heap around a program run (azure_gpu_stacks.engine.run.heap)."""

from __future__ import annotations

import gc
import weakref

from azure_gpu_stacks.engine.run import heap


class Cycle:
    """Garbage only a full collection frees: it refers to itself."""

    def __init__(self) -> None:
        self.me = self


def test_heap_a_run_collects_only_what_it_made_and_thaws_after() -> None:
    before = Cycle()
    seen_before = weakref.ref(before)
    del before

    with heap.only_new_objects_collectable():
        during = Cycle()
        seen_during = weakref.ref(during)
        del during
        gc.collect()
        assert seen_during() is None  # made in the block: collected
        assert seen_before() is not None  # there before it: left alone while the block lasts

    gc.collect()
    assert seen_before() is None  # thawed: collectable again
    assert gc.get_freeze_count() == 0


def test_heap_a_callers_freeze_outlives_the_run() -> None:
    heap.freeze()
    try:
        with heap.only_new_objects_collectable():
            pass
        assert gc.get_freeze_count() > 0  # a forked child's or a parallel check's freeze is kept
    finally:
        heap.unfreeze()
