"""Cost: per VM-billed resource and per stack, busy and idle, from the catalog's prices.

Expected numbers are computed here from `catalog()` prices, never copied from a run. Resources of
types other helpers build (scale sets, AKS, AML) are given as the engine receives them (camelCase
inputs, numbers as floats, as a protobuf Struct holds them), so the readers are tested without
depending on those components.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.catalog import catalog, pricing
from azure_gpu_stacks.catalog.demand import hours_before_shutdown
from azure_gpu_stacks.catalog.prices import Price
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.engine.run.project import load_project
from azure_gpu_stacks.engine.run.runtime import RecordedResource

from tests.conftest import REPO, TEST_SSH_KEY, Recording, in_resource_group
from tests.shared_plans import plans_shared


@pytest.fixture(scope="module", autouse=True)
def plans() -> Iterator[dict[str, Any]]:
    """The file's plans by their arguments (tests/shared_plans.py):
    plan's text and cost of a stack read one plan of it."""
    with plans_shared() as plans:
        yield plans


T4 = "Standard_NC4as_T4_v3"
A100 = "Standard_NC24ads_A100_v4"
ND = "Standard_ND96asr_v4"
SYSTEM = "Standard_D4s_v5"
HOURS_PER_MONTH = 730  # the month every cost output states ("730 h a month")


def payg(size: str, region: str = "eastus") -> float:
    price = catalog().get(size).usd_per_hour(region)
    assert price is not None
    return price


def priced(size: str, region: str = "eastus", spot: bool = False) -> Price:
    """The catalog's price with its date and source."""
    price = catalog().get(size).price(region, spot)
    assert price is not None
    return price


def spot(size: str, region: str = "eastus") -> float:
    price = catalog().get(size).usd_per_hour(region, spot=True)
    assert price is not None
    return price


RG_ID = "/subscriptions/000/resourceGroups/rg-test"
REGION = "eastus"  # the stack's `azure-native:location` where a test's resources name none


def cost_of(resources: list[RecordedResource], default_region: str = REGION) -> pricing.CostEstimate:
    return pricing.estimate_resources(resources, default_region)


def recorded(type_token: str, name: str, inputs: dict[str, Any], *, deps: tuple[str, ...] = ()) -> RecordedResource:
    return RecordedResource(
        urn=f"urn:pulumi:test::azure-gpu-stacks::{type_token}::{name}",
        type=type_token,
        name=name,
        parent=None,
        custom=True,
        protect=False,
        inputs=inputs,
        dependencies=deps,
    )


def rg(location: str = "eastus") -> RecordedResource:
    return recorded(
        "azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": "rg-test", "location": location}
    )


def build_vm(**overrides: Any) -> Callable[[], None]:
    def build(group: Any) -> None:
        from azure_gpu_stacks.components.gpu_vm import GpuVm

        GpuVm(
            "t4", {"resource_group_name": group.name, "location": "eastus", "ssh_public_key": TEST_SSH_KEY, **overrides}
        )

    return in_resource_group(build)


# --- single VMs ---------------------------------------------------------------------------------


def test_cost_vm_with_auto_shutdown_is_idle_only_from_nine_to_the_shutdown(record: Callable[..., Recording]) -> None:
    rec = record(build_vm(vm_size=T4, auto_shutdown=True, shutdown_time="1900"))

    cost = cost_of(rec.resources).to_json()

    on_hours = 19 - 9
    assert cost["resources"] == [
        {
            "resource": "t4-vm",
            "size": T4,
            "count": 1,
            "hourlyUsd": pytest.approx(payg(T4)),
            "idleHourlyUsd": pytest.approx(payg(T4) * on_hours / 24, abs=5e-5),
            "idleCount": 1,
            "priority": "Regular",
            "priceBasis": "pay-as-you-go",
            "region": REGION,
            "priceObserved": priced(T4).observed_text,
            "priceSource": priced(T4).source,
            "idleHoursPerDay": on_hours,
            "idleSchedule": "auto-shutdown",
        }
    ]
    assert cost["monthlyUsd"] == pytest.approx(payg(T4) * HOURS_PER_MONTH, abs=0.005)
    assert cost["idleMonthlyUsd"] == pytest.approx(payg(T4) * on_hours / 24 * HOURS_PER_MONTH, abs=0.005)
    assert cost["pricesObserved"] == priced(T4).observed_text  # the date the catalog gives the one price used
    assert cost["pricesSource"] == catalog().prices.sources[priced(T4).source].url


