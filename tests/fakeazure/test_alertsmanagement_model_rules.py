"""A Prometheus rule group as the fake ARM judges and answers it (fakeazure/models/alertsmanagement.py), in-process
(`FakeArm().put`), no plan.

Each case starts from the REST spec's own examples (Azure/azure-rest-api-specs, specification/alertsmanagement/
resource-manager/Microsoft.AlertsManagement/PrometheusRuleGroups, 2023-03-01: "Create or Update a PrometheusRuleGroup"
and the cluster-centric one, in tests/data/azure-specs) with their scopes pointed at this subscription's Azure
Monitor workspace and cluster, and breaks one of the rules the spec and Learn state (observed 2026-11-27): `scopes`
are "the target Azure Monitor workspaces resource ids" ("limited to creating with one scope"), a cluster-centric
group adds the AKS cluster after the workspace; each rule has an `expression` and either `alert` or `record`;
`severity` is 0 to 4; `interval` and a rule's `for` are ISO 8601 durations (Learn, "Azure Monitor managed service for
Prometheus rule groups", https://learn.microsoft.com/azure/azure-monitor/essentials/prometheus-rule-groups).
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from azure_gpu_stacks.catalog.arm.bodies import from_arm_body
from azure_gpu_stacks.fakeazure import FakeArm

from tests.conftest import REPO, arm_refusal, arm_with_group

GROUP = "azure-native:alertsmanagement:PrometheusRuleGroup"
SPECS = REPO / "tests" / "data" / "azure-specs" / "alertsmanagement_5" / "microsoft.alertsmanagement" / "2023-03-01"
RG = "rg-prom"


def _example(title: str) -> dict[str, Any]:
    examples = json.loads((SPECS / "examples.json").read_text(encoding="utf-8"))["examples"]
    [body] = [e["body"] for e in examples if e["title"] == title]
    return from_arm_body(GROUP, body)


EXAMPLE = _example("Create or Update a PrometheusRuleGroup")
CLUSTER_CENTRIC = _example("Create or Update a cluster centric PrometheusRuleGroup")


def _id(arm: FakeArm, provider_path: str) -> str:
    return f"/subscriptions/{arm.subscription_id}/resourceGroups/{RG}/providers/{provider_path}"


@pytest.fixture
def arm() -> FakeArm:
    """A subscription with the examples' Azure Monitor workspace, cluster and two action groups."""
    arm = arm_with_group(RG)
    workspace = {"resourceGroupName": RG, "azureMonitorWorkspaceName": "myAzureMonitorWorkspace"}
    arm.put("azure-native:monitor:AzureMonitorWorkspace", "amw", workspace, "amw")
    for name in ("myactiongroup", "myotheractiongroup"):
        group = {"resourceGroupName": RG, "actionGroupName": name, "groupShortName": "ag", "enabled": True}
        arm.put("azure-native:monitor:ActionGroup", name, group, name)
    return arm


def rule_group(arm: FakeArm, example: dict[str, Any] = EXAMPLE, **changes: Any) -> dict[str, Any]:
    """`example` in this subscription: its scopes and action groups the fixture's."""
    props = copy.deepcopy(example)
    props["scopes"] = [_id(arm, "microsoft.monitor/accounts/myAzureMonitorWorkspace"), *props["scopes"][1:]]
    for rule in props["rules"]:
        for action in rule.get("actions") or []:
            name = action["actionGroupId"].rsplit("/", 1)[-1]
            action["actionGroupId"] = _id(arm, f"microsoft.insights/actiongroups/{name}")
    return {**props, "resourceGroupName": RG, "location": "eastus", "ruleGroupName": "rules", **changes}


def with_rule(arm: FakeArm, index: int, **changes: Any) -> dict[str, Any]:
    """The example with rule `index` changed (a change to None drops the key)."""
    props = rule_group(arm)
    rule = {**props["rules"][index], **changes}
    props["rules"][index] = {k: v for k, v in rule.items() if v is not None}
    return props


def test_the_spec_example_is_accepted_and_answers_no_provisioning_state(arm: FakeArm) -> None:
    # Neither the spec's PrometheusRuleGroupProperties (2023-03-01) nor pulumi-azure-native's PrometheusRuleGroup
    # outputs have a provisioningState: Azure answers none, so a program cannot read one
    resource = arm.put(GROUP, "rules", rule_group(arm), "rules")

    assert arm.refusals == [] and "provisioningState" not in resource.outputs


def test_a_cluster_centric_group_may_name_its_cluster_after_the_workspace(arm: FakeArm) -> None:
    cluster = {
        "resourceGroupName": RG,
        "resourceName": "myClusterName",
        "dnsPrefix": "my",
        "agentPoolProfiles": [{"name": "system", "mode": "System", "count": 1, "vmSize": "Standard_D4s_v5"}],
    }
    arm.put("azure-native:containerservice:ManagedCluster", "aks", cluster, "aks")
    props = rule_group(arm, CLUSTER_CENTRIC)
    props["scopes"][1] = _id(arm, "Microsoft.ContainerService/managedClusters/myClusterName")

    arm.put(GROUP, "rules", props, "rules")

    assert arm.refusals == []


