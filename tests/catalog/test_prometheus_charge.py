"""Managed Prometheus ingestion of the DCGM exporter's GPU series, priced beside the VM totals where a dated rate is
known (issue 35: "the monitoring added for GPUs ... priced from a dated public source").

Expected figures come from the saved sources, never from the pricing code: the rate is infracost's golden
"Metrics ingestion 10.56 10M samples $1.69" (West Europe, data/prices/infracost-e9ce629-monitor-data-collection-
rule-test.golden); the series per GPU are the DCGM fields of the dcgm-exporter chart's metrics ConfigMap
(data/prices/dcgm-exporter-d5e5f51-metrics-configmap.yaml); Managed Prometheus scrapes every 30 seconds ("The
default scrape frequency for all default targets and scrapes is 30 seconds",
learn.microsoft.com/azure/azure-monitor/containers/prometheus-metrics-scrape-default, observed 2026-11-27); a month
is 730 hours. GPUs per size from Learn's size pages: NC48ads_A100_v4 has 2 A100 GPUs, D4s_v5 none."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from azure_gpu_stacks.catalog.demand import ResourceInputs
from azure_gpu_stacks.catalog.pricing import estimate_resources
from azure_gpu_stacks.catalog.usage import read_usage

from tests.conftest import REPO

PRICES = REPO / "data" / "prices"
SHIPPED = yaml.safe_load((REPO / "catalog" / "usage_assumptions.yaml").read_text(encoding="utf-8"))["assumptions"]
GOLDEN = (PRICES / "infracost-e9ce629-monitor-data-collection-rule-test.golden").read_text(encoding="utf-8")
CONFIGMAP = (PRICES / "dcgm-exporter-d5e5f51-metrics-configmap.yaml").read_text(encoding="utf-8")
STACK = "urn:pulumi:test::azure-gpu-stacks::"
WORKSPACE = "azure-native:monitor:AzureMonitorWorkspace"
SCRAPES_A_MONTH = 730 * 3600 / 30


def golden_rate() -> float:
    """USD per 10 million samples: the golden's priced line, cost over quantity."""
    found = re.search(r"Metrics ingestion\s+([\d.]+)\s+10M samples\s+\$([\d.]+)", GOLDEN)
    assert found, "the golden's priced ingestion line"
    return float(found[2]) / float(found[1])


def dcgm_fields() -> list[str]:
    """The DCGM fields the chart exports when no custom metrics are given (the ConfigMap's `else` branch)."""
    default = CONFIGMAP.split("{{- else }}", 1)[1].split("{{- end }}", 1)[0]
    return [line.split(",")[0].strip() for line in default.splitlines() if line.strip().startswith("DCGM_FI_")]


def res(type_: str, name: str, inputs: dict[str, Any]) -> ResourceInputs:
    return ResourceInputs(f"{STACK}{type_}::{name}", type_, name, inputs)


def aks_stack(location: str, gpu_size: str = "Standard_NC48ads_A100_v4", max_count: int = 3) -> list[ResourceInputs]:
    group = {"resourceGroupName": "rg", "location": location}
    system = {"name": "sys", "vmSize": "Standard_D4s_v5", "count": 2, "mode": "System"}
    cluster = {**group, "resourceName": "aks", "agentPoolProfiles": [system]}
    pool = {"resourceGroupName": "rg", "resourceName": "aks", "vmSize": gpu_size, "enableAutoScaling": True}
    return [
        res("azure-native:resources:ResourceGroup", "rg", group),
        res("azure-native:containerservice:ManagedCluster", "aks", cluster),
        res("azure-native:containerservice:AgentPool", "gpu", {**pool, "minCount": 0, "maxCount": max_count}),
        res(WORKSPACE, "prom", group),
    ]


def workspace_charge(resources: list[ResourceInputs], usage_root: Path | None = None) -> Any:
    usage = read_usage(usage_root or Path("/nonexistent"))
    (found,) = [n for n in estimate_resources(resources, usage=usage).not_counted if n.type == WORKSPACE]
    return found


def test_the_shipped_samples_per_gpu_are_the_charts_dcgm_fields_scraped_every_30_seconds_for_a_month() -> None:
    fields = dcgm_fields()

    assert len(fields) == len(set(fields)) == 24
    assert {"DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_XID_ERRORS"} <= set(fields)  # the alarms'
    assert SHIPPED["dcgmSamplesPerGpuPerMonth"]["value"] == len(fields) * SCRAPES_A_MONTH == 2_102_400


