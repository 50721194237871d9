"""Microsoft.AlertsManagement: Prometheus rule groups, the alert and recording rules Azure Managed Prometheus evaluates
over an Azure Monitor workspace.

REST spec: Azure/azure-rest-api-specs, specification/alertsmanagement/.../PrometheusRuleGroups.json (observed
2026-11-26, as the azure-native SDK carries it): `scopes` are the "target Azure Monitor workspaces resource ids"
("limited to creating with one scope"); each rule has an `expression` and either `alert` or `record`; `severity` is
0 to 4; `for` and the group's `interval` are ISO 8601 durations. Learn: "Azure Monitor managed service for Prometheus
rule groups", https://learn.microsoft.com/azure/azure-monitor/essentials/prometheus-rule-groups (observed 2026-11-26).
Refused with `BadRequest`; the wording is ours. Nothing read-only is answered: neither the spec's
PrometheusRuleGroupProperties (2023-03-01) nor pulumi-azure-native's PrometheusRuleGroup outputs have a
provisioningState (observed 2026-11-27).

Not faked: PromQL parsing (an expression is accepted as text), the 20 rules a group may hold, action groups' regions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...catalog.durations import duration_seconds
from ..core import ArmResourceType
from ..errors import BadRequest

if TYPE_CHECKING:
    from ..core import Arm

SEVERITIES = (0, 1, 2, 3, 4)
MONITOR_WORKSPACE = "Microsoft.Monitor/accounts"


class PrometheusRuleGroup(ArmResourceType):
    token = "azure-native:alertsmanagement:PrometheusRuleGroup"
    arm_type = "Microsoft.AlertsManagement/prometheusRuleGroups"
    name_input = "ruleGroupName"

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        scopes = props.get("scopes") or []
        if not scopes:
            raise BadRequest(f"Prometheus rule group '{name}' needs scopes: an Azure Monitor workspace id.")
        for index, scope in enumerate(scopes):
            found = arm.require(scope, f"scopes[{index}]")
            if index == 0 and found is not None and found.type.lower() != MONITOR_WORKSPACE.lower():
                raise BadRequest(
                    f"Prometheus rule group '{name}': scopes[0] is a {found.type}, not an {MONITOR_WORKSPACE}."
                )
        rules = props.get("rules") or []
        if not rules:
            raise BadRequest(f"Prometheus rule group '{name}' has no rules.")
        _duration(name, "interval", props.get("interval"))
        for index, rule in enumerate(rules):
            where = f"Prometheus rule group '{name}': rules[{index}]"
            if not rule.get("expression"):
                raise BadRequest(f"{where} has no expression.")
            if bool(rule.get("alert")) == bool(rule.get("record")):
                raise BadRequest(f"{where} needs exactly one of alert (an alert rule) or record (a recording rule).")
            severity = rule.get("severity")
            if severity is not None and severity not in SEVERITIES:
                raise BadRequest(f"{where}: severity {severity:g} is not one of {SEVERITIES}.")
            _duration(name, f"rules[{index}].for", rule.get("for"))
            for number, action in enumerate(rule.get("actions") or []):
                arm.require(action.get("actionGroupId"), f"rules[{index}].actions[{number}].actionGroupId")


def _duration(name: str, key: str, value: Any) -> None:
    if value is None:
        return
    try:
        duration_seconds(value)
    except ValueError as exc:
        raise BadRequest(f"Prometheus rule group '{name}': {key} {exc}.") from None


TYPES: tuple[ArmResourceType, ...] = (PrometheusRuleGroup(),)