@pytest.mark.parametrize("scopes", [[], None], ids=["empty", "missing"])
def test_a_group_without_scopes_is_refused(arm: FakeArm, scopes: Any) -> None:
    error = arm_refusal(lambda: arm.put(GROUP, "rules", rule_group(arm, scopes=scopes), "rules"))

    assert error.code == "BadRequest" and "'rules' needs scopes" in error.message


def test_a_first_scope_that_is_no_monitor_workspace_is_refused_naming_its_type(arm: FakeArm) -> None:
    group = _id(arm, "").split("/providers/")[0]

    error = arm_refusal(lambda: arm.put(GROUP, "rules", rule_group(arm, scopes=[group]), "rules"))

    assert error.code == "BadRequest"
    assert "scopes[0] is a Microsoft.Resources/resourceGroups, not an Microsoft.Monitor/accounts" in error.message


def test_each_scope_must_exist_and_is_named_by_its_index(arm: FakeArm) -> None:
    missing = _id(arm, "Microsoft.ContainerService/managedClusters/nope")
    props = rule_group(arm)

    error = arm_refusal(lambda: arm.put(GROUP, "rules", {**props, "scopes": [*props["scopes"], missing]}, "rules"))

    assert error.code == "ResourceNotFound" and "(scopes[1])" in error.message


@pytest.mark.parametrize("rules", [[], None], ids=["empty", "missing"])
def test_a_group_without_rules_is_refused(arm: FakeArm, rules: Any) -> None:
    error = arm_refusal(lambda: arm.put(GROUP, "rules", rule_group(arm, rules=rules), "rules"))

    assert error.code == "BadRequest" and "'rules' has no rules" in error.message


def test_a_rule_without_an_expression_is_refused_naming_it(arm: FakeArm) -> None:
    error = arm_refusal(lambda: arm.put(GROUP, "rules", with_rule(arm, 1, expression=""), "rules"))

    assert error.code == "BadRequest" and error.message == "Prometheus rule group 'rules': rules[1] has no expression."


@pytest.mark.parametrize(
    ("index", "changes"),
    [(0, {"alert": "Billing"}), (1, {"alert": None})],
    ids=["a-recording-rule-that-also-alerts", "neither"],
)
def test_a_rule_is_either_an_alert_or_a_recording(arm: FakeArm, index: int, changes: dict[str, Any]) -> None:
    error = arm_refusal(lambda: arm.put(GROUP, "rules", with_rule(arm, index, **changes), "rules"))

    assert error.code == "BadRequest"
    assert error.message.startswith(f"Prometheus rule group 'rules': rules[{index}] needs exactly one of alert")


@pytest.mark.parametrize("severity", [0, 4])
def test_a_severity_from_0_to_4_is_accepted(arm: FakeArm, severity: int) -> None:
    arm.put(GROUP, "rules", with_rule(arm, 1, severity=severity), "rules")

    assert arm.refusals == []


@pytest.mark.parametrize("severity", [-1, 5])
def test_a_severity_outside_0_to_4_is_refused_naming_the_rule(arm: FakeArm, severity: int) -> None:
    error = arm_refusal(lambda: arm.put(GROUP, "rules", with_rule(arm, 1, severity=severity), "rules"))

    assert error.code == "BadRequest"
    assert (
        error.message == f"Prometheus rule group 'rules': rules[1]: severity {severity} is not one of (0, 1, 2, 3, 4)."
    )


@pytest.mark.parametrize(
    ("props", "key"),
    [
        (lambda arm: rule_group(arm, interval="10 minutes"), "interval"),
        (lambda arm: with_rule(arm, 1, **{"for": "5m"}), "rules[1].for"),
    ],
    ids=["interval", "for"],
)
def test_a_duration_that_is_not_iso_8601_is_refused_naming_its_key(arm: FakeArm, props: Any, key: str) -> None:
    error = arm_refusal(lambda: arm.put(GROUP, "rules", props(arm), "rules"))

    assert error.code == "BadRequest"
    assert error.message.startswith(f"Prometheus rule group 'rules': {key} '") and "ISO 8601" in error.message


def test_a_group_without_interval_or_for_is_accepted(arm: FakeArm) -> None:
    props = with_rule(arm, 1, **{"for": None})
    del props["interval"]

    arm.put(GROUP, "rules", props, "rules")

    assert arm.refusals == []


def test_an_action_group_that_does_not_exist_is_refused_naming_the_action(arm: FakeArm) -> None:
    props = rule_group(arm)
    props["rules"][1]["actions"][1]["actionGroupId"] = _id(arm, "microsoft.insights/actiongroups/gone")

    error = arm_refusal(lambda: arm.put(GROUP, "rules", props, "rules"))

    assert error.code == "ResourceNotFound" and "(rules[1].actions[1].actionGroupId)" in error.message
