"""`plan --format pulumi-preview`: the shape of `pulumi preview --json` (pulumi/pulumi sdk/pkg/display/json.go,
`PreviewDigest`, `PreviewStep`, `apitype.ResourceV3`, read 2026-11-27), for tools built on it."""

from __future__ import annotations

import contextlib
import io
import json
from typing import Any

import pytest
from azure_gpu_stacks.engine.cli import main

# The JSON names of the fields these types declare (json.go and apitype's ResourceV3).
DIGEST_KEYS = {"config", "steps", "diagnostics", "duration", "changeSummary", "maybeCorrupt"}
STEP_KEYS = {"op", "urn", "provider", "oldState", "newState", "diffReasons", "replaceReasons", "detailedDiff"}
STATE_KEYS = {"urn", "custom", "delete", "id", "type", "inputs", "outputs", "parent", "protect", "dependencies"}


def plan_json(*argv: str) -> dict[str, Any]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["plan", *argv]) == 0
    document: dict[str, Any] = json.loads(out.getvalue())
    return document


@pytest.fixture(scope="module")
def preview() -> dict[str, Any]:
    return plan_json("inference-t4", "--format", "pulumi-preview")


def test_the_document_has_only_preview_digest_fields_and_every_step_creates(preview: dict[str, Any]) -> None:
    assert set(preview) <= DIGEST_KEYS
    assert {step["op"] for step in preview["steps"]} == {"create"}
    assert all(set(step) <= STEP_KEYS and set(step["newState"]) <= STATE_KEYS for step in preview["steps"])
    assert preview["changeSummary"] == {"create": len(preview["steps"])}


def test_the_steps_are_the_stack_then_every_resource_of_the_plan(preview: dict[str, Any]) -> None:
    plan = plan_json("inference-t4", "--json")
    [stack, *steps] = preview["steps"]

    assert stack["newState"]["type"] == "pulumi:pulumi:Stack"
    assert [s["urn"] for s in steps] == [r["urn"] for r in plan["resources"]]
    assert {s["newState"]["parent"] for s in steps if s["newState"]["type"] == "azure-gpu-stacks:index:GpuVm"} == {
        stack["urn"]
    }
    [vm] = [s["newState"] for s in steps if s["newState"]["type"] == "azure-native:compute:VirtualMachine"]
    [shown] = [r for r in plan["resources"] if r["type"] == "azure-native:compute:VirtualMachine"]
    assert vm["inputs"] == shown["inputs"] and vm["custom"] is True and vm["dependencies"]