def test_cost_vm_without_auto_shutdown_costs_the_same_idle(record: Callable[..., Recording]) -> None:
    rec = record(build_vm(vm_size=T4, auto_shutdown=False))

    cost = cost_of(rec.resources)

    assert cost.idle_hourly == pytest.approx(payg(T4))
    assert cost.hourly == pytest.approx(payg(T4))


def test_cost_spot_vm_is_priced_at_the_spot_rate(record: Callable[..., Recording]) -> None:
    rec = record(build_vm(vm_size=T4, spot=True, auto_shutdown=False))

    cost = cost_of(rec.resources).to_json()

    assert cost["resources"][0]["priority"] == "Spot"
    assert cost["hourlyUsd"] == pytest.approx(spot(T4), abs=5e-5)


def test_cost_disabled_shutdown_schedule_does_not_shorten_the_day() -> None:
    vm = recorded("azure-native:compute:VirtualMachine", "vm", {"vmName": "vm1", "hardwareProfile": {"vmSize": T4}})
    schedule = recorded(
        "azure-native:devtestlab:GlobalSchedule",
        "vm-shutdown",
        {
            "name": "shutdown-computevm-vm1",
            "taskType": "ComputeVmShutdownTask",
            "status": "Disabled",
            "dailyRecurrence": {"time": "1900"},
            "targetResourceId": f"{RG_ID}/providers/Microsoft.Compute/virtualMachines/vm1",
        },
    )

    assert cost_of([rg(), vm, schedule]).idle_hourly == pytest.approx(payg(T4))


def test_cost_shutdown_schedule_found_by_target_id_when_not_a_dependency() -> None:
    vm = recorded("azure-native:compute:VirtualMachine", "vm", {"vmName": "vm1", "hardwareProfile": {"vmSize": T4}})
    schedule = recorded(
        "azure-native:devtestlab:GlobalSchedule",
        "vm-shutdown",
        {
            "taskType": "ComputeVmShutdownTask",
            "status": "Enabled",
            "dailyRecurrence": {"time": "2100"},
            "targetResourceId": f"{RG_ID}/providers/Microsoft.Compute/virtualMachines/VM1",
        },
    )

    assert cost_of([rg(), vm, schedule]).idle_hourly == pytest.approx(payg(T4) * (21 - 9) / 24)


@pytest.mark.parametrize(("shutdown", "hours"), [("1900", 10.0), ("1730", 8.5), ("0200", 17.0), ("0900", 24.0)])
def test_cost_hours_before_shutdown_start_at_nine(shutdown: str, hours: float) -> None:
    assert hours_before_shutdown(shutdown) == hours


# --- scale sets, AKS, AML -----------------------------------------------------------------------


def test_cost_scale_set_runs_its_capacity_busy_and_idle() -> None:
    vmss = recorded(
        "azure-native:compute:VirtualMachineScaleSet",
        "train-vmss",
        {
            "resourceGroupName": "rg-test",
            "sku": {"name": ND, "capacity": 2.0, "tier": "Standard"},
            "virtualMachineProfile": {"priority": "Spot", "evictionPolicy": "Delete"},
        },
    )

    cost = cost_of([rg(), vmss]).to_json()

    assert cost["resources"][0] | {"hourlyUsd": None, "idleHourlyUsd": None} == {
        "resource": "train-vmss",
        "size": ND,
        "count": 2,
        "idleCount": 2,
        "priority": "Spot",
        "priceBasis": "Spot",
        "region": REGION,
        "priceObserved": priced(ND, spot=True).observed_text,  # the Spot price's own date
        "priceSource": priced(ND, spot=True).source,
        "hourlyUsd": None,
        "idleHourlyUsd": None,
    }
    assert cost["hourlyUsd"] == pytest.approx(2 * spot(ND), abs=5e-5)
    assert cost["idleHourlyUsd"] == pytest.approx(2 * spot(ND), abs=5e-5)