def test_ingestion_is_the_gpus_at_full_scale_times_their_samples_at_the_golden_rate() -> None:
    gpus = 2 * 3  # NC48ads_A100_v4: 2 GPUs, at most 3 nodes; the D4s_v5 system nodes run no DCGM exporter
    samples = SHIPPED["dcgmSamplesPerGpuPerMonth"]["value"] * gpus
    charge = workspace_charge(aks_stack("westeurope"))

    assert charge.estimate is not None
    assert round(charge.estimate.monthly_usd, 2) == round(samples / 10_000_000 * golden_rate(), 2) == 0.20
    assert (
        "(6 GPUs at full scale)" in charge.estimate.basis and "westeurope, observed 2024-07-01" in charge.estimate.basis
    )
    assert charge.estimate.assumptions == (
        "the DCGM exporter sends 2,102,400 samples a month per GPU to Managed Prometheus (shipped default, "
        "https://github.com/NVIDIA/dcgm-exporter/blob/d5e5f510a1b6b393f39a43293ccd9dc985defc79/deployment/templates/"
        "metrics-configmap.yaml)",
    )
    assert "queries not priced" in charge.estimate.covers


def test_a_clusters_inline_gpu_pool_counts_too() -> None:
    """NC4as_T4_v3: one T4 GPU (Learn's NCasT4_v3 size page); two nodes in the cluster's own pool profiles."""
    group = {"resourceGroupName": "rg", "location": "westeurope"}
    gpu = {"name": "gpu", "vmSize": "Standard_NC4as_T4_v3", "count": 2, "mode": "User"}
    cluster = {**group, "resourceName": "aks", "agentPoolProfiles": [gpu]}
    stack = [
        res("azure-native:resources:ResourceGroup", "rg", group),
        res("azure-native:containerservice:ManagedCluster", "aks", cluster),
        res(WORKSPACE, "prom", group),
    ]
    samples = SHIPPED["dcgmSamplesPerGpuPerMonth"]["value"] * 2

    charge = workspace_charge(stack)
    assert round(charge.estimate.monthly_usd, 4) == round(samples / 10_000_000 * golden_rate(), 4)
    assert "(2 GPUs at full scale)" in charge.estimate.basis


def test_a_teams_samples_per_gpu_replace_the_default(tmp_path: Path) -> None:
    (tmp_path / "gpu-stacks.usage.yaml").write_text("resources:\n  prom:\n    dcgmSamplesPerGpuPerMonth: 50000000\n")
    charge = workspace_charge(aks_stack("westeurope", max_count=1), usage_root=tmp_path)

    assert round(charge.estimate.monthly_usd, 2) == round(2 * 50_000_000 / 10_000_000 * golden_rate(), 2) == 1.60
    assert charge.estimate.usage[0].to_json() == {
        "key": "dcgmSamplesPerGpuPerMonth",
        "value": 50_000_000,
        "from": "your file gpu-stacks.usage.yaml",
    }


def test_a_workspace_without_gpu_nodes_or_outside_the_rates_region_stays_named() -> None:
    no_gpu = workspace_charge(aks_stack("westeurope", gpu_size="Standard_D8s_v5"))
    eastus = workspace_charge(aks_stack("eastus"))

    assert no_gpu.estimate is None
    assert eastus.estimate is None
    assert "no dated rate for its settings in eastus here; rates read for westeurope" in eastus.unpriced_detail


def test_the_shipped_aks_stack_names_its_prometheus_workspace_with_where_rates_were_read(
    shipped_plan_json: Callable[[str], dict[str, Any]],
) -> None:
    cost = shipped_plan_json("aks-gpu")["cost"]
    (workspace,) = [n for n in cost["notCounted"] if n["type"] == WORKSPACE]

    assert "estimate" not in workspace  # aks-gpu runs in eastus; the one dated rate is West Europe's
    assert workspace["unpricedDetail"].startswith("no dated rate for its settings in eastus here; rates read for")
    assert "managed service for Prometheus" in workspace["unpricedDetail"] and cost["lowerBound"] is True
