"""AmlCluster's idle-GPU alarm: an Azure Monitor metric alert on nodes running jobs with idle GPUs, routed to the
budget's contacts; and what the fake ARM refuses in a metric alert.

Metric names and dimensions are Learn's, "Azure Machine Learning monitoring data reference"
(https://learn.microsoft.com/azure/machine-learning/monitor-azure-machine-learning-reference, observed 2026-11-26):
`Active Nodes` ("nodes that are actively running a job", dimension Cluster Name) and `GpuUtilization` ("Percentage of
utilization on a GPU node"). Severity {0..4}: the metric alert REST spec (metricAlert_API.json).
"""

from __future__ import annotations

import csv
import io
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from azure_gpu_stacks.components.checks import ComponentInputError
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.fakeazure import FAKE_SUBSCRIPTION_ID

from tests.conftest import REPO, Recording, in_resource_group

ALERT = "azure-native:monitor:MetricAlert"
ACTION_GROUP = "azure-native:monitor:ActionGroup"
CONTACTS = ["ml-platform@example.com", "finops@example.com"]
FIXTURE = REPO / "tests" / "data" / "gpu_fixtures" / "h100-busy-and-sections.txt"


def build_cluster(**overrides: Any) -> Callable[[], None]:
    def build(rg: Any) -> None:
        from azure_gpu_stacks.components.aml_cluster import AmlCluster

        args = {"resource_group_name": rg.name, "location": "eastus", "compute_name": "a100-cluster", **overrides}
        AmlCluster("aml", args)  # type: ignore[arg-type]

    return in_resource_group(build)


def with_alert(**overrides: Any) -> Callable[[], None]:
    return build_cluster(gpu_idle_alert=True, alert_emails=CONTACTS, **overrides)


def criteria(rec: Recording) -> dict[str, dict[str, Any]]:
    return {c["name"]: c for c in rec.inputs(ALERT)["criteria"]["allOf"]}


def test_a_cluster_has_no_alarm_unless_asked(record: Callable[..., Recording]) -> None:
    rec = record(build_cluster())

    assert rec.of_type(ALERT) == [] and rec.of_type(ACTION_GROUP) == []


def test_the_alarm_watches_the_workspace_for_nodes_running_jobs_with_idle_gpus(
    record: Callable[..., Recording],
) -> None:
    rec = record(with_alert())
    alert = rec.inputs(ALERT)
    workspace = next(r for r in rec.arm.resources() if r.type == "Microsoft.MachineLearningServices/workspaces")
    found = criteria(rec)

    assert alert["scopes"] == [workspace.id]
    assert alert["targetResourceType"] == "Microsoft.MachineLearningServices/workspaces"
    assert (alert["windowSize"], alert["evaluationFrequency"], alert["enabled"]) == ("PT1H", "PT15M", True)
    assert found["nodes-running-jobs"]["metricName"] == "Active Nodes"
    assert found["nodes-running-jobs"]["dimensions"] == [
        {"name": "ClusterName", "operator": "Include", "values": ["a100-cluster"]}
    ]
    assert (found["nodes-running-jobs"]["operator"], found["nodes-running-jobs"]["threshold"]) == ("GreaterThan", 0)
    assert found["nodes-running-jobs"]["timeAggregation"] == "Minimum"
    assert found["gpus-idle"]["metricName"] == "GpuUtilization"
    assert (found["gpus-idle"]["operator"], found["gpus-idle"]["timeAggregation"]) == ("LessThan", "Average")
    assert rec.refusals == []


def test_the_alarm_emails_the_budgets_contacts(record: Callable[..., Recording]) -> None:
    rec = record(with_alert())
    group = next(r for r in rec.arm.resources() if r.type == "Microsoft.Insights/actionGroups")

    assert [r["emailAddress"] for r in rec.inputs(ACTION_GROUP)["emailReceivers"]] == CONTACTS
    assert rec.inputs(ALERT)["actions"] == [{"actionGroupId": group.id}]


def test_the_default_threshold_separates_an_idle_gpu_from_a_busy_one(record: Callable[..., Recording]) -> None:
    # utilization.gpu of a real H100, idle and under a bf16 GEMM loop (tests/data/gpu_fixtures/README.md)
    readings = {}
    lines = FIXTURE.read_text(encoding="utf-8").splitlines()
    for title in ("== idle", "== busy (bf16 GEMM loop)"):
        at = lines.index(title)
        [row] = list(csv.DictReader(io.StringIO("\n".join(lines[at + 1 : at + 3])), skipinitialspace=True))
        readings[title] = float(row["utilization.gpu [%]"].rstrip(" %"))
    threshold = criteria(record(with_alert()))["gpus-idle"]["threshold"]

    assert readings["== idle"] < threshold < readings["== busy (bf16 GEMM loop)"]


def test_the_idle_threshold_is_configurable(record: Callable[..., Recording]) -> None:
    assert criteria(record(with_alert(gpu_idle_percent=20)))["gpus-idle"]["threshold"] == 20


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"gpu_idle_alert": True}, "alert_emails: required with gpu_idle_alert: true"),
        ({"alert_emails": ["not-an-address"]}, "alert_emails[0]: 'not-an-address' is not an email address"),
        ({"gpu_idle_percent": 0}, "gpu_idle_percent: 0; allowed: a percentage above 0 and below 100"),
        ({"gpu_idle_percent": 100}, "gpu_idle_percent: 100; allowed: a percentage above 0 and below 100"),
    ],
)
def test_bad_alarm_inputs_are_refused_before_registering_anything(
    record: Callable[..., Recording], fake_arm: Any, overrides: dict[str, Any], expected: str
) -> None:
    with pytest.raises(ComponentInputError) as err:
        record(build_cluster(**overrides))

    assert expected in str(err.value)
    assert [r.type for r in fake_arm.resources()] == ["Microsoft.Resources/resourceGroups"]


