"""What the fake's Azure Monitor model (fakeazure/models/monitor.py) checks and answers, rule by rule: an action
group's short name, an autoscale setting's profiles, capacities and schedules at their bounds, a metric alert's
severity, scopes, durations, criteria and actions, and the Managed Prometheus resources (workspace, data collection
endpoint, rule and association) with the ids and endpoints Azure gives them. In-process against `FakeArm.put`, one
fake per test.

Where the expected values come from (observed 2026-11-27; Azure/azure-rest-api-specs, specification/monitor/
resource-manager/Microsoft.Insights, "the spec" of each type):
- action groups: the 2024-10-01-preview spec's `groupShortName`, "The short name of the action group. This will be
  used in SMS messages", at most 12 characters (ActionGroup, maxLength 12);
- autoscale settings: autoscale_API.json (2022-10-01): 1 to 20 profiles, at most 10 rules each, capacities as
  counts, a recurrence of frequency Week, days Sunday to Saturday, hours 0 to 23, minutes 0 to 59; Learn,
  https://learn.microsoft.com/azure/azure-monitor/autoscale/autoscale-understanding-settings ("You can only have
  one default profile"), and Azure's own words for a minimum above the default (microsoft/onefuzz issue 2249);
- metric alerts: metricAlert_API.json (2018-03-01): severity "{0, 1, 2, 3, 4}", `scopes` the resource ids the
  alert watches, `evaluationFrequency` and `windowSize` ISO 8601 durations, `lastUpdatedTime` read-only;
- data collection: Learn, "Data collection endpoints in Azure Monitor"
  (https://learn.microsoft.com/azure/azure-monitor/essentials/data-collection-endpoint-overview: the endpoints
  `<unique-dce-identifier>.<regionname>-1.ingest` and `...-1.handler.control`), the 2022-06-01 spec's example
  DataCollectionRulesCreate.json (`immutableId` `dcr-` and 32 hexadecimal digits) and Learn, "Enable Prometheus
  metrics for AKS" (a rule's data flow sends to destinations the rule names)."""

from __future__ import annotations

import datetime as dt
import re
import uuid
from typing import Any

import pytest
from azure_gpu_stacks.fakeazure import FakeArm

from tests.conftest import arm_refusal

RG = "rg-mon"
NOW = dt.datetime(2026, 11, 27, 12, 0, tzinfo=dt.UTC)
ACTION_GROUP = "azure-native:monitor:ActionGroup"
AUTOSCALE = "azure-native:monitor:AutoscaleSetting"
METRIC_ALERT = "azure-native:monitor:MetricAlert"
WORKSPACE = "azure-native:monitor:AzureMonitorWorkspace"
ENDPOINT = "azure-native:monitor:DataCollectionEndpoint"
RULE = "azure-native:monitor:DataCollectionRule"
ASSOCIATION = "azure-native:monitor:DataCollectionRuleAssociation"
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]


@pytest.fixture
def arm() -> FakeArm:
    arm = FakeArm(default_location="eastus", now=NOW)
    arm.put("azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": RG, "location": "eastus"}, "rg")
    vnet = {"resourceGroupName": RG, "virtualNetworkName": "vn", "addressSpace": {"addressPrefixes": ["10.0.0.0/16"]}}
    arm.put("azure-native:network:VirtualNetwork", "vn", vnet, "vn")
    return arm


def resource_id(arm: FakeArm, kind: str, name: str) -> str:
    return f"/subscriptions/{arm.subscription_id}/resourceGroups/{RG}/providers/{kind}/{name}"


def vnet_id(arm: FakeArm) -> str:
    return resource_id(arm, "Microsoft.Network/virtualNetworks", "vn")


# --- action groups ------------------------------------------------------------------------------------------------


def action_group(arm: FakeArm, short: Any, name: str = "ops") -> Any:
    props = {"resourceGroupName": RG, "actionGroupName": name, "location": "global", "enabled": True}
    return arm.put(ACTION_GROUP, name, {**props, "groupShortName": short}, name)


@pytest.mark.parametrize("short", ["o", "gpu-ops-team"])
def test_an_action_groups_short_name_of_1_to_12_characters_is_accepted(arm: FakeArm, short: str) -> None:
    assert action_group(arm, short).name == "ops"


