"""Commitments for always-on GPU nodes (issue 35): a training cluster never parked or an inference VM without a
shutdown shows what a 1-year savings plan would cost from a dated public rate, beside the cost and never in it; a term
without a dated rate is named. Expected rates are the saved Retail Prices API rows (tests/saved_prices.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.catalog.demand import Demand
from azure_gpu_stacks.catalog.pricing import estimate

from tests.e2e.test_check_cli import run, stack_copy
from tests.saved_prices import name_key, radar_linux_rows

T4, A100, D4 = "Standard_NC4as_T4_v3", "Standard_NC24ads_A100_v4", "Standard_D4s_v5"
VMSS = "azure-native:compute:VirtualMachineScaleSet"


def saved_rate(size: str, region: str, kind: str) -> float:
    (rate,) = radar_linux_rows()[(name_key(size), region, kind)]
    return rate


def demand(size: str, region: str = "westeurope", count: int = 2, idle: int = 2, **more: Any) -> Demand:
    return Demand(f"{size}-nodes", VMSS, size, count, idle, more.pop("priority", "Regular"), region, **more)


def test_a_cluster_never_parked_shows_its_1_year_savings_plan_beside_the_cost() -> None:
    cost = estimate([demand(A100, count=4, idle=2)])
    (commitment,) = cost.commitments
    payg, plan = saved_rate(A100, "westeurope", "payg"), saved_rate(A100, "westeurope", "savingsPlan1Year")

    assert commitment.nodes == 2  # the always-on part: the idle nodes, every hour
    assert commitment.payg_monthly == pytest.approx(payg * 2 * 730)
    assert commitment.savings_plan_1y_monthly == pytest.approx(plan * 2 * 730)
    assert commitment.missing == ("3-year savings plan",)  # reservations: tests/catalog/test_reservations.py
    assert cost.monthly == pytest.approx(payg * 4 * 730)  # the totals are pay-as-you-go, unchanged


def test_nodes_that_stop_spot_nodes_and_cpu_nodes_have_no_commitment() -> None:
    parked = demand(T4, idle=0)
    shut_down = demand(T4, idle=1, idle_hours_per_day=10.0, idle_schedule="auto-shutdown")
    spot = demand(T4, priority="Spot")
    cpu = demand(D4, region="eastus")

    assert estimate([parked, shut_down, spot, cpu]).commitments == ()


def test_a_region_without_a_dated_rate_names_every_term_as_missing() -> None:
    (commitment,) = estimate([demand(T4, region="westus3", count=1, idle=1)]).commitments

    assert commitment.savings_plan_1y_monthly is None
    assert "no dated price of a 1-year savings plan, 3-year savings plan, 1-year reservation or 3-year reservation" in (
        commitment.text()
    )


def test_cost_of_an_inference_vm_without_shutdown_shows_the_plan_in_text_and_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    def always_on_in_westeurope(config: dict[str, Any]) -> None:
        config["azure-native:location"] = "westeurope"
        config["azure-gpu-stacks:vm"]["autoShutdown"] = False

    stack = stack_copy(tmp_path, "inference-t4", always_on_in_westeurope)
    plan = saved_rate(T4, "westeurope", "savingsPlan1Year")

    _, out, _ = run(capsys, "cost", stack, "--format", "json")
    cost = json.loads(out)["stacks"][0]["cost"]
    _, text, _ = run(capsys, "cost", stack)

    (row,) = cost["commitments"]
    assert (row["size"], row["region"], row["alwaysOnNodes"]) == (T4, "westeurope", 1)
    assert row["savingsPlan1YearUsdPerHour"] == plan
    assert row["savingsPlan1YearMonthlyUsd"] == round(plan * 730, 2)
    assert row["priceObserved"] == "2026-08-22" and row["priceSource"] == "azure-pricing-radar-cf741f2"
    assert cost["monthlyUsd"] == round(saved_rate(T4, "westeurope", "payg") * 730, 2)
    assert "Commitments for always-on GPU nodes (information, not in the totals" in text
    assert f"a 1-year savings plan {plan * 730:,.2f} ({plan:g} USD/h a node, observed 2026-08-22" in text


def test_the_shipped_training_clusters_plan_shows_its_reservations_and_names_the_savings_plans_as_missing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, out, _ = run(capsys, "plan", "training-a100")

    section = out[out.index("commitments for always-on GPU nodes") :]
    line = section.splitlines()[1]
    assert line.strip().startswith("train-vmss: 2 always-on Standard_ND96asr_v4 nodes in eastus")
    assert "; a 1-year reservation " in line and "; a 3-year reservation " in line  # tests/catalog/test_reservations.py
    assert line.endswith("no dated price of a 1-year savings plan or 3-year savings plan here")
