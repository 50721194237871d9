"""Microsoft.Insights (azure-native's `monitor` module): action groups, which a budget or alert
notifies, autoscale settings, which scale a scale set on a schedule or on metrics, and metric alerts.

Autoscale (`Microsoft.Insights/autoscalesettings`): each rule below cites where Azure documents it
(observed 2026-11-22). REST spec: Azure/azure-rest-api-specs,
specification/monitor/resource-manager/Microsoft.Insights/stable/2022-10-01/autoscale_API.json
("the spec" below); Microsoft Learn:
https://learn.microsoft.com/azure/azure-monitor/autoscale/autoscale-understanding-settings and
https://learn.microsoft.com/azure/azure-monitor/autoscale/autoscale-multiprofile.
Enum-typed inputs (`recurrence.frequency`, a rule's `operator`, `statistic`, `timeAggregation`,
`scaleAction.direction`/`type`) are checked by the SDK-derived enum check (`fakeazure.enums`), not here.

Microsoft.Insights answers an autoscale setting it refuses with the code `BadRequest` (the
capacity refusal microsoft/onefuzz issue 2249 quotes, observed 2026-11-22); where no public
message was found the wording here is ours, in the style of that one.

Not faked for autoscale: metric rules' contents (metric names, time grains and windows, cooldowns,
scale action values against the capacity: `InvalidActionValue`), notifications and webhooks,
predictive autoscale, which resource types autoscale supports as targets, the limit of autoscale
settings per region and subscription, and that a setting's target cannot change
(`TargetResourceIdIsImmutable`: every run starts from an empty subscription).
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any, ClassVar

from ...catalog.durations import duration_seconds
from ...catalog.time_zones import windows_time_zone
from ...sdk.values import stable_uuid
from ..core import ArmResourceType, Resource, advise
from ..errors import BadRequest, InvalidParameter, ResourceNotFound, TargetResourceNotFound

if TYPE_CHECKING:
    from ..core import Arm


class ActionGroup(ArmResourceType):
    token = "azure-native:monitor:ActionGroup"
    arm_type = "Microsoft.Insights/actionGroups"
    name_input = "actionGroupName"

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        short = props.get("groupShortName") or ""
        if not 1 <= len(short) <= 12:
            raise InvalidParameter(f"groupShortName {short!r} must be 1 to 12 characters.")


class AutoscaleSetting(ArmResourceType):
    """An autoscale setting: profiles of capacities, each the default one, a fixed date or a weekly recurrence."""

    token = "azure-native:monitor:AutoscaleSetting"
    arm_type = "Microsoft.Insights/autoscaleSettings"
    name_input = "autoscaleSettingName"
    # The spec: `profiles` is required with "maxItems": 20 ("A maximum of 20 profiles can be specified").
    max_profiles: ClassVar[int] = 20
    # The spec, AutoscaleProfile.rules: "A maximum of 10 rules can be specified."
    max_rules: ClassVar[int] = 10
    # The spec, RecurrentSchedule.days: "Possible values are Sunday through Saturday."
    days: ClassVar[tuple[str, ...]] = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")
    # ... and a day's number: the spec's own example sends `"days": ["1"]` and Azure answers it 200/201
    # (Azure/azure-rest-api-specs 04c2cb7bb789, specification/monitor/.../2021-05-01-preview/examples/
    # createOrUpdateAutoscaleSetting.json, observed 2026-11-27); read as .NET's DayOfWeek numbers them, Sunday 0 to
    # Saturday 6 (https://learn.microsoft.com/dotnet/api/system.dayofweek), the range the fake accepts.
    day_numbers: ClassVar[tuple[str, ...]] = tuple(str(number) for number in range(len(days)))

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        _target(arm, name, props.get("targetResourceUri"))
        profiles = props.get("profiles") or []
        if not 1 <= len(profiles) <= self.max_profiles:
            raise BadRequest(
                f"The autoscale setting '{name}' has {len(profiles)} profiles; allowed: 1 to {self.max_profiles}."
            )
        # Learn, autoscale-understanding-settings (MicrosoftDocs/azure-docs): "You can only have one
        # default profile" (a profile with neither a fixed date nor a recurrence).
        defaults = [str(p.get("name")) for p in profiles if not p.get("fixedDate") and not p.get("recurrence")]
        if len(defaults) > 1:
            raise BadRequest(
                f"The autoscale setting '{name}' has {len(defaults)} default profiles ({', '.join(defaults)}), "
                f"profiles with neither fixedDate nor recurrence; allowed: one."
            )
        for index, profile in enumerate(profiles):
            where = f"profiles[{index}] '{profile.get('name')}'"
            rules = profile.get("rules") or []
            if len(rules) > self.max_rules:
                raise BadRequest(
                    f"The autoscale profile {where} has {len(rules)} rules; allowed: at most {self.max_rules}."
                )
            _capacity(arm, where, profile.get("capacity") or {})
            if profile.get("recurrence"):
                self._recurrence(where, profile["recurrence"])
            elif profile.get("fixedDate"):
                _fixed_date(where, profile["fixedDate"])

    def _recurrence(self, where: str, recurrence: dict[str, Any]) -> None:
        # The spec, Recurrence.frequency: "This value must be Week, meaning each week will have the same set of
        # profiles."
        frequency = recurrence.get("frequency")
        if str(frequency).lower() != "week":
            raise BadRequest(f"The autoscale profile {where}: recurrence.frequency {frequency!r}; allowed: Week.")
        schedule = recurrence.get("schedule") or {}
        _time_zone(where, "recurrence.schedule.timeZone", schedule.get("timeZone"))
        accepted = {day.lower() for day in self.days} | set(self.day_numbers)
        unknown = [d for d in schedule.get("days") or [] if str(d).strip().lower() not in accepted]
        if not schedule.get("days") or unknown:
            raise BadRequest(
                f"The autoscale profile {where}: recurrence.schedule.days {schedule.get('days')!r}; "
                f"allowed: one or more of {', '.join(self.days)} (or their numbers, 0 for Sunday to 6 for Saturday)."
            )
        # The spec, RecurrentSchedule.hours: "Values supported are 0 to 23 on the 24-hour clock (AM/PM
        # times are not supported)"; minutes: "A collection of minutes", minutes of the hour (0 to 59).
        for key, top in (("hours", 23), ("minutes", 59)):
            values = schedule.get(key)
            if not values or any(not _whole(v) or not 0 <= v <= top for v in values):
                shown = [int(v) if _whole(v) else v for v in values or []]
                raise BadRequest(
                    f"The autoscale profile {where}: recurrence.schedule.{key} {shown!r}; allowed: 0 to {top}."
                )


def _whole(value: Any) -> bool:
    """An integer; Pulumi's wire format carries numbers as doubles, so 8 arrives as 8.0."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and float(value).is_integer()