@pytest.mark.parametrize("short", ["gpu-ops-team1", ""])
def test_an_action_groups_short_name_outside_1_to_12_characters_is_refused(arm: FakeArm, short: str) -> None:
    error = arm_refusal(lambda: action_group(arm, short))

    assert (error.code, error.message) == ("InvalidParameter", f"groupShortName {short!r} must be 1 to 12 characters.")


def test_an_action_group_without_a_short_name_is_refused_as_an_empty_one(arm: FakeArm) -> None:
    error = arm_refusal(lambda: action_group(arm, None))  # required by the spec

    assert (error.code, error.message) == ("InvalidParameter", "groupShortName '' must be 1 to 12 characters.")


# --- autoscale settings -------------------------------------------------------------------------------------------


def recurrence(**schedule: Any) -> dict[str, Any]:
    frequency = schedule.pop("frequency", "Week")
    return {
        "frequency": frequency,
        "schedule": {"timeZone": "UTC", "days": WEEKDAYS, "hours": [8.0], "minutes": [0.0], **schedule},
    }


def profile(name: str = "work", capacity: tuple[Any, Any, Any] = ("1", "3", "2"), **more: Any) -> dict[str, Any]:
    minimum, maximum, default = capacity
    body = {"name": name, "capacity": {"minimum": minimum, "maximum": maximum, "default": default}, "rules": []}
    return {**body, "recurrence": recurrence(), **more}


def default_profile(name: str = "idle", capacity: tuple[Any, Any, Any] = ("0", "0", "0")) -> dict[str, Any]:
    minimum, maximum, default = capacity
    return {"name": name, "capacity": {"minimum": minimum, "maximum": maximum, "default": default}, "rules": []}


def rule() -> dict[str, Any]:
    return {
        "metricTrigger": {
            "metricName": "Percentage CPU",
            "metricResourceUri": "/subscriptions/x",
            "timeGrain": "PT1M",
            "statistic": "Average",
            "timeWindow": "PT10M",
            "timeAggregation": "Average",
            "operator": "GreaterThan",
            "threshold": 80.0,
        },
        "scaleAction": {"direction": "Increase", "type": "ChangeCount", "value": "1", "cooldown": "PT5M"},
    }


def autoscale(arm: FakeArm, profiles: list[dict[str, Any]], target: str | None = None) -> Any:
    props = {
        "resourceGroupName": RG,
        "autoscaleSettingName": "scale",
        "location": "eastus",
        "enabled": True,
        "targetResourceUri": target or vnet_id(arm),
        "profiles": profiles,
    }
    return arm.put(AUTOSCALE, "scale", props, "scale")


def autoscale_refusal(arm: FakeArm, profiles: list[dict[str, Any]]) -> tuple[str, str]:
    error = arm_refusal(lambda: autoscale(arm, profiles))
    return error.code, error.message


def test_an_autoscale_setting_of_20_profiles_and_10_rules_is_accepted(arm: FakeArm) -> None:
    profiles = [profile(f"p{i}", recurrence=recurrence(minutes=[float(i)])) for i in range(19)]
    profiles.append(default_profile())
    profiles[0]["rules"] = [rule()] * 10

    assert autoscale(arm, profiles).name == "scale"
    assert arm.advisories == []


def test_an_autoscale_setting_without_profiles_is_refused(arm: FakeArm) -> None:
    assert autoscale_refusal(arm, []) == (
        "BadRequest",
        "The autoscale setting 'scale' has 0 profiles; allowed: 1 to 20.",
    )


def test_an_autoscale_setting_of_a_missing_target_is_refused(arm: FakeArm) -> None:
    missing = resource_id(arm, "Microsoft.Compute/virtualMachineScaleSets", "gone")
    error = arm_refusal(lambda: autoscale(arm, [profile()], target=missing))

    assert (error.code, error.message) == (
        "TargetResourceNotFound",
        f"The target resource '{missing}' of the autoscale setting 'scale' was not found (targetResourceUri).",
    )


@pytest.mark.parametrize(("target", "shown"), [("vn", "'vn'"), (None, "None")])
def test_an_autoscale_target_that_is_no_resource_id_is_refused_naming_the_property(
    arm: FakeArm, target: Any, shown: str
) -> None:
    props = {"resourceGroupName": RG, "autoscaleSettingName": "scale", "targetResourceUri": target}
    error = arm_refusal(lambda: arm.put(AUTOSCALE, "scale", {**props, "profiles": [profile()]}, "scale"))

    # the spec: targetResourceUri is "the resource identifier of the resource that the autoscale setting should be
    # added to"
    assert (error.code, error.message) == ("InvalidParameter", f"targetResourceUri: {shown} is not a resource id.")


