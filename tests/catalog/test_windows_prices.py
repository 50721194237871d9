"""No Windows rate stands in for a Linux price. The karpenter-provider-azure price table has no OS column, and
its eastus2 row for Standard_NCC40ads_H100_v5 (8.82) is the SkyPilot snapshot's Linux price (6.98) plus the
Windows licence for 40 vCPUs (0.046 USD per vCPU an hour: the Retail Prices API's Standard_D2as_v5 eastus rows,
Linux 0.086 and Windows 0.178). Expected values are read from the saved sources in data/prices/."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest
from azure_gpu_stacks.catalog import catalog, load_catalog

from scripts.refresh_catalog import main
from tests.conftest import KARPENTER_PRICES, REPO, SKYPILOT_PRICES, karpenter_prices

LICENCE_PER_VCPU = round(0.178 - 0.086, 3) / 2  # Standard_D2as_v5, eastus: Windows minus Linux, over 2 vCPUs
NCC = "Standard_NCC40ads_H100_v5"


def skypilot_linux() -> dict[tuple[str, str], float]:
    with SKYPILOT_PRICES.open(encoding="utf-8") as fh:
        return {(r["InstanceType"], r["Region"]): float(r["Price"]) for r in csv.DictReader(fh) if r["Price"]}


def is_windows_rate(price: float, linux: float, vcpus: int) -> bool:
    return abs(price - linux - vcpus * LICENCE_PER_VCPU) < 0.0005


def test_the_ncc40ads_eastus2_row_of_the_karpenter_table_is_the_windows_rate() -> None:
    _, karpenter = karpenter_prices()

    assert is_windows_rate(karpenter[(NCC, "eastus2")], skypilot_linux()[(NCC, "eastus2")], 40)


def test_no_catalog_price_is_a_linux_price_plus_the_windows_licence() -> None:
    linux = skypilot_linux()
    windows = [
        f"{size.name} in {region}: {price.payg}"
        for size in catalog().sizes
        for region, price in size.prices.items()
        if price.payg
        and (size.name, region) in linux
        and is_windows_rate(price.payg, linux[(size.name, region)], size.vcpus)
    ]

    assert windows == []
    assert catalog().get(NCC).usd_per_hour("eastus2") == linux[(NCC, "eastus2")]


def test_refresh_from_the_karpenter_table_rejects_the_windows_row_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "vm_sizes.yaml"
    shutil.copy(REPO / "catalog" / "vm_sizes.yaml", path)
    _, karpenter = karpenter_prices()

    argv = ["apply", "--catalog", str(path), "--observed", "2026-12-01", "--snapshot", str(KARPENTER_PRICES)]
    assert main([*argv, "--snapshot-source", "karpenter-azure-2b431da"]) == 0

    assert load_catalog(path).get(NCC).usd_per_hour("eastus2") == skypilot_linux()[(NCC, "eastus2")]
    assert load_catalog(path).get(NCC).usd_per_hour("centralus") == karpenter[(NCC, "centralus")]  # no Linux twin
    assert f"{NCC} in eastus2 ({karpenter[(NCC, 'eastus2')]}; Linux 6.98)" in capsys.readouterr().out
