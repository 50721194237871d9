"""The shipped VM size catalog: it validates, it knows every size the facts name, and look-ups behave.

The facts these tests pin come from the sources the catalog cites for each size; each one is a
fact a user's deployment or cost report depends on.
"""

from __future__ import annotations

import copy
import csv
import datetime as dt
from pathlib import Path
from typing import Any

import pydantic
import pytest
import yaml
from azure_gpu_stacks.catalog import UnknownVmSize, catalog, load_catalog
from azure_gpu_stacks.catalog.model import DATA_FILE

from tests.conftest import SKYPILOT_PRICES, karpenter_prices
from tests.policy_helpers import catalog_document

# Every GPU size named in facts sections 1.2 (retired), 1.3 (retiring) and 2.1-2.12 (current).
FACTS_GPU_SIZES = [
    # 1.2 retired
    "Standard_NC6", "Standard_NC12", "Standard_NC24", "Standard_NC24r",
    "Standard_NC6_Promo", "Standard_NC12_Promo", "Standard_NC24_Promo", "Standard_NC24r_Promo",
    "Standard_NC6s_v2", "Standard_NC12s_v2", "Standard_NC24s_v2", "Standard_NC24rs_v2",
    "Standard_ND6s", "Standard_ND12s", "Standard_ND24s", "Standard_ND24rs",
    "Standard_NV6", "Standard_NV12", "Standard_NV24",
    "Standard_NV6_Promo", "Standard_NV12_Promo", "Standard_NV24_Promo",
    "Standard_NC6s_v3", "Standard_NC12s_v3", "Standard_NC24s_v3", "Standard_NC24rs_v3",
    # 1.3 retiring
    "Standard_NV12s_v3", "Standard_NV12hs_v3", "Standard_NV24s_v3", "Standard_NV24ms_v3",
    "Standard_NV32ms_v3", "Standard_NV48s_v3",
    "Standard_NV4as_v4", "Standard_NV4ahs_v4", "Standard_NV8as_v4", "Standard_NV8ahs_v4",
    "Standard_NV16as_v4", "Standard_NV16ahs_v4", "Standard_NV32as_v4", "Standard_NV32ahs_v4",
    # 2.1-2.12 current
    "Standard_NC4as_T4_v3", "Standard_NC8as_T4_v3", "Standard_NC16as_T4_v3", "Standard_NC64as_T4_v3",
    "Standard_NC24ads_A100_v4", "Standard_NC48ads_A100_v4", "Standard_NC96ads_A100_v4",
    "Standard_NC40ads_H100_v5", "Standard_NC80adis_H100_v5",
    "Standard_NCC40ads_H100_v5",
    "Standard_ND96asr_v4",
    "Standard_ND96amsr_A100_v4",
    "Standard_ND96isr_H100_v5",
    "Standard_ND96isr_H200_v5",
    "Standard_ND96isr_MI300X_v5",
    "Standard_ND40rs_v2",
    "Standard_NV6ads_A10_v5", "Standard_NV12ads_A10_v5", "Standard_NV18ads_A10_v5",
    "Standard_NV36ads_A10_v5", "Standard_NV36adms_A10_v5", "Standard_NV72ads_A10_v5",
    "Standard_NG8ads_V620_v1", "Standard_NG16ads_V620_v1", "Standard_NG32ads_V620_v1",
    "Standard_NG32adms_V620_v1",
]  # fmt: skip

# NP is an FPGA series (https://learn.microsoft.com/azure/virtual-machines/migration/sizes/n-series-migration):
# catalogued, but never counted as GPU capacity.
FACTS_FPGA_SIZES = ["Standard_NP10s", "Standard_NP20s", "Standard_NP40s"]


def _raw_catalog() -> dict[str, Any]:
    """The shipped file's data, a copy of its own for the test to change (read once: tests/policy_helpers.py)."""
    return copy.deepcopy(catalog_document())


def _write(tmp_path: Path, raw: dict[str, Any]) -> Path:
    path = tmp_path / "vm_sizes.yaml"
    # libyaml's emitter where PyYAML has it: the same document, 0.2 CPU-s less than the pure-Python one
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    path.write_text(yaml.dump(raw, Dumper=dumper, sort_keys=False), encoding="utf-8")
    return path


def _size_entry(raw: dict[str, Any], name: str) -> dict[str, Any]:
    return next(entry for entry in raw["sizes"] if entry["name"] == name)


# --- the shipped file -------------------------------------------------------------------------


def test_catalog_shipped_file_validates() -> None:
    shipped = load_catalog(DATA_FILE)

    assert shipped.sizes
    assert shipped.prices.currency == "USD"


