"""AksGpuPool's GPU metrics: the DCGM exporter by the NVIDIA stack's owner, Azure Managed Prometheus for the cluster,
and the Prometheus rule group (idle GPUs, temperature, XID); what the fake ARM refuses in those types.

Expected values from public data (observed 2026-11-26): metric names from NVIDIA/dcgm-exporter etc/default-counters.csv
(`DCGM_FI_DEV_GPU_UTIL`, `DCGM_FI_DEV_GPU_TEMP`, `DCGM_FI_DEV_XID_ERRORS`); the Prometheus data collection rule from
Azure/prometheus-collector AddonTerraformTemplate/main.tf (stream `Microsoft-PrometheusMetrics`, a `prometheusForwarder`
source, a `monitoringAccounts` destination); Managed Prometheus's ServiceMonitor group `azmonitoring.coreos.com/v1`
(Learn, "Customize scraping of Prometheus metrics in Azure Monitor using PodMonitor and ServiceMonitor"); the operator's
exporter Service (NVIDIA/gpu-operator assets/state-dcgm-exporter/0600_service.yaml); thresholds from the H100 fixture
(tests/data/gpu_fixtures/).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from azure_gpu_stacks.components.checks import ComponentInputError

from tests.components.test_aks_gpu_pool import EXISTING_ID, build_pool
from tests.conftest import REPO, Recording, in_resource_group

CLUSTER = "azure-native:containerservice:ManagedCluster"
WORKSPACE = "azure-native:monitor:AzureMonitorWorkspace"
DCE = "azure-native:monitor:DataCollectionEndpoint"
DCR = "azure-native:monitor:DataCollectionRule"
DCRA = "azure-native:monitor:DataCollectionRuleAssociation"
RULES = "azure-native:alertsmanagement:PrometheusRuleGroup"
ACTION_GROUP = "azure-native:monitor:ActionGroup"
HELM = "kubernetes:helm.sh/v3:Release"
SERVICE_MONITOR = "kubernetes:azmonitoring.coreos.com/v1:ServiceMonitor"
CONTACTS = ["ml-platform@example.com"]
FIXTURE = REPO / "tests" / "data" / "gpu_fixtures" / "h100-busy-and-sections.txt"
SMI_Q = REPO / "tests" / "data" / "gpu_fixtures" / "h100-nvidia-smi-q.txt"


def with_metrics(**overrides: Any) -> Callable[[], None]:
    return build_pool(gpu_metrics=True, alert_emails=CONTACTS, **overrides)


def arm_id(rec: Recording, arm_type: str) -> str:
    [found] = [r.id for r in rec.arm.resources() if r.type == arm_type]
    return found


def rules(rec: Recording) -> dict[str, dict[str, Any]]:
    return {r["alert"]: r for r in rec.inputs(RULES)["rules"]}


def test_no_metrics_unless_asked(record: Callable[..., Recording]) -> None:
    rec = record(build_pool())

    assert {WORKSPACE, DCE, DCR, DCRA, RULES, ACTION_GROUP} & {r.type for r in rec.resources} == set()
    assert "azureMonitorProfile" not in rec.inputs(CLUSTER)


def test_managed_prometheus_is_enabled_for_the_cluster_as_azures_template_does(
    record: Callable[..., Recording],
) -> None:
    rec = record(with_metrics())
    dcr = rec.inputs(DCR)

    assert rec.inputs(CLUSTER)["azureMonitorProfile"] == {"metrics": {"enabled": True}}
    assert rec.inputs(DCE)["kind"] == "Linux"
    assert dcr["dataSources"] == {
        "prometheusForwarder": [{"name": "PrometheusDataSource", "streams": ["Microsoft-PrometheusMetrics"]}]
    }
    assert dcr["destinations"] == {
        "monitoringAccounts": [
            {"accountResourceId": arm_id(rec, "Microsoft.Monitor/accounts"), "name": "MonitoringAccount1"}
        ]
    }
    assert dcr["dataFlows"] == [{"streams": ["Microsoft-PrometheusMetrics"], "destinations": ["MonitoringAccount1"]}]
    assert dcr["dataCollectionEndpointId"] == arm_id(rec, "Microsoft.Insights/dataCollectionEndpoints")
    assert rec.inputs(DCRA)["resourceUri"] == arm_id(rec, "Microsoft.ContainerService/managedClusters")
    assert rec.inputs(DCRA)["dataCollectionRuleId"] == arm_id(rec, "Microsoft.Insights/dataCollectionRules")
    assert rec.refusals == []


def test_the_rule_group_alarms_on_idle_hot_and_failing_gpus(record: Callable[..., Recording]) -> None:
    rec = record(with_metrics())
    group = rec.inputs(RULES)
    found = rules(rec)
    action = arm_id(rec, "Microsoft.Insights/actionGroups")

    assert group["scopes"] == [arm_id(rec, "Microsoft.Monitor/accounts")]
    assert group["clusterName"] == rec.outputs["clusterName"]
    assert set(found) == {"GpuAllocatedButIdle", "GpuTemperatureNearThrottling", "GpuXidError"}
    assert found["GpuAllocatedButIdle"]["expression"] == 'DCGM_FI_DEV_GPU_UTIL{pod!=""} < 5'
    assert found["GpuAllocatedButIdle"]["for"] == "PT4H"
    assert found["GpuTemperatureNearThrottling"]["expression"] == "DCGM_FI_DEV_GPU_TEMP >= 85"
    assert found["GpuXidError"]["expression"] == "DCGM_FI_DEV_XID_ERRORS > 0"
    assert all(r["actions"] == [{"actionGroupId": action}] for r in found.values())
    assert [r["emailAddress"] for r in rec.inputs(ACTION_GROUP)["emailReceivers"]] == CONTACTS
    assert rec.refusals == []


def test_the_idle_time_and_thresholds_are_configurable(record: Callable[..., Recording]) -> None:
    found = rules(record(with_metrics(gpu_idle_hours=12, gpu_idle_percent=10, gpu_temperature_celsius=80)))

    assert found["GpuAllocatedButIdle"]["for"] == "PT12H"
    assert found["GpuAllocatedButIdle"]["expression"] == 'DCGM_FI_DEV_GPU_UTIL{pod!=""} < 10'
    assert found["GpuTemperatureNearThrottling"]["expression"] == "DCGM_FI_DEV_GPU_TEMP >= 80"


def fixture_readings() -> dict[str, dict[str, str]]:
    """The idle and busy nvidia-smi CSV rows, and the temperature limits of `nvidia-smi -q`."""
    lines = FIXTURE.read_text(encoding="utf-8").splitlines()
    rows = {}
    for title in ("== idle", "== busy (bf16 GEMM loop)"):
        at = lines.index(title)
        header, values = (x.split(", ") for x in lines[at + 1 : at + 3])
        rows[title] = dict(zip(header, values, strict=True))
    return rows


def max_operating_celsius() -> float:
    """The H100's maximum operating temperature: its current temperature plus the T.Limit margin (nvidia-smi -q)."""
    text = SMI_Q.read_text(encoding="utf-8")
    current = float(re.search(r"GPU Current Temp\s+: (\d+) C", text)[1])  # type: ignore[index]
    margin = float(re.search(r"GPU T.Limit Temp\s+: (-?\d+) C", text)[1])  # type: ignore[index]
    return current + margin


