"""limit-stack-cost: a stack's full-scale monthly cost above `maxMonthlyUsd` is a violation; at or under it, or
with the limit off (0), none. Prices come from the catalog's data file as written, in the cluster's region."""

from __future__ import annotations

from azure_gpu_stacks.catalog import catalog

from tests.policy_helpers import Res, catalog_size, found

POLICY = "limit-stack-cost"
T4 = "Standard_NC4as_T4_v3"
MONTH = 730  # hours, as Azure's pricing calculator counts a month


def full_month(nodes: int) -> float:
    return nodes * float(catalog_size(T4)["prices"]["eastus"]["payg"]) * MONTH


def rg(location: str = "eastus") -> Res:
    return Res("azure-native:resources:ResourceGroup", "pass_rg", {"resourceGroupName": "rg-gpu", "location": location})


def cluster(max_nodes: int) -> Res:
    scale = {"minNodeCount": 0, "maxNodeCount": max_nodes}
    props = {"computeType": "AmlCompute", "properties": {"vmSize": T4, "scaleSettings": scale}}
    return Res(
        "azure-native:machinelearningservices:Compute", "gpu", {"resourceGroupName": "rg-gpu", "properties": props}
    )


def test_a_stack_under_the_default_limit_passes() -> None:
    assert found([rg(), cluster(10)], POLICY) == []  # 10 T4 nodes: about 3,840 USD a month


def test_a_stack_above_the_limit_is_named_with_its_cost() -> None:
    limit = round(full_month(10) - 1)

    [(level, name, message)] = found([rg(), cluster(10)], POLICY, {POLICY: {"maxMonthlyUsd": limit}})

    assert (level, name) == ("advisory", "(stack)")
    assert message.startswith(
        f"the stack costs {full_month(10):,.2f} USD a month at full scale, above the limit of {limit:,.2f} "
        "(maxMonthlyUsd) (resources counted: gpu)"
    )


def test_at_the_limit_passes_and_zero_turns_it_off() -> None:
    at = round(full_month(10), 2) + 0.01

    assert found([rg(), cluster(10)], POLICY, {POLICY: {"maxMonthlyUsd": at}}) == []
    assert found([rg(), cluster(10)], POLICY, {POLICY: {"maxMonthlyUsd": 0}}) == []


def test_mandatory_blocks() -> None:
    config = {POLICY: {"enforcementLevel": "mandatory", "maxMonthlyUsd": 1}}

    [(level, _, _)] = found([rg(), cluster(1)], POLICY, config)

    assert level == "mandatory"


def test_a_lower_bound_under_the_limit_passes_the_unknown_is_not_guessed() -> None:
    uncovered = next(r for r in catalog().regions if r not in catalog_size(T4)["prices"])

    assert found([rg(uncovered), cluster(10)], POLICY, {POLICY: {"maxMonthlyUsd": 1}}) == []