def test_one_default_profile_beside_dated_and_weekly_ones_is_accepted(arm: FakeArm) -> None:
    dated = default_profile("launch") | {"fixedDate": {"start": "2026-12-01T00:00:00", "end": "2026-12-02T00:00:00"}}

    assert autoscale(arm, [profile(), dated, default_profile()]).name == "scale"


def test_two_default_profiles_are_refused_naming_them(arm: FakeArm) -> None:
    profiles = [profile(), default_profile("a"), default_profile("b")]

    assert autoscale_refusal(arm, profiles) == (
        "BadRequest",
        "The autoscale setting 'scale' has 2 default profiles (a, b), profiles with neither fixedDate nor recurrence; "
        "allowed: one.",
    )


def test_a_later_profile_with_11_rules_is_refused_naming_it(arm: FakeArm) -> None:
    second = profile("busy", recurrence=recurrence(hours=[9.0]))
    second["rules"] = [rule()] * 11

    assert autoscale_refusal(arm, [profile(), second]) == (
        "BadRequest",
        "The autoscale profile profiles[1] 'busy' has 11 rules; allowed: at most 10.",
    )


@pytest.mark.parametrize(
    ("capacity", "key", "shown"),
    [
        (("-1", "3", "2"), "minimum", "'-1'"),
        (("1", "", "2"), "maximum", "''"),
        (("1", "3", None), "default", "None"),
        (("1", "3", "2.5"), "default", "'2.5'"),
    ],
)
def test_each_capacity_is_a_whole_number_of_instances(
    arm: FakeArm, capacity: tuple[Any, Any, Any], key: str, shown: str
) -> None:
    assert autoscale_refusal(arm, [profile(capacity=capacity)]) == (
        "BadRequest",
        f"The autoscale profile profiles[0] 'work': capacity.{key} {shown}; allowed: a whole number, 0 or more.",
    )


def test_capacities_minimum_equal_to_default_equal_to_maximum_are_accepted(arm: FakeArm) -> None:
    assert autoscale(arm, [profile(capacity=("10", "10", "10"))]).name == "scale"
    assert arm.advisories == []


def test_a_minimum_above_the_default_is_refused_in_azures_words(arm: FakeArm) -> None:
    assert autoscale_refusal(arm, [profile(capacity=("10", "20", "9"))]) == (
        "BadRequest",
        "The minimum capacity value '10' that you specified in the autoscale setting is greater than the default "
        "capacity of '9'. Enter a minimum capacity less than '9'.",
    )


def test_a_default_above_the_maximum_is_an_advisory_naming_the_profile(arm: FakeArm) -> None:
    autoscale(arm, [profile(capacity=("1", "9", "10"))])

    assert arm.advisories == [
        "The autoscale profile profiles[0] 'work': default capacity 10 is above its maximum 9 (no public source for "
        "Azure's refusal: an advisory)"
    ]


@pytest.mark.parametrize(
    "schedule",
    [
        {"frequency": "week"},
        {"days": ["sunday", " Saturday "]},
        {"days": ["0", "6"]},
        {"hours": [0.0, 23.0], "minutes": [0.0, 59.0]},
        {"timeZone": "W. Europe Standard Time"},
    ],
    ids=["week-lower-case", "days-any-case", "day-numbers", "bounds", "windows-zone"],
)
def test_a_weekly_schedule_azure_takes_is_accepted(arm: FakeArm, schedule: dict[str, Any]) -> None:
    assert autoscale(arm, [profile(recurrence=recurrence(**schedule))]).name == "scale"


