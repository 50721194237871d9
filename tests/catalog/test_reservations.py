"""Reservations and dated Spot prices from saved rows without a `type` (issue 35): Jumbo2020/gpu_prices's workflow
saved the Retail Prices API's Compute rows of eastus (commit 64a289f) and of 19 regions for A100/H100-class sizes
(commit 04958df) on 2025-06-21, keeping no `type` or `reservationTerm`. A size's Linux rows without a suffix are its
pay-as-you-go price and its two reservations' whole-term prices; the lower term price is the 1-year one. Expected
values are the saved rows, read straight from the files (tests/saved_prices.py), and the typed rows another
repository saved (data/prices/README.md)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.catalog import catalog
from azure_gpu_stacks.catalog.demand import Demand
from azure_gpu_stacks.catalog.prices import RegionPrices
from azure_gpu_stacks.catalog.pricing import estimate

from tests.conftest import karpenter_prices
from tests.e2e.test_check_cli import run, stack_copy
from tests.json_schemas import schema_errors
from tests.saved_prices import JUMBO_FILES, TYPED_ROWS, jumbo_files, jumbo_linux_rows, name_key

READ_ON = dt.date(2025, 6, 21)
EASTUS_SOURCE = "jumbo2020-gpu-prices-64a289f"
T4, A100, A100X2 = "Standard_NC4as_T4_v3", "Standard_NC24ads_A100_v4", "Standard_NC48ads_A100_v4"
D4 = "Standard_D4s_v5"


# Standard_ND96asr_v4's rows carry two meter names (scripts/price_pages.py SHARED_METERS), read together where their
# rows agree (test_the_nd96asr_v4s_two_meters_...).
METERS = {"Standard_ND96asr_v4": ("nd96asra100v4", "nd96asra100v4nu")}
ND96ASR = "Standard_ND96asr_v4"


def base_rows(rows: dict[tuple[str, str, str], set[float]], name: str, region: str) -> list[float]:
    keys = METERS.get(name, (name_key(name),))
    return sorted({price for key in keys for price in rows.get((key, region, "base"), ())})


def reserved() -> list[tuple[str, str, RegionPrices]]:
    return [
        (size.name, region, prices)
        for size in catalog().sizes
        for region, prices in size.prices.items()
        if prices.reservation_1y is not None or prices.reservation_3y is not None
    ]


def test_the_saved_rows_were_committed_by_the_repositorys_workflow_on_the_day_they_were_read() -> None:
    for source in JUMBO_FILES:
        for saved in jumbo_files(source):
            assert saved["committer"] == "GitHub Actions <actions@github.com>"
            assert saved["committed"].startswith("2025-06-21")
            assert saved["commit"].startswith(source.rsplit("-", 1)[1])


def test_every_reservation_is_the_middle_and_highest_of_its_sizes_three_linux_rows() -> None:
    rows = {source: jumbo_linux_rows(source) for source in JUMBO_FILES}
    differs = []
    for name, region, prices in reserved():
        observed = prices.reservation_observed or prices.observed
        source = prices.reservation_source or prices.source
        assert observed == READ_ON and source in rows
        base = base_rows(rows[source], name, region)
        term_prices = [prices.reservation_1y, prices.reservation_3y]
        if len(base) != 3 or base[1:] != term_prices:
            differs.append(f"{name} {region}: {term_prices} ({base})")

    assert differs == []
    assert len(reserved()) >= 100
    assert {region for _, region, _ in reserved()} >= {"eastus", "westus", "westus2", "centralus", "westeurope"}


def test_the_lower_term_price_is_the_one_the_api_calls_1_year() -> None:
    typed = json.loads(TYPED_ROWS.read_text(encoding="utf-8"))["rows"]
    term = {row["reservationTerm"]: row["retailPrice"] for row in typed if row["type"] == "Reservation"}
    (payg,) = [row["retailPrice"] for row in typed if row["type"] == "Consumption"]
    untyped = sorted(jumbo_linux_rows(EASTUS_SOURCE)[(name_key(A100X2), "eastus", "base")])

    assert untyped == [payg, term["1 Year"], term["3 Years"]]  # eastus2's typed rows, 2026-08-22; eastus's, 2025-06-21
    eastus = catalog().get(A100X2).prices["eastus"]
    assert (eastus.reservation_1y, eastus.reservation_3y) == (term["1 Year"], term["3 Years"])


def test_a_size_whose_rows_fit_no_shape_gets_no_reservation() -> None:
    h100 = "Standard_ND96isr_H100_v5"
    base = jumbo_linux_rows(EASTUS_SOURCE)[(name_key(h100), "eastus", "base")]

    assert len(base) == 4  # a fourth term price: which is which cannot be told
    assert catalog().get(h100).prices["eastus"].reservation_1y is None


def test_eastus_spot_prices_of_the_shipped_sizes_are_dated_now() -> None:
    rows = jumbo_linux_rows(EASTUS_SOURCE)
    for name in (T4, A100):
        eastus = catalog().get(name).prices["eastus"]
        assert {eastus.spot} == rows[(name_key(name), "eastus", "spot")]
        assert (eastus.spot_observed, eastus.spot_source) == (READ_ON, EASTUS_SOURCE)


def test_an_always_on_t4_in_eastus_shows_both_reservations_beside_its_cost() -> None:
    term_1y, term_3y = sorted(jumbo_linux_rows(EASTUS_SOURCE)[(name_key(T4), "eastus", "base")])[1:]
    vmss = Demand("t4-nodes", "azure-native:compute:VirtualMachineScaleSet", T4, 2, 2, "Regular", "eastus")

    cost = estimate([vmss])
    (commitment,) = cost.commitments

    assert commitment.reservation_monthly("1-year reservation") == pytest.approx(term_1y / 12 * 2)
    assert commitment.reservation_monthly("3-year reservation") == pytest.approx(term_3y / 36 * 2)
    assert commitment.missing == ("1-year savings plan", "3-year savings plan")
    assert f"a 1-year reservation {term_1y / 12 * 2:,.2f} ({term_1y:,.0f} USD a node for the term" in commitment.text()
    assert f"observed 2025-06-21, {EASTUS_SOURCE}" in commitment.text()
    assert cost.monthly == pytest.approx(catalog().get(T4).prices["eastus"].payg * 2 * 730)  # not in the totals


def test_cost_of_an_eastus_inference_vm_without_shutdown_shows_the_reservations_in_json_and_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    def always_on(config: dict[str, Any]) -> None:
        config["azure-gpu-stacks:vm"]["autoShutdown"] = False

    stack = stack_copy(tmp_path, "inference-t4", always_on)
    term_1y, term_3y = sorted(jumbo_linux_rows(EASTUS_SOURCE)[(name_key(T4), "eastus", "base")])[1:]

    _, out, _ = run(capsys, "cost", stack, "--format", "json")
    document = json.loads(out)
    _, text, _ = run(capsys, "cost", stack)

    assert schema_errors("cost", document) == []
    (row,) = document["stacks"][0]["cost"]["commitments"]
    assert [(r["term"], r["termUsd"], r["monthlyUsd"]) for r in row["reservations"]] == [
        ("1-year reservation", term_1y, round(term_1y / 12, 2)),
        ("3-year reservation", term_3y, round(term_3y / 36, 2)),
    ]
    assert {(r["priceObserved"], r["priceSource"]) for r in row["reservations"]} == {("2025-06-21", EASTUS_SOURCE)}
    assert row["noDatedPrice"] == ["1-year savings plan", "3-year savings plan"]
    assert f"a 3-year reservation {term_3y / 36:,.2f} ({term_3y:,.0f} USD a node for the term" in text


def test_the_shipped_aks_system_pools_price_is_dated_now() -> None:
    base = jumbo_linux_rows(EASTUS_SOURCE)[(name_key(D4), "eastus", "base")]
    price = catalog().get(D4).price("eastus")

    assert price is not None and (str(price.observed), price.source) == ("2025-06-21", EASTUS_SOURCE)
    assert price.usd_per_hour == min(base) and len(base) == 3  # pay-as-you-go and the two terms


def test_the_nd96asr_v4s_two_meters_have_one_set_of_prices_so_the_training_cluster_has_reservations() -> None:
    rows = jumbo_linux_rows(EASTUS_SOURCE)
    meters = METERS[ND96ASR]
    karpenter = karpenter_prices()[1]

    assert (
        karpenter[(ND96ASR, "eastus")] == karpenter[("Standard_ND96asr_A100_v4", "eastus")]
    )  # two ARM names, one price
    for kind in ("base", "spot"):
        assert rows[(meters[0], "eastus", kind)] == rows[(meters[1], "eastus", kind)]  # two meters, one set of prices
    payg, term_1y, term_3y = sorted(rows[(meters[0], "eastus", "base")])
    eastus = catalog().get(ND96ASR).prices["eastus"]
    assert (eastus.reservation_1y, eastus.reservation_3y) == (term_1y, term_3y)
    assert payg == eastus.payg and {eastus.spot} == rows[(meters[0], "eastus", "spot")]
    assert "westus3" not in catalog().get(ND96ASR).prices  # karpenter lists only the other ARM name there
