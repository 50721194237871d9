"""What every program's child inherits from the check process it is forked from (issue 41): the modules its
connection to its engine and an engine's first gRPC server load, and the SDK's reading of the classes earlier plans
used, so that a fleet's later stacks pay for their programs, not for a fresh interpreter's first calls. That
the check process still runs one thread at every fork is test_runner_processes.py's."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from azure_gpu_stacks.catalog.clock import utc_today
from azure_gpu_stacks.engine.run import children, isolation, monitor, parallel
from azure_gpu_stacks.engine.run import plan as plan_module
from azure_gpu_stacks.engine.run.outcome import Plan, plan_outcomes
from azure_gpu_stacks.engine.run.plan import ReferenceFiles
from azure_gpu_stacks.engine.run.project import load_project
from azure_gpu_stacks.engine.run.sdk_types import read_classes
from azure_gpu_stacks.engine.run.socket_channel import SocketServer
from azure_gpu_stacks.sdk.internals import property_types_read

from tests.cli_process import zygote_preload_threads

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="programs run in forked children on Linux")

REPO = Path(__file__).resolve().parents[3]


def _first_channel_and_server() -> list[str]:
    """In a child: what a forked program's first channel to its engine (a socket pair) and its engine's side
    import, and what the first gRPC server of an engine serving an executed program imports."""
    before = set(sys.modules)
    served = SocketServer(object())
    isolation.run_isolated(
        lambda: served.address.stubs() and None,
        str,
        isolation.Limits(timeout_s=30),
        "p",
        server=served,
        connect=served.connect,
    )
    server = monitor.MonitorServer(object())
    server.start()
    server.stop()
    return sorted(set(sys.modules) - before)


def test_the_preload_starts_no_thread_and_after_it_a_childs_grpc_imports_nothing() -> None:
    # Counted in a new interpreter, since this test process has preloaded already (tests/conftest.py) and a thread the
    # preload started would be running before the test could count: the zygote of tests/cli_process.py, which
    # imports the CLI and counts its OS threads before and after `parallel.preload()` (a fresh interpreter of this
    # test's own cost 4.5 CPU-s; the zygote is started once a run for every test that forks the CLI from it).
    before, after = zygote_preload_threads()

    assert after == before
    parallel.preload()  # what a check does before it forks (here: once more, a no-op after the conftest's)
    assert children.call(_first_channel_and_server, 60, "the child") == []


def test_a_stacks_second_program_reads_no_sdk_class_its_first_plan_used(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The program's child records how many classes' property types the SDK read while the program ran."""
    log = tmp_path / "read"
    monkeypatch.setattr(plan_module, "run_hosted", logging_types_read(log))

    first, second = plan_outcomes(
        load_project(REPO), ["inference-t4"] * 2, ReferenceFiles(), None, jobs=1, day=utc_today()
    )

    read = [json.loads(line) for line in log.read_text().splitlines()]
    # the stack's VM, its network and its budget are read by the first program's child (or were already known
    # to this process), and by the second program's child not at all
    assert len(read) == 2 and read[1] == 0, read
    assert isinstance(first, Plan) and isinstance(second, Plan)
    assert [r.urn for r in first.resources] == [r.urn for r in second.resources]


def _doubled(item: int) -> int:
    return 2 * item


def test_each_result_but_the_last_is_learned_here_in_order() -> None:
    learned: list[int] = []

    results = parallel.run_forked(_doubled, [1, 2, 3, 4, 5], 2, learn=learned.append)

    # every result but the last, the first planned in this process and the rest in workers, in order
    assert results == [2, 4, 6, 8, 10]
    assert learned == [2, 4, 6, 8]


def test_what_a_program_registered_cannot_make_the_reading_fail_or_import() -> None:
    """The tokens and inputs come from the program: odd names, a deep value, a module nobody loaded."""
    deep: dict[str, object] = {}
    node = deep
    for _ in range(5_000):
        node["hardwareProfile"] = {}
        node = node["hardwareProfile"]  # type: ignore[assignment]
    loaded = set(sys.modules)

    read_classes(
        [
            ("azure-native:compute:__class__", {}),
            ("azure-native:compute:VirtualMachine", deep),
            ("azure-native:nosuchmodule:Thing", {"a": 1}),
            ("kubernetes:monitoring.coreos.com/v1:ServiceMonitor", {"spec": {}}),
            (None, None),  # type: ignore[list-item]
            ("", []),
        ]
    )

    assert not {
        m
        for m in set(sys.modules) - loaded
        if m.startswith(("pulumi_azure_native.nosuch", "pulumi_kubernetes.monitoring"))
    }


def logging_types_read(log: Path) -> Callable[..., None]:
    """plan's `run_hosted`, appending to `log` (a JSON number a line) how many classes' property types the SDK read
    while each program ran, in the program's child."""
    hosted = plan_module.run_hosted

    def recording(*args: object, **kwargs: object) -> None:
        before = property_types_read()
        try:
            hosted(*args, **kwargs)  # type: ignore[arg-type]
        finally:
            with log.open("a") as fh:
                fh.write(json.dumps(property_types_read() - before) + "\n")

    return recording