def _target(arm: Arm, name: str, uri: Any) -> None:
    """The resource the setting scales must exist. The code is the one azure-powershell issue 11710
    (observed 2026-11-22) reports for a setting whose target was not found; the wording is ours."""
    try:
        arm.require(uri, "targetResourceUri")
    except ResourceNotFound:
        raise TargetResourceNotFound(
            f"The target resource '{uri}' of the autoscale setting '{name}' was not found (targetResourceUri)."
        ) from None


def _capacity(arm: Arm, where: str, capacity: dict[str, Any]) -> None:
    """The spec, ScaleCapacity: minimum, maximum and default, each a count of instances, as strings."""
    counts: dict[str, int] = {}
    for key in ("minimum", "maximum", "default"):
        value = capacity.get(key)
        if not str(value).isdigit():
            raise BadRequest(
                f"The autoscale profile {where}: capacity.{key} {value!r}; allowed: a whole number, 0 or more."
            )
        counts[key] = int(str(value))
    minimum, maximum, default = counts["minimum"], counts["maximum"], counts["default"]
    if minimum > default:
        # Azure's wording, quoted in microsoft/onefuzz issue 2249 (observed 2026-11-22).
        raise BadRequest(
            f"The minimum capacity value '{minimum}' that you specified in the autoscale setting is greater than the "
            f"default capacity of '{default}'. Enter a minimum capacity less than '{default}'."
        )
    if default > maximum:
        # Inferred from the minimum's refusal above; no public copy of a refusal was found: an advisory.
        advise(arm, f"The autoscale profile {where}", f"default capacity {default} is above its maximum {maximum}")


