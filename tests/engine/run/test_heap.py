"""The collector's view of the heap around a program run (azure_gpu_stacks.engine.run.heap)."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest
from azure_gpu_stacks.engine.run import heap


class Cycle:
    """Garbage only a full collection frees: it refers to itself."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def without_the_sessions_freeze(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The heap as a process that never froze it has it (the CLI's own): the test session's freeze
    (tests/conftest.py) lifted for the test, and made again after it."""
    gc.unfreeze()
    monkeypatch.setattr(heap, "_holds", 0)
    try:
        yield
    finally:
        gc.freeze()


@pytest.mark.usefixtures("without_the_sessions_freeze")
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


@pytest.mark.usefixtures("without_the_sessions_freeze")
def test_heap_a_callers_freeze_outlives_the_run() -> None:
    heap.freeze()
    try:
        with heap.only_new_objects_collectable():
            pass
        assert gc.get_freeze_count() > 0  # a parallel check's freeze is kept
    finally:
        heap.unfreeze()
    assert gc.get_freeze_count() == 0


def test_heap_a_freeze_for_good_outlives_every_later_hold_and_leaves_what_came_after_collectable() -> None:
    """This test session froze its preload for good (tests/conftest.py), as a forked child freezes what it
    inherited: a program run in-process and a parallel check inside it neither thaw it nor freeze for good what
    was made since (a cycle made after it is still collected)."""
    assert gc.get_freeze_count() > 0  # the session's preload
    frozen_for_good = Cycle()
    seen_frozen = weakref.ref(frozen_for_good)
    heap.freeze_for_good()  # as the session did (one more hold, never released)
    del frozen_for_good
    made_after = Cycle()
    seen_after = weakref.ref(made_after)
    del made_after

    with heap.only_new_objects_collectable():  # a program run in this process
        pass
    heap.freeze()  # a parallel check's hold, released
    heap.unfreeze()
    gc.collect()

    assert seen_frozen() is not None  # still frozen: nothing thawed it
    assert seen_after() is None  # not frozen by the holds after it


def test_heap_no_collection_runs_while_modules_are_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The SDKs' imports made the collector walk the growing heap in six full collections (about a second of
    a test worker's or a check's start) to find next to nothing."""
    from azure_gpu_stacks.engine.run import parallel

    collections: list[int] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append(info["generation"])

    gc.callbacks.append(seen)
    try:
        with heap.no_collection():
            made = [Cycle() for _ in range(10 * gc.get_threshold()[0])]  # ten times what starts a collection
            with heap.no_collection():
                pass
            assert not gc.isenabled()  # an inner block leaves the outer one's say
            during = list(collections)
        assert gc.isenabled()
    finally:
        gc.callbacks.remove(seen)
    assert during == [] and len(made) > 0

    enabled_while_loading: list[bool] = []
    monkeypatch.setattr(parallel, "_load_what_plans_need", lambda: enabled_while_loading.append(gc.isenabled()))
    parallel.preload()
    assert enabled_while_loading == [False]
    assert gc.isenabled()
