"""disallow-linux-password-login: from a Linux VM that logs in with SSH keys only, one change per test."""

from __future__ import annotations

from typing import Any

import pytest

from tests.policy_helpers import Res, changed, found

POLICY = "disallow-linux-password-login"
VM = "azure-native:compute:VirtualMachine"
VMSS = "azure-native:compute:VirtualMachineScaleSet"
COMPLIANT_OS = {
    "adminUsername": "azureuser",
    "linuxConfiguration": {
        "disablePasswordAuthentication": True,
        "ssh": {"publicKeys": [{"path": "/home/azureuser/.ssh/authorized_keys", "keyData": "ssh-ed25519 AAAA"}]},
    },
}
SECRET = {"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270"}  # the engine's secret wrapper


def accepts_passwords(path: str, shown: str) -> str:
    return (
        f"{path}.linuxConfiguration.disablePasswordAuthentication is {shown}, so the VM accepts password logins; "
        "set it to true and log in with an SSH key (linuxConfiguration.ssh.publicKeys)."
    )


def test_passes_ssh_key_only_vms_even_as_secrets() -> None:
    vm = Res(VM, "pass_vm", {"osProfile": {**SECRET, "value": COMPLIANT_OS}})

    assert found([vm], POLICY) == []


@pytest.mark.parametrize(("value", "shown"), [(False, "False"), (..., "not set")], ids=["false", "unset"])
def test_refuses_linux_vms_that_allow_passwords(value: Any, shown: str) -> None:
    os_profile = changed(COMPLIANT_OS, ("linuxConfiguration", "disablePasswordAuthentication"), value)

    assert found([Res(VM, "fail_vm", {"osProfile": os_profile})], POLICY) == [
        ("mandatory", "fail_vm", accepts_passwords("osProfile", shown))
    ]


def test_checks_scale_sets_and_skips_windows() -> None:
    os_profile = changed(COMPLIANT_OS, ("linuxConfiguration", "disablePasswordAuthentication"), False)
    vmss = Res(VMSS, "fail_vmss", {"virtualMachineProfile": {"osProfile": os_profile}})
    windows = Res(VM, "pass_windows", {"osProfile": {"adminPassword": "x", "windowsConfiguration": {}}})

    assert found([vmss, windows], POLICY) == [
        ("mandatory", "fail_vmss", accepts_passwords("virtualMachineProfile.osProfile", "False"))
    ]
