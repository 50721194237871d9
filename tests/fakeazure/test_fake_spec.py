"""Azure's REST spec as the referee: a PUT whose body breaks a constraint the spec states is refused with
InvalidParameter, the property's REST path and the spec data it rests on; the same body unbroken is not.

Each case starts from the spec's own example of the type (tests/data/azure-specs, read back into
azure-native inputs with `from_arm_body`) and breaks one rule; the limit broken is read from
catalog/arm/constraints.json, never written here. The cases are the ones issue 29 measured the fake
missing: the AKS admin user name and pod CIDR patterns, the OS disk maximum on clusters and agent
pools, the outbound IP count maximum, a NIC's prefix length maximum, a budget's contact e-mail
maxItems, three required properties and a JSON type.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from azure_gpu_stacks.catalog.arm.bodies import from_arm_body
from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.fakeazure.errors import ArmError
from azure_gpu_stacks.fakeazure.spec import refuse_spec_violations

from tests.conftest import REPO

SAVED = REPO / "tests" / "data" / "azure-specs"
CONSTRAINTS = json.loads((REPO / "catalog" / "arm" / "constraints.json").read_text(encoding="utf-8"))["types"]
AKS = "azure-native:containerservice:ManagedCluster"
POOL = "azure-native:containerservice:AgentPool"
NIC = "azure-native:network:NetworkInterface"
BUDGET = "azure-native:consumption:Budget"
VM = "azure-native:compute:VirtualMachine"


def example(arm_type: str, title: str) -> dict[str, Any]:
    for path in SAVED.rglob("examples.json"):
        for found in json.loads(path.read_text(encoding="utf-8"))["examples"]:
            if found["type"] == arm_type and found["title"] == title:
                return found["body"]
    raise LookupError(title)


def limit(token: str, path: str, key: str) -> Any:
    return CONSTRAINTS[token]["paths"][path][key]


BASES: dict[str, tuple[str, str]] = {
    AKS: ("Microsoft.ContainerService/managedClusters", "Create Managed Cluster with OSSKU"),
    POOL: ("Microsoft.ContainerService/managedClusters/agentPools", "Create Agent Pool with OSSKU"),
    NIC: ("Microsoft.Network/networkInterfaces", "Create network interface"),
    BUDGET: ("Microsoft.Consumption/budgets", "CreateOrUpdateBudget"),
    VM: ("Microsoft.Compute/virtualMachines", "Create a vm with ssh authentication."),
}


def inputs(token: str) -> dict[str, Any]:
    return from_arm_body(token, example(*BASES[token]))


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def apply(props: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = props
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if value is _DROP:
            del node[last]
        else:
            node[last] = value(props) if callable(value) else value

    return apply


_DROP = object()

# (type, what the case breaks, the mutation of the example's inputs, the REST path refused, the rule's key)
CASES: list[tuple[str, str, Callable[[dict[str, Any]], None], str, str]] = [
    (
        AKS,
        "adminUsername pattern",
        _set("linuxProfile.adminUsername", "1admin"),
        "properties.linuxProfile.adminUsername",
        "pattern",
    ),
    (
        AKS,
        "podCidr pattern",
        _set("networkProfile", {"podCidr": "10.244.0.0/40"}),
        "properties.networkProfile.podCidr",
        "pattern",
    ),
    (
        AKS,
        "osDiskSizeGB maximum",
        _set(
            "agentPoolProfiles.0.osDiskSizeGB",
            limit(AKS, "properties.agentPoolProfiles[*].osDiskSizeGB", "maximum") + 1,
        ),
        "properties.agentPoolProfiles[0].osDiskSizeGB",
        "maximum",
    ),
    (
        POOL,
        "osDiskSizeGB maximum",
        _set("osDiskSizeGB", limit(POOL, "properties.osDiskSizeGB", "maximum") + 1),
        "properties.osDiskSizeGB",
        "maximum",
    ),
    (
        AKS,
        "managedOutboundIPs.count maximum",
        _set(
            "networkProfile",
            {
                "loadBalancerProfile": {
                    "managedOutboundIPs": {
                        "count": limit(
                            AKS, "properties.networkProfile.loadBalancerProfile.managedOutboundIPs.count", "maximum"
                        )
                        + 1
                    }
                }
            },
        ),
        "properties.networkProfile.loadBalancerProfile.managedOutboundIPs.count",
        "maximum",
    ),
    (
        NIC,
        "privateIPAddressPrefixLength maximum",
        _set(
            "ipConfigurations.0.privateIPAddressPrefixLength",
            limit(NIC, "properties.ipConfigurations[*].properties.privateIPAddressPrefixLength", "maximum") + 1,
        ),
        "properties.ipConfigurations[0].properties.privateIPAddressPrefixLength",
        "maximum",
    ),
    (
        BUDGET,
        "contactEmails maxItems",
        _set(
            "notifications.Actual_GreaterThan_80_Percent.contactEmails",
            [
                f"u{i}@contoso.com"
                for i in range(limit(BUDGET, "properties.notifications{*}.contactEmails", "maxItems") + 1)
            ],
        ),
        "properties.notifications.Actual_GreaterThan_80_Percent.contactEmails",
        "maxItems",
    ),
    (
        BUDGET,
        "timePeriod.startDate required",
        _set("timePeriod.startDate", _DROP),
        "properties.timePeriod.startDate",
        "required",
    ),
    (
        VM,
        "osDisk.createOption required",
        _set("storageProfile.osDisk.createOption", _DROP),
        "properties.storageProfile.osDisk.createOption",
        "required",
    ),
    (AKS, "linuxProfile.ssh required", _set("linuxProfile.ssh", _DROP), "properties.linuxProfile.ssh", "required"),
    (
        VM,
        "disablePasswordAuthentication JSON type",
        _set("osProfile.linuxConfiguration.disablePasswordAuthentication", "yes"),
        "properties.osProfile.linuxConfiguration.disablePasswordAuthentication",
        "type",
    ),
]


@pytest.mark.parametrize("token", sorted(BASES))
def test_the_spec_example_each_case_starts_from_is_accepted(token: str) -> None:
    refuse_spec_violations(token, "example", inputs(token), "eastus")


@pytest.mark.parametrize(
    ("token", "case", "mutate", "path", "rule"), CASES, ids=[f"{c[0].split(':')[2]}-{c[1]}" for c in CASES]
)
def test_a_body_breaking_the_spec_is_invalid_parameter(
    token: str, case: str, mutate: Callable[[dict[str, Any]], None], path: str, rule: str
) -> None:
    props = copy.deepcopy(inputs(token))
    mutate(props)

    with pytest.raises(ArmError) as refused:
        refuse_spec_violations(token, "example", props, "eastus")

    assert refused.value.code == "InvalidParameter"
    message = refused.value.message
    assert (
        f"Required parameter '{path}' is missing" if rule == "required" else f"parameter {path} is invalid"
    ) in message
    if rule not in ("required", "type"):
        general = path.replace("[0]", "[*]").replace(".Actual_GreaterThan_80_Percent.", "{*}.")
        assert str(limit(token, general, rule)) in message
    assert CONSTRAINTS[token]["source"] in message  # the spec data the rule comes from


def test_the_check_runs_on_every_put_of_the_fake(arm_with_group: FakeArm) -> None:
    props = {**inputs(BUDGET), "scope": f"/subscriptions/{arm_with_group.subscription_id}"}
    props["notifications"]["Actual_GreaterThan_80_Percent"]["contactEmails"] = ["a@contoso.com"] * 51
    # The example starts in 2017; a monthly budget created today starts this month (fakeazure.prose)
    props["timePeriod"] = {"startDate": f"{arm_with_group.now.date().replace(day=1)}T00:00:00Z"}

    with pytest.raises(ArmError, match=r"properties\.notifications\.Actual_GreaterThan_80_Percent\.contactEmails"):
        arm_with_group.put(BUDGET, "budget", props, "budget")


@pytest.fixture
def arm_with_group() -> FakeArm:
    arm = FakeArm(default_location="eastus")
    arm.put("azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": "rg", "location": "eastus"}, "rg")
    return arm


def test_a_value_of_the_wrong_json_type_is_refused_before_a_types_own_check_reads_it(arm_with_group: FakeArm) -> None:
    # AKS's own check compares counts: a string count reached it and raised TypeError (found by the mutation corpus)
    pool = {"name": "system", "mode": "System", "count": "many", "vmSize": "Standard_D4s_v5"}
    props = {"resourceGroupName": "rg", "resourceName": "aks", "dnsPrefix": "aks", "agentPoolProfiles": [pool]}

    with pytest.raises(ArmError) as caught:
        arm_with_group.put(AKS, "aks", props, "aks")

    assert caught.value.code == "InvalidParameter"
    assert "properties.agentPoolProfiles[0].count" in caught.value.message


def test_a_polymorphic_object_without_its_discriminator_is_refused(arm_with_group: FakeArm) -> None:
    # MetricAlert's criteria.allOf[*] is a MultiMetricCriteria: `criterionType` picks the variant and every variant
    # requires it (metricAlert_API.json, 2018-03-01; catalog/arm/constraints.json)
    target = f"/subscriptions/{arm_with_group.subscription_id}/resourceGroups/rg"
    criterion = {"name": "gpu", "metricName": "Percentage CPU", "operator": "GreaterThan", "threshold": 80}
    criterion |= {"timeAggregation": "Average"}
    props = {
        "resourceGroupName": "rg",
        "ruleName": "alert",
        "location": "global",
        "severity": 3,
        "enabled": True,
        "scopes": [target],
        "evaluationFrequency": "PT1M",
        "windowSize": "PT5M",
        "criteria": {
            "odataType": "Microsoft.Azure.Monitor.MultipleResourceMultipleMetricCriteria",
            "allOf": [criterion],
        },
    }

    with pytest.raises(ArmError) as caught:
        arm_with_group.put("azure-native:monitor:MetricAlert", "alert", props, "alert")

    assert "criterionType" in caught.value.message
