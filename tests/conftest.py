"""Shared test seams: the fake ARM fixture and `record`, which runs Pulumi code under the mock
runtime against the fake ARM and returns what the engine received."""

from __future__ import annotations

import functools
import gc
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import pytest
from azure_gpu_stacks.catalog.clock import utc_today
from azure_gpu_stacks.engine.run.runtime import RecordedResource, RunResult, run_program
from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.fakeazure import fake_arm as new_fake_arm
from azure_gpu_stacks.fakeazure.errors import ArmError

from tests.huge_pages import collapse_into_huge_pages

pytest_plugins = ["azure_gpu_stacks.fakeazure.pytest_plugin"]

REPO = Path(__file__).resolve().parents[1]
# The saved price sources (data/prices/README.md), read here with their own formats so that tests
# take expected prices from the data, not from the refresh script's readers.
SKYPILOT_PRICES = REPO / "data" / "prices" / "skypilot-catalog-v6-azure-vms-098741e-n-series.csv"
KARPENTER_PRICES = REPO / "data" / "prices" / "karpenter-provider-azure-2b431da-pricing-n-series.go.txt"


def karpenter_prices() -> tuple[str, dict[tuple[str, str], float]]:
    """The saved karpenter-provider-azure table: its `generated at` day and (size, region) -> USD/h."""
    text = KARPENTER_PRICES.read_text(encoding="utf-8")
    day = re.search(r"^// generated at (\d{4}-\d{2}-\d{2})T", text, re.M)
    assert day, KARPENTER_PRICES
    prices: dict[tuple[str, str], float] = {}
    region = ""
    for line in text.splitlines():
        if m := re.match(r'\s*initialOnDemandPrices\["(\w+)"\]', line):
            region = m[1]
        elif region and (m := re.match(r'\s*"([^"]+?)\s*":\s*([0-9.]+),', line)):
            prices[(m[1], region)] = float(m[2])
    return day[1], prices


PROJECT = "azure-gpu-stacks"
TEST_RG = "rg-test"
TEST_SSH_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAITestKeyForUnitTestsOnly test@example"
# Another team's raw program: a VM whose size comes from config (default a retired one), no components.
RAW_VM_PROGRAM = """
import pulumi
from pulumi_azure_native import compute, resources

rg = resources.ResourceGroup("rg", resource_group_name="rg-vision", location="eastus")
compute.VirtualMachine(
    "trainer",
    resource_group_name=rg.name,
    hardware_profile=compute.HardwareProfileArgs(vm_size=pulumi.Config().get("size") or "Standard_NC6"),
)
"""


@dataclass
class Recording:
    """What one run registered, with look-ups by type and name."""

    result: RunResult
    arm: FakeArm

    @property
    def resources(self) -> list[RecordedResource]:
        return self.result.resources

    def of_type(self, type_token: str) -> list[RecordedResource]:
        return [r for r in self.resources if r.type == type_token]

    def one(self, type_token: str) -> RecordedResource:
        found = self.of_type(type_token)
        assert len(found) == 1, f"expected one {type_token}, got {[r.name for r in found]}"
        return found[0]

    def inputs(self, type_token: str) -> dict[str, Any]:
        """The single resource's inputs as a policy sees them (secrets unwrapped)."""
        return self.one(type_token).plain_inputs()

    @property
    def outputs(self) -> dict[str, Any]:
        return self.result.outputs

    @property
    def refusals(self) -> list[Any]:
        return self.arm.refusals


def recorded_resource(token: str, name: str, inputs: dict[str, Any], arm_id: str = "") -> RecordedResource:
    """One custom resource as a plan records it, at the top of stack `dev` of project `p` (for the export and
    placement tests, which build recordings by hand)."""
    return RecordedResource(
        urn=f"urn:pulumi:dev::p::{token}::{name}",
        type=token,
        name=name,
        parent=None,
        custom=True,
        protect=False,
        inputs=inputs,
        arm_id=arm_id,
    )


def in_resource_group(build: Callable[[Any], None]) -> Callable[[], None]:
    """A program that creates the test resource group, then calls `build(rg)`."""

    def program() -> None:
        from pulumi_azure_native import resources

        build(resources.ResourceGroup("rg", resource_group_name=TEST_RG, location="eastus"))

    return program


def record_on(
    arm: FakeArm,
    program: Callable[[], None],
    *,
    config: Mapping[str, str] | None = None,
    secret_keys: list[str] | None = None,
    stack: str = "test",
    preview: bool = False,
) -> Recording:
    """What `program` registered, run under the mock runtime against `arm`."""
    result = run_program(
        program,
        project=PROJECT,
        stack=stack,
        config=dict(config or {}),
        secret_keys=list(secret_keys or []),
        arm=arm,
        preview=preview,
    )
    return Recording(result, arm)


