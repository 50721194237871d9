"""GPU metrics and an idle-GPU alarm for an AKS GPU pool: NVIDIA's DCGM exporter, scraped by Azure Managed Prometheus,
with a Prometheus rule group that alarms on GPUs allocated but idle, temperature near throttling, and XID errors.

What it builds (`AksGpuPool` with `gpu_metrics: true`; docs/gpu-monitoring.md):

- Azure Managed Prometheus for the cluster, as Learn's "Enable Prometheus metrics for AKS"
  (https://learn.microsoft.com/azure/azure-monitor/containers/kubernetes-monitoring-enable) and Azure's own onboarding
  template (Azure/prometheus-collector, AddonTerraformTemplate/main.tf) set it up, both observed 2026-11-26: an Azure
  Monitor workspace, a data collection endpoint (kind Linux), a data collection rule whose `prometheusForwarder`
  source sends `Microsoft-PrometheusMetrics` to the workspace, its association with the cluster, and the cluster's
  `azureMonitorProfile.metrics.enabled` (the `ama-metrics` add-on; set in `aks_cluster.create_cluster`).
- The DCGM exporter (Learn, "Monitor GPU metrics from NVIDIA DCGM exporter",
  https://learn.microsoft.com/azure/azure-monitor/containers/prometheus-dcgm-integration, observed 2026-11-26), by the
  owner of the NVIDIA stack (docs/aks-gpu-modes.md): with `gpu_operator` the operator already runs it (its
  `nvidia-dcgm-exporter` Service, port `gpu-metrics`: NVIDIA/gpu-operator assets/state-dcgm-exporter/0600_service.yaml)
  and we add the ServiceMonitor Managed Prometheus reads (group `azmonitoring.coreos.com`, not Prometheus Operator's
  `monitoring.coreos.com`); otherwise a pinned `dcgm-exporter` Helm release on the GPU nodes whose chart makes that
  ServiceMonitor itself (`serviceMonitor.apiVersion`, NVIDIA/dcgm-exporter deployment/values.yaml).
- A Prometheus rule group (`alertsmanagement:PrometheusRuleGroup`) on the workspace, its alerts to an action group
  emailing the budget's contacts.

Metric names: NVIDIA's DCGM field identifiers as the exporter's default counters name them (NVIDIA/dcgm-exporter
etc/default-counters.csv; https://docs.nvidia.com/datacenter/dcgm/latest/dcgm-api/dcgm-api-field-ids.html, observed
2026-11-26): `DCGM_FI_DEV_GPU_UTIL` (%), `DCGM_FI_DEV_GPU_TEMP` (°C), `DCGM_FI_DEV_XID_ERRORS` (the last XID error's
value), `DCGM_FI_DEV_FB_USED`/`DCGM_FI_DEV_FB_FREE` (MiB). The exporter labels a GPU's series with the `pod` and
`namespace` it is allocated to (the kubelet's pod-resources API): `pod!=""` is "allocated".

Thresholds, from a real H100 80GB node (tests/data/gpu_fixtures/, nvidia-smi): idle 0 % utilisation, busy 100 %, so
"idle" is under 5 %; its limits read "GPU T.Limit Temp 38 C" at 49 °C, so the maximum operating temperature is 87 °C
(slowdown 2 °C above, shutdown 8 °C above): the temperature alarm fires at 85 °C, before throttling.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pulumi
from pulumi_azure_native import alertsmanagement, monitor

from .aks_gpu_scheduling import NVIDIA_GPU_TAINT, SPOT_TAINT, toleration
from .checks import Problems, email
from .nvidia_device_plugin import ACCELERATOR_LABEL
from .nvidia_gpu_operator import GPU_OPERATOR_NAMESPACE

# NVIDIA's dcgm-exporter chart, pinned: 4.8.2 (NVIDIA/dcgm-exporter deployment/Chart.yaml, commit d5e5f51 of
# 2026-05-12, observed 2026-11-26).
DCGM_CHART = "dcgm-exporter"
DCGM_CHART_VERSION = "4.8.2"
DCGM_REPO = "https://nvidia.github.io/dcgm-exporter/helm-charts"
DCGM_NAMESPACE = "gpu-metrics"
# What Azure Managed Prometheus reads ServiceMonitors as (Learn, "Customize scraping of Prometheus metrics in Azure
# Monitor using PodMonitor and ServiceMonitor", observed 2026-11-26).
AZURE_SERVICE_MONITOR_API = "azmonitoring.coreos.com/v1"
OPERATOR_EXPORTER_SERVICE = {"app": "nvidia-dcgm-exporter"}
OPERATOR_EXPORTER_PORT = "gpu-metrics"
PROMETHEUS_STREAM = "Microsoft-PrometheusMetrics"
MONITORING_ACCOUNT = "MonitoringAccount1"  # the destination's name in the rule, as Azure's template names it
SCRAPE_INTERVAL = "30s"

DEFAULT_IDLE_HOURS = 4
IDLE_HOURS_RANGE = (1, 72)  # ours: under an hour a data-loading pause alarms; over three days the alarm is late
DEFAULT_IDLE_PERCENT = 5.0
DEFAULT_TEMPERATURE_CELSIUS = 85


@dataclass(frozen=True)
class Rule:
    """One alert rule of the group: its name, PromQL, how long it must hold, Azure severity (0 critical .. 4)."""

    alert: str
    expression: str
    hold: str
    severity: int
    summary: str


def gpu_rules(idle_hours: int, idle_percent: float, temperature: float) -> tuple[Rule, ...]:
    """The three alarms, with their configurable thresholds."""
    return (
        Rule(
            "GpuAllocatedButIdle",
            f'DCGM_FI_DEV_GPU_UTIL{{pod!=""}} < {idle_percent:g}',
            f"PT{idle_hours}H",
            3,
            f"A GPU allocated to pod {{{{ $labels.namespace }}}}/{{{{ $labels.pod }}}} stayed under {idle_percent:g} % "
            f"utilisation for {idle_hours} h: the node bills while the GPU idles.",
        ),
        Rule(
            "GpuTemperatureNearThrottling",
            f"DCGM_FI_DEV_GPU_TEMP >= {temperature:g}",
            "PT5M",
            2,
            f"GPU {{{{ $labels.gpu }}}} on {{{{ $labels.Hostname }}}} is at or above {temperature:g} °C, close to its "
            "slowdown temperature.",
        ),
        Rule(
            "GpuXidError",
            "DCGM_FI_DEV_XID_ERRORS > 0",
            "PT0M",
            1,
            "GPU {{ $labels.gpu }} on {{ $labels.Hostname }} reported XID error {{ $value }}: check the node before "
            "scheduling more work on it.",
        ),
    )


def create_gpu_metrics(
    name: str,
    a: Mapping[str, Any],
    *,
    cluster_id: pulumi.Input[str],
    cluster_name: pulumi.Input[str],
    provider: pulumi.ProviderResource,
    after: list[pulumi.Resource],
    parent: pulumi.Resource,
) -> None:
    """Managed Prometheus for the cluster, the DCGM exporter, and the alert rule group with its action group."""
    child = pulumi.ResourceOptions(parent=parent)
    placed = {"resource_group_name": a["resource_group_name"], "location": a["location"], "tags": dict(a["tags"])}
    workspace = monitor.AzureMonitorWorkspace(f"{name}-prometheus", **placed, opts=child)
    endpoint = monitor.DataCollectionEndpoint(f"{name}-prom-dce", kind="Linux", **placed, opts=child)
    rule = monitor.DataCollectionRule(
        f"{name}-prom-dcr",
        kind="Linux",
        description="Azure Managed Prometheus for the AKS cluster (GPU metrics from the DCGM exporter)",
        data_collection_endpoint_id=endpoint.id,
        data_sources=monitor.DataCollectionRuleDataSourcesArgs(
            prometheus_forwarder=[
                monitor.PrometheusForwarderDataSourceArgs(name="PrometheusDataSource", streams=[PROMETHEUS_STREAM])
            ]
        ),
        destinations=monitor.DataCollectionRuleDestinationsArgs(
            monitoring_accounts=[
                monitor.MonitoringAccountDestinationArgs(account_resource_id=workspace.id, name=MONITORING_ACCOUNT)
            ]
        ),
        data_flows=[monitor.DataFlowArgs(streams=[PROMETHEUS_STREAM], destinations=[MONITORING_ACCOUNT])],
        **placed,
        opts=child,
    )
    monitor.DataCollectionRuleAssociation(
        f"{name}-prom-dcra",
        resource_uri=cluster_id,
        data_collection_rule_id=rule.id,
        description="Sends the cluster's Prometheus metrics to the Azure Monitor workspace; deleting it stops them.",
        opts=child,
    )
    _create_exporter(name, a, provider=provider, after=after, parent=parent)
    group = monitor.ActionGroup(
        f"{name}-gpu-alerts",
        resource_group_name=a["resource_group_name"],
        location="Global",
        enabled=True,
        group_short_name="gpu-alerts",
        email_receivers=[
            monitor.MicrosoftCommonEmailReceiverArgs(
                name=f"contact-{index}", email_address=address, use_common_alert_schema=True
            )
            for index, address in enumerate(a["alert_emails"])
        ],
        tags=dict(a["tags"]),
        opts=child,
    )
    rules = gpu_rules(int(a["gpu_idle_hours"]), float(a["gpu_idle_percent"]), float(a["gpu_temperature_celsius"]))
    alertsmanagement.PrometheusRuleGroup(
        f"{name}-gpu-rules",
        **placed,
        scopes=[workspace.id],
        cluster_name=cluster_name,
        enabled=True,
        interval="PT1M",
        description="GPU alarms from the DCGM exporter: allocated but idle (cost), temperature, XID errors.",
        rules=[
            alertsmanagement.PrometheusRuleArgs(
                alert=r.alert,
                expression=r.expression,
                for_=r.hold,
                severity=r.severity,
                enabled=True,
                annotations={"summary": r.summary},
                labels={"team": "gpu"},
                actions=[alertsmanagement.PrometheusRuleGroupActionArgs(action_group_id=group.id)],
                resolve_configuration=alertsmanagement.PrometheusRuleResolveConfigurationArgs(
                    auto_resolved=True, time_to_resolve="PT10M"
                ),
            )
            for r in rules
        ],
        opts=child,
    )


def _create_exporter(
    name: str,
    a: Mapping[str, Any],
    *,
    provider: pulumi.ProviderResource,
    after: list[pulumi.Resource],
    parent: pulumi.Resource,
) -> None:
    import pulumi_kubernetes as k8s

    opts = pulumi.ResourceOptions(parent=parent, provider=provider, depends_on=after)
    if a["gpu_operator"]:
        # The operator runs the exporter; Managed Prometheus needs a ServiceMonitor of its own group to scrape it.
        k8s.apiextensions.CustomResource(
            f"{name}-dcgm-service-monitor",
            api_version=AZURE_SERVICE_MONITOR_API,
            kind="ServiceMonitor",
            metadata={"name": "nvidia-dcgm-exporter", "namespace": GPU_OPERATOR_NAMESPACE},
            spec={
                "selector": {"matchLabels": OPERATOR_EXPORTER_SERVICE},
                "endpoints": [{"port": OPERATOR_EXPORTER_PORT, "interval": SCRAPE_INTERVAL}],
            },
            opts=opts,
        )
        return
    k8s.helm.v3.Release(
        f"{name}-dcgm-exporter",
        chart=DCGM_CHART,
        version=DCGM_CHART_VERSION,
        repository_opts={"repo": DCGM_REPO},
        namespace=DCGM_NAMESPACE,
        create_namespace=True,
        values=dcgm_exporter_values(a["node_taints"]),
        opts=opts,
    )


def dcgm_exporter_values(node_taints: Sequence[str]) -> dict[str, Any]:
    """The standalone chart's values: on the GPU nodes only, tolerating their taints, scraped by Managed Prometheus."""
    return {
        "nodeSelector": {ACCELERATOR_LABEL: "nvidia"},
        "tolerations": [toleration(t) for t in dict.fromkeys([*node_taints, SPOT_TAINT, NVIDIA_GPU_TAINT])],
        "serviceMonitor": {"enabled": True, "apiVersion": AZURE_SERVICE_MONITOR_API, "interval": SCRAPE_INTERVAL},
    }


