"""limit-gpu-vcpus counts a stack's GPU vCPUs with the quota preflight's arithmetic (issue 36: "checked with the quota
preflight's arithmetic"): on every shipped stack, a cap equal to what `gpu-stacks quota` says the stack needs of its GPU
family passes, and one vCPU less is reported with that number. The families are those the stack files name (e.g.
training-a100: "192 vCPUs of standardNDASv4_A100Family"; aks-gpu: "12 vCPUs of standardNCASv3_T4Family quota"); Azure ML
and Batch count their own quota, under the names their APIs give the family."""

from __future__ import annotations

import contextlib
import io
import json
from typing import Any

import pytest
from azure_gpu_stacks.engine.cli import main

from tests.policy_helpers import Res, found

POLICY = "limit-gpu-vcpus"
GPU_FAMILY = {
    "aks-gpu": ("Microsoft.Compute", "standardNCASv3_T4Family"),
    "aml-gpu": ("Microsoft.MachineLearningServices", "Standard NCADSA100v4 Family Cluster Dedicated vCPUs"),
    "batch-gpu": ("Microsoft.Batch", "standardNCASv3_T4Family"),
    "inference-t4": ("Microsoft.Compute", "standardNCASv3_T4Family"),
    "training-a100": ("Microsoft.Compute", "standardNDASv4_A100Family"),
}
# What the stack files say the stack needs (their comments), where they say it.
DOCUMENTED = {"aks-gpu": 12, "training-a100": 192}


def quota_needed(stack: str) -> int:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["quota", stack, "--json"]) == 0
    provider, family = GPU_FAMILY[stack]
    [needed] = [
        row["needed"]
        for row in json.loads(out.getvalue())["quota"]
        if row["provider"] == provider and row["family"] == family
    ]
    return int(needed)


@pytest.mark.parametrize("stack", sorted(GPU_FAMILY))
def test_the_stack_cap_is_reached_exactly_at_what_quota_counts(shipped_plans: dict[str, Any], stack: str) -> None:
    needed = quota_needed(stack)
    resources = [Res(r.type, r.name, r.plain_inputs()) for r in shipped_plans[stack].resources]

    assert found(resources, POLICY, {POLICY: {"maxGpuVcpusPerStack": needed}}) == []
    [(_, _, message)] = found(resources, POLICY, {POLICY: {"maxGpuVcpusPerStack": needed - 1}})
    assert message.startswith(f"the stack asks for {needed} GPU vCPUs at full scale")
    assert needed == DOCUMENTED.get(stack, needed)
