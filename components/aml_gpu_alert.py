"""An Azure Monitor metric alert on an Azure ML cluster whose nodes run jobs that leave the GPUs idle.

Two criteria, both over the last hour (evaluated every 15 minutes), on the workspace's platform metrics
(Learn, "Azure Machine Learning monitoring data reference",
https://learn.microsoft.com/azure/machine-learning/monitor-azure-machine-learning-reference, observed 2026-11-26):

- `Active Nodes` (category Quota, dimension `ClusterName`: "the nodes that are actively running a job") stays above 0
  for the cluster the whole hour (minimum > 0): nodes are up and billed;
- `GpuUtilization` (category Resource: "Percentage of utilization on a GPU node", reported each minute) averages
  below the threshold (default 5 %).

Together: GPUs allocated to jobs, and idle. It is a cost alarm, so it goes to an action group emailing the budget's
contacts. Idle nodes with no job are not its matter: the cluster releases them after its idle time.
Limit, from the same page: `GpuUtilization` has no `ClusterName` dimension (only RunId, NodeId, DeviceId, CreatedTime),
so the utilisation is the workspace's, all clusters together; a busy second cluster in the same workspace can hide an
idle one.

Threshold: a real H100 80GB node (nvidia-smi, tests/data/gpu_fixtures/) reads 0 % utilisation idle and 100 % under a
bf16 GEMM loop; 5 % leaves room for a data loader's occasional kernel without calling a stalled job busy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pulumi
from pulumi_azure_native import monitor

from .checks import Problems, email

ML_WORKSPACES = "Microsoft.MachineLearningServices/workspaces"
ACTIVE_NODES = "Active Nodes"
GPU_UTILIZATION = "GpuUtilization"
CLUSTER_DIMENSION = "ClusterName"
DEFAULT_IDLE_PERCENT = 5.0
WINDOW = "PT1H"  # the hour both criteria must hold over
EVALUATION_FREQUENCY = "PT15M"
SEVERITY = 3  # informational: nothing is broken, money is being spent (Azure's scale: 0 critical .. 4 verbose)


def create_gpu_idle_alert(
    name: str,
    *,
    resource_group_name: pulumi.Input[str],
    workspace_id: pulumi.Input[str],
    compute_name: pulumi.Input[str],
    emails: Sequence[str],
    idle_percent: float,
    tags: Mapping[str, str],
    parent: pulumi.Resource,
) -> monitor.MetricAlert:
    """The action group emailing `emails` and the metric alert routed to it."""
    child = pulumi.ResourceOptions(parent=parent)
    group = monitor.ActionGroup(
        f"{name}-gpu-alerts",
        resource_group_name=resource_group_name,
        location="Global",
        enabled=True,
        group_short_name="gpu-idle",
        email_receivers=[
            monitor.MicrosoftCommonEmailReceiverArgs(
                name=f"contact-{index}", email_address=address, use_common_alert_schema=True
            )
            for index, address in enumerate(emails)
        ],
        tags=dict(tags),
        opts=child,
    )
    return monitor.MetricAlert(
        f"{name}-gpu-idle",
        resource_group_name=resource_group_name,
        location="global",
        description=pulumi.Output.concat(
            "Nodes of Azure ML cluster '",
            compute_name,
            f"' ran jobs for an hour while the workspace's GPU utilisation averaged under {idle_percent:g} %: GPUs "
            "billed and idle (a stalled job, a data-loading bottleneck, a notebook holding a node).",
        ),
        severity=SEVERITY,
        enabled=True,
        auto_mitigate=True,
        scopes=[workspace_id],
        target_resource_type=ML_WORKSPACES,
        evaluation_frequency=EVALUATION_FREQUENCY,
        window_size=WINDOW,
        criteria=monitor.MetricAlertSingleResourceMultipleMetricCriteriaArgs(
            odata_type="Microsoft.Azure.Monitor.SingleResourceMultipleMetricCriteria",
            all_of=[
                monitor.MetricCriteriaArgs(
                    criterion_type="StaticThresholdCriterion",
                    name="nodes-running-jobs",
                    metric_namespace=ML_WORKSPACES,
                    metric_name=ACTIVE_NODES,
                    dimensions=[
                        monitor.MetricDimensionArgs(name=CLUSTER_DIMENSION, operator="Include", values=[compute_name])
                    ],
                    operator=monitor.Operator.GREATER_THAN,
                    threshold=0,
                    time_aggregation=monitor.AggregationTypeEnum.MINIMUM,
                ),
                monitor.MetricCriteriaArgs(
                    criterion_type="StaticThresholdCriterion",
                    name="gpus-idle",
                    metric_namespace=ML_WORKSPACES,
                    metric_name=GPU_UTILIZATION,
                    operator=monitor.Operator.LESS_THAN,
                    threshold=idle_percent,
                    time_aggregation=monitor.AggregationTypeEnum.AVERAGE,
                ),
            ],
        ),
        actions=[monitor.MetricAlertActionArgs(action_group_id=group.id)],
        tags=dict(tags),
        opts=child,
    )


def check_alert_inputs(a: Mapping[str, Any], problems: Problems) -> None:
    """The alert's inputs of an AmlCluster (`gpu_idle_alert`, `gpu_idle_percent`, `alert_emails`), into `problems`."""
    percent = a["gpu_idle_percent"]
    if isinstance(percent, bool) or not isinstance(percent, (int, float)) or not 0 < percent < 100:
        problems.add("gpu_idle_percent", f"{percent!r}; allowed: a percentage above 0 and below 100, e.g. 5")
    emails = a["alert_emails"]
    if a["gpu_idle_alert"] and not emails:
        problems.add("alert_emails", "required with gpu_idle_alert: true (the budget's contacts, who get the alarm)")
    for index, address in enumerate(emails):
        problems.check(f"alert_emails[{index}]", email, address)