def check_metrics_inputs(a: Mapping[str, Any], problems: Problems) -> None:
    """The metrics inputs of an AksGpuPool (`gpu_metrics` and its thresholds, `alert_emails`), into `problems`."""
    hours = a["gpu_idle_hours"]
    low, high = IDLE_HOURS_RANGE
    if isinstance(hours, bool) or not isinstance(hours, int) or not low <= hours <= high:
        problems.add("gpu_idle_hours", f"{hours!r}; allowed: a whole number of hours from {low} to {high}")
    percent = a["gpu_idle_percent"]
    if isinstance(percent, bool) or not isinstance(percent, (int, float)) or not 0 < percent < 100:
        problems.add("gpu_idle_percent", f"{percent!r}; allowed: a percentage above 0 and below 100, e.g. 5")
    celsius = a["gpu_temperature_celsius"]
    if isinstance(celsius, bool) or not isinstance(celsius, (int, float)) or not 40 <= celsius <= 100:
        problems.add("gpu_temperature_celsius", f"{celsius!r}; allowed: 40 to 100 °C, e.g. 85")
    if a["gpu_metrics"]:
        if a.get("existing_cluster"):
            problems.add(
                "gpu_metrics",
                "needs a new cluster (it enables the cluster's Managed Prometheus add-on); on an existing cluster run "
                "`az aks update --enable-azure-monitor-metrics` and leave gpu_metrics unset",
            )
        if not a["alert_emails"]:
            problems.add("alert_emails", "required with gpu_metrics: true (the budget's contacts, who get the alarms)")
    for index, address in enumerate(a["alert_emails"]):
        problems.check(f"alert_emails[{index}]", email, address)
