"""require-cost-alerts: GPU billing needs a budget that covers it and notifies a contact. From a GPU VM with a
budget on its resource group, one change per test; the message is built once (`no_cover`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.policy_helpers import UNKNOWN, Res, catalog_size, found

POLICY = "require-cost-alerts"
SUB = "/subscriptions/00000000-0000-0000-0000-0000000000aa"
RG_SCOPE = f"{SUB}/resourceGroups/rg-gpu"
T4 = "Standard_NC4as_T4_v3"
ADVICE = (
    " Add a budget on the resource group or the subscription (azure_gpu_stacks.components.cost_alert.CostAlert), "
    "or list a central budget's scope in this policy's externalBudgetScopes."
)


def rg() -> Res:
    return Res("azure-native:resources:ResourceGroup", "pass_rg", {"resourceGroupName": "rg-gpu", "location": "eastus"})


def gpu_vm(name: str = "fail_vm", size: str = T4, group: Any = "rg-gpu") -> Res:
    return Res(
        "azure-native:compute:VirtualMachine",
        name,
        {"resourceGroupName": group, "hardwareProfile": {"vmSize": size}},
        ["pass_rg"],
    )


def notification(**changes: Any) -> dict[str, Any]:
    return {
        "enabled": True,
        "operator": "GreaterThan",
        "threshold": 80.0,
        "contactEmails": ["ml@example.com"],
        **changes,
    }


def budget(scope: Any = RG_SCOPE, notifications: Any = None, name: str = "pass_budget") -> Res:
    props = {"scope": scope, "amount": 300.0, "category": "Cost", "timeGrain": "Monthly"}
    props["notifications"] = {"actual80": notification()} if notifications is None else notifications
    return Res("azure-native:consumption:Budget", name, props, ["pass_rg"])


def no_cover(found_text: str = "", vm: str = "fail_vm") -> str:
    head = (
        f"'{vm}' (hardwareProfile.vmSize '{T4}', {catalog_size(T4)['gpuModel']}) is billed by GPU in resource group "
        "'rg-gpu', "
        "but no budget with an enabled notification to a contact covers it."
    )
    return head + (f" Found: {found_text}." if found_text else "") + ADVICE


def test_cost_alerts_pass_a_gpu_vm_with_a_budget_on_its_resource_group() -> None:
    assert found([rg(), gpu_vm("pass_vm"), budget()], POLICY) == []


def test_cost_alerts_refuse_a_gpu_vm_without_any_budget() -> None:
    assert found([rg(), gpu_vm()], POLICY) == [("mandatory", "fail_vm", no_cover())]


def test_cost_alerts_refuse_a_budget_whose_notifications_are_disabled() -> None:
    stack = [rg(), gpu_vm(), budget(notifications={"actual80": notification(enabled=False)})]

    assert found(stack, POLICY) == [
        (
            "mandatory",
            "fail_vm",
            no_cover("budget 'pass_budget' has no enabled notification with an email, role or action group"),
        )
    ]


def test_cost_alerts_refuse_a_budget_without_notifications() -> None:
    [(_, _, message)] = found([rg(), gpu_vm(), budget(notifications={})], POLICY)

    assert "budget 'pass_budget' has no enabled notification with an email, role or action group" in message


def test_cost_alerts_refuse_a_notification_without_a_contact() -> None:
    stack = [
        rg(),
        gpu_vm(),
        budget(notifications={"a": notification(contactEmails=[], contactRoles=[], contactGroups=[])}),
    ]

    assert len(found(stack, POLICY)) == 1


def test_cost_alerts_refuse_a_budget_on_another_resource_group() -> None:
    stack = [rg(), gpu_vm(), budget(scope=f"{SUB}/resourceGroups/rg-other")]

    assert found(stack, POLICY) == [
        ("mandatory", "fail_vm", no_cover("budget 'pass_budget' covers resource group rg-other only"))
    ]


@pytest.mark.parametrize(
    "contact",
    [{"contactRoles": ["Owner"]}, {"contactGroups": [f"{RG_SCOPE}/providers/Microsoft.Insights/actionGroups/ops"]}],
    ids=["role", "action-group"],
)
def test_cost_alerts_accept_a_role_or_an_action_group_as_the_contact(contact: dict[str, Any]) -> None:
    notifications = {"a": notification(contactEmails=[], **contact)}

    assert found([rg(), gpu_vm("pass_vm"), budget(notifications=notifications)], POLICY) == []


@pytest.mark.parametrize(
    "scope",
    [SUB, SUB.upper() + "/", f"{SUB}/RESOURCEGROUPS/RG-GPU"],
    ids=["subscription", "odd-case-sub", "odd-case-rg"],
)
def test_cost_alerts_accept_a_subscription_budget_and_any_casing(scope: str) -> None:
    assert found([rg(), gpu_vm("pass_vm"), budget(scope=scope)], POLICY) == []


def test_cost_alerts_accept_a_central_budget_declared_in_config() -> None:
    config = {POLICY: {"externalBudgetScopes": [SUB]}}

    assert found([rg(), gpu_vm("pass_vm")], POLICY, config) == []


def test_cost_alerts_central_budget_on_another_group_does_not_cover() -> None:
    config = {POLICY: {"externalBudgetScopes": [f"{SUB}/resourceGroups/rg-other"]}}

    [(_, _, message)] = found([rg(), gpu_vm()], POLICY, config)
    assert f"external budget on {SUB}/resourceGroups/rg-other covers resource group rg-other only" in message


def test_cost_alerts_can_be_made_advisory() -> None:
    assert [level for level, _, _ in found([rg(), gpu_vm()], POLICY, {POLICY: "advisory"})] == ["advisory"]


def test_cost_alerts_ignore_cpu_vms_and_placement_groups() -> None:
    stack = [
        rg(),
        gpu_vm("pass_cpu_vm", size="Standard_D4s_v5"),
        Res(
            "azure-native:compute:ProximityPlacementGroup", "pass_ppg", {"intent": {"vmSizes": ["Standard_ND96asr_v4"]}}
        ),
    ]

    assert found(stack, POLICY) == []


def test_cost_alerts_cover_aks_gpu_pools_too() -> None:
    a100 = "Standard_NC24ads_A100_v4"
    pool = Res(
        "azure-native:containerservice:AgentPool",
        "fail_pool",
        {"resourceGroupName": "rg-gpu", "vmSize": a100, "nodeTaints": ["sku=gpu:NoSchedule"]},
    )

    [(_, resource, message)] = found([rg(), pool], POLICY)
    assert (resource, message.split(" is billed")[0]) == (
        "fail_pool",
        f"'fail_pool' (vmSize '{a100}', {catalog_size(a100)['gpuModel']})",
    )


def test_cost_alerts_in_preview_trace_an_unknown_scope_to_the_resource_group() -> None:
    # `pulumi preview` of a new stack: the budget's scope is the resource group's id, not known yet.
    assert found([rg(), gpu_vm("pass_vm"), budget(scope=UNKNOWN)], POLICY) == []


def test_cost_alerts_in_preview_accept_unknown_contacts() -> None:
    notifications = {"a": notification(contactEmails=[], contactGroups=[UNKNOWN])}

    assert found([rg(), gpu_vm("pass_vm"), budget(notifications=notifications)], POLICY) == []


@pytest.mark.parametrize("notifications", [None, 5.0, "x", [notification()], {"a": None}, {"a": {"enabled": "yes"}}])
def test_cost_alerts_never_crash_on_odd_budget_shapes(notifications: Any) -> None:
    stack = [rg(), gpu_vm(), budget(notifications=notifications if notifications is not None else {})]
    stack[-1].props["notifications"] = notifications

    assert [level for level, _, _ in found(stack, POLICY)] == ["mandatory"]


def test_cost_alerts_in_preview_an_unknown_scope_covers_only_the_group_it_comes_from() -> None:
    other = Res("azure-native:resources:ResourceGroup", "pass_other_rg", {"resourceGroupName": "rg-other"})
    elsewhere = Res(
        "azure-native:consumption:Budget", "pass_budget", {**budget().props, "scope": UNKNOWN}, ["pass_other_rg"]
    )

    assert found([rg(), other, gpu_vm(), elsewhere], POLICY) == [
        ("mandatory", "fail_vm", no_cover("budget 'pass_budget' covers resource group rg-other only"))
    ]


def batch_pool(name: str = "fail_pool") -> Res:
    """A Batch pool of GPU nodes, as a raw program registers it (its resource group named directly)."""
    props = {"resourceGroupName": "rg-gpu", "accountName": "teambatch", "poolName": "gpu-pool", "vmSize": T4}
    return Res("azure-native:batch:Pool", name, props, ["pass_rg"])


def test_cost_alerts_count_a_batch_gpu_pool_as_gpu_spending() -> None:
    head = (
        f"'fail_pool' (vmSize '{T4}', {catalog_size(T4)['gpuModel']}) is billed by GPU in resource group 'rg-gpu', "
        "but no budget with an enabled notification to a contact covers it."
    )
    assert found([rg(), batch_pool()], POLICY) == [("mandatory", "fail_pool", head + ADVICE)]
    assert found([rg(), batch_pool("pass_pool"), budget()], POLICY) == []


# --- what the refusal says ------------------------------------------------------------------------
# require-cost-alerts: what the refusal says of where the GPU bills and of each budget that does not cover it.
# In-process, one change per test from a GPU VM with no budget.


def unplaced_gpu_vm(group: Any = "rg-gpu") -> Res:
    return Res(
        "azure-native:compute:VirtualMachine",
        "fail_vm",
        {"resourceGroupName": group, "hardwareProfile": {"vmSize": T4}},
    )


def named_budget(name: str, group: str, notifications: dict[str, Any]) -> Res:
    props = {"scope": f"{SUB}/resourceGroups/{group}", "amount": 300.0, "timeGrain": "Monthly"}
    return Res("azure-native:consumption:Budget", name, {**props, "notifications": notifications})


def test_a_vm_whose_resource_group_is_known_only_after_deployment_bills_in_its_resource_group() -> None:
    [(_, _, message)] = found([unplaced_gpu_vm(UNKNOWN)], POLICY)

    assert message.startswith(
        f"'fail_vm' (hardwareProfile.vmSize '{T4}', {catalog_size(T4)['gpuModel']}) is billed by GPU in its "
        "resource group, but no budget"
    )


def test_each_budget_that_does_not_cover_the_vm_is_named_with_why() -> None:
    alert = {"enabled": True, "threshold": 80.0, "contactEmails": ["ml@example.com"]}
    elsewhere = named_budget("other", "rg-other", {"actual80": alert})
    silent = named_budget("silent", "rg-gpu", {"actual80": {**alert, "contactEmails": []}})

    [(_, _, message)] = found([unplaced_gpu_vm(), elsewhere, silent], POLICY)

    assert (
        " Found: budget 'other' covers resource group rg-other only; budget 'silent' has no enabled notification "
        "with an email, role or action group. Add a budget"
    ) in message


def test_every_gpu_vm_is_judged_whatever_comes_before_it() -> None:
    other = Res("azure-native:resources:ResourceGroup", "pass_other_rg", {"resourceGroupName": "rg-other"})
    covered = gpu_vm("pass_vm")
    uncovered = gpu_vm("fail_vm", group="rg-other")
    uncovered.depends_on = ("pass_other_rg",)

    assert [name for _, name, _ in found([rg(), other, covered, budget(), uncovered], POLICY)] == ["fail_vm"]


@pytest.mark.parametrize(
    "notifications",
    [
        UNKNOWN,  # every notification filled in at deployment
        # one enabled after a disabled one (the engine sends the map as a protobuf Struct, which orders these two
        # names this way; "off"/"on" it would reverse)
        {"actual50": notification(enabled=False), "actual80": notification()},
        {"a": notification(contactEmails=UNKNOWN)},  # the contacts filled in at deployment
    ],
    ids=["unknown-notifications", "enabled-after-disabled", "unknown-contacts"],
)
def test_cost_alerts_accept_a_budget_that_notifies_or_may_at_deployment(notifications: Any) -> None:
    assert found([rg(), gpu_vm("pass_vm"), budget(notifications=notifications)], POLICY) == []


def test_a_budget_on_a_scope_that_is_no_subscription_or_group_is_named_with_why() -> None:
    # a budget watches a subscription, a resource group or a broader scope, never one resource
    vm_id = f"{RG_SCOPE}/providers/Microsoft.Compute/virtualMachines/fail_vm"

    assert found([rg(), gpu_vm(), budget(scope=vm_id)], POLICY) == [
        ("mandatory", "fail_vm", no_cover("budget 'pass_budget' has no subscription or resource group scope"))
    ]
