"""Contract test of `sdk.internals.stack_traces_without_source_lines`: pulumi's `runtime.resource._get_stack_trace`,
the stack trace every registration sends (`stackTrace`, and from it `sourcePosition`), made from the frames
without reading source lines. What is sent must be the SDK's own message, frame for frame."""

from __future__ import annotations

import contextlib
import importlib
import sys
from collections.abc import Callable
from typing import Any

import pytest
from azure_gpu_stacks.sdk import internals as sdk

RESOURCE_MODULE = importlib.import_module("pulumi.runtime.resource")


def _made_by_the_sdk() -> Any:
    return getattr(RESOURCE_MODULE, "_get_stack_trace")()  # whichever the module holds now


class Resource:
    """The SDK's constructors as a registration's stack holds them: `Resource`, `CustomResource`, the concrete
    class (the SDK counts three `__init__` frames from the top, and sends the frames above them)."""

    def __init__(self, trace: Callable[[], Any]) -> None:
        self.trace = trace()


class CustomResource(Resource):
    def __init__(self, trace: Callable[[], Any]) -> None:
        super().__init__(trace)


class VirtualMachine(CustomResource):
    def __init__(self, trace: Callable[[], Any]) -> None:
        super().__init__(trace)


def _program(trace: Callable[[], Any]) -> Any:
    return VirtualMachine(trace).trace


def _both(make: Callable[[], Any]) -> list[Any]:
    """What `make()` returns with the SDK's stack trace and with this module's, called from the same line."""
    found = []
    for ours in (False, True):
        with sdk.stack_traces_without_source_lines() if ours else contextlib.nullcontext():
            found.append(make())
    return found


def test_a_registrations_stack_trace_is_the_sdks_own_message() -> None:
    sdks, ours = _both(lambda: _program(_made_by_the_sdk))

    assert ours == sdks
    files = [frame.pc.uri for frame in ours.frames[:2]]
    assert files == [f"file://{__file__}"] * 2  # `_program`, then the lambda: the frames above the constructors
    assert [frame.pc.line for frame in ours.frames] == [frame.pc.line for frame in sdks.frames]


@pytest.mark.parametrize("filename", ["relative/__main__.py", "<string>", ""])
def test_a_frame_of_a_file_with_no_uri_is_sent_without_a_position(filename: str) -> None:
    """`Path.as_uri` refuses a relative path (a program run as `runpy.run_path('.')` from its directory is one);
    the SDK then sends the frame with no position."""
    code = compile("found = program(trace)", filename, "exec")

    def run() -> Any:
        namespace: dict[str, Any] = {"program": _program, "trace": _made_by_the_sdk}
        exec(code, namespace)  # noqa: S102 - a frame with the file name under test
        return namespace["found"]

    sdks, ours = _both(run)

    assert ours == sdks
    assert not ours.frames[1].HasField("pc")  # the exec'd frame, above `_program`


def test_fewer_than_three_constructors_send_an_empty_stack_trace() -> None:
    sdks, ours = _both(lambda: CustomResource(_made_by_the_sdk).trace)

    assert ours == sdks
    assert len(ours.frames) == 0


@pytest.mark.parametrize("limit", [4, 6, 40])
def test_a_programs_traceback_limit_cuts_the_stack_as_the_sdk_does(monkeypatch: pytest.MonkeyPatch, limit: int) -> None:
    """`traceback.extract_stack` keeps only the innermost `sys.tracebacklimit` frames, which a program may set."""
    monkeypatch.setattr(sys, "tracebacklimit", limit, raising=False)

    sdks, ours = _both(lambda: _program(_made_by_the_sdk))

    assert ours == sdks


def test_the_sdk_calls_it_for_every_registration_and_it_is_restored_afterwards() -> None:
    for caller in ("register_resource", "read_resource"):
        assert "_get_stack_trace" in getattr(RESOURCE_MODULE, caller).__code__.co_names, (
            f"pulumi.runtime.resource.{caller} no longer calls the module's _get_stack_trace (installed pulumi "
            "changed); adapt `stack_traces_without_source_lines` in sdk/internals.py"
        )
    before = getattr(RESOURCE_MODULE, "_get_stack_trace")

    with sdk.stack_traces_without_source_lines():
        assert getattr(RESOURCE_MODULE, "_get_stack_trace") is not before

    assert getattr(RESOURCE_MODULE, "_get_stack_trace") is before
