"""Budget coherence per notification threshold, through `gpu-stacks check` on crafted copies of the shipped
inference-t4 stack (one T4 VM in eastus, shut down daily at 19:00: idle 10 h a day, full scale 24 h).

What fires is a notification, at amount x threshold %, not the amount. Expected figures come from the catalog's
price for the size (its data file, as written), never from the pricing code."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from azure_gpu_stacks.engine.cli import main

from tests.conftest import REPO
from tests.policy_helpers import catalog_size

T4 = "Standard_NC4as_T4_v3"
MONTH = 730  # hours, as Azure's pricing calculator counts a month
POLICY = "warn-incoherent-budgets"


def t4_hourly() -> float:
    return float(catalog_size(T4)["prices"]["eastus"]["payg"])


def idle_month() -> float:
    return t4_hourly() * 10 / 24 * MONTH  # the VM runs 09:00-19:00 UTC (docs/prices.md: assumed start 09:00)


def full_month() -> float:
    return t4_hourly() * MONTH


def crafted(tmp_path: Path, cost_alert: dict[str, object], location: str = "eastus") -> str:
    """inference-t4 with `cost_alert` as its costAlert (and `location` as its region)."""
    document = yaml.safe_load((REPO / "stacks" / "Pulumi.inference-t4.yaml").read_text())
    document["config"]["azure-gpu-stacks:costAlert"] = {"contactEmails": ["ml@example.com"], **cost_alert}
    document["config"]["azure-native:location"] = location
    path = tmp_path / "Pulumi.budget-test.yaml"
    path.write_text(yaml.safe_dump(document))
    return str(path)


def budget_notes(stack: str, capsys: pytest.CaptureFixture[str]) -> list[str]:
    main(["check", stack])
    out = capsys.readouterr().out
    return [line.strip() for line in out.splitlines() if f"] {POLICY}:" in line]


def test_the_figures_are_those_the_issue_names() -> None:
    assert (round(idle_month(), 2), round(full_month(), 2)) == (159.99, 383.98)


def test_a_low_threshold_on_a_large_amount_fires_and_is_not_called_never_firing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 5 % of 5,000 fires at 250 USD: between idle and full scale. The amount alone is 13x full scale.
    stack = crafted(tmp_path, {"amount": 5000, "actualThresholds": [5], "forecastThresholds": []})

    assert idle_month() < 5000 * 0.05 < full_month()
    assert budget_notes(stack, capsys) == []


def test_a_high_threshold_on_a_small_amount_is_not_called_firing_every_month(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 500 % of 100 fires at 500 USD: above full scale, within the default margin (3x); the amount alone is
    # below the idle cost.
    stack = crafted(tmp_path, {"amount": 100, "actualThresholds": [500], "forecastThresholds": []})

    assert 100 < idle_month() and full_month() < 500 < 3 * full_month()
    assert budget_notes(stack, capsys) == []


def test_each_incoherent_notification_is_named_and_the_coherent_one_is_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # amount 1,000: actual 10 % fires at 100 (below idle), actual 30 % at 300 (coherent),
    # forecast 150 % at 1,500 (more than 3x full scale).
    stack = crafted(tmp_path, {"amount": 1000, "actualThresholds": [10, 30], "forecastThresholds": [150]})

    notes = budget_notes(stack, capsys)

    assert len(notes) == 2
    [low] = [n for n in notes if "Actual_GreaterThan_10_Percent" in n]
    [high] = [n for n in notes if "Forecasted_GreaterThan_150_Percent" in n]
    assert "notification 'Actual_GreaterThan_10_Percent' (Actual, 10 % of 1,000.00 USD a month)" in low
    assert f"fires every month: it (100.00 USD a month) is below the idle cost ({idle_month():,.2f} USD" in low
    assert "notification 'Forecasted_GreaterThan_150_Percent' (Forecasted, 150 % of 1,000.00 USD a month)" in high
    assert (
        f"can never fire: it (1,500.00 USD a month) is more than 200% above the full-scale cost ({full_month():,.2f}"
        in (high)
    )
    assert not [n for n in notes if "_30_Percent" in n]


def test_a_lower_bound_estimate_never_says_can_never_fire(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A region the catalog has no T4 price for: the cost is a lower bound (0 known), so even 1,000 % of
    # 1,000,000 USD is not called too high.
    from azure_gpu_stacks.catalog import catalog

    unpriced = next(r for r in catalog().regions if r not in catalog_size(T4)["prices"])
    alert = {"amount": 1_000_000, "actualThresholds": [1000], "forecastThresholds": []}

    assert [n for n in budget_notes(crafted(tmp_path, alert), capsys) if "can never fire" in n]  # priced: too high
    assert not [n for n in budget_notes(crafted(tmp_path, alert, location=unpriced), capsys) if "can never fire" in n]