def test_the_default_thresholds_fit_a_real_gpu(record: Callable[..., Recording]) -> None:
    rows = fixture_readings()
    found = rules(record(with_metrics()))
    idle_limit = float(found["GpuAllocatedButIdle"]["expression"].rsplit("<", 1)[1])
    hot = float(found["GpuTemperatureNearThrottling"]["expression"].rsplit(">=", 1)[1])
    busy = rows["== busy (bf16 GEMM loop)"]

    assert float(rows["== idle"]["utilization.gpu [%]"].rstrip(" %")) < idle_limit
    assert float(busy["utilization.gpu [%]"].rstrip(" %")) > idle_limit
    assert max_operating_celsius() == 87
    assert float(busy["temperature.gpu"]) < hot < max_operating_celsius()


def test_standalone_exporter_when_the_pool_has_the_device_plugin(record: Callable[..., Recording]) -> None:
    rec = record(with_metrics())
    [release] = [r for r in rec.of_type(HELM) if r.plain_inputs()["chart"] == "dcgm-exporter"]
    values = release.plain_inputs()["values"]

    assert release.plain_inputs()["repositoryOpts"] == {"repo": "https://nvidia.github.io/dcgm-exporter/helm-charts"}
    assert values["serviceMonitor"]["apiVersion"] == "azmonitoring.coreos.com/v1"
    assert values["nodeSelector"] == {"accelerator": "nvidia"}
    assert {"key": "sku", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"} in values["tolerations"]
    assert rec.of_type(SERVICE_MONITOR) == []


def test_the_gpu_operators_exporter_is_scraped_when_the_operator_owns_the_pool(
    record: Callable[..., Recording],
) -> None:
    rec = record(with_metrics(gpu_operator=True))
    monitor = rec.inputs(SERVICE_MONITOR)

    assert [r.plain_inputs()["chart"] for r in rec.of_type(HELM)] == ["gpu-operator"]
    assert monitor["apiVersion"] == "azmonitoring.coreos.com/v1"
    assert monitor["metadata"]["namespace"] == "gpu-operator"
    assert monitor["spec"]["selector"] == {"matchLabels": {"app": "nvidia-dcgm-exporter"}}
    assert monitor["spec"]["endpoints"][0]["port"] == "gpu-metrics"


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"gpu_metrics": True}, "alert_emails: required with gpu_metrics: true"),
        ({"gpu_idle_hours": 0}, "gpu_idle_hours: 0; allowed: a whole number of hours from 1 to 72"),
        ({"gpu_idle_hours": 73}, "gpu_idle_hours: 73; allowed: a whole number of hours from 1 to 72"),
        ({"gpu_idle_percent": 100}, "gpu_idle_percent: 100; allowed: a percentage above 0 and below 100"),
        ({"gpu_temperature_celsius": 120}, "gpu_temperature_celsius: 120; allowed: 40 to 100 °C"),
        (
            {"gpu_metrics": True, "alert_emails": CONTACTS, "gpu_driver": "None", "gpu_operator": False},
            "gpu_metrics: needs this pool to deploy the NVIDIA stack",
        ),
        (
            {
                "gpu_metrics": True,
                "alert_emails": CONTACTS,
                "existing_cluster": {"id": EXISTING_ID},
                "resource_group_name": None,
                "location": None,
            },
            "gpu_metrics: needs a new cluster",
        ),
    ],
)
def test_bad_metrics_inputs_are_refused_before_registering_anything(
    record: Callable[..., Recording], fake_arm: Any, overrides: dict[str, Any], expected: str
) -> None:
    with pytest.raises(ComponentInputError) as err:
        record(build_pool(**overrides))

    assert expected in str(err.value)
    assert [r.type for r in fake_arm.resources()] == ["Microsoft.Resources/resourceGroups"]


