"""The stack config schema: every kind of bad input gets one message naming key, value and what is allowed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from azure_gpu_stacks.catalog import catalog
from azure_gpu_stacks.stack.config import ConfigError, load_stack_config

SOURCE = "stacks/Pulumi.test.yaml"
KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAITestKey test@example"


def stack(**sections: Any) -> dict[str, str]:
    values = {"azure-native:location": "eastus", "azure-gpu-stacks:sshPublicKey": KEY}
    for name, value in sections.items():
        values[f"azure-gpu-stacks:{name}"] = value if isinstance(value, str) else json.dumps(value)
    return values


def problem(values: dict[str, str]) -> str:
    with pytest.raises(ConfigError) as err:
        load_stack_config(values, source=SOURCE)
    return str(err.value)


def test_config_valid_stack_loads_with_canonical_size() -> None:
    config = load_stack_config(stack(vm={"vmSize": "nc4as_t4_v3"}), source=SOURCE)

    assert config.vm is not None and config.vm.vm_size == "Standard_NC4as_T4_v3"
    assert config.location == "eastus"


def test_config_sections_left_out_add_no_component() -> None:
    config = load_stack_config(stack(), source=SOURCE)

    assert (config.vm, config.cost_alert) == (None, None)


def test_config_misspelled_key_suggests_the_right_one() -> None:
    assert problem(stack(vm={"vmSzie": "Standard_NC4as_T4_v3"})) == (
        f"{SOURCE}: azure-gpu-stacks:vm.vmSzie: unknown key; did you mean 'vmSize'? allowed keys: "
        "adminUsername, autoShutdown, encryptionAtHost, evictionPolicy, installGpuDriver, osDiskSizeGb, publicIp, "
        "shutdownNotifyEmail, shutdownTime, shutdownTimeZone, spot, sshAllowedCidrs, subnetId, subnetPrefix, "
        "vmSize, vnetAddressSpace"
    )


def test_config_unknown_section_suggests_the_right_one() -> None:
    assert "azure-gpu-stacks:costAlerts: unknown key; did you mean 'costAlert'?" in problem(stack(costAlerts={}))


def test_config_retired_size_names_date_and_replacement() -> None:
    assert problem(stack(vm={"vmSize": "Standard_NC6s_v3"})) == (
        f"{SOURCE}: azure-gpu-stacks:vm.vmSize: 'Standard_NC6s_v3' was retired on 2025-09-30 and can no "
        f"longer be deployed; allowed: a current size, e.g. {catalog().get('Standard_NC6s_v3').lifecycle.replacement}"
    )


def test_config_unknown_size_lists_close_matches() -> None:
    assert "unknown VM size 'Standard_NC4as_T4'; did you mean Standard_NC4as_T4_v3" in problem(
        stack(vm={"vmSize": "Standard_NC4as_T4"})
    )


def test_config_cpu_size_is_refused_for_a_gpu_vm() -> None:
    assert "azure-gpu-stacks:vm.vmSize: 'Standard_D4s_v5' has no GPU" in problem(
        stack(vm={"vmSize": "Standard_D4s_v5"})
    )


def test_config_wrong_type_names_value_and_expectation() -> None:
    message = problem(stack(vm={"osDiskSizeGb": "big"}))

    assert "azure-gpu-stacks:vm.osDiskSizeGb: 'big'; allowed: a whole number" in message


def test_config_absurd_count_names_the_range() -> None:
    assert "azure-gpu-stacks:vm.osDiskSizeGb: 100000; allowed: a whole number of GiB from 30 to 4095" in problem(
        stack(vm={"osDiskSizeGb": 100000})
    )


def test_config_closed_choice_lists_allowed_values() -> None:
    assert "azure-gpu-stacks:vm.evictionPolicy: 'Stop'; allowed: Deallocate, Delete" in problem(
        stack(vm={"evictionPolicy": "Stop"})
    )


def test_config_list_item_error_names_its_index() -> None:
    assert "azure-gpu-stacks:vm.sshAllowedCidrs[1]: '10.0.0.1/8' is not a CIDR range" in problem(
        stack(vm={"sshAllowedCidrs": ["203.0.113.0/24", "10.0.0.1/8"]})
    )


def test_config_list_where_a_map_belongs() -> None:
    assert "azure-gpu-stacks:vm: ['Standard_NC4as_T4_v3']; allowed: a map of keys" in problem(
        stack(vm=["Standard_NC4as_T4_v3"])
    )


def test_config_missing_required_key() -> None:
    assert "azure-gpu-stacks:costAlert.contactEmails: required key is missing" in problem(
        stack(costAlert={"amount": 100})
    )


def test_config_missing_location_is_named() -> None:
    values = stack()
    del values["azure-native:location"]

    assert (
        problem(values)
        == f"{SOURCE}: azure-native:location: required key is missing; allowed: a region name such as eastus"
    )


def test_config_unknown_region_suggests_close_ones() -> None:
    values = {**stack(), "azure-native:location": "eastus3"}

    assert "azure-native:location: 'eastus3' is not an Azure region; did you mean eastus" in problem(values)


def test_config_vm_needs_an_ssh_key() -> None:
    values = stack(vm={})
    del values["azure-gpu-stacks:sshPublicKey"]

    assert "azure-gpu-stacks:sshPublicKey: required by the vm section and missing" in problem(values)


def test_config_ssh_key_must_be_a_public_key() -> None:
    values = {**stack(vm={}), "azure-gpu-stacks:sshPublicKey": "-----BEGIN OPENSSH PRIVATE KEY-----"}

    assert "azure-gpu-stacks:sshPublicKey: the value is not an OpenSSH public key" in problem(values)


def test_config_budget_thresholds_capped_at_azure_limit() -> None:
    message = problem(
        stack(
            costAlert={
                "amount": 10,
                "contactEmails": ["a@example.com"],
                "actualThresholds": [10, 20, 30, 40],
                "forecastThresholds": [50, 60],
            }
        )
    )

    assert (
        "azure-gpu-stacks:costAlert.actualThresholds: 6 thresholds in all; allowed: 1 to 5 (Azure's limit)" in message
    )


def test_config_every_problem_is_reported_at_once() -> None:
    message = problem(
        stack(vm={"vmSize": "Standard_NC6", "spot": "maybe"}, costAlert={"amount": -5, "contactEmails": ["x"]})
    )

    assert message.startswith(f"{SOURCE}: 4 problems in the stack configuration:")


def test_config_error_is_a_clean_pulumi_run_error() -> None:
    import pulumi

    with pytest.raises(pulumi.RunError):
        load_stack_config(stack(vm={"vmSize": 3}), source=SOURCE)


def test_config_warns_about_spot_eviction() -> None:
    config = load_stack_config(stack(vm={"spot": True}), source=SOURCE)

    assert any("30 seconds' notice" in w for w in config.warnings())
