"""require-cost-alerts: what the refusal says of where the GPU bills and of each budget that does not cover it.
In-process, one change per test from a GPU VM with no budget."""

from __future__ import annotations

from typing import Any

from tests.policy_helpers import UNKNOWN, Res, catalog_size, found

POLICY = "require-cost-alerts"
SUB = "/subscriptions/00000000-0000-0000-0000-0000000000aa"
T4 = "Standard_NC4as_T4_v3"


def gpu_vm(group: Any = "rg-gpu") -> Res:
    return Res(
        "azure-native:compute:VirtualMachine",
        "fail_vm",
        {"resourceGroupName": group, "hardwareProfile": {"vmSize": T4}},
    )


def budget(name: str, group: str, notifications: dict[str, Any]) -> Res:
    props = {"scope": f"{SUB}/resourceGroups/{group}", "amount": 300.0, "timeGrain": "Monthly"}
    return Res("azure-native:consumption:Budget", name, {**props, "notifications": notifications})


def test_a_vm_whose_resource_group_is_known_only_after_deployment_bills_in_its_resource_group() -> None:
    [(_, _, message)] = found([gpu_vm(UNKNOWN)], POLICY)

    assert message.startswith(
        f"'fail_vm' (hardwareProfile.vmSize '{T4}', {catalog_size(T4)['gpuModel']}) is billed by GPU in its "
        "resource group, but no budget"
    )


def test_each_budget_that_does_not_cover_the_vm_is_named_with_why() -> None:
    alert = {"enabled": True, "threshold": 80.0, "contactEmails": ["ml@example.com"]}
    elsewhere = budget("other", "rg-other", {"actual80": alert})
    silent = budget("silent", "rg-gpu", {"actual80": {**alert, "contactEmails": []}})

    [(_, _, message)] = found([gpu_vm(), elsewhere, silent], POLICY)

    assert (
        " Found: budget 'other' covers resource group rg-other only; budget 'silent' has no enabled notification "
        "with an email, role or action group. Add a budget"
    ) in message