def test_catalog_replacements_are_current_catalog_sizes() -> None:
    shipped = load_catalog(DATA_FILE)
    problems = []
    for size in shipped.sizes:
        if size.lifecycle.status == "current":
            continue
        replacement = shipped.find(size.lifecycle.replacement or "")
        if replacement is None:
            problems.append(f"{size.name}: replacement {size.lifecycle.replacement} is not in the catalog")
        elif replacement.lifecycle.status != "current":
            problems.append(f"{size.name}: replacement {replacement.name} is {replacement.lifecycle.status}")

    assert problems == []


def test_catalog_regions_are_sorted_unique_arm_names() -> None:
    regions = catalog().regions

    assert list(regions) == sorted(set(regions))
    assert all(region == region.lower() and " " not in region for region in regions)


@pytest.mark.parametrize("name", FACTS_GPU_SIZES)
def test_catalog_lists_gpu_size_from_facts(name: str) -> None:
    size = catalog().find(name)

    assert size is not None, f"{name} is missing from vm_sizes.yaml"
    assert size.name == name
    assert size.is_gpu


@pytest.mark.parametrize("name", FACTS_FPGA_SIZES)
def test_catalog_fpga_size_is_not_a_gpu(name: str) -> None:
    size = catalog().get(name)

    assert size.gpus == 0
    assert size.gpu_model is None


# --- look-ups -------------------------------------------------------------------------------------


def test_catalog_lookup_ignores_case() -> None:
    assert catalog().get("STANDARD_nc4AS_t4_V3").name == "Standard_NC4as_T4_v3"


def test_catalog_lookup_accepts_missing_standard_prefix() -> None:
    assert catalog().get("nc4as_t4_v3").name == "Standard_NC4as_T4_v3"


def test_catalog_unknown_size_raises_with_close_matches() -> None:
    with pytest.raises(UnknownVmSize) as raised:
        catalog().get("Standard_NC4as_T4")

    assert str(raised.value).startswith("unknown VM size 'Standard_NC4as_T4'; did you mean Standard_NC4as_T4_v3")
    assert raised.value.suggestions[0] == "Standard_NC4as_T4_v3"


# --- facts users depend on ------------------------------------------------------------------------


def test_catalog_nd96asr_v4_has_eight_gpus() -> None:
    assert catalog().get("Standard_ND96asr_v4").gpus == 8


def test_catalog_nd96asr_v4_has_1600_gbps_infiniband() -> None:
    assert catalog().get("Standard_ND96asr_v4").infiniband_gbps == 1600


def test_catalog_nd96asr_v4_boots_gen2_only() -> None:
    assert catalog().get("Standard_ND96asr_v4").hyperv_generations == ("V2",)


def test_catalog_nd96asr_v4_quota_family() -> None:
    assert catalog().get("Standard_ND96asr_v4").quota_family == "standardNDASv4_A100Family"


RADAR_REGIONS = {"westeurope", "northeurope", "francecentral", "swedencentral"}


def test_catalog_prices_a_gpu_size_in_each_region_its_sources_list_each_price_with_its_own_date() -> None:
    day, karpenter = karpenter_prices()
    t4 = "Standard_NC4as_T4_v3"
    listed = {region: usd for (name, region), usd in karpenter.items() if name == t4}
    rows = [r for r in csv.DictReader(SKYPILOT_PRICES.open(encoding="utf-8")) if r["InstanceType"] == t4]
    spot = {r["Region"]: float(r["SpotPrice"]) for r in rows if r["SpotPrice"] not in ("", r["Price"])}
    size = catalog().get(t4)

    assert len(listed) > 20 and {"westeurope", "swedencentral", "japaneast"} <= set(listed)
    assert {region: size.usd_per_hour(region) for region in listed} == listed  # pay-as-you-go: the dated table
    # (read again, with Spot, from azure-pricing-radar's rows of 2026-08-22 in four European regions)
    assert {str(size.price(region).observed) for region in set(listed) - RADAR_REGIONS} == {day}
    assert {str(size.price(region).observed) for region in RADAR_REGIONS} == {"2026-08-22"}
    undated = {region: usd for region, usd in spot.items() if region != "eastus"}  # eastus: dated rows, below
    assert undated and {region: size.usd_per_hour(region, spot=True) for region in undated} == undated  # SkyPilot's
    assert {size.price(region, spot=True).observed for region in undated} == {"unknown"}
    assert str(size.price("eastus", spot=True).observed) == "2025-06-21"  # tests/catalog/test_reservations.py
    assert all(size.price(region, spot=True) is None for region in set(listed) - set(spot) - RADAR_REGIONS)
    uncovered = [r for r in catalog().regions if r not in listed and r not in {row["Region"] for row in rows}]
    assert uncovered and all(size.price(r) is None for r in uncovered)  # a region no source covers has no price


