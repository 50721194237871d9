"""disallow-batch-low-priority-nodes: from a dedicated pool in a Batch-managed account, one change per test."""

from __future__ import annotations

from typing import Any

from tests.policy_helpers import UNKNOWN, Res, changed, found

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


# --- which account a pool belongs to (policies/batch_accounts.py) ---------------------------------------
# Which Batch account a pool belongs to (policies/batch_accounts.py), as disallow-batch-low-priority-nodes reads
# it: the account the pool names by `accountName` among several, else the stack's only account (one created with
# an auto-generated name, which the pool names by an output unknown before deployment). A pool whose account is
# not known is not judged. In-process, one change per test.

SPOT_ACCOUNT = {**BATCH_MANAGED, "accountName": "spotbatch", "poolAllocationMode": "UserSubscription"}


def accounts() -> list[Res]:
    """Two accounts, each with a resource name other than its account name; the Batch-managed one second."""
    return [Res(ACCOUNT, "spot", SPOT_ACCOUNT), Res(ACCOUNT, "team", BATCH_MANAGED)]


def judged(resources: list[Res]) -> list[tuple[str, str]]:
    """(pool, account named in the message) of each refusal."""
    return [(name, message.split("Batch account '")[1].split("'")[0]) for _, name, message in found(resources, POLICY)]


def test_a_pool_is_judged_by_the_account_it_names_among_several() -> None:
    pool = Res(POOL, "fail_pool", LOW_PRIORITY)

    assert judged([*accounts(), pool]) == [("fail_pool", "team")]


def test_a_pool_naming_the_user_subscription_account_is_not_judged_by_the_other() -> None:
    pool = Res(POOL, "pass_pool", changed(LOW_PRIORITY, ("accountName",), "spotbatch"))

    assert judged([*reversed(accounts()), pool]) == []


def test_a_pool_naming_an_account_outside_the_stack_is_not_judged() -> None:
    pool = Res(POOL, "pass_pool", changed(LOW_PRIORITY, ("accountName",), "elsewhere"))

    assert judged([*accounts(), pool]) == []


def auto_named(props: dict[str, Any]) -> dict[str, Any]:
    return changed(props, ("accountName",), ...)


def test_the_stacks_only_account_is_the_pools_when_its_name_is_known_only_after_deployment() -> None:
    account = Res(ACCOUNT, "team", auto_named(BATCH_MANAGED))
    pool = Res(POOL, "fail_pool", changed(LOW_PRIORITY, ("accountName",), UNKNOWN))

    assert judged([account, pool]) == [("fail_pool", "team")]


def test_with_two_accounts_a_pool_naming_neither_is_not_judged() -> None:
    pool = Res(POOL, "pass_pool", changed(LOW_PRIORITY, ("accountName",), UNKNOWN))

    assert judged([*accounts(), pool]) == []


def test_each_pool_is_judged_whatever_pool_comes_before_it() -> None:
    spot_pool = {**LOW_PRIORITY, "accountName": "spotbatch", "poolName": "spot-pool"}
    unknown_pool = changed(DEDICATED, ("scaleSettings", "fixedScale", "targetLowPriorityNodes"), UNKNOWN)
    resources = [
        *accounts(),
        Res(POOL, "pass_spot_pool", spot_pool),  # a UserSubscription account's: Spot nodes
        Res(POOL, "pass_unknown_pool", unknown_pool),  # known only after deployment
        Res(POOL, "fail_pool", LOW_PRIORITY),
    ]

    assert judged(resources) == [("fail_pool", "team")]