@pytest.mark.parametrize(
    ("schedule", "message"),
    [
        ({"frequency": "Month"}, "recurrence.frequency 'Month'; allowed: Week."),
        (
            {"days": []},
            "recurrence.schedule.days []; allowed: one or more of Sunday, Monday, Tuesday, Wednesday, Thursday, "
            "Friday, Saturday (or their numbers, 0 for Sunday to 6 for Saturday).",
        ),
        (
            {"days": ["Monday", "7"]},
            "recurrence.schedule.days ['Monday', '7']; allowed: one or more of Sunday, Monday, Tuesday, Wednesday, "
            "Thursday, Friday, Saturday (or their numbers, 0 for Sunday to 6 for Saturday).",
        ),
        ({"hours": []}, "recurrence.schedule.hours []; allowed: 0 to 23."),
        ({"hours": [-1.0]}, "recurrence.schedule.hours [-1]; allowed: 0 to 23."),
        ({"hours": [8.5]}, "recurrence.schedule.hours [8.5]; allowed: 0 to 23."),
        ({"hours": [8.0, 24.0]}, "recurrence.schedule.hours [8, 24]; allowed: 0 to 23."),
        ({"minutes": [-1.0]}, "recurrence.schedule.minutes [-1]; allowed: 0 to 59."),
        ({"minutes": [60.0]}, "recurrence.schedule.minutes [60]; allowed: 0 to 59."),
        ({"minutes": []}, "recurrence.schedule.minutes []; allowed: 0 to 59."),
    ],
)
def test_a_weekly_schedule_azure_refuses_is_bad_request(arm: FakeArm, schedule: dict[str, Any], message: str) -> None:
    assert autoscale_refusal(arm, [profile(recurrence=recurrence(**schedule))]) == (
        "BadRequest",
        f"The autoscale profile profiles[0] 'work': {message}",
    )


def test_a_schedule_in_an_iana_time_zone_is_refused_naming_the_windows_id(arm: FakeArm) -> None:
    code, message = autoscale_refusal(arm, [profile(recurrence=recurrence(timeZone="America/New_York"))])

    assert code == "BadRequest"
    assert message.startswith(
        "The autoscale profile profiles[0] 'work': recurrence.schedule.timeZone 'America/New_York' is an IANA time "
        "zone name (did you mean Eastern Standard Time?)"
    )


@pytest.mark.parametrize(
    "window",
    [
        {"start": "2026-12-01T00:00:00", "end": "2026-12-02T00:00:00"},
        {"start": "2026-12-01T00:00:00Z", "end": "2026-12-02T00:00:00+01:00", "timeZone": "UTC"},
    ],
)
def test_a_fixed_date_of_iso_date_times_is_accepted(arm: FakeArm, window: dict[str, Any]) -> None:
    assert autoscale(arm, [profile("launch", recurrence=None, fixedDate=window)]).name == "scale"


@pytest.mark.parametrize(
    ("window", "message"),
    [
        ({"start": "2026-12-01T00:00:00"}, "fixedDate.end None; allowed: an ISO 8601 date-time."),
        (
            {"start": "2026-12-01T00:00:00", "end": "tomorrow"},
            "fixedDate.end 'tomorrow'; allowed: an ISO 8601 date-time.",
        ),
        (
            {"start": "2026-12-01T00:00:00", "end": "2026-12-02T00:00:00", "timeZone": "Pacific/Auckland"},
            "fixedDate.timeZone 'Pacific/Auckland' is an IANA time zone name",
        ),
    ],
    ids=["no-end", "end-not-a-date", "iana-zone"],
)
def test_a_fixed_date_azure_refuses_is_bad_request(arm: FakeArm, window: dict[str, Any], message: str) -> None:
    code, refused = autoscale_refusal(arm, [profile("launch", recurrence=None, fixedDate=window)])

    assert code == "BadRequest"
    assert refused.startswith(f"The autoscale profile profiles[0] 'launch': {message}")


def test_a_recurrence_is_read_before_a_fixed_date(arm: FakeArm) -> None:
    both = profile(fixedDate={"start": "not a date", "end": "not a date"})

    assert autoscale(arm, [both]).name == "scale"


# --- metric alerts ------------------------------------------------------------------------------------------------


def alert(arm: FakeArm, **changes: Any) -> Any:
    props = {
        "resourceGroupName": RG,
        "ruleName": "gpu-idle",
        "location": "global",
        "enabled": True,
        "severity": 3.0,
        "scopes": [vnet_id(arm)],
        "evaluationFrequency": "PT5M",
        "windowSize": "PT15M",
        "criteria": {
            "odataType": "Microsoft.Azure.Monitor.SingleResourceMultipleMetricCriteria",
            "allOf": [
                {
                    "criterionType": "StaticThresholdCriterion",
                    "name": "idle",
                    "metricName": "Percentage CPU",
                    "operator": "LessThan",
                    "threshold": 5.0,
                    "timeAggregation": "Average",
                }
            ],
        },
        **changes,
    }
    return arm.put(METRIC_ALERT, "gpu-idle", props, "gpu-idle")