def autoscale_profile(name: str, nodes: int, days: list[str], hour: int, minute: int = 0) -> dict[str, Any]:
    count = str(nodes)
    return {
        "name": name,
        "capacity": {"minimum": count, "maximum": count, "default": count},
        "rules": [],
        "recurrence": {
            "frequency": "Week",
            "schedule": {"timeZone": "UTC", "days": days, "hours": [float(hour)], "minutes": [float(minute)]},
        },
    }


WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]


def test_cost_scale_set_scheduled_to_zero_is_idle_only_in_working_hours() -> None:
    vmss = recorded("azure-native:compute:VirtualMachineScaleSet", "train-vmss", {"sku": {"name": ND, "capacity": 3.0}})
    setting = recorded(
        "azure-native:monitor:AutoscaleSetting",
        "train-autoscale",
        {
            "enabled": True,
            "profiles": [
                autoscale_profile("working-hours", 3, WEEKDAYS, 8),
                autoscale_profile("outside-working-hours", 0, WEEKDAYS, 19),
            ],
        },
        deps=(vmss.urn,),
    )

    cost = cost_of([rg(), vmss, setting]).to_json()

    # 08:00-19:00 Monday to Friday: 55 of the week's 168 hours, 55 / 7 = 7.857 h a day.
    [row] = cost["resources"]
    assert (row["count"], row["idleCount"], row["idleHoursPerDay"], row["idleSchedule"]) == (
        3,
        3,
        pytest.approx(55 / 7),
        "autoscale",
    )
    assert cost["hourlyUsd"] == pytest.approx(3 * payg(ND), abs=5e-5)
    assert cost["idleHourlyUsd"] == pytest.approx(3 * payg(ND) * 55 / 168, abs=5e-5)


def test_cost_scale_set_with_a_disabled_autoscale_setting_runs_around_the_clock() -> None:
    vmss = recorded("azure-native:compute:VirtualMachineScaleSet", "train-vmss", {"sku": {"name": ND, "capacity": 2.0}})
    profiles = [autoscale_profile("on", 2, WEEKDAYS, 8), autoscale_profile("off", 0, WEEKDAYS, 19)]
    setting = recorded(
        "azure-native:monitor:AutoscaleSetting", "a", {"enabled": False, "profiles": profiles}, deps=(vmss.urn,)
    )

    cost = cost_of([rg(), vmss, setting]).to_json()

    assert cost["idleHourlyUsd"] == pytest.approx(2 * payg(ND), abs=5e-5)
    assert "idleHoursPerDay" not in cost["resources"][0]


def test_cost_autoscale_schedule_runs_each_profile_until_the_next_one_starts() -> None:
    from azure_gpu_stacks.catalog.demand import scheduled_idle

    # 4 nodes from Saturday 10:00 to Sunday 16:00 (30 h), 1 node the rest of the week (138 h): a peak
    # of 4, and 4 x 30 + 1 x 138 = 258 node-hours a week, so 4 nodes for 258 / 4 / 7 h a day.
    profiles = [autoscale_profile("weekend", 4, ["Saturday"], 10), autoscale_profile("rest", 1, ["Sunday"], 16)]

    assert scheduled_idle(profiles) == (4, pytest.approx(258 / 4 / 7))
    assert scheduled_idle([{"name": "default", "capacity": {"minimum": "2"}}]) is None  # no recurrence


def test_cost_autoscaled_aks_pool_is_max_count_busy_and_min_count_idle() -> None:
    pool = recorded(
        "azure-native:containerservice:AgentPool",
        "gpu-pool",
        {
            "resourceGroupName": "rg-test",
            "resourceName": "aks",
            "agentPoolName": "gpu",
            "vmSize": A100,
            "mode": "User",
            "enableAutoScaling": True,
            "count": 0.0,
            "minCount": 0.0,
            "maxCount": 4.0,
            "scaleSetPriority": "Regular",
        },
    )

    cost = cost_of([rg(), pool])

    assert cost.hourly == pytest.approx(4 * payg(A100))
    assert cost.idle_hourly == 0
    assert cost.monthly == pytest.approx(4 * payg(A100) * HOURS_PER_MONTH)