def test_catalog_payg_and_spot_prices_are_the_files_for_every_size_and_region() -> None:
    # A price refresh rewrites the file; the model must hand out exactly what the file says, size by size.
    written = {
        (s["name"], region): (entry.get("payg"), entry.get("spot"))
        for s in _raw_catalog()["sizes"]
        for region, entry in (s.get("prices") or {}).items()
    }

    handed_out = {
        (s.name, region): (s.usd_per_hour(region), s.usd_per_hour(region, spot=True))
        for s in catalog().sizes
        for region in s.prices
    }
    assert handed_out == written
    assert any(payg for payg, _ in written.values())


def test_catalog_nc6s_v3_retired_on_2025_09_30() -> None:
    size = catalog().get("Standard_NC6s_v3")

    assert size.status_on(dt.date(2025, 9, 30)) == "retired"
    assert size.status_on(dt.date(2025, 9, 29)) != "retired"
    assert size.lifecycle.date == dt.date(2025, 9, 30)


def test_catalog_nv12s_v3_retired_on_2026_09_30() -> None:
    lifecycle = catalog().get("Standard_NV12s_v3").lifecycle

    assert lifecycle.status == "retired"
    assert lifecycle.date == dt.date(2026, 9, 30)


def test_catalog_retiring_size_counts_as_retired_once_its_date_has_come() -> None:
    size = catalog().get("Standard_NV12s_v3")

    assert size.status_on(dt.date(2026, 9, 29)) == "retiring"
    assert size.status_on(dt.date(2026, 9, 30)) == "retired"


def test_catalog_ncc40ads_h100_v5_lacks_accelerated_networking() -> None:
    assert catalog().get("Standard_NCC40ads_H100_v5").accelerated_networking is False


# --- bad files are refused ------------------------------------------------------------------------


def test_load_catalog_rejects_retired_size_without_date(tmp_path: Path) -> None:
    raw = _raw_catalog()
    del _size_entry(raw, "Standard_NC6")["lifecycle"]["date"]

    with pytest.raises(pydantic.ValidationError, match="a retired size needs a date and a replacement"):
        load_catalog(_write(tmp_path, raw))


def test_load_catalog_rejects_unknown_key(tmp_path: Path) -> None:
    raw = _raw_catalog()
    _size_entry(raw, "Standard_NC4as_T4_v3")["gpuCount"] = 1

    with pytest.raises(pydantic.ValidationError, match="gpuCount"):
        load_catalog(_write(tmp_path, raw))


def test_load_catalog_rejects_size_listed_twice(tmp_path: Path) -> None:
    raw = _raw_catalog()
    duplicate = copy.deepcopy(_size_entry(raw, "Standard_NC4as_T4_v3"))
    duplicate["name"] = "standard_nc4as_t4_v3"  # names compare case-insensitively
    raw["sizes"].append(duplicate)

    with pytest.raises(ValueError, match="the catalog lists a size twice"):
        load_catalog(_write(tmp_path, raw))


# Azure's node health checks, `check_nccl_allreduce <floor> ... <message size>` in conf/<size>.conf
# (github.com/Azure/azurehpc-health-checks, observed 2026-11-22).
NCCL_FLOORS = {
    "Standard_ND96asr_v4": (228.0, "8G", "conf/nd96asr_v4.conf"),
    "Standard_ND96amsr_A100_v4": (228.0, "4G", "conf/nd96amsr_a100_v4.conf"),
    "Standard_ND96isr_H100_v5": (460.0, "16G", "conf/nd96isr_h100_v5.conf"),
    "Standard_ND96isr_H200_v5": (431.0, "16G", "conf/nd96isr_h200_v5.conf"),
}


@pytest.mark.parametrize("name", sorted(NCCL_FLOORS))
def test_catalog_nccl_all_reduce_floor_is_azures_with_its_source(name: str) -> None:
    floor = catalog().get(name).nccl_all_reduce

    assert floor is not None
    bandwidth, message, conf = NCCL_FLOORS[name]
    assert (floor.bus_bandwidth_gbps, floor.message_size) == (bandwidth, message)
    assert floor.source == f"https://github.com/Azure/azurehpc-health-checks/blob/main/{conf}"


def test_catalog_nccl_all_reduce_floor_only_on_the_sizes_azure_gives_one() -> None:
    assert sorted(s.name for s in catalog().sizes if s.nccl_all_reduce) == sorted(NCCL_FLOORS)


def test_catalog_refuses_an_nccl_message_size_nccl_tests_cannot_take(tmp_path: Path) -> None:
    raw = _raw_catalog()
    _size_entry(raw, "Standard_ND96asr_v4")["ncclAllReduce"]["messageSize"] = "8 GB"

    with pytest.raises(pydantic.ValidationError, match="messageSize"):
        load_catalog(_write(tmp_path, raw))