def _fixed_date(where: str, fixed: dict[str, Any]) -> None:
    """The spec, TimeWindow: start and end required, ISO 8601 date-times ("format": "date-time"), in a
    Windows time zone when one is given (an end before the start is not documented as refused: not checked)."""
    if fixed.get("timeZone") is not None:
        _time_zone(where, "fixedDate.timeZone", fixed["timeZone"])
    for key in ("start", "end"):
        try:
            dt.datetime.fromisoformat(str(fixed.get(key)))
        except ValueError:
            raise BadRequest(
                f"The autoscale profile {where}: fixedDate.{key} {fixed.get(key)!r}; allowed: an ISO 8601 date-time."
            ) from None


def _time_zone(where: str, path: str, value: Any) -> None:
    """The spec's timeZone: "Some examples of valid time zones are: Dateline Standard Time, UTC-11, ..."
    (Windows ids, not IANA names; the list is the catalog's `time_zones`)."""
    try:
        windows_time_zone(str(value))
    except ValueError as bad:
        raise BadRequest(f"The autoscale profile {where}: {path} {bad}.") from None


# Metric alerts (`Microsoft.Insights/metricAlerts`). REST spec: Azure/azure-rest-api-specs,
# specification/monitor/resource-manager/Microsoft.Insights/stable/2018-03-01/metricAlert_API.json (observed
# 2026-11-26, as the azure-native SDK carries it): `severity` is "Alert severity {0, 1, 2, 3, 4}"; `scopes` are "the
# list of resource id's that this metric alert is scoped to"; a SingleResourceMultipleMetricCriteria's `allOf` lists
# the criteria that must all hold. Refused with `BadRequest`, as autoscale settings are; the wording is ours.
# Not faked: whether a metric name exists for the target type (Azure checks it unless `skipMetricValidation`), window
# sizes and frequencies beyond their ISO 8601 shape, dynamic thresholds, multi-resource criteria.
SEVERITIES = (0, 1, 2, 3, 4)
SINGLE_RESOURCE = "Microsoft.Azure.Monitor.SingleResourceMultipleMetricCriteria"


class MetricAlert(ArmResourceType):
    token = "azure-native:monitor:MetricAlert"
    arm_type = "Microsoft.Insights/metricAlerts"
    name_input = "ruleName"

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        severity = props.get("severity")
        if severity not in SEVERITIES:
            shown = f"{severity:g}" if isinstance(severity, (int, float)) else repr(severity)
            raise BadRequest(f"Metric alert '{name}': severity {shown} is not one of {SEVERITIES}.")
        scopes = props.get("scopes") or []
        if not scopes:
            raise BadRequest(f"Metric alert '{name}' needs at least one scope (a resource id to watch).")
        for index, scope in enumerate(scopes):
            arm.require(scope, f"scopes[{index}]")
        for key in ("evaluationFrequency", "windowSize"):
            try:
                duration_seconds(props.get(key))  # type: ignore[arg-type]
            except ValueError as exc:
                raise BadRequest(f"Metric alert '{name}': {key} {exc}.") from None
        criteria = props.get("criteria") or {}
        if criteria.get("odataType") == SINGLE_RESOURCE and not criteria.get("allOf"):
            raise BadRequest(f"Metric alert '{name}': criteria.allOf lists no criterion.")
        for index, action in enumerate(props.get("actions") or []):
            arm.require(action.get("actionGroupId"), f"actions[{index}].actionGroupId")

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        return {"lastUpdatedTime": arm.now.isoformat()}


# Azure Managed Prometheus (`Microsoft.Monitor/accounts`, `Microsoft.Insights/dataCollectionEndpoints`,
# `dataCollectionRules`, `dataCollectionRuleAssociations`), as Learn's "Enable Prometheus metrics for AKS"
# (https://learn.microsoft.com/azure/azure-monitor/containers/kubernetes-monitoring-enable, observed 2026-11-26) and
# Azure/prometheus-collector's AddonTerraformTemplate set them up: a rule whose `prometheusForwarder` data source sends
# the stream `Microsoft-PrometheusMetrics` to an Azure Monitor workspace (`destinations.monitoringAccounts`), through a
# data collection endpoint, associated with the cluster. What ARM refuses here: a data flow naming a destination the
# rule does not define, and ids (endpoint, workspace, rule, the associated resource) that do not exist, with
# `BadRequest` as above (the code of these refusals is not public); the wording is ours.
# Not faked: the stream catalogue, data collection rule limits (10 data flows...), the workspace's managed resource
# group and its own data collection endpoint and rule.