def test_cost_aks_pool_without_autoscaling_runs_count_nodes() -> None:
    pool = recorded(
        "azure-native:containerservice:AgentPool",
        "gpu-pool",
        {"vmSize": A100, "count": 3.0, "scaleSetPriority": "Spot"},
    )

    cost = cost_of([rg(), pool])

    assert (cost.hourly, cost.idle_hourly) == (pytest.approx(3 * spot(A100)), pytest.approx(3 * spot(A100)))


def test_cost_managed_cluster_prices_each_agent_pool_profile() -> None:
    cluster = recorded(
        "azure-native:containerservice:ManagedCluster",
        "aks",
        {
            "resourceGroupName": "rg-test",
            "resourceName": "aks",
            "location": REGION,
            "agentPoolProfiles": [
                {"name": "system", "mode": "System", "vmSize": SYSTEM, "count": 2.0},
                {
                    "name": "gpu",
                    "mode": "User",
                    "vmSize": T4,
                    "enableAutoScaling": True,
                    "minCount": 1.0,
                    "maxCount": 3.0,
                    "scaleSetPriority": "Spot",
                },
            ],
        },
    )

    cost = cost_of([rg(), cluster]).to_json()

    assert [(r["resource"], r["count"], r["idleCount"], r["priority"]) for r in cost["resources"]] == [
        ("aks/system", 2, 2, "Regular"),
        ("aks/gpu", 3, 1, "Spot"),
    ]
    assert cost["hourlyUsd"] == pytest.approx(2 * payg(SYSTEM) + 3 * spot(T4), abs=5e-5)
    assert cost["idleHourlyUsd"] == pytest.approx(2 * payg(SYSTEM) + 1 * spot(T4), abs=5e-5)


def test_cost_aml_low_priority_cluster_scales_from_min_to_max_at_the_spot_rate() -> None:
    compute = recorded(
        "azure-native:machinelearningservices:Compute",
        "gpu-cluster",
        {
            "resourceGroupName": "rg-test",
            "workspaceName": "ws",
            "properties": {
                "computeType": "AmlCompute",
                "properties": {
                    "vmSize": A100,
                    "vmPriority": "LowPriority",
                    "osType": "Linux",
                    "scaleSettings": {"minNodeCount": 0.0, "maxNodeCount": 4.0, "nodeIdleTimeBeforeScaleDown": "PT15M"},
                },
            },
        },
    )

    cost = cost_of([rg(), compute]).to_json()

    assert cost["resources"][0]["priority"] == "LowPriority"
    assert cost["hourlyUsd"] == pytest.approx(4 * spot(A100), abs=5e-5)
    assert cost["idleHourlyUsd"] == 0


def test_cost_aml_dedicated_cluster_with_min_nodes_costs_them_idle() -> None:
    compute = recorded(
        "azure-native:machinelearningservices:Compute",
        "gpu-cluster",
        {
            "properties": {
                "computeType": "AmlCompute",
                "properties": {
                    "vmSize": T4,
                    "vmPriority": "Dedicated",
                    "scaleSettings": {"minNodeCount": 1.0, "maxNodeCount": 2.0},
                },
            }
        },
    )

    cost = cost_of([rg(), compute])

    assert (cost.hourly, cost.idle_hourly) == (pytest.approx(2 * payg(T4)), pytest.approx(payg(T4)))


def test_cost_size_without_price_is_reported_not_guessed() -> None:
    h200 = "Standard_ND128isr_GB300_v6"  # no source lists a price for it
    assert catalog().get(h200).prices == {}
    vmss = recorded("azure-native:compute:VirtualMachineScaleSet", "h200", {"sku": {"name": h200, "capacity": 2.0}})
    vm = recorded("azure-native:compute:VirtualMachine", "vm", {"hardwareProfile": {"vmSize": T4}})

    cost = cost_of([rg(), vmss, vm]).to_json()

    assert cost["complete"] is False
    assert (cost["lowerBound"], cost["unpricedSizes"]) == (True, [h200])
    assert cost["resources"][0]["hourlyUsd"] is None
    assert cost["resources"][0]["unpriced"].startswith(f"the catalog has no price for {h200} in {REGION}")
    assert cost["hourlyUsd"] == pytest.approx(payg(T4))


