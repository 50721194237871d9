"""The guardrail policies: each from a compliant baseline, one change per test, the exact violation."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.policy_helpers import Res, found

UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9"


def changed(props: dict[str, Any], path: tuple[str | int, ...], value: Any) -> dict[str, Any]:
    """A deep copy of `props` with `path` set to `value` (or removed when value is ...)."""
    result = copy.deepcopy(props)
    target = result
    for key in path[:-1]:
        target = target[key]
    if value is ...:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return result


# --- require-aks-gpu-node-taint -----------------------------------------------------------------

TAINT = "require-aks-gpu-node-taint"
POOL = "azure-native:containerservice:AgentPool"
POOL_OK = {
    "resourceGroupName": "rg",
    "agentPoolName": "gpu",
    "vmSize": "Standard_NC24ads_A100_v4",
    "mode": "User",
    "nodeTaints": ["sku=gpu:NoSchedule"],
    "count": 0.0,
}


def test_aks_taint_passes_a_tainted_gpu_pool() -> None:
    assert found([Res(POOL, "pass_pool", POOL_OK)], TAINT) == []


def test_aks_taint_refuses_a_gpu_pool_without_the_taint() -> None:
    pool = Res(
        POOL, "fail_pool", changed(POOL_OK, ("nodeTaints",), ["kubernetes.azure.com/scalesetpriority=spot:NoSchedule"])
    )

    assert found([pool], TAINT) == [
        (
            "mandatory",
            "fail_pool",
            (
                "nodeTaints of pool 'gpu' (Standard_NC24ads_A100_v4, a GPU size) lack 'sku=gpu:NoSchedule' (found: "
                "kubernetes.azure.com/scalesetpriority=spot:NoSchedule); add it so only pods that tolerate it run on GPU nodes."
            ),
        )
    ]


def test_aks_taint_checks_each_pool_of_a_managed_cluster() -> None:
    cluster = Res(
        "azure-native:containerservice:ManagedCluster",
        "fail_cluster",
        {
            "agentPoolProfiles": [
                {"name": "sys", "vmSize": "Standard_D4s_v5"},
                {"name": "gpu", "vmSize": "Standard_NC4as_T4_v3"},
            ]
        },
    )

    assert found([cluster], TAINT) == [
        (
            "mandatory",
            "fail_cluster",
            (
                "agentPoolProfiles[1].nodeTaints of pool 'gpu' (Standard_NC4as_T4_v3, a GPU size) lack 'sku=gpu:NoSchedule' "
                "(found: none); add it so only pods that tolerate it run on GPU nodes."
            ),
        )
    ]


def test_aks_taint_ignores_cpu_pools_and_unknown_taints() -> None:
    cpu = Res(POOL, "pass_cpu", changed(POOL_OK, ("vmSize",), "Standard_D4s_v5") | {"nodeTaints": []})
    preview = Res(POOL, "pass_preview", changed(POOL_OK, ("nodeTaints",), UNKNOWN))

    assert found([cpu, preview], TAINT) == []


def test_aks_taint_required_taint_is_configurable() -> None:
    config = {TAINT: {"requiredTaint": "nvidia.com/gpu=present:NoSchedule"}}

    [(_, _, message)] = found([Res(POOL, "fail_pool", POOL_OK)], TAINT, config)
    assert "lack 'nvidia.com/gpu=present:NoSchedule' (found: sku=gpu:NoSchedule)" in message


# --- require-aml-gpu-scale-to-zero --------------------------------------------------------------

AML = "require-aml-gpu-scale-to-zero"
COMPUTE = "azure-native:machinelearningservices:Compute"
AML_OK = {
    "resourceGroupName": "rg",
    "workspaceName": "ws",
    "properties": {
        "computeType": "AmlCompute",
        "properties": {
            "vmSize": "Standard_NC24ads_A100_v4",
            "vmPriority": "LowPriority",
            "scaleSettings": {"minNodeCount": 0.0, "maxNodeCount": 4.0, "nodeIdleTimeBeforeScaleDown": "PT15M"},
        },
    },
}
SCALE = ("properties", "properties", "scaleSettings")


def test_aml_scale_to_zero_passes_a_cluster_that_scales_to_zero_quickly() -> None:
    assert found([Res(COMPUTE, "pass_cluster", AML_OK)], AML) == []


def test_aml_scale_to_zero_flags_a_minimum_above_zero() -> None:
    cluster = Res(COMPUTE, "fail_cluster", changed(AML_OK, (*SCALE, "minNodeCount"), 1.0))

    assert found([cluster], AML) == [
        (
            "advisory",
            "fail_cluster",
            (
                "properties.properties.scaleSettings.minNodeCount is 1, so 1 Standard_NC24ads_A100_v4 node(s) bill while "
                "idle; set it to 0."
            ),
        )
    ]


@pytest.mark.parametrize(
    ("idle", "message"),
    [
        (
            ...,
            "properties.properties.scaleSettings.nodeIdleTimeBeforeScaleDown is not set; set an idle time of at most PT30M, e.g. PT15M.",
        ),
        (
            "PT2H",
            "properties.properties.scaleSettings.nodeIdleTimeBeforeScaleDown is 'PT2H', longer than PT30M; idle GPU nodes bill until then.",
        ),
        (
            1800.0,
            "properties.properties.scaleSettings.nodeIdleTimeBeforeScaleDown is not set; set an idle time of at most PT30M, e.g. PT15M.",
        ),
        (
            "30 minutes",
            "properties.properties.scaleSettings.nodeIdleTimeBeforeScaleDown is '30 minutes', not an ISO 8601 duration; use e.g. PT15M (at most PT30M).",
        ),
    ],
    ids=["missing", "too-long", "a-number", "not-iso"],
)
def test_aml_scale_to_zero_flags_an_unbounded_idle_time(idle: Any, message: str) -> None:
    cluster = Res(COMPUTE, "fail_cluster", changed(AML_OK, (*SCALE, "nodeIdleTimeBeforeScaleDown"), idle))

    assert found([cluster], AML) == [("advisory", "fail_cluster", message)]


def test_aml_scale_to_zero_idle_limit_is_configurable_and_accepts_lower_case() -> None:
    cluster = Res(COMPUTE, "pass_cluster", changed(AML_OK, (*SCALE, "nodeIdleTimeBeforeScaleDown"), "pt1h"))

    assert found([cluster], AML, {AML: {"maxIdleMinutes": 60}}) == []


def test_aml_scale_to_zero_ignores_cpu_clusters_other_compute_types_and_unknowns() -> None:
    cpu = Res(COMPUTE, "pass_cpu", changed(AML_OK, ("properties", "properties", "vmSize"), "Standard_D4s_v5"))
    instance = Res(COMPUTE, "pass_instance", changed(AML_OK, ("properties", "computeType"), "ComputeInstance"))
    preview = Res(COMPUTE, "pass_preview", changed(AML_OK, SCALE, UNKNOWN))

    assert found([cpu, instance, preview], AML) == []


# --- require-infiniband-scale-set-placement -----------------------------------------------------

IB = "require-infiniband-scale-set-placement"
VMSS = "azure-native:compute:VirtualMachineScaleSet"
VMSS_OK = {
    "resourceGroupName": "rg",
    "sku": {"name": "Standard_ND96asr_v4", "capacity": 2.0},
    "orchestrationMode": "Uniform",
    "singlePlacementGroup": True,
    "proximityPlacementGroup": {
        "id": "/subscriptions/x/resourceGroups/rg/providers/Microsoft.Compute/proximityPlacementGroups/ppg"
    },
    "overprovision": False,
}


def test_infiniband_placement_passes_a_uniform_single_group_scale_set_in_a_ppg() -> None:
    assert found([Res(VMSS, "pass_vmss", VMSS_OK)], IB) == []


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (
            ("proximityPlacementGroup",),
            ...,
            "proximityPlacementGroup is not set; put the Standard_ND96asr_v4 scale set in a proximity placement group.",
        ),
        (
            ("singlePlacementGroup",),
            False,
            "singlePlacementGroup is False; set it to true, InfiniBand spans one placement group only.",
        ),
        (
            ("singlePlacementGroup",),
            ...,
            "singlePlacementGroup is not set; set it to true, InfiniBand spans one placement group only.",
        ),
        (
            ("orchestrationMode",),
            "Flexible",
            "orchestrationMode is 'Flexible'; set it to Uniform, Flexible scale sets have no InfiniBand.",
        ),
        (
            ("orchestrationMode",),
            ...,
            "orchestrationMode is not set; set it to Uniform, Flexible scale sets have no InfiniBand.",
        ),
    ],
    ids=["no-ppg", "multi-group", "group-unset", "flexible", "mode-unset"],
)
def test_infiniband_placement_refuses_each_missing_piece(path: tuple[str, ...], value: Any, message: str) -> None:
    vmss = Res(VMSS, "fail_vmss", changed(VMSS_OK, path, value))

    assert found([vmss], IB) == [("mandatory", "fail_vmss", message)]


def test_infiniband_placement_ignores_sizes_without_infiniband_and_accepts_odd_casing() -> None:
    t4 = Res(
        VMSS, "pass_t4", changed(VMSS_OK, ("sku", "name"), "Standard_NC4as_T4_v3") | {"orchestrationMode": "Flexible"}
    )
    odd = Res(
        VMSS, "pass_odd", changed(VMSS_OK, ("orchestrationMode",), "uniform") | {"sku": {"name": "standard_nd96asr_v4"}}
    )

    assert found([t4, odd], IB) == []


# --- require-gpu-vm-auto-shutdown ---------------------------------------------------------------

SHUTDOWN = "require-gpu-vm-auto-shutdown"
VM = "azure-native:compute:VirtualMachine"
SCHEDULE = "azure-native:devtestlab:GlobalSchedule"
VM_ID = "/subscriptions/x/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/t4-vm1234"


def shutdown_for(vm_name: str, depends: bool = True, **changes: Any) -> Res:
    props = {
        "name": "shutdown-computevm-t4-vm1234",
        "taskType": "ComputeVmShutdownTask",
        "status": "Enabled",
        "dailyRecurrence": {"time": "1900"},
        "timeZoneId": "UTC",
        "targetResourceId": VM_ID,
        **changes,
    }
    return Res(SCHEDULE, "pass_shutdown", props, [vm_name] if depends else [])


def gpu_vm(name: str) -> Res:
    return Res(VM, name, {"resourceGroupName": "rg", "hardwareProfile": {"vmSize": "Standard_NC4as_T4_v3"}})


def test_auto_shutdown_passes_a_gpu_vm_with_an_enabled_schedule() -> None:
    assert found([gpu_vm("pass_vm"), shutdown_for("pass_vm")], SHUTDOWN) == []


def test_auto_shutdown_flags_a_gpu_vm_without_a_schedule() -> None:
    assert found([gpu_vm("fail_vm")], SHUTDOWN) == [
        (
            "advisory",
            "fail_vm",
            (
                "'fail_vm' (Standard_NC4as_T4_v3) has no enabled daily shutdown schedule; add a devtestlab GlobalSchedule "
                "named shutdown-computevm-<vm name> with taskType ComputeVmShutdownTask targeting it."
            ),
        )
    ]


def test_auto_shutdown_flags_a_disabled_schedule() -> None:
    assert len(found([gpu_vm("fail_vm"), shutdown_for("fail_vm", status="Disabled")], SHUTDOWN)) == 1


def test_auto_shutdown_matches_a_schedule_by_target_id_without_dependencies() -> None:
    vm = Res(VM, "pass_vm", {"vmName": "T4-VM1234", "hardwareProfile": {"vmSize": "Standard_NC4as_T4_v3"}})

    assert found([vm, shutdown_for("pass_vm", depends=False)], SHUTDOWN) == []


def test_auto_shutdown_ignores_cpu_vms() -> None:
    cpu = Res(VM, "pass_cpu", {"hardwareProfile": {"vmSize": "Standard_D4s_v5"}})

    assert found([cpu], SHUTDOWN) == []


# --- disallow-internet-ssh-rdp ------------------------------------------------------------------

SSH = "disallow-internet-ssh-rdp"
NSG = "azure-native:network:NetworkSecurityGroup"
RULE_OK = {
    "name": "allow-ssh-0",
    "priority": 100.0,
    "direction": "Inbound",
    "access": "Allow",
    "protocol": "Tcp",
    "sourceAddressPrefix": "203.0.113.0/24",
    "sourcePortRange": "*",
    "destinationAddressPrefix": "*",
    "destinationPortRange": "22",
}


def nsg(name: str, **rule_changes: Any) -> Res:
    rule = {k: v for k, v in {**RULE_OK, **rule_changes}.items() if v is not ...}
    return Res(NSG, name, {"resourceGroupName": "rg", "securityRules": [rule]})


def test_internet_ssh_passes_ssh_from_a_known_range() -> None:
    assert found([nsg("pass_nsg")], SSH) == []


@pytest.mark.parametrize(
    "changes",
    [
        {"sourceAddressPrefix": "*"},
        {"sourceAddressPrefix": "0.0.0.0/0"},
        {"sourceAddressPrefix": "Internet"},
        {"sourceAddressPrefix": ..., "sourceAddressPrefixes": ["10.0.0.0/8", "any"]},
        {"sourceAddressPrefix": "*", "destinationPortRange": "20-25"},
        {"sourceAddressPrefix": "*", "destinationPortRange": ..., "destinationPortRanges": ["80", "22"]},
        {"sourceAddressPrefix": "*", "protocol": "*", "direction": "inbound", "access": "allow"},
    ],
    ids=["star", "zero-cidr", "service-tag", "prefixes", "port-range", "port-ranges", "odd-casing"],
)
def test_internet_ssh_refuses_ssh_open_to_any_address(changes: dict[str, Any]) -> None:
    assert found([nsg("fail_nsg", **changes)], SSH) == [
        (
            "mandatory",
            "fail_nsg",
            (
                "rule 'allow-ssh-0' allows SSH (22) from any internet address; allow only known ranges (e.g. 203.0.113.0/24) "
                "or reach the VMs through Azure Bastion or a VPN."
            ),
        )
    ]


def test_internet_ssh_refuses_rdp_and_standalone_rules() -> None:
    rule = Res(
        "azure-native:network:SecurityRule",
        "fail_rule",
        {**RULE_OK, "name": "rdp", "sourceAddressPrefix": "*", "destinationPortRange": "*"},
    )

    [(_, _, message)] = found([rule], SSH)
    assert message.startswith("rule 'rdp' allows SSH (22), RDP (3389) from any internet address")


@pytest.mark.parametrize(
    "changes",
    [
        {"access": "Deny"},
        {"direction": "Outbound"},
        {"protocol": "Icmp"},
        {"destinationPortRange": "443"},
        {"sourceAddressPrefix": UNKNOWN},
    ],
    ids=["deny", "outbound", "icmp", "https", "unknown-source"],
)
def test_internet_ssh_passes_rules_that_do_not_open_ssh(changes: dict[str, Any]) -> None:
    # From a rule open to any address, each change closes it (or makes it unknowable before deployment).
    assert found([nsg("pass_nsg", **{"sourceAddressPrefix": "*", **changes})], SSH) == []


# --- disallow-linux-password-login --------------------------------------------------------------

PASSWORD = "disallow-linux-password-login"
LINUX_OK = {
    "adminUsername": "azureuser",
    "linuxConfiguration": {
        "disablePasswordAuthentication": True,
        "ssh": {"publicKeys": [{"path": "/home/azureuser/.ssh/authorized_keys", "keyData": "ssh-ed25519 AAAA"}]},
    },
}
SECRET = {"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270"}


def test_password_login_passes_ssh_key_only_vms_even_as_secrets() -> None:
    vm = Res(VM, "pass_vm", {"osProfile": {**SECRET, "value": LINUX_OK}})

    assert found([vm], PASSWORD) == []


@pytest.mark.parametrize(("value", "shown"), [(False, "False"), (..., "not set")], ids=["false", "unset"])
def test_password_login_refuses_linux_vms_that_allow_passwords(value: Any, shown: str) -> None:
    vm = Res(
        VM, "fail_vm", {"osProfile": changed(LINUX_OK, ("linuxConfiguration", "disablePasswordAuthentication"), value)}
    )

    assert found([vm], PASSWORD) == [
        (
            "mandatory",
            "fail_vm",
            (
                f"osProfile.linuxConfiguration.disablePasswordAuthentication is {shown}, so the VM accepts password logins; "
                "set it to true and log in with an SSH key (linuxConfiguration.ssh.publicKeys)."
            ),
        )
    ]


def test_password_login_checks_scale_sets_and_skips_windows() -> None:
    vmss = Res(
        VMSS,
        "fail_vmss",
        {"virtualMachineProfile": {"osProfile": {"linuxConfiguration": {"disablePasswordAuthentication": False}}}},
    )
    windows = Res(VM, "pass_windows", {"osProfile": {"adminPassword": "x", "windowsConfiguration": {}}})

    assert [r for _, r, _ in found([vmss, windows], PASSWORD)] == ["fail_vmss"]
