"""What a stack is billed for that its cost does not count is named, and the total then says it is a lower
bound, in JSON, text and markdown (issue 35: "The total is labelled complete or a lower bound, naming what
is missing"). Expected facts: a managed disk is billed on its provisioned size
(learn.microsoft.com/azure/virtual-machines/disks-understand-billing); AKS Standard and Premium tiers bill
cluster management (learn.microsoft.com/azure/aks/free-standard-pricing-tiers); observed 2026-11-27."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from azure_gpu_stacks.catalog.charges import not_counted
from azure_gpu_stacks.catalog.demand import ResourceInputs
from azure_gpu_stacks.engine.report.cost import cost_section, cost_table

AGENT_POOL = "azure-native:containerservice:AgentPool"


def test_a_vm_stack_names_its_disk_and_is_a_lower_bound(shipped_plan_json: Callable[[str], dict[str, Any]]) -> None:
    cost = shipped_plan_json("inference-t4")["cost"]

    assert (cost["complete"], cost["lowerBound"], cost["vmsComplete"]) == (False, True, True)
    named = {(n["type"], n["resource"]) for n in cost["notCounted"]}
    vm = next(r["name"] for r in shipped_plan_json("inference-t4")["resources"] if r["type"].endswith("VirtualMachine"))
    assert ("azure-native:compute:VirtualMachine", vm) in named
    assert any("disk" in n["billedFor"] for n in cost["notCounted"])


def test_aks_names_the_cluster_tier_and_monitoring(shipped_plan_json: Callable[[str], dict[str, Any]]) -> None:
    named = {n["type"]: n["billedFor"] for n in shipped_plan_json("aks-gpu")["cost"]["notCounted"]}

    assert "Standard and Premium" in named["azure-native:containerservice:ManagedCluster"]
    assert "Managed Prometheus" in named["azure-native:monitor:AzureMonitorWorkspace"]
    assert "OS disk" in named[AGENT_POOL]


def test_an_ephemeral_os_disk_is_not_named() -> None:
    pools = [
        ResourceInputs("urn:a", AGENT_POOL, "gpu", {"osDiskType": "Ephemeral"}),
        ResourceInputs("urn:b", AGENT_POOL, "cpu", {"osDiskType": "Managed"}),
        ResourceInputs("urn:c", "azure-native:resources:ResourceGroup", "rg", {}),
    ]

    assert [n.resource for n in not_counted(pools)] == ["cpu"]


def test_text_and_markdown_say_lower_bound_and_name_it(shipped_plans: dict[str, Any]) -> None:
    plan = shipped_plans["inference-t4"]

    section = "\n".join(cost_section(plan.cost))
    assert "full scale at least 0.5260 USD/h" in section  # the catalog's NC4as_T4_v3 eastus price
    # its one uncounted charge, the 128 GiB Premium OS disk (P10), has a dated price: named beside the totals
    assert "lower bound: priced beside the totals, not in them" in section
    assert "gpu-vm-vm: 19.71 USD a month for its OS disk (P10, 128 GiB)" in section
    for fmt in ("text", "markdown"):
        table = cost_table([plan], fmt)
        assert ">= 0.5260" in table, fmt
        assert "inference-t4: gpu-vm-vm: 19.71 USD a month for its OS disk (P10, 128 GiB)" in table, fmt
