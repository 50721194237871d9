"""Prices that say how old they are: each price carries its own observed date and source, every
output that shows money names the oldest price used and its source, sizes without a price make the
total a lower bound that names them, and AML low priority at the Spot rate is labelled an assumption.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from azure_gpu_stacks.catalog import catalog
from azure_gpu_stacks.catalog.prices import Price

from tests.conftest import REPO, karpenter_prices
from tests.e2e.test_check_cli import run, stack_copy
from tests.shared_plans import plans_shared

SNAPSHOT = catalog().prices.sources["skypilot-v6-098741e"]
GB300 = "Standard_ND128isr_GB300_v6"  # no source lists a price for it


def test_every_price_has_its_own_date_and_a_described_source() -> None:
    prices = [
        p for s in catalog().sizes for region in s.prices for p in (s.price(region), s.price(region, spot=True)) if p
    ]
    assert len(prices) > 50
    assert all(p.source in catalog().prices.sources for p in prices)
    snapshot = [p for p in prices if p.source == "skypilot-v6-098741e"]
    assert snapshot and all(p.observed == "unknown" for p in snapshot)  # the snapshot does not say when
    assert "unknown date" in SNAPSHOT.description and SNAPSHOT.url.endswith("catalogs/v6/azure/vms.csv")
    day, _ = karpenter_prices()
    dated = [p for p in prices if p.source == "karpenter-azure-2b431da"]
    assert dated and {str(p.observed) for p in dated} == {day}  # the day its table says it was generated
    assert day in catalog().prices.sources["karpenter-azure-2b431da"].description


def t4_price() -> Price:
    price = catalog().get("Standard_NC4as_T4_v3").price("eastus")  # inference-t4's one VM
    assert price is not None
    return price


def gb300_pool(config: dict[str, Any]) -> None:
    config["azure-gpu-stacks:aksGpuPool"]["vmSize"] = GB300  # AKS takes it; the catalog has no price for it


def low_priority(config: dict[str, Any]) -> None:
    config["azure-gpu-stacks:amlCluster"]["vmPriority"] = "LowPriority"


@pytest.fixture(scope="module")
def copies(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The changed stack files that several tests read, written once for the file; no test changes them."""
    folder = tmp_path_factory.mktemp("copies")
    stack_copy(folder, "aks-gpu", gb300_pool)
    stack_copy(folder, "aml-gpu", low_priority)
    return folder


@pytest.fixture(scope="module", autouse=True)
def plans(copies: Path) -> Iterator[dict[str, Any]]:
    """The file's plans by their arguments (tests/shared_plans.py): plan, plan --json, cost and check of a stack
    (a shipped one or one of `copies`) report the same plan of it."""
    with plans_shared(unchanged=(copies,)) as plans:
        yield plans


def test_plan_json_names_the_oldest_price_and_its_source(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "plan", "inference-t4", "--json")
    cost = json.loads(out)["cost"]

    price = t4_price()
    source = catalog().prices.sources[price.source]
    assert (cost["pricesObserved"], cost["pricesSource"]) == (price.observed_text, source.url)
    assert cost["vmsComplete"] is True and cost["unpricedSizes"] == []
    assert [(r["priceObserved"], r["priceSource"]) for r in cost["resources"]] == [(price.observed_text, price.source)]


def test_a_size_without_a_price_makes_the_total_a_lower_bound_naming_it(
    capsys: pytest.CaptureFixture[str], copies: Path
) -> None:
    stack = str(copies / "Pulumi.aks-gpu.yaml")  # gb300_pool

    _, out, _ = run(capsys, "plan", stack, "--json")
    cost = json.loads(out)["cost"]
    assert (cost["complete"], cost["lowerBound"], cost["unpricedSizes"]) == (False, True, [GB300])
    assert cost["monthlyUsd"] > 0  # the system pool, priced

    _, text, _ = run(capsys, "plan", stack)
    assert f"full scale at least {cost['hourlyUsd']:,.4f} USD/h = at least {cost['monthlyUsd']:,.2f} USD/month" in text
    assert "lower bound: not in the totals, no price known: " in text and GB300 in text


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_cost_in_every_format_names_the_oldest_price_date_and_source_and_the_lower_bound(
    capsys: pytest.CaptureFixture[str], copies: Path, fmt: str
) -> None:
    stack = str(copies / "Pulumi.aks-gpu.yaml")  # gb300_pool

    code, out, _ = run(capsys, "cost", stack, "inference-t4", "--format", fmt)

    # aks-gpu's oldest price is its CPU system pool's (Standard_D4s_v5 in eastus, dated 2025-06-21 since issue 35)
    system = catalog().get("Standard_D4s_v5").price("eastus")
    assert system is not None
    oldest = catalog().prices.sources[system.source]
    assert code == 0
    if fmt == "json":
        costs = {s["stack"]: s["cost"] for s in json.loads(out)["stacks"]}
        assert costs["aks-gpu"]["lowerBound"] and costs["aks-gpu"]["unpricedSizes"] == [GB300]
        assert (costs["aks-gpu"]["pricesObserved"], costs["aks-gpu"]["pricesSource"]) == (
            system.observed_text,
            oldest.url,
        )
        t4 = t4_price()
        assert costs["inference-t4"]["pricesObserved"] == t4.observed_text
    else:
        assert f"oldest price used: observed {system.observed_text}, {oldest.description} ({oldest.url})" in out
        assert f">= a lower bound: no price is known for {GB300}" in out
        assert [line for line in out.splitlines() if "aks-gpu" in line and ">= " in line]