class AzureMonitorWorkspace(ArmResourceType):
    token = "azure-native:monitor:AzureMonitorWorkspace"
    arm_type = "Microsoft.Monitor/accounts"
    name_input = "azureMonitorWorkspaceName"

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        return {
            "accountId": stable_uuid(res.id, "accountId"),
            "metrics": {
                "internalId": f"mac_{stable_uuid(res.id, 'internalId')}",
                "prometheusQueryEndpoint": f"https://{res.name}.{res.location}.prometheus.monitor.azure.com",
            },
            "provisioningState": "Succeeded",
        }


class DataCollectionEndpoint(ArmResourceType):
    token = "azure-native:monitor:DataCollectionEndpoint"
    arm_type = "Microsoft.Insights/dataCollectionEndpoints"
    name_input = "dataCollectionEndpointName"

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        host = f"{res.name}.{res.location}-1"
        return {
            "configurationAccess": {"endpoint": f"https://{host}.handler.control.monitor.azure.com"},
            "logsIngestion": {"endpoint": f"https://{host}.ingest.monitor.azure.com"},
            "metricsIngestion": {"endpoint": f"https://{host}.metrics.ingest.monitor.azure.com"},
            "immutableId": f"dce-{stable_uuid(res.id, 'immutableId').replace('-', '')}",
            "provisioningState": "Succeeded",
        }


class DataCollectionRule(ArmResourceType):
    token = "azure-native:monitor:DataCollectionRule"
    arm_type = "Microsoft.Insights/dataCollectionRules"
    name_input = "dataCollectionRuleName"

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        if props.get("dataCollectionEndpointId") is not None:
            arm.require(props["dataCollectionEndpointId"], "dataCollectionEndpointId")
        destinations = props.get("destinations") or {}
        defined: set[str] = set()
        for kind, entries in destinations.items():
            for index, entry in enumerate(entries or []):
                defined.add(str(entry.get("name")))
                if kind == "monitoringAccounts":
                    arm.require(entry.get("accountResourceId"), f"destinations.{kind}[{index}].accountResourceId")
        for index, flow in enumerate(props.get("dataFlows") or []):
            unknown = [d for d in flow.get("destinations") or [] if d not in defined]
            if unknown:
                raise BadRequest(
                    f"Data collection rule '{name}': dataFlows[{index}] sends to {unknown}, which destinations does "
                    f"not define (defined: {sorted(defined)})."
                )

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        return {
            "immutableId": f"dcr-{stable_uuid(res.id, 'immutableId').replace('-', '')}",
            "provisioningState": "Succeeded",
        }


class DataCollectionRuleAssociation(ArmResourceType):
    """An extension resource on the resource it collects from (`resourceUri`)."""

    token = "azure-native:monitor:DataCollectionRuleAssociation"
    arm_type = "Microsoft.Insights/dataCollectionRuleAssociations"
    name_input = "associationName"
    scoped = True
    scope_input = "resourceUri"
    located = False

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        rule, endpoint = props.get("dataCollectionRuleId"), props.get("dataCollectionEndpointId")
        if rule is None and endpoint is None:
            raise BadRequest(f"Association '{name}' needs dataCollectionRuleId or dataCollectionEndpointId.")
        for key, value in (("dataCollectionRuleId", rule), ("dataCollectionEndpointId", endpoint)):
            if value is not None:
                arm.require(value, key)

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        return {"provisioningState": "Succeeded"}


TYPES: tuple[ArmResourceType, ...] = (
    ActionGroup(),
    AutoscaleSetting(),
    MetricAlert(),
    AzureMonitorWorkspace(),
    DataCollectionEndpoint(),
    DataCollectionRule(),
    DataCollectionRuleAssociation(),
)