@pytest.mark.parametrize("severity", [0.0, 4.0])
def test_a_metric_alert_of_severity_0_to_4_is_accepted(arm: FakeArm, severity: float) -> None:
    assert alert(arm, severity=severity).name == "gpu-idle"


# "5" written as text passes the spec's type check (a number), and is still no severity
@pytest.mark.parametrize(("severity", "shown"), [(5.0, "5"), (-1.0, "-1"), (2.5, "2.5"), (None, "None"), ("5", "'5'")])
def test_a_metric_alert_of_another_severity_is_refused(arm: FakeArm, severity: Any, shown: str) -> None:
    error = arm_refusal(lambda: alert(arm, severity=severity))

    assert (error.code, error.message) == (
        "BadRequest",
        f"Metric alert 'gpu-idle': severity {shown} is not one of (0, 1, 2, 3, 4).",
    )


def test_a_metric_alert_without_scopes_is_refused(arm: FakeArm) -> None:
    error = arm_refusal(lambda: alert(arm, scopes=[]))

    assert (error.code, error.message) == (
        "BadRequest",
        "Metric alert 'gpu-idle' needs at least one scope (a resource id to watch).",
    )


def test_each_scope_of_a_metric_alert_must_exist(arm: FakeArm) -> None:
    missing = resource_id(arm, "Microsoft.Compute/virtualMachines", "gone")
    error = arm_refusal(lambda: alert(arm, scopes=[vnet_id(arm), missing]))

    assert (error.code, error.message) == ("ResourceNotFound", f"The Resource '{missing}' was not found (scopes[1]).")


@pytest.mark.parametrize("key", ["evaluationFrequency", "windowSize"])
def test_a_metric_alerts_durations_are_iso_8601(arm: FakeArm, key: str) -> None:
    error = arm_refusal(lambda: alert(arm, **{key: "5 minutes"}))

    assert error.code == "BadRequest"
    assert error.message.startswith(f"Metric alert 'gpu-idle': {key} '5 minutes' is not an ISO 8601 duration")


def test_a_single_resource_alert_without_criteria_is_refused(arm: FakeArm) -> None:
    criteria = {"odataType": "Microsoft.Azure.Monitor.SingleResourceMultipleMetricCriteria", "allOf": []}
    error = arm_refusal(lambda: alert(arm, criteria=criteria))

    assert (error.code, error.message) == ("BadRequest", "Metric alert 'gpu-idle': criteria.allOf lists no criterion.")


def test_each_action_group_of_a_metric_alert_must_exist(arm: FakeArm) -> None:
    action_group(arm, "ops")
    ops = resource_id(arm, "Microsoft.Insights/actionGroups", "ops")
    missing = resource_id(arm, "Microsoft.Insights/actionGroups", "gone")
    error = arm_refusal(lambda: alert(arm, actions=[{"actionGroupId": ops}, {"actionGroupId": missing}]))

    assert (error.code, error.message) == (
        "ResourceNotFound",
        f"The Resource '{missing}' was not found (actions[1].actionGroupId).",
    )
    assert alert(arm, actions=[{"actionGroupId": ops}]).outputs["lastUpdatedTime"] == "2026-11-27T12:00:00+00:00"


# --- Managed Prometheus -------------------------------------------------------------------------------------------


def test_a_workspace_answers_its_account_and_prometheus_endpoint(arm: FakeArm) -> None:
    props = {"resourceGroupName": RG, "azureMonitorWorkspaceName": "amw", "location": "eastus"}
    out = arm.put(WORKSPACE, "amw", props, "amw").outputs
    other = arm.put(WORKSPACE, "amw2", {**props, "azureMonitorWorkspaceName": "amw2"}, "amw2").outputs

    assert uuid.UUID(out["accountId"])
    assert out["accountId"] != other["accountId"]
    assert re.fullmatch(r"mac_[0-9a-f-]{36}", out["metrics"]["internalId"])
    assert out["metrics"]["internalId"] != other["metrics"]["internalId"]
    assert out["metrics"]["internalId"] != f"mac_{out['accountId']}"
    assert out["metrics"]["prometheusQueryEndpoint"] == "https://amw.eastus.prometheus.monitor.azure.com"
    assert out["provisioningState"] == "Succeeded"


