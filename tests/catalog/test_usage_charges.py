"""Usage-based and daily charges priced beside the VM totals: Log Analytics ingestion and retention, container
registries by SKU, key vault operations and storage accounts by redundancy, each on the usage values it states
(the shipped defaults of catalog/usage_assumptions.yaml, or the team's gpu-stacks.usage.yaml).

Expected figures come from infracost's golden files (cost over quantity; the files named in
catalog/charge_prices.yaml) and the shipped defaults, never from the pricing code: Log Analytics in West Europe
20 GB $59.80 and 30 GB retained $3.90; registries in West Europe Basic 30 days $5.00, Premium $50.00; key vault
secrets operations in eastus 7 x 10K $0.21; StorageV2 Hot in westus 51,200 GB $1,064.96 (LRS) / $2,344.96 (GRS),
writes 400 x 10k $22.00 (LRS) / $44.00 (GRS), reads 40 x 10k $0.18. A month is 730 hours (30.42 days)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from azure_gpu_stacks.catalog.demand import ResourceInputs
from azure_gpu_stacks.catalog.pricing import estimate_resources
from azure_gpu_stacks.catalog.usage import read_usage

from tests.conftest import REPO

SHIPPED = yaml.safe_load((REPO / "catalog" / "usage_assumptions.yaml").read_text(encoding="utf-8"))["assumptions"]
STACK = "urn:pulumi:test::azure-gpu-stacks::"
DAYS = 730 / 24

INGESTION_PER_GB = 59.80 / 20
RETENTION_PER_GB_MONTH = 3.90 / 30
BASIC_PER_30_DAYS, PREMIUM_PER_30_DAYS = 5.00, 50.00
VAULT_PER_10K = 0.21 / 7
CAPACITY_PER_GB = {"Standard_LRS": 1064.96 / 51_200, "Standard_GRS": 2344.96 / 51_200}
WRITES_PER_10K = {"Standard_LRS": 22.00 / 400, "Standard_GRS": 44.00 / 400}
READS_PER_10K = 0.18 / 40


def res(type_: str, name: str, inputs: dict[str, Any]) -> ResourceInputs:
    return ResourceInputs(f"{STACK}{type_}::{name}", type_, name, inputs)


def workspace(location: str, retention: float = 30.0, sku: str = "PerGB2018") -> ResourceInputs:
    inputs = {"resourceGroupName": "rg", "location": location, "sku": {"name": sku}, "retentionInDays": retention}
    return res("azure-native:operationalinsights:Workspace", "log", inputs)


def registry(location: str, sku: str) -> ResourceInputs:
    return res("azure-native:containerregistry:Registry", "cr", {"location": location, "sku": {"name": sku}})


def vault(location: str) -> ResourceInputs:
    inputs = {"location": location, "properties": {"sku": {"family": "A", "name": "standard"}}}
    return res("azure-native:keyvault:Vault", "kv", inputs)


def storage(location: str, sku: str, kind: str = "StorageV2", **more: Any) -> ResourceInputs:
    inputs = {"location": location, "kind": kind, "sku": {"name": sku}, **more}
    return res("azure-native:storage:StorageAccount", "st", inputs)


def charges(*resources: ResourceInputs, usage_root: Path | None = None) -> dict[str, Any]:
    usage = read_usage(usage_root) if usage_root else read_usage(Path("/nonexistent"))
    return {n.resource: n for n in estimate_resources(list(resources), usage=usage).not_counted}


def monthly(*resources: ResourceInputs, usage_root: Path | None = None) -> dict[str, float | None]:
    found = charges(*resources, usage_root=usage_root)
    return {k: None if n.estimate is None else round(n.estimate.monthly_usd, 2) for k, n in found.items()}


def test_log_analytics_ingestion_is_a_month_of_the_assumed_daily_gb_and_retention_past_31_days_is_added() -> None:
    gb_a_day = SHIPPED["logAnalyticsGbPerDay"]["value"]

    assert monthly(workspace("westeurope")) == {"log": round(gb_a_day * DAYS * INGESTION_PER_GB, 2)}
    ninety = gb_a_day * DAYS * INGESTION_PER_GB + gb_a_day * (90 - 31) * RETENTION_PER_GB_MONTH
    assert monthly(workspace("westeurope", retention=90)) == {"log": round(ninety, 2)}
    assert monthly(workspace("westeurope", sku="CapacityReservation")) == {"log": None}  # a commitment tier: named


def test_a_charge_without_a_rate_for_its_region_names_where_rates_were_read() -> None:
    (log,) = charges(workspace("eastus")).values()

    assert log.estimate is None
    assert "no dated rate for its settings in eastus here; rates read for westeurope" in str(log)
    assert log.to_json()["unpricedDetail"].startswith("no dated rate for its settings in eastus")


def test_a_registry_is_priced_by_its_sku_per_day_over_a_730_hour_month() -> None:
    assert monthly(registry("westeurope", "Basic")) == {"cr": round(BASIC_PER_30_DAYS * DAYS / 30, 2)} == {"cr": 5.07}
    assert monthly(registry("westeurope", "Premium")) == {"cr": round(PREMIUM_PER_30_DAYS * DAYS / 30, 2)}
    assert monthly(registry("westeurope", "Standard")) == {"cr": None}  # no dated Standard fee: named
    assert monthly(registry("eastus", "Basic")) == {"cr": None}


def test_key_vault_operations_are_priced_per_10k_on_the_assumed_count(tmp_path: Path) -> None:
    shipped = SHIPPED["keyVaultOperationsPerMonth"]["value"]
    assert monthly(vault("eastus")) == {"kv": round(shipped / 10_000 * VAULT_PER_10K, 2)} == {"kv": 0.03}

    (tmp_path / "gpu-stacks.usage.yaml").write_text("resources:\n  kv:\n    keyVaultOperationsPerMonth: 2000000\n")
    assert monthly(vault("eastus"), usage_root=tmp_path) == {"kv": round(200 * VAULT_PER_10K, 2)} == {"kv": 6.00}
    (kv,) = charges(vault("eastus"), usage_root=tmp_path).values()
    assert kv.estimate.assumptions == (
        "the key vault serves 2,000,000 operations a month (your file gpu-stacks.usage.yaml)",
    )


@pytest.mark.parametrize("sku", ["Standard_LRS", "Standard_GRS"])
def test_a_storage_account_is_priced_by_redundancy_on_its_capacity_writes_and_reads(sku: str) -> None:
    gb = SHIPPED["storageGb"]["value"]
    writes = SHIPPED["storageWriteOperationsPerMonth"]["value"] / 10_000
    reads = SHIPPED["storageReadOperationsPerMonth"]["value"] / 10_000
    expected = gb * CAPACITY_PER_GB[sku] + writes * WRITES_PER_10K[sku] + reads * READS_PER_10K

    assert monthly(storage("westus", sku)) == {"st": round(expected, 2)}
    (st,) = charges(storage("westus", sku)).values()
    assert [u.key for u in st.estimate.usage] == [
        "storageGb",
        "storageWriteOperationsPerMonth",
        "storageReadOperationsPerMonth",
    ]
    assert len(st.estimate.assumptions) == 3 and all("(shipped default, " in a for a in st.estimate.assumptions)


def test_storage_the_figures_do_not_cover_stays_named() -> None:
    assert monthly(storage("westus", "Standard_ZRS")) == {"st": None}  # the golden has no ZRS write rate
    assert monthly(storage("westus", "Standard_LRS", kind="Storage")) == {"st": None}
    assert monthly(storage("westus", "Standard_LRS", accessTier="Cool")) == {"st": None}
    assert monthly(storage("eastus", "Standard_LRS")) == {"st": None}


def test_workspace_based_application_insights_is_billed_through_its_workspace_and_classic_stays_named() -> None:
    based = res(
        "azure-native:applicationinsights:Component",
        "appi",
        {"location": "eastus", "kind": "web", "workspaceResourceId": "/subscriptions/x/workspaces/log"},
    )
    classic = res("azure-native:applicationinsights:Component", "appi", {"location": "eastus", "kind": "web"})

    assert charges(based) == {}
    assert list(charges(classic)) == ["appi"]


def test_managed_prometheus_is_named_with_why_it_has_no_price() -> None:
    """Without AKS GPU nodes (or outside westeurope) a workspace has no priced ingestion; queries never have a rate
    (tests/catalog/test_prometheus_charge.py prices the ingestion)."""
    (prometheus,) = charges(res("azure-native:monitor:AzureMonitorWorkspace", "prom", {"location": "eastus"})).values()

    assert prometheus.estimate is None and "no dated public rate for queries was found" in str(prometheus)
