"""Which Batch account a pool belongs to (policies/batch_accounts.py), as disallow-batch-low-priority-nodes reads
it: the account the pool names by `accountName` among several, else the stack's only account (one created with
an auto-generated name, which the pool names by an output unknown before deployment). A pool whose account is
not known is not judged. In-process, one change per test."""

from __future__ import annotations

from typing import Any

from tests.policy_helpers import UNKNOWN, Res, changed, found

POLICY = "disallow-batch-low-priority-nodes"
ACCOUNT = "azure-native:batch:BatchAccount"
POOL = "azure-native:batch:Pool"
BATCH_MANAGED = {"resourceGroupName": "rg", "accountName": "teambatch", "location": "eastus"}
USER_SUBSCRIPTION = {**BATCH_MANAGED, "accountName": "spotbatch", "poolAllocationMode": "UserSubscription"}
LOW_PRIORITY = {
    "resourceGroupName": "rg",
    "accountName": "teambatch",
    "poolName": "gpu-pool",
    "vmSize": "Standard_NC4as_T4_v3",
    "scaleSettings": {"fixedScale": {"targetDedicatedNodes": 0.0, "targetLowPriorityNodes": 4.0}},
}


def accounts() -> list[Res]:
    """Two accounts, each with a resource name other than its account name; the Batch-managed one second."""
    return [Res(ACCOUNT, "spot", USER_SUBSCRIPTION), Res(ACCOUNT, "team", BATCH_MANAGED)]


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