def test_cost_spot_size_without_spot_price_is_unpriced() -> None:
    h100 = "Standard_NC40ads_H100_v5"
    assert catalog().get(h100).usd_per_hour("eastus", spot=True) is None
    vm = recorded(
        "azure-native:compute:VirtualMachine", "vm", {"hardwareProfile": {"vmSize": h100}, "priority": "Spot"}
    )

    cost = cost_of([rg(), vm]).to_json()

    assert cost["resources"][0]["unpriced"] == f"the catalog has no Spot price for {h100} in {REGION}"
    assert cost["hourlyUsd"] == 0


# --- each resource in its own region ------------------------------------------------------------


def t4_vm(location: str) -> RecordedResource:
    return recorded(
        "azure-native:compute:VirtualMachine", "vm", {"location": location, "hardwareProfile": {"vmSize": T4}}
    )


def test_cost_prices_a_resource_at_its_own_regions_price() -> None:
    prices = catalog().get(T4).prices
    dearer = max(prices, key=lambda region: prices[region].payg or 0)
    assert payg(T4, dearer) != payg(T4, REGION)  # the regions the source covers do differ

    cost = cost_of([rg(), t4_vm(dearer)])

    assert cost.hourly == pytest.approx(payg(T4, dearer))
    assert cost.to_json()["pricesRegions"] == [dearer]


def test_cost_region_without_a_price_is_a_lower_bound_naming_it() -> None:
    uncovered = next(r for r in catalog().regions if r not in catalog().get(T4).prices)
    priced = recorded(
        "azure-native:compute:VirtualMachine", "priced", {"location": REGION, "hardwareProfile": {"vmSize": T4}}
    )

    cost = cost_of([rg(), priced, t4_vm(uncovered)]).to_json()

    assert (cost["complete"], cost["lowerBound"]) == (False, True)
    assert cost["unpriced"] == [f"{T4} in {uncovered}"]
    assert uncovered in cost["resources"][1]["unpriced"]
    assert cost["hourlyUsd"] == pytest.approx(payg(T4, REGION))  # the priced VM only, never another region's rate


# The budget's verdict (fires every month, can never fire) is the budget policy's:
# tests/policies/test_warn_incoherent_budgets.py.


# --- shipped stacks, end to end -----------------------------------------------------------------


def test_cost_inference_t4_plan_carries_cost_from_the_catalog(
    shipped_plan_json: Callable[[str], dict[str, Any]],
) -> None:
    cost = shipped_plan_json("inference-t4")["cost"]

    idle_hourly = payg(T4) * (19 - 9) / 24  # stack file: shutdownTime 1900
    assert cost["hourlyUsd"] == pytest.approx(payg(T4))
    assert cost["idleHourlyUsd"] == pytest.approx(idle_hourly, abs=5e-5)
    assert cost["monthlyUsd"] == pytest.approx(payg(T4) * HOURS_PER_MONTH, abs=0.005)
    assert cost["idleMonthlyUsd"] == pytest.approx(idle_hourly * HOURS_PER_MONTH, abs=0.005)
    assert cost["budgetMonthlyUsd"] == 300
    assert [(r["resource"], r["size"], r["count"]) for r in cost["resources"]] == [("gpu-vm-vm", T4, 1)]


