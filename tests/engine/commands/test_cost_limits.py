"""`gpu-stacks cost` shows each stack's limit beside its totals (its budget's amount and where each notification
fires) and fails a pull request when a cost policy fails at `--fail-level`, as `check` does (issue 35). Run on
crafted copies of the shipped inference-t4 stack (one T4 VM in eastus: full scale 24 h a day). Expected figures
come from the stack's config and the catalog's data file, never from the pricing code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from azure_gpu_stacks.engine.cli import main

from tests.catalog.test_budget_thresholds import crafted, full_month


def cost(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["cost", *argv])
    return code, capsys.readouterr().out


def policy_config(tmp_path: Path, settings: dict[str, object]) -> str:
    path = tmp_path / "policy-config.json"
    path.write_text(json.dumps({"limit-stack-cost": settings}))
    return str(path)


def test_the_table_shows_the_budget_and_where_each_notification_fires_beside_the_totals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stack = crafted(tmp_path, {"amount": 300, "actualThresholds": [60, 100], "forecastThresholds": []})

    code, out = cost([stack], capsys)

    assert code == 0  # limit-stack-cost is advisory and withinBudgetThresholds off: information only
    [row] = [line for line in out.splitlines() if line.startswith("budget-test")]
    assert f"{full_month():,.2f}" in row
    assert row.rstrip().endswith("300.00 (actual 60 %: 180.00, actual 100 %: 300.00)")
    assert "Cost policies:" not in out  # 60 % of 300 fires above the idle 159.99 and below full scale: coherent


def test_json_says_where_each_notification_fires_and_whether_full_scale_reaches_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stack = crafted(tmp_path, {"amount": 500, "actualThresholds": [50, 80], "forecastThresholds": [100]})
    config = policy_config(tmp_path, {"maxMonthlyUsd": 300})  # advisory (the policy's own level)

    code, out = cost([stack, "--format", "json", "--policy-config", config], capsys)

    [entry] = json.loads(out)["stacks"]
    [budget] = entry["cost"]["budgets"]
    fires = {(n["thresholdType"], n["thresholdPercent"]): n for n in budget["notifications"]}
    assert budget["monthlyUsd"] == 500
    assert {k: n["firesAtMonthlyUsd"] for k, n in fires.items()} == {
        ("Actual", 50): 250, ("Actual", 80): 400, ("Forecasted", 100): 500
    }  # fmt: skip
    assert full_month() < 400
    assert {k: n["reachedAtFullScale"] for k, n in fires.items()} == {
        ("Actual", 50): True, ("Actual", 80): False, ("Forecasted", 100): False
    }  # fmt: skip
    [violation] = entry["costViolations"]
    assert (code, violation["policy"], violation["level"]) == (0, "limit-stack-cost", "advisory")
    assert (
        f"the stack costs {full_month():,.2f} USD a month at full scale, above the limit of 300.00"
        in (violation["message"])
    )


def test_a_mandatory_guardrail_fails_cost_when_full_scale_reaches_a_threshold_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stack = crafted(tmp_path, {"amount": 300, "actualThresholds": [60, 100, 200], "forecastThresholds": []})
    config = policy_config(tmp_path, {"enforcementLevel": "mandatory", "withinBudgetThresholds": True})

    code, out = cost([stack, "--policy-config", config, "--format", "markdown"], capsys)

    assert code == 1
    assert "Cost policies:" in out
    [line] = [line for line in out.splitlines() if "limit-stack-cost (mandatory)" in line]
    assert "notification 'Actual_GreaterThan_60_Percent' fires at 180.00 (Actual, 60 % of 300.00)" in line
    assert "notification 'Actual_GreaterThan_100_Percent' fires at 300.00 (Actual, 100 % of 300.00)" in line
    assert full_month() < 600 and "Actual_GreaterThan_200_Percent" not in line  # 200 % fires at 600: not reached
    assert main(["cost", stack, "--policy-config", config, "--fail-level", "none"]) == 0


def test_an_advisory_guardrail_fails_at_fail_level_advisory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stack = crafted(tmp_path, {"amount": 5000, "actualThresholds": [100], "forecastThresholds": []})
    config = policy_config(tmp_path, {"maxMonthlyUsd": 300})

    code, out = cost([stack, "--policy-config", config, "--fail-level", "advisory"], capsys)

    assert code == 1  # at the default level the same advisory note exits 0 (the JSON test above)
    assert f"limit-stack-cost (advisory): the stack costs {full_month():,.2f} USD a month at full scale, above " in out
