"""warn-retiring-vm-sizes: a size Azure retires within the window (365 days by default) is named with its
date and replacement. From a size judged outside the window, one change per test: the day or the window.
Dates and replacements are the catalog's data as catalog/vm_sizes.yaml writes them; the message is built once."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pulumi
from azure_gpu_stacks.policies import warn_retiring_vm_sizes
from azure_gpu_stacks.sdk.internals import secret
from pulumi_policy import ResourceValidationArgs

from tests.policy_helpers import Res, catalog_size, found

POLICY = "warn-retiring-vm-sizes"
VM = "azure-native:compute:VirtualMachine"
SIZE = "Standard_NV12s_v3"
LIFECYCLE = catalog_size(SIZE)["lifecycle"]
RETIRES: dt.date = LIFECYCLE["date"]
WINDOW_DAYS = 365  # the pack's default (docs/policies.md)


def retiring(day: dt.date) -> str:
    return (
        f"hardwareProfile.vmSize is '{SIZE}', which Azure retires on {RETIRES} (in {(RETIRES - day).days} days); "
        f"move to {LIFECYCLE['replacement']} before then."
    )


def vm(name: str) -> Res:
    return Res(VM, name, {"resourceGroupName": "rg", "hardwareProfile": {"vmSize": SIZE}})


def config(day: dt.date, **settings: Any) -> dict[str, Any]:
    return {POLICY: {"asOf": day.isoformat(), **settings}}


def test_warns_within_the_window_with_the_date_and_replacement() -> None:
    day = RETIRES - dt.timedelta(days=121)

    assert found([vm("fail_vm")], POLICY, config(day)) == [("advisory", "fail_vm", retiring(day))]


def test_warns_on_the_first_day_of_the_window_and_not_the_day_before() -> None:
    first = RETIRES - dt.timedelta(days=WINDOW_DAYS)

    assert found([vm("fail_vm")], POLICY, config(first)) == [("advisory", "fail_vm", retiring(first))]
    assert found([vm("pass_vm")], POLICY, config(first - dt.timedelta(days=1))) == []


def test_window_is_configurable() -> None:
    day = RETIRES - dt.timedelta(days=486)

    assert found([vm("fail_vm")], POLICY, config(day, retiringWindowDays=500)) == [
        ("advisory", "fail_vm", retiring(day))
    ]


def test_is_quiet_once_the_size_is_retired() -> None:
    assert found([vm("pass_vm")], POLICY, config(RETIRES)) == []


def test_called_directly_survives_unknowns_and_secrets() -> None:
    props = {"hardwareProfile": secret({"vmSize": SIZE}), "osProfile": pulumi.UNKNOWN}
    args = ResourceValidationArgs(VM, props, "urn:x", "pass_vm", None, None)  # type: ignore[arg-type]
    reported: list[str] = []

    warn_retiring_vm_sizes.validate(args, lambda message, urn=None: reported.append(message))

    assert reported == []  # judged today, after the size retired: that is the mandatory policy's finding