def raw_alert(severity: int = 3, scope: str | None = None) -> Callable[[], None]:
    def build(rg: Any) -> None:
        from pulumi_azure_native import monitor, resources

        target = resources.ResourceGroup("watched", resource_group_name="rg-watched", location="eastus")
        monitor.MetricAlert(
            "alert",
            resource_group_name=rg.name,
            location="global",
            severity=severity,
            enabled=True,
            scopes=[scope or target.id],
            evaluation_frequency="PT5M",
            window_size="PT15M",
            criteria=monitor.MetricAlertSingleResourceMultipleMetricCriteriaArgs(
                odata_type="Microsoft.Azure.Monitor.SingleResourceMultipleMetricCriteria",
                all_of=[
                    monitor.MetricCriteriaArgs(
                        criterion_type="StaticThresholdCriterion",
                        name="c",
                        metric_name="Percentage CPU",
                        operator="GreaterThan",
                        threshold=90,
                        time_aggregation="Average",
                    )
                ],
            ),
        )

    return in_resource_group(build)


def test_fake_accepts_a_metric_alert_of_azures_severities(record: Callable[..., Recording]) -> None:
    assert record(raw_alert(severity=4)).refusals == []


def test_fake_refuses_a_severity_outside_0_to_4(record: Callable[..., Recording]) -> None:
    [refusal] = record(raw_alert(severity=5)).refusals

    assert (refusal.resource, refusal.code) == ("alert", "BadRequest")
    assert "severity 5 is not one of (0, 1, 2, 3, 4)" in refusal.message


def test_fake_refuses_a_scope_that_does_not_exist(record: Callable[..., Recording]) -> None:
    missing = (
        f"/subscriptions/{FAKE_SUBSCRIPTION_ID}/resourceGroups/rg-test/providers/Microsoft.Compute/virtualMachines/gone"
    )
    [refusal] = record(raw_alert(scope=missing)).refusals

    assert (refusal.resource, refusal.code) == ("alert", "ResourceNotFound")


def aml_stack_copy(tmp_path: Path, **changes: Any) -> Path:
    """The shipped aml-gpu stack file with `changes` in its amlCluster section."""
    data = yaml.safe_load((REPO / "stacks" / "Pulumi.aml-gpu.yaml").read_text(encoding="utf-8"))
    data["config"]["azure-gpu-stacks:amlCluster"].update(changes)
    path = tmp_path / "Pulumi.aml-gpu.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def test_the_shipped_aml_stack_switches_the_alarm_off_with_one_key(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code = main(["plan", str(aml_stack_copy(tmp_path, gpuIdleAlert=False)), "--json"])
    plan = json.loads(capsys.readouterr().out)
    types = {r["type"] for r in plan["resources"]}

    assert code == 0
    assert ALERT not in types and ACTION_GROUP not in types
    assert "azure-native:machinelearningservices:Compute" in types


def test_a_bad_idle_percent_in_the_stack_file_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = aml_stack_copy(tmp_path, gpuIdlePercent=150)
    code = main(["plan", str(path)])
    out, err = capsys.readouterr()

    assert code == 2 and out == ""
    assert err.strip().splitlines() == [
        f"gpu-stacks: error: {path}: azure-gpu-stacks:amlCluster.gpuIdlePercent: 150; allowed: a percentage above 0 "
        "and below 100, e.g. 5"
    ]


def test_every_shipped_stack_runs_under_pulumis_own_mocks() -> None:
    """Teams unit-test their stacks with `pulumi.runtime.set_mocks`, whose outputs are only the inputs echoed:
    no component may build a value from an output Azure fills in (the idle alert joined the cluster's `name`
    output, None there, and every program with an AML cluster raised TypeError).

    Run in a forked child of this test process, whose imports the session's preload has made, with the echo mocks
    of bench/floors.py (whose own fresh interpreter, warm-up runs and timing are for the benchmark, not for this:
    about 8 CPU-seconds against 1, docs/testing.md); what a program raises fails the test with its message."""
    from azure_gpu_stacks.engine.run.isolation import Limits, run_isolated

    stacks = sorted(
        p.name.removeprefix("Pulumi.").removesuffix(".yaml") for p in (REPO / "stacks").glob("Pulumi.*.yaml")
    )

    def registered() -> dict[str, int]:
        """Each stack's program run under `pulumi.runtime.set_mocks`: how many resources it registered."""
        from azure_gpu_stacks.engine.run.project import load_project, load_stack

        from bench.floors import _echo_run

        project = load_project(REPO)
        os.chdir(project.root)  # as `python bench/floors.py` runs it: the project's directory first on sys.path
        sys.path.insert(0, str(project.root))
        counts = {}
        for name in stacks:
            s = load_stack(project, name)
            counts[name] = _echo_run(project.main_file, project.name, s.name, s.config, s.secret_keys)
        return counts

    counts, _ = run_isolated(registered, repr, Limits(timeout_s=300), "the shipped stacks under pulumi's mocks")

    assert sorted(counts) == stacks and all(count > 0 for count in counts.values())