def raw_rule_group(severity: int = 3, scope_kind: str = "workspace") -> Callable[[], None]:
    def build(rg: Any) -> None:
        from pulumi_azure_native import alertsmanagement, monitor

        workspace = monitor.AzureMonitorWorkspace("amw", resource_group_name=rg.name, location="eastus")
        scope = workspace.id if scope_kind == "workspace" else rg.id
        alertsmanagement.PrometheusRuleGroup(
            "rules",
            resource_group_name=rg.name,
            location="eastus",
            scopes=[scope],
            rules=[
                alertsmanagement.PrometheusRuleArgs(
                    alert="Hot", expression="DCGM_FI_DEV_GPU_TEMP > 85", severity=severity
                )
            ],
        )

    return in_resource_group(build)


def test_fake_accepts_a_rule_group_on_a_monitor_workspace(record: Callable[..., Recording]) -> None:
    assert record(raw_rule_group()).refusals == []


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"severity": 7}, r"rules\[0\]: severity 7 is not one of \(0, 1, 2, 3, 4\)"),
        (
            {"scope_kind": "resource-group"},
            r"scopes\[0\] is a Microsoft.Resources/resourceGroups, not an Microsoft.Monitor/accounts",
        ),
    ],
    ids=["severity", "scope-not-a-workspace"],
)
def test_fake_refuses_what_the_rule_group_spec_forbids(
    record: Callable[..., Recording], kwargs: dict[str, Any], message: str
) -> None:
    [refusal] = record(raw_rule_group(**kwargs)).refusals

    assert (refusal.resource, refusal.code) == ("rules", "BadRequest")
    assert re.search(message, refusal.message)