@pytest.fixture
def record(fake_arm: FakeArm) -> Callable[..., Recording]:
    """`record(program, config={...}, secret_keys=[...], preview=False)` -> Recording."""
    return functools.partial(record_on, fake_arm)


@contextmanager
def recorded(program: Callable[[], None], **options: Any) -> Iterator[Recording]:
    """`program` recorded once in a fresh fake subscription of its own, for a module fixture whose tests only
    read the recording (each program run costs about 0.2 CPU-seconds: docs/testing.md)."""
    from azure_gpu_stacks.fakeazure.pytest_plugin import TEST_LOCATION  # not at the top: pytest loads it as a plugin

    with new_fake_arm(default_location=TEST_LOCATION) as arm:
        yield record_on(arm, program, **options)


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The distribution's wheel, built once per session from a copy of this checkout (tests/distribution.py)."""
    from tests.distribution import build_wheel

    return build_wheel(tmp_path_factory.mktemp("wheel"))


@pytest.fixture(scope="session")
def third_party(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The test environment's third-party packages, for new virtual environments (tests/distribution.py)."""
    from tests.distribution import third_party_packages

    return third_party_packages(tmp_path_factory.mktemp("packages"))


@pytest.fixture(scope="session", autouse=True)
def modules_a_plan_needs() -> None:
    """What `gpu-stacks check` loads before it forks the plans of several stacks (`parallel.preload`: the
    SDK modules of every resource type the fake knows, the catalog, the policies), loaded once in each
    test process. A command run in-process for one stack loads none of it before it forks, so each of its
    plans loaded it again in its own children: about 2 CPU-seconds a command (docs/testing.md).

    Then frozen for the session (`heap.freeze_for_good`): those modules live as long as the test process, and
    a full collection walked them all again whenever nothing held them frozen (after each in-process check of
    several stacks: about 0.3 CPU-seconds each, docs/testing.md). And moved into huge pages, which the plans and
    workers forked from this process copy the page tables of at a 512th of the cost (tests/huge_pages.py)."""
    from azure_gpu_stacks.engine.run import heap
    from azure_gpu_stacks.engine.run.parallel import preload

    with heap.no_collection():  # frozen before any collection walks it
        preload()
        heap.freeze_for_good()
    collapse_into_huge_pages()


@pytest.fixture(scope="session", autouse=True)
def plans_in_a_lean_process() -> Iterator[None]:
    """The plans this test process makes itself are made by a server forked from its zygote, whose forks copy
    about 210 MB of page tables instead of the 270-430 MB this process holds; made here whenever a patch is active
    (tests/plan_server.py says why and how)."""
    from tests.plan_server import routed

    with routed():
        yield


@pytest.fixture(scope="session")
def shipped_plan_json() -> Callable[[str], dict[str, Any]]:
    """`shipped_plan_json(stack)`: what `gpu-stacks plan STACK --json` prints for a shipped stack, run
    once per test session (per worker under `pytest -n`) for every test that only reads it. Callers
    get their own copy, so one test cannot change what the next reads."""
    import contextlib
    import copy
    import io
    import json

    from azure_gpu_stacks.engine.cli import main

    printed: dict[str, tuple[int, str]] = {}

    def plan_json(stack: str) -> dict[str, Any]:
        if stack not in printed:
            out = io.StringIO()
            with contextlib.redirect_stdout(out):  # capsys is per test; this output is shared
                printed[stack] = (main(["plan", stack, "--json"]), out.getvalue())
        code, text = printed[stack]
        assert code == 0, f"gpu-stacks plan {stack} --json exited {code}"
        return copy.deepcopy(json.loads(text))

    return plan_json


@pytest.fixture(scope="session")
def shipped_plans() -> dict[str, Any]:
    """Every shipped stack's Plan (azure_gpu_stacks.engine.run.plan.plan_stack), planned once per
    test session (per worker under `pytest -n`); plans are frozen, so tests can share them."""
    from azure_gpu_stacks.engine.run.plan import plan_stack
    from azure_gpu_stacks.engine.run.project import load_project

    project = load_project(REPO)
    return {name: plan_stack(project, name, day=utc_today()) for name in project.stacks()}


# Session fixtures that are expensive to build, and the xdist group of the tests that use them:
# `make test` runs `pytest -n auto --dist loadgroup`, which sends a group to one worker, so each is
# built once per run rather than once per worker.
SHARED_FIXTURE_GROUPS = {
    "shipped_plan_json": "shipped-plans",
    "shipped_plans": "shipped-plans",
    "wheel": "wheel",
    "third_party": "wheel",
}


def module_fixture_group(item: pytest.Item) -> str | None:
    """`module:<test module>` when the test uses a module- or class-scoped fixture. A worker builds such a
    fixture for the tests of the module it runs, so tests spread over two workers built it twice (a
    fleet check of 200 stacks, a wheel install: 5-33 s each); one group builds it once."""
    info = getattr(item, "_fixtureinfo", None)
    defs = [d for ds in (info.name2fixturedefs.values() if info else ()) for d in ds]
    if any(d.scope in ("module", "class") for d in defs) and isinstance(item, pytest.Function):
        return f"module:{item.module.__name__}"
    return None


def pytest_configure(config: pytest.Config) -> None:
    """The `xdist_group` marker this file adds is pytest-xdist's; registered here too, so that a run without xdist
    (`-p no:xdist`, `-n 0` aside) is not refused by `--strict-markers` at collection."""
    config.addinivalue_line("markers", "xdist_group(name): tests that share a fixture run on one xdist worker")


@pytest.hookimpl(wrapper=True)
def pytest_collection() -> Iterator[object]:
    """Collection may write bytecode even where PYTHONDONTWRITEBYTECODE is set (this machine and many CI images):
    pytest then keeps each test module with its assertions rewritten in __pycache__ (ignored by git), and the next
    run's workers read it instead of rewriting and compiling 325 modules again (12 -> 6 CPU-s a worker,
    docs/testing.md). Only while collecting: a test's own children inherit the environment, not this flag, and
    the programs that tests plan write nothing beside themselves."""
    import sys

    dont_write = sys.dont_write_bytecode
    sys.dont_write_bytecode = False
    try:
        return (yield)
    finally:
        sys.dont_write_bytecode = dont_write


# tryfirst: xdist's worker hook (xdist.remote) turns the xdist_group markers into the `@group` suffix of
# each test id that --dist loadgroup schedules by; it was registered later than this file and so ran
# first, before these markers existed (with pytest 9.2 the suffix was lost anyway: pyproject.toml).
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        used = getattr(item, "fixturenames", ())
        group = next((g for fixture, g in SHARED_FIXTURE_GROUPS.items() if fixture in used), None)
        if group := group or module_fixture_group(item):
            item.add_marker(pytest.mark.xdist_group(group))
    items.sort(key=slow_files_first)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[object]:
    """After a test file's last test (its module fixtures torn down): collect what the file left, then freeze the
    rest for the session (`heap.freeze_for_good`). What one file keeps (caches, modules imported on first use,
    the SDK's registries) lives as long as the worker; unfrozen, it grew to half a million objects by the end of
    a run, and every full collection walked it again (0.35 CPU-s each: a component refusing its arguments cost
    0.35 s in the suite against 0.006 s alone, docs/testing.md). Frozen, a collection walks one file's objects.
    And what the file added is moved into huge pages with the rest (tests/huge_pages.py, about 5 ms)."""
    result = yield
    if nextitem is None or nextitem.path != item.path:
        from azure_gpu_stacks.engine.run import heap

        gc.collect()
        heap.freeze_for_good()
        _give_back_free_memory()
        collapse_into_huge_pages()
    return result


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    import ctypes

    try:
        return cast(Callable[[int], int], ctypes.CDLL(None).malloc_trim)  # glibc's; absent elsewhere
    except (OSError, AttributeError):
        return None


def _give_back_free_memory() -> None:
    """Return the C heap's free pages to the system (glibc's `malloc_trim`), about 3 ms: what a file freed stayed
    resident, and every later fork of this worker (two per in-process plan) copies the page tables of all of it
    (a plan forked from a 206 MB process: 0.10 s of system time, from 472 MB: 0.135 s). Three files that read
    large answers left a worker at 367 MB, trimmed at 280 MB (docs/testing.md)."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


# Files whose tests take tens of seconds each, slowest first (docs/testing.md, "Where the time goes"). Under
# `--dist loadgroup` the groups go out first (most tests first), then every other test in this order: a
# 30-100 s test handed out last keeps one worker busy while the other has nothing left to run.
SLOW_FILES_FIRST = (
    "tests/engine/run/test_plan_scaling.py",
    "tests/engine/run/test_runner_processes.py",
    "tests/engine/run/test_hostile_programs.py",
    "tests/scripts/test_refresh_catalog.py",
    "tests/inputs/test_hostile_paths.py",
)


def slow_files_first(item: pytest.Item) -> int:
    """The sort key: a slow file's place in SLOW_FILES_FIRST, then every other file (sort is stable, so each
    file's tests keep their order and stay together)."""
    path = item.nodeid.split("::", 1)[0]
    return SLOW_FILES_FIRST.index(path) if path in SLOW_FILES_FIRST else len(SLOW_FILES_FIRST)


def arm_with_group(group: str, location: str = "eastus") -> FakeArm:
    """A fake subscription (default region `location`) holding one resource group, `group`, in `location`: where most
    tests of the fake's rules start."""
    arm = FakeArm(default_location=location)
    arm.put("azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": group, "location": location}, "rg")
    return arm


def arm_refusal(put: Callable[[], Any]) -> ArmError:
    """What the fake ARM raised for `put` (which must be refused), for tests to read its code and message."""
    with pytest.raises(ArmError) as caught:
        put()
    return caught.value