def test_cost_plan_text_report_shows_busy_and_idle_cost(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", "inference-t4"]) == 0
    out = capsys.readouterr().out

    monthly = payg(T4) * HOURS_PER_MONTH
    idle_monthly = payg(T4) * 10 / 24 * HOURS_PER_MONTH
    # a lower bound: the VM's managed OS disk is billed and not priced here (tests/test_cost_not_counted.py)
    assert f"full scale at least {payg(T4):.4f} USD/h = at least {monthly:,.2f} USD/month" in out
    assert f"idle at least {payg(T4) * 10 / 24:.4f} USD/h = at least {idle_monthly:,.2f} USD/month" in out
    price = priced(T4)
    source = catalog().prices.sources[price.source]
    assert f"oldest price used: observed {price.observed}, {source.description} ({source.url})" in out


def test_cost_command_prints_a_markdown_row_per_stack(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cost", "inference-t4", "--format", "markdown"]) == 0
    out = capsys.readouterr().out

    idle_hourly = payg(T4) * 10 / 24
    assert "| stack | USD/h | USD/month | idle USD/h | idle USD/month | budget USD/month |" in out
    assert (
        f"| inference-t4 | >= {payg(T4):.4f} | >= {payg(T4) * HOURS_PER_MONTH:,.2f} | >= {idle_hourly:.4f} | "
        f">= {idle_hourly * HOURS_PER_MONTH:,.2f} | 300.00 (actual 80 %: 240.00, actual 100 %: 300.00, "
        "forecasted 100 %: 300.00) |"
    ) in out  # stacks/Pulumi.inference-t4.yaml: amount 300, the default thresholds (actual 80 and 100, forecast 100)


def test_cost_command_unknown_stack_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cost", "no-such-stack"]) == 2
    assert "unknown stack 'no-such-stack'" in capsys.readouterr().err


@pytest.mark.parametrize("stack", load_project(REPO).stacks())
def test_cost_every_shipped_stack_budget_fits_its_estimate(
    stack: str, shipped_plan_json: Callable[[str], dict[str, Any]]
) -> None:
    document = shipped_plan_json(stack)
    cost = document["cost"]

    assert cost["resources"], "a shipped stack runs GPUs"
    assert cost["vmsComplete"] is True
    assert 0 <= cost["idleHourlyUsd"] <= cost["hourlyUsd"]
    assert cost["budgetMonthlyUsd"] is not None
    assert cost["idleMonthlyUsd"] <= cost["budgetMonthlyUsd"] <= 3 * cost["monthlyUsd"]
    assert not [v for v in document["violations"] if v["policy"] == "warn-incoherent-budgets"]


def write_training_stack(tmp_path: Path, cluster: str) -> str:
    path = tmp_path / "Pulumi.train-test.yaml"
    path.write_text(
        f"config:\n  azure-native:location: eastus\n  azure-gpu-stacks:trainingCluster: {cluster}\n"
        "  azure-gpu-stacks:sshPublicKey: {secure: v1:a2V5}\n"
        "  azure-gpu-stacks:costAlert: {amount: 5000, contactEmails: [ml@example.com]}\n"
    )
    return str(path)


def test_cost_parked_training_stack_costs_nothing_busy_or_idle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["cost", write_training_stack(tmp_path, "{nodeCount: 0}"), "--format", "json"]) == 0

    [stack] = json.loads(capsys.readouterr().out)["stacks"]
    assert (stack["cost"]["hourlyUsd"], stack["cost"]["idleHourlyUsd"], stack["cost"]["idleMonthlyUsd"]) == (0, 0, 0)
    assert [(r["resource"], r["count"], r["idleCount"]) for r in stack["cost"]["resources"]] == [("train-vmss", 0, 0)]


def test_cost_training_stack_with_working_hours_is_idle_only_in_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cluster = "{nodeCount: 2, workingHours: {start: '0800', end: '2000', timeZone: W. Europe Standard Time}}"

    stack = write_training_stack(tmp_path, cluster)

    assert main(["plan", stack]) == 0
    out = capsys.readouterr().out
    idle_hourly = 2 * payg(ND) * 60 / 168  # 12 h x 5 days of the week's 168 h
    assert "2 (idle 2 for 8.57 h/day)" in out  # 60 h a week / 7
    assert (
        "(a scale set on an autoscale schedule runs each profile's minimum from its start until the next profile "
        "starts)" in out
    )
    assert f"idle at least {idle_hourly:.4f} USD/h = at least {idle_hourly * HOURS_PER_MONTH:,.2f} USD/month" in out
    assert main(["cost", stack, "--format", "markdown"]) == 0
    assert (
        f"| train-test | >= {2 * payg(ND):.4f} | >= {2 * payg(ND) * HOURS_PER_MONTH:,.2f} | >= {idle_hourly:.4f} |"
        in capsys.readouterr().out
    )