def test_fake_refuses_a_data_flow_to_an_undefined_destination(record: Callable[..., Recording]) -> None:
    def build(rg: Any) -> None:
        from pulumi_azure_native import monitor

        workspace = monitor.AzureMonitorWorkspace("amw", resource_group_name=rg.name, location="eastus")
        monitor.DataCollectionRule(
            "dcr",
            resource_group_name=rg.name,
            location="eastus",
            destinations=monitor.DataCollectionRuleDestinationsArgs(
                monitoring_accounts=[
                    monitor.MonitoringAccountDestinationArgs(account_resource_id=workspace.id, name="a")
                ]
            ),
            data_flows=[monitor.DataFlowArgs(streams=["Microsoft-PrometheusMetrics"], destinations=["b"])],
        )

    [refusal] = record(in_resource_group(build)).refusals

    assert (refusal.resource, refusal.code) == ("dcr", "BadRequest")
    assert "dataFlows[0] sends to ['b'], which destinations does not define" in refusal.message


# The fields the DCGM exporter exports by default that the dashboard may read: NVIDIA/dcgm-exporter
# etc/default-counters.csv (commit d5e5f51, observed 2026-11-26), the uncommented lines of those names.
DEFAULT_COUNTERS = {
    "DCGM_FI_DEV_GPU_UTIL",
    "DCGM_FI_DEV_GPU_TEMP",
    "DCGM_FI_DEV_MEMORY_TEMP",
    "DCGM_FI_DEV_XID_ERRORS",
    "DCGM_FI_DEV_FB_FREE",
    "DCGM_FI_DEV_FB_USED",
}


def test_the_grafana_dashboard_shows_utilisation_memory_temperature_xid_and_idle_gpus() -> None:
    import json

    dashboard = json.loads((REPO / "components" / "dashboards" / "gpu.json").read_text(encoding="utf-8"))
    exprs = {p["title"]: " ".join(t["expr"] for t in p["targets"]) for p in dashboard["panels"]}
    used = {name for expr in exprs.values() for name in re.findall(r"DCGM_FI_[A-Z_]+", expr)}

    assert used <= DEFAULT_COUNTERS
    assert [
        any(metric in expr for expr in exprs.values())
        for metric in sorted(DEFAULT_COUNTERS - {"DCGM_FI_DEV_MEMORY_TEMP"})
    ] == [True] * 5
    idle = next(expr for title, expr in exprs.items() if "idle" in title.lower())
    assert 'pod!=""' in idle and "DCGM_FI_DEV_GPU_UTIL" in idle


def aks_stack_copy(tmp_path: Any, **changes: Any) -> Any:
    """The shipped aks-gpu stack file with `changes` in its aksGpuPool section."""
    import yaml

    data = yaml.safe_load((REPO / "stacks" / "Pulumi.aks-gpu.yaml").read_text(encoding="utf-8"))
    data["config"]["azure-gpu-stacks:aksGpuPool"].update(changes)
    path = tmp_path / "Pulumi.aks-gpu.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def test_the_shipped_aks_stack_switches_metrics_off_with_one_key(
    capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    import json

    from azure_gpu_stacks.engine.cli import main

    code = main(["plan", str(aks_stack_copy(tmp_path, gpuMetrics=False)), "--json"])
    plan = json.loads(capsys.readouterr().out)
    types = {r["type"] for r in plan["resources"]}

    assert code == 0
    assert {WORKSPACE, DCE, DCR, DCRA, RULES, ACTION_GROUP} & types == set()
    assert "azureMonitorProfile" not in next(r for r in plan["resources"] if r["type"] == CLUSTER)["inputs"]


def test_a_bad_idle_time_in_the_aks_stack_file_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    from azure_gpu_stacks.engine.cli import main

    path = aks_stack_copy(tmp_path, gpuIdleHours=0)
    code = main(["plan", str(path)])
    out, err = capsys.readouterr()

    assert code == 2 and out == ""
    assert err.strip().splitlines() == [
        f"gpu-stacks: error: {path}: azure-gpu-stacks:aksGpuPool.gpuIdleHours: 0; allowed: a whole number of hours "
        "from 1 to 72"
    ]


def test_the_operators_service_monitor_waits_for_the_operator(record: Callable[..., Recording]) -> None:
    rec = record(with_metrics(gpu_operator=True))
    [operator] = rec.of_type(HELM)

    assert operator.urn in rec.one(SERVICE_MONITOR).dependencies