def test_check_markdown_shows_the_oldest_price_and_its_source(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "check", "inference-t4", "--format", "markdown")

    price = t4_price()
    source = catalog().prices.sources[price.source]
    assert f"oldest price used: observed {price.observed}, {source.description} ({source.url})" in out


def test_aml_low_priority_is_priced_and_labelled_as_spot_with_the_eviction_caveat(
    capsys: pytest.CaptureFixture[str], copies: Path
) -> None:
    stack = str(copies / "Pulumi.aml-gpu.yaml")  # low_priority

    _, out, _ = run(capsys, "plan", stack, "--json")
    plan = json.loads(out)
    [resource] = plan["cost"]["resources"]
    spot = catalog().get(resource["size"]).usd_per_hour(resource["region"], spot=True)
    assert spot is not None and resource["hourlyUsd"] == pytest.approx(spot * resource["count"], abs=5e-5)
    assert resource["priceBasis"].startswith("Spot")
    assert "evicted" in plan["cost"]["spotCaveat"]
    assert any("low-priority VMs were retired for Azure ML on 2026-03-31" in w for w in plan["warnings"])

    _, text, _ = run(capsys, "plan", stack)
    assert "Spot (Azure ML low priority)" in text and "evicted" in text

    _, table, _ = run(capsys, "cost", stack)
    assert "evicted" in table and "2026-03-31" in table


def in_region(region: str) -> Any:
    def edit(config: dict[str, Any]) -> None:
        config["azure-native:location"] = region

    return edit


def test_cost_prints_each_size_and_region_with_the_day_its_price_was_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    region = "germanywestcentral"  # listed by the dated karpenter table only
    t4 = catalog().get("Standard_NC4as_T4_v3")
    price = t4.price(region)
    assert price is not None and price.source == "karpenter-azure-2b431da"
    stack = stack_copy(tmp_path, "inference-t4", in_region(region))

    code, out, _ = run(capsys, "cost", stack)

    assert code == 0
    row = next(line for line in out.splitlines() if line.startswith(f"{t4.name} ") and region in line)
    assert row.split() == [
        t4.name,
        region,
        "pay-as-you-go",
        f"{price.usd_per_hour:.4f}",
        str(price.observed),
        price.source,
    ]
    source = catalog().prices.sources[price.source]
    assert f"{price.source}: {source.description} ({source.url})" in out


def test_a_spot_pool_in_a_region_without_a_spot_price_is_a_lower_bound_naming_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    region = "uksouth"  # the dated karpenter table has list prices only; no Spot source covers uksouth
    config = yaml.safe_load((REPO / "stacks" / "Pulumi.aks-gpu.yaml").read_text())["config"]
    size = catalog().get(config["azure-gpu-stacks:aksGpuPool"]["vmSize"])
    assert size.price(region) is not None and size.price(region, spot=True) is None

    def spot_in_region(config: dict[str, Any]) -> None:
        config["azure-native:location"] = region
        config["azure-gpu-stacks:aksGpuPool"]["spot"] = True

    _, out, _ = run(capsys, "cost", stack_copy(tmp_path, "aks-gpu", spot_in_region), "--format", "json")
    cost = json.loads(out)["stacks"][0]["cost"]

    assert cost["lowerBound"] is True and f"{size.name} in {region}" in cost["unpriced"]
    why = [r["unpriced"] for r in cost["resources"] if r["size"] == size.name]
    assert why == [f"the catalog has no Spot price for {size.name} in {region}"]
