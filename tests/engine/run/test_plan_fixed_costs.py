"""What a process that plans many stacks (`gpu-stacks check`, `--jobs` workers, a test session: each calls
`parallel.preload` first) keeps for every plan it forks, so that each plan's engine process and program child
pay for their stack, not for reading the same tables again (docs/testing.md, "Plans that cost less, second
pass")."""

from __future__ import annotations

import datetime as dt
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.catalog.arm import registry
from azure_gpu_stacks.catalog.charges import charge_prices
from azure_gpu_stacks.catalog.usage import shipped_assumptions
from azure_gpu_stacks.engine.run import parallel
from azure_gpu_stacks.engine.run import plan as plan_module
from azure_gpu_stacks.engine.run.plan import plan_stack
from azure_gpu_stacks.engine.run.project import load_project
from azure_gpu_stacks.engine.run.runtime import RecordedResource
from azure_gpu_stacks.fakeazure import enums
from azure_gpu_stacks.fakeazure.models import RESOURCE_TYPES

from tests.engine.run.test_warm_host import logging_types_read

REPO = Path(__file__).resolve().parents[3]
DAY = dt.date(2026, 11, 27)


def test_the_preload_reads_the_cost_tables_and_every_modeled_types_id_shape() -> None:
    """Each engine process estimated the cost with prices and usage defaults it read again (YAML, parsed in
    Python: a fifth of a shipped stack's engine process), and placed its resources with the provider's path table
    read again (two JSON files)."""
    for cached in (charge_prices, shipped_assumptions, registry.placement):
        cached.cache_clear()  # read again by the preload below (or by the next plan of this process)

    parallel.preload()

    assert charge_prices.cache_info().currsize == 1
    assert shipped_assumptions.cache_info().currsize == 1
    hits = registry.placement.cache_info().hits
    for token in RESOURCE_TYPES:
        registry.placement(token)
    assert registry.placement.cache_info().hits == hits + len(RESOURCE_TYPES)  # none placed here for the first time


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="programs run in forked children on Linux")
def test_a_process_that_plans_again_keeps_the_sdks_reading_of_each_plans_classes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """This test process preloaded (tests/conftest.py), as `check` does: before each `plan_stack` forks, it reads
    the classes the last plan's resources used, so the next program's child reads none of them (each child read
    them again: a third of a shipped stack's program). A command that plans once never reads them."""
    log = tmp_path / "read"
    recording = logging_types_read(log)
    learned: list[list[str]] = []
    read_classes_of = plan_module.read_classes_of

    def learning(resources: Iterable[RecordedResource]) -> None:
        learned.append([r.urn for r in resources])
        read_classes_of(resources)

    monkeypatch.setattr(plan_module, "run_hosted", recording)
    enum_log = tmp_path / "enum tables"
    make_arm, analyze = plan_module.make_arm, plan_module.analyze

    def tables_read(label: str) -> None:  # in the engine process: the enum check's tables read so far
        with enum_log.open("a") as fh:
            fh.write(f"{label} {enums._properties.cache_info().misses}\n")

    def arm_made(*args: Any) -> Any:
        tables_read("start")
        return make_arm(*args)

    def analyzed(*args: Any) -> Any:
        tables_read("end")
        return analyze(*args)

    monkeypatch.setattr(plan_module, "make_arm", arm_made)
    monkeypatch.setattr(plan_module, "analyze", analyzed)
    monkeypatch.setattr(plan_module, "read_classes_of", learning)
    monkeypatch.setattr(plan_module, "_last_resources", ())  # an earlier test's plan, read already
    project = load_project(REPO)

    first = plan_stack(project, "inference-t4", day=DAY)
    second = plan_stack(project, "inference-t4", day=DAY)

    assert parallel.plans_again()
    assert learned == [[r.urn for r in first.resources]]  # the first plan's, read before the second one forked
    read = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(read) == 2 and read[1] == 0, read  # the second program's child read no class again
    (_, first_start), (_, first_end), (_, second_start), (_, second_end) = (
        line.split() for line in enum_log.read_text().splitlines()
    )
    assert int(second_end) - int(second_start) == 0  # nor its engine process an enum table its first plan read
    assert [r.urn for r in first.resources] == [r.urn for r in second.resources]


def _plans_again(_: int) -> bool:
    return parallel.plans_again()


def test_a_worker_forked_for_one_stack_leaves_the_learning_to_its_parent() -> None:
    parallel.preload()

    # the first item is planned in this process, which plans again; each later one in a worker of its own
    assert parallel.run_forked(_plans_again, [1, 2, 3], 2) == [True, False, False]
