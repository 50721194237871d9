"""gpu_pod_scheduling: the tolerations and GPU request a pod needs on an AKS GPU pool."""

from __future__ import annotations

import pytest
from azure_gpu_stacks.components.aks_gpu_scheduling import gpu_pod_scheduling

GPU_TOLERATION = {"key": "sku", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}
SPOT_TOLERATION = {
    "key": "kubernetes.azure.com/scalesetpriority",
    "operator": "Equal",
    "value": "spot",
    "effect": "NoSchedule",
}


def test_gpu_pod_scheduling_tolerates_the_gpu_taint_and_requests_one_gpu() -> None:
    assert gpu_pod_scheduling() == {
        "tolerations": [GPU_TOLERATION],
        "resources": {"requests": {"nvidia.com/gpu": 1}, "limits": {"nvidia.com/gpu": 1}},
    }


def test_gpu_pod_scheduling_on_spot_tolerates_both_taints() -> None:
    assert gpu_pod_scheduling(spot=True)["tolerations"] == [GPU_TOLERATION, SPOT_TOLERATION]


def test_gpu_pod_scheduling_tolerates_every_taint_of_the_pool() -> None:
    scheduling = gpu_pod_scheduling(gpus=4, taints=["sku=gpu:NoSchedule", "team=vision:NoExecute"])

    assert scheduling["tolerations"][1] == {
        "key": "team",
        "operator": "Equal",
        "value": "vision",
        "effect": "NoExecute",
    }
    assert scheduling["resources"]["limits"] == {"nvidia.com/gpu": 4}


def test_gpu_pod_scheduling_refuses_zero_gpus() -> None:
    with pytest.raises(ValueError, match="gpus: 0; allowed: a whole number of GPUs, at least 1"):
        gpu_pod_scheduling(gpus=0)
