"""disallow-batch-low-priority-nodes: from a dedicated pool in a Batch-managed account, one change per test."""

from __future__ import annotations

from tests.policy_helpers import Res, changed, found

POLICY = "disallow-batch-low-priority-nodes"
ACCOUNT = "azure-native:batch:BatchAccount"
POOL = "azure-native:batch:Pool"
BATCH_MANAGED = {"resourceGroupName": "rg", "accountName": "teambatch", "location": "eastus"}
USER_SUBSCRIPTION = {**BATCH_MANAGED, "poolAllocationMode": "UserSubscription"}
DEDICATED = {
    "resourceGroupName": "rg",
    "accountName": "teambatch",
    "poolName": "gpu-pool",
    "vmSize": "Standard_NC4as_T4_v3",
    "scaleSettings": {"fixedScale": {"targetDedicatedNodes": 1.0, "targetLowPriorityNodes": 0.0}},
}
LOW_PRIORITY = changed(DEDICATED, ("scaleSettings", "fixedScale", "targetLowPriorityNodes"), 4.0)
# https://learn.microsoft.com/azure/batch/low-priority-vms-retirement-migration-guide: retired September 30, 2025.
RETIRED = (
    "Batch low-priority nodes were retired on 2025-09-30. Use dedicated nodes, or Spot nodes in a UserSubscription "
    "account (https://learn.microsoft.com/azure/batch/low-priority-vms-retirement-migration-guide)."
)


def test_passes_dedicated_nodes_in_a_batch_managed_account() -> None:
    assert found([Res(ACCOUNT, "account", BATCH_MANAGED), Res(POOL, "pass_pool", DEDICATED)], POLICY) == []


def test_refuses_low_priority_nodes_in_a_batch_managed_account() -> None:
    assert found([Res(ACCOUNT, "account", BATCH_MANAGED), Res(POOL, "fail_pool", LOW_PRIORITY)], POLICY) == [
        (
            "mandatory",
            "fail_pool",
            "'fail_pool' asks for low-priority nodes (fixedScale.targetLowPriorityNodes 4) in Batch account 'account', "
            f"whose pool allocation mode is BatchService: {RETIRED}",
        )
    ]


def test_refuses_a_formula_that_sets_low_priority_nodes_in_a_batch_managed_account() -> None:
    pool = changed(
        DEDICATED,
        ("scaleSettings",),
        {"autoScale": {"formula": "$TargetLowPriorityNodes = min($PendingTasks.GetSample(1), 10);"}},
    )
    [(level, name, message)] = found([Res(ACCOUNT, "account", BATCH_MANAGED), Res(POOL, "fail_pool", pool)], POLICY)
    assert (level, name) == ("mandatory", "fail_pool")
    assert "the autoscale formula sets $TargetLowPriorityNodes" in message


def test_passes_spot_nodes_in_a_user_subscription_account() -> None:
    assert found([Res(ACCOUNT, "account", USER_SUBSCRIPTION), Res(POOL, "pass_pool", LOW_PRIORITY)], POLICY) == []