def test_a_data_collection_endpoint_answers_its_regional_endpoints(arm: FakeArm) -> None:
    props = {"resourceGroupName": RG, "dataCollectionEndpointName": "dce", "location": "eastus"}
    out = arm.put(ENDPOINT, "dce", props, "dce").outputs
    other = arm.put(ENDPOINT, "dce2", {**props, "dataCollectionEndpointName": "dce2"}, "dce2").outputs

    assert out["configurationAccess"] == {"endpoint": "https://dce.eastus-1.handler.control.monitor.azure.com"}
    assert out["logsIngestion"] == {"endpoint": "https://dce.eastus-1.ingest.monitor.azure.com"}
    assert out["metricsIngestion"] == {"endpoint": "https://dce.eastus-1.metrics.ingest.monitor.azure.com"}
    assert re.fullmatch(r"dce-[0-9a-f]{32}", out["immutableId"])
    assert out["immutableId"] != other["immutableId"]
    assert out["provisioningState"] == "Succeeded"


WORKSPACE_TYPE = "Microsoft.Monitor/accounts"
ENDPOINT_TYPE = "Microsoft.Insights/dataCollectionEndpoints"


def prometheus(arm: FakeArm) -> tuple[str, str]:
    """An Azure Monitor workspace `amw` and a data collection endpoint `dce`: their ids."""
    arm.put(WORKSPACE, "amw", {"resourceGroupName": RG, "azureMonitorWorkspaceName": "amw"}, "amw")
    arm.put(ENDPOINT, "dce", {"resourceGroupName": RG, "dataCollectionEndpointName": "dce"}, "dce")
    return resource_id(arm, WORKSPACE_TYPE, "amw"), resource_id(arm, ENDPOINT_TYPE, "dce")


def collection_rule(arm: FakeArm, name: str, **changes: Any) -> Any:
    """A Managed Prometheus rule, as Learn's "Enable Prometheus metrics for AKS" sets it up, sending to `amw`
    through `dce` (made first by `prometheus`)."""
    workspace, endpoint = resource_id(arm, WORKSPACE_TYPE, "amw"), resource_id(arm, ENDPOINT_TYPE, "dce")
    props = {
        "resourceGroupName": RG,
        "dataCollectionRuleName": name,
        "location": "eastus",
        "dataCollectionEndpointId": endpoint,
        "dataSources": {
            "prometheusForwarder": [{"name": "PrometheusDataSource", "streams": ["Microsoft-PrometheusMetrics"]}]
        },
        "destinations": {"monitoringAccounts": [{"name": "MonitoringAccount1", "accountResourceId": workspace}]},
        "dataFlows": [{"streams": ["Microsoft-PrometheusMetrics"], "destinations": ["MonitoringAccount1"]}],
        **changes,
    }
    return arm.put(RULE, name, props, name)


def test_a_prometheus_rule_answers_its_immutable_id(arm: FakeArm) -> None:
    prometheus(arm)
    out = collection_rule(arm, "dcr").outputs
    other = collection_rule(arm, "dcr2").outputs

    assert re.fullmatch(r"dcr-[0-9a-f]{32}", out["immutableId"])
    assert out["immutableId"] != other["immutableId"]
    assert out["provisioningState"] == "Succeeded"


def test_a_rule_without_an_endpoint_is_accepted(arm: FakeArm) -> None:
    prometheus(arm)

    assert collection_rule(arm, "dcr2", dataCollectionEndpointId=None).name == "dcr2"


def test_a_rule_whose_endpoint_does_not_exist_is_refused(arm: FakeArm) -> None:
    missing = resource_id(arm, "Microsoft.Insights/dataCollectionEndpoints", "gone")
    prometheus(arm)
    error = arm_refusal(lambda: collection_rule(arm, "dcr2", dataCollectionEndpointId=missing))

    assert (error.code, error.message) == (
        "ResourceNotFound",
        f"The Resource '{missing}' was not found (dataCollectionEndpointId).",
    )


