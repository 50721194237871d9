"""The VM size policies: retired (mandatory), retiring within the window (advisory), unknown (advisory),
in every place a pulumi-azure-native resource takes a VM size."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from azure_gpu_stacks.catalog.shapes import SHAPES
from azure_gpu_stacks.policies import disallow_retired_vm_sizes, warn_retiring_vm_sizes
from pulumi_policy import ResourceValidationArgs

from tests.policy_helpers import Res, found

RETIRED = "disallow-retired-vm-sizes"
RETIRING = "warn-retiring-vm-sizes"
UNKNOWN_SIZE = "warn-unknown-vm-sizes"
VM = "azure-native:compute:VirtualMachine"
NC6_RETIRED = "retired on 2023-09-06 and can no longer deploy; use Standard_NC4as_T4_v3 or another current size."


def vm(size: Any, name: str = "fail_vm") -> Res:
    return Res(VM, name, {"resourceGroupName": "rg", "hardwareProfile": {"vmSize": size}})


# (type, properties with SIZE where the size goes, the path the message names)
PLACES: list[tuple[str, Callable[[str], dict[str, Any]], str]] = [
    (VM, lambda s: {"hardwareProfile": {"vmSize": s}}, "hardwareProfile.vmSize"),
    ("azure-native:compute:VirtualMachineScaleSet", lambda s: {"sku": {"name": s, "capacity": 2.0}}, "sku.name"),
    (
        "azure-native:compute:VirtualMachineScaleSet",
        lambda s: {"sku": {"name": "Mix"}, "skuProfile": {"vmSizes": [{"name": "Standard_NC4as_T4_v3"}, {"name": s}]}},
        "skuProfile.vmSizes[1].name",
    ),
    (
        "azure-native:compute:VirtualMachineScaleSetVM",
        lambda s: {"hardwareProfile": {"vmSize": s}},
        "hardwareProfile.vmSize",
    ),
    ("azure-native:compute:ProximityPlacementGroup", lambda s: {"intent": {"vmSizes": [s]}}, "intent.vmSizes[0]"),
    (
        "azure-native:containerservice:ManagedCluster",
        lambda s: {"agentPoolProfiles": [{"name": "sys", "vmSize": "Standard_D4s_v5"}, {"name": "gpu", "vmSize": s}]},
        "agentPoolProfiles[1].vmSize",
    ),
    (
        "azure-native:containerservice:AgentPool",
        lambda s: {"vmSize": s, "nodeTaints": ["sku=gpu:NoSchedule"]},
        "vmSize",
    ),
    (
        "azure-native:machinelearningservices:Compute",
        lambda s: {"properties": {"computeType": "AmlCompute", "properties": {"vmSize": s}}},
        "properties.properties.vmSize",
    ),
    (
        "azure-native:machinelearningservices:Compute",
        lambda s: {"properties": {"computeType": "ComputeInstance", "properties": {"vmSize": s}}},
        "properties.properties.vmSize",
    ),
    (
        "azure-native:machinelearningservices:Compute",
        lambda s: {"properties": {"computeType": "VirtualMachine", "properties": {"virtualMachineSize": s}}},
        "properties.properties.virtualMachineSize",
    ),
    (
        "azure-native:machinelearningservices:Compute",
        lambda s: {"properties": {"computeType": "AKS", "properties": {"agentVmSize": s}}},
        "properties.properties.agentVmSize",
    ),
    (
        "azure-native:machinelearningservices:OnlineDeployment",
        lambda s: {"properties": {"endpointComputeType": "Managed", "instanceType": s}},
        "properties.instanceType",
    ),
    ("azure-native:batch:Pool", lambda s: {"vmSize": s}, "vmSize"),
    (
        "azure-native:hdinsight:Cluster",
        lambda s: {
            "properties": {"computeProfile": {"roles": [{"name": "workernode", "hardwareProfile": {"vmSize": s}}]}}
        },
        "properties.computeProfile.roles[0].hardwareProfile.vmSize",
    ),
    ("azure-native:devtestlab:VirtualMachine", lambda s: {"size": s}, "size"),
    ("azure-native:servicefabric:NodeType", lambda s: {"vmSize": s}, "vmSize"),
    (
        "azure-native:redhatopenshift:OpenShiftCluster",
        lambda s: {"masterProfile": {"vmSize": s}},
        "masterProfile.vmSize",
    ),
    (
        "azure-native:redhatopenshift:OpenShiftCluster",
        lambda s: {"workerProfiles": [{"name": "w", "vmSize": s}]},
        "workerProfiles[0].vmSize",
    ),
    (
        "azure-native:virtualmachineimages:VirtualMachineImageTemplate",
        lambda s: {"vmProfile": {"vmSize": s}},
        "vmProfile.vmSize",
    ),
]


@pytest.fixture
def on_day(mocker: Any) -> Callable[[str], None]:
    """Judge retirement as of the given ISO day."""

    def set_day(day: str) -> None:
        mocker.patch("azure_gpu_stacks.policies.vm_size_lifecycle.utc_today", return_value=dt.date.fromisoformat(day))

    return set_day


def test_vm_size_places_cover_every_type_of_the_table() -> None:
    assert {t for t, _, _ in PLACES} == set(SHAPES)


@pytest.mark.parametrize(("type_", "props", "path"), PLACES, ids=[f"{t.split(':')[-1]}:{p}" for t, _, p in PLACES])
def test_retired_vm_sizes_pass_a_current_size(type_: str, props: Callable[[str], dict[str, Any]], path: str) -> None:
    resource = Res(type_, "pass_resource", props("Standard_NC4as_T4_v3"))

    assert [v for v in found([resource], RETIRED)] == []


@pytest.mark.parametrize(("type_", "props", "path"), PLACES, ids=[f"{t.split(':')[-1]}:{p}" for t, _, p in PLACES])
def test_retired_vm_sizes_refuse_a_retired_size_wherever_it_hides(
    type_: str, props: Callable[[str], dict[str, Any]], path: str
) -> None:
    resource = Res(type_, "fail_resource", props("Standard_NC6"))

    assert found([resource], RETIRED) == [
        ("mandatory", "fail_resource", f"{path} is 'Standard_NC6', which Azure {NC6_RETIRED}")
    ]


@pytest.mark.parametrize("written", ["standard_nc6", "STANDARD_NC6", "NC6", " Standard_NC6 "])
def test_retired_vm_sizes_match_any_casing_and_a_missing_prefix(written: str) -> None:
    [(level, _, message)] = found([vm(written)], RETIRED)

    assert level == "mandatory"
    assert message == f"hardwareProfile.vmSize is '{written.strip()}', which Azure {NC6_RETIRED}"


def test_retired_vm_sizes_ignore_kubernetes_instance_types_of_online_deployments() -> None:
    deployment = Res(
        "azure-native:machinelearningservices:OnlineDeployment",
        "pass_k8s",
        {"properties": {"endpointComputeType": "Kubernetes", "instanceType": "Standard_NC6"}},
    )

    assert found([deployment], RETIRED) == [] and found([deployment], UNKNOWN_SIZE) == []


def test_retired_vm_sizes_accept_versioned_type_tokens() -> None:
    resource = Res(
        "azure-native:compute/v20240301:VirtualMachine", "fail_vm", {"hardwareProfile": {"vmSize": "Standard_NC6"}}
    )

    assert len(found([resource], RETIRED)) == 1


def test_retiring_vm_sizes_warn_within_the_window_with_the_date(on_day: Callable[[str], None]) -> None:
    on_day("2026-06-01")

    assert found([vm("Standard_NV12s_v3")], RETIRING) == [
        (
            "advisory",
            "fail_vm",
            (
                "hardwareProfile.vmSize is 'Standard_NV12s_v3', which Azure retires on 2026-09-30 (in 121 days); "
                "move to Standard_NV12ads_A10_v5 before then."
            ),
        )
    ]
    assert found([vm("Standard_NV12s_v3")], RETIRED) == []


def test_retiring_vm_sizes_stay_quiet_outside_the_window(on_day: Callable[[str], None]) -> None:
    on_day("2025-06-01")  # 486 days before NVv3 retires

    assert found([vm("Standard_NV12s_v3", "pass_vm")], RETIRING) == []


def test_retiring_vm_sizes_window_is_configurable(on_day: Callable[[str], None]) -> None:
    on_day("2025-06-01")

    [(_, _, message)] = found([vm("Standard_NV12s_v3")], RETIRING, {RETIRING: {"retiringWindowDays": 500}})
    assert "(in 486 days)" in message


def test_retiring_vm_sizes_become_retired_on_their_date(on_day: Callable[[str], None]) -> None:
    on_day("2026-09-30")

    [(level, _, message)] = found([vm("Standard_NV12s_v3")], RETIRED)
    assert (level, message) == (
        "mandatory",
        (
            "hardwareProfile.vmSize is 'Standard_NV12s_v3', which Azure retired on 2026-09-30 and can no longer deploy; "
            "use Standard_NV12ads_A10_v5 or another current size."
        ),
    )


def test_unknown_vm_sizes_are_advisory_with_close_matches() -> None:
    assert found([vm("Standard_NC4as_T4")], UNKNOWN_SIZE) == [
        (
            "advisory",
            "fail_vm",
            (
                "hardwareProfile.vmSize is 'Standard_NC4as_T4', which the size catalog does not know (did you mean Standard_NC4as_T4_v3, "
                "Standard_NC64as_T4_v3, Standard_NV4as_v4?); its retirement and GPU cost cannot be checked."
            ),
        )
    ]


def test_unknown_vm_sizes_can_be_ignored_by_config() -> None:
    config = {UNKNOWN_SIZE: {"ignoredSizes": ["standard_nc4as_t4"]}}

    assert found([vm("Standard_NC4as_T4", "pass_vm")], UNKNOWN_SIZE, config) == []


@pytest.mark.parametrize(
    "size",
    [None, 42.0, True, ["Standard_NC6"], {"name": "Standard_NC6"}, "", "04da6b54-80e4-46f7-96ec-b56ff0331ba9"],
    ids=["none", "number", "bool", "list", "dict", "empty", "unknown-sentinel"],
)
def test_vm_size_policies_pass_missing_odd_and_unknown_values(size: Any) -> None:
    violations = [v for v in found([vm(size, "pass_vm")], RETIRED) + found([vm(size, "pass_vm")], UNKNOWN_SIZE)]

    assert violations == []


def test_vm_size_policies_called_directly_survive_unknowns_and_secrets() -> None:
    import pulumi
    from azure_gpu_stacks.sdk.internals import secret

    props = {
        "hardwareProfile": secret({"vmSize": "Standard_NC6"}),
        "osProfile": pulumi.UNKNOWN,
    }
    args = ResourceValidationArgs(VM, props, "urn:x", "fail_vm", None, None)  # type: ignore[arg-type]
    reported: list[str] = []

    disallow_retired_vm_sizes.validate(args, lambda message, urn=None: reported.append(message))
    warn_retiring_vm_sizes.validate(args, lambda message, urn=None: reported.append(message))

    assert reported == [f"hardwareProfile.vmSize is 'Standard_NC6', which Azure {NC6_RETIRED}"]
