"""The plan is typed and built once: frozen dataclasses for the plan, its resources, refusals,
violations and cost; JSON made from them only at the edge, in the shape users already read."""

from __future__ import annotations

import dataclasses
import json
import pickle

import pytest
from azure_gpu_stacks.catalog.clock import utc_today
from azure_gpu_stacks.catalog.pricing import CostEstimate
from azure_gpu_stacks.engine.report.cost import cost_section
from azure_gpu_stacks.engine.report.text import render_text, verdict
from azure_gpu_stacks.engine.report.verdicts import summary
from azure_gpu_stacks.engine.run.plan import Plan, plan_stack
from azure_gpu_stacks.engine.run.project import load_project
from azure_gpu_stacks.engine.run.violation import Violation
from azure_gpu_stacks.fakeazure import Refusal

from tests.conftest import REPO

# The keys `gpu-stacks plan --json` (and each stack of `check --json`) has always written, in order.
PLAN_KEYS = [
    "project",
    "stack",
    "asOf",
    "resources",
    "outputs",
    "refusals",
    "violations",
    "cost",
    "warnings",
    "programOutput",
    "errors",
]
RESOURCE_KEYS = ["urn", "type", "name", "parent", "custom", "protect", "inputs"]
VIOLATION_KEYS = ["policy", "level", "severity", "resource", "type", "urn", "message", "description"]
COST_KEYS = [
    "hourlyUsd",
    "idleHourlyUsd",
    "monthlyUsd",
    "idleMonthlyUsd",
    "pricesObserved",
    "pricesSource",
    "pricesSourceDescription",
    "pricesRegions",
    "complete",
    "lowerBound",
    "vmsComplete",
    "notCounted",
    "unpricedSizes",
    "unpriced",
    "spotCaveat",
    "resources",
    "budgetMonthlyUsd",
    "budgets",
    "commitments",
]
COST_LINE_KEYS = [
    "resource",
    "size",
    "count",
    "hourlyUsd",
    "idleHourlyUsd",
    "idleCount",
    "priority",
    "priceBasis",
    "region",
    "priceObserved",
    "priceSource",
]


@pytest.fixture(scope="module")
def plan() -> Plan:
    # The training stack: two advisory violations (always on; no encryption at host), a priced scale set and a budget.
    return plan_stack(load_project(REPO), "training-a100", day=utc_today())


def mandatory(of: Violation) -> Violation:
    return dataclasses.replace(of, level="mandatory")


def test_plan_types_every_part_of_a_plan_is_frozen(plan: Plan) -> None:
    parts = [
        (plan, "cost"),
        (plan, "violations"),
        (plan.violations[0], "level"),
        (plan.cost, "budget_monthly_usd"),
        (plan.cost.resources[0], "price"),
        (plan.resources[0], "inputs"),
        (Refusal("vm", "azure-native:compute:VirtualMachine", "SkuNotAvailable", "no"), "code"),
    ]
    for part, name in parts:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(part, name, None)
    # Nothing can be appended either: the plan's sequences are tuples, even when built from lists.
    built = Plan(
        "p",
        "s",
        "stacks/Pulumi.s.yaml",
        list(plan.resources),
        {},
        set(),
        [],
        [],
        ["w"],
        [],
        plan.as_of,
        violations=list(plan.violations),
    )
    assert all(
        isinstance(getattr(built, f), tuple)
        for f in ("resources", "refusals", "skipped", "warnings", "placeholders", "violations", "errors")
    )
    assert isinstance(built.secret_outputs, frozenset)


def test_plan_types_json_has_the_keys_users_read(plan: Plan) -> None:
    document = plan.to_json()

    assert list(document) == PLAN_KEYS
    assert {tuple(r) for r in document["resources"]} == {tuple(RESOURCE_KEYS)}
    assert [list(v) for v in document["violations"]] == [VIOLATION_KEYS, VIOLATION_KEYS]
    assert list(document["cost"]) == COST_KEYS
    assert [list(line) for line in document["cost"]["resources"]] == [COST_LINE_KEYS]
    assert {v["policy"] for v in document["violations"]} == {
        "warn-always-on-infiniband-cluster",
        "warn-gpu-host-without-encryption-at-host",
    }
    assert document["cost"]["budgetMonthlyUsd"] == 39708.0
    # Plain JSON values only (lists, not tuples): what json.loads gives back is the same document.
    assert json.loads(json.dumps(document)) == document


def test_plan_types_a_plan_crosses_processes_whole(plan: Plan) -> None:
    # `--jobs` workers hand plans back pickled: the copy reports exactly what the original does.
    copy = pickle.loads(pickle.dumps(plan))

    assert copy == plan
    assert copy.to_json() == plan.to_json()
    assert render_text(copy) == render_text(plan)


def test_plan_types_the_mandatory_count_drives_the_exit_code(plan: Plan) -> None:
    assert (plan.mandatory, plan.advisory, plan.exit_code) == (0, 2, 0)  # counted (and kept) first

    failing = dataclasses.replace(plan, violations=tuple(mandatory(v) for v in plan.violations))

    assert (failing.mandatory, failing.advisory, failing.exit_code) == (2, 0, 1)
    assert verdict(failing) == "FAILED: training-a100: 2 mandatory policy violations."
    assert summary([plan, failing]) == {
        "stacks": 2,
        "failed": ["training-a100"],
        "refusals": 0,
        "mandatory": 2,
        "advisory": 2,
        "exitCode": 1,
    }
    assert (plan.mandatory, plan.exit_code) == (0, 0)  # the original plan is unchanged


def test_plan_types_a_refusal_alone_fails_the_plan(plan: Plan) -> None:
    refused = dataclasses.replace(
        plan, refusals=(Refusal("train-vmss", "azure-native:compute:VirtualMachineScaleSet", "SkuNotAvailable", "no"),)
    )

    assert refused.exit_code == 1
    assert refused.to_json()["refusals"] == [{"resource": "train-vmss", "code": "SkuNotAvailable", "message": "no"}]


def test_plan_types_cost_figures_are_the_reported_ones(plan: Plan) -> None:
    cost: CostEstimate = plan.cost
    document = cost.to_json()

    assert (
        (document["monthlyUsd"], document["idleMonthlyUsd"])
        == (cost.monthly_usd, cost.idle_monthly_usd)
        == (39707.62, 39707.62)
    )
    assert document["hourlyUsd"] == cost.hourly_usd == 54.394
    assert cost.complete and cost.unpriced_sizes == () and not cost.low_priority
    assert (
        "  full scale at least 54.3940 USD/h = at least 39,707.62 USD/month; "
        "idle at least 54.3940 USD/h = at least 39,707.62 USD/month" in cost_section(cost)
    )
    # stacks/Pulumi.training-a100.yaml: amount 39,708, actual and forecast notifications at 100 %
    assert "  budget 39,708.00 (actual 100 %: 39,708.00, forecasted 100 %: 39,708.00) USD/month" in cost_section(cost)