def test_a_rule_whose_second_workspace_does_not_exist_is_refused(arm: FakeArm) -> None:
    workspace, _ = prometheus(arm)
    missing = resource_id(arm, "Microsoft.Monitor/accounts", "gone")
    accounts = [{"name": "a", "accountResourceId": workspace}, {"name": "b", "accountResourceId": missing}]
    error = arm_refusal(lambda: collection_rule(arm, "dcr2", destinations={"monitoringAccounts": accounts}))

    assert (error.code, error.message) == (
        "ResourceNotFound",
        f"The Resource '{missing}' was not found (destinations.monitoringAccounts[1].accountResourceId).",
    )


def test_a_data_flow_may_send_to_a_destination_of_any_kind_the_rule_defines(arm: FakeArm) -> None:
    workspace, _ = prometheus(arm)
    logs = resource_id(arm, "Microsoft.OperationalInsights/workspaces", "logs")
    destinations = {
        "logAnalytics": [{"name": "la", "workspaceResourceId": logs}],
        "monitoringAccounts": [{"name": "MonitoringAccount1", "accountResourceId": workspace}],
    }
    flows = [
        {"streams": ["Microsoft-PrometheusMetrics"], "destinations": ["MonitoringAccount1"]},
        {"streams": ["Microsoft-Syslog"], "destinations": ["la"]},
    ]

    assert collection_rule(arm, "dcr2", destinations=destinations, dataFlows=flows).name == "dcr2"


def test_a_later_data_flow_to_a_destination_not_defined_is_refused(arm: FakeArm) -> None:
    prometheus(arm)
    flows = [
        {"streams": ["Microsoft-PrometheusMetrics"], "destinations": ["MonitoringAccount1"]},
        {"streams": ["Microsoft-PrometheusMetrics"], "destinations": ["MonitoringAccount1", "Other", "More"]},
    ]
    error = arm_refusal(lambda: collection_rule(arm, "dcr2", dataFlows=flows))

    assert (error.code, error.message) == (
        "BadRequest",
        "Data collection rule 'dcr2': dataFlows[1] sends to ['Other', 'More'], which destinations does not define "
        "(defined: ['MonitoringAccount1']).",
    )


def association(arm: FakeArm, **ids: Any) -> Any:
    props = {"resourceUri": vnet_id(arm), "associationName": "link", **ids}
    return arm.put(ASSOCIATION, "link", props, "link")


def test_an_association_with_a_rule_or_an_endpoint_is_accepted(arm: FakeArm) -> None:
    _, endpoint = prometheus(arm)
    collection_rule(arm, "dcr2")
    rule_id = resource_id(arm, "Microsoft.Insights/dataCollectionRules", "dcr2")

    assert association(arm, dataCollectionRuleId=rule_id).outputs["provisioningState"] == "Succeeded"
    assert (
        arm.put(
            ASSOCIATION,
            "configurationAccessEndpoint",
            {
                "resourceUri": vnet_id(arm),
                "associationName": "configurationAccessEndpoint",
                "dataCollectionEndpointId": endpoint,
            },
            "configurationAccessEndpoint",
        ).outputs["provisioningState"]
        == "Succeeded"
    )


def test_an_association_with_neither_a_rule_nor_an_endpoint_is_refused(arm: FakeArm) -> None:
    error = arm_refusal(lambda: association(arm))

    assert (error.code, error.message) == (
        "BadRequest",
        "Association 'link' needs dataCollectionRuleId or dataCollectionEndpointId.",
    )


@pytest.mark.parametrize("key", ["dataCollectionRuleId", "dataCollectionEndpointId"])
def test_an_association_with_a_rule_or_endpoint_that_does_not_exist_is_refused(arm: FakeArm, key: str) -> None:
    _, endpoint = prometheus(arm)
    missing = resource_id(arm, "Microsoft.Insights/dataCollectionRules", "gone")
    ids = {"dataCollectionEndpointId": endpoint, "dataCollectionRuleId": missing}
    if key == "dataCollectionEndpointId":
        collection_rule(arm, "dcr2")
        missing = resource_id(arm, "Microsoft.Insights/dataCollectionEndpoints", "gone")
        ids = {"dataCollectionRuleId": resource_id(arm, "Microsoft.Insights/dataCollectionRules", "dcr2"), key: missing}
    error = arm_refusal(lambda: association(arm, **ids))

    assert (error.code, error.message) == ("ResourceNotFound", f"The Resource '{missing}' was not found ({key}).")
