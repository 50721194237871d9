"""warn-capacity-restricted-vm-sizes: a size in Microsoft's End of Life stage (new subscriptions cannot deploy
it, its quota will not grow) is named with the restriction's start, its retirement and its replacement. From
the day before the restriction, one change per test: the day. Dates and replacements are the catalog's data
as catalog/vm_sizes.yaml writes them; the message is built once (`restricted`)."""

from __future__ import annotations

import datetime as dt

from tests.policy_helpers import Res, catalog_entries, found

POLICY = "warn-capacity-restricted-vm-sizes"
VM = "azure-native:compute:VirtualMachine"
ENTRY = next(e for e in catalog_entries() if e["lifecycle"]["status"] == "capacity-restricted")
SIZE, LIFECYCLE = ENTRY["name"], ENTRY["lifecycle"]
SINCE: dt.date = LIFECYCLE["restrictedFrom"]


def restricted() -> str:
    return (
        f"hardwareProfile.vmSize is '{SIZE}', which Azure has restricted since {SINCE}: new subscriptions cannot "
        f"deploy it and its quota will not be increased; Azure retires it on {LIFECYCLE['date']}. "
        f"Move to {LIFECYCLE['replacement']}."
    )


def on(day: dt.date) -> dict[str, dict[str, str]]:
    return {POLICY: {"asOf": day.isoformat()}}


def vm(name: str) -> Res:
    return Res(VM, name, {"resourceGroupName": "rg", "hardwareProfile": {"vmSize": SIZE}})


def test_names_restriction_retirement_and_replacement_from_the_first_day() -> None:
    assert found([vm("fail_vm")], POLICY, on(SINCE)) == [("advisory", "fail_vm", restricted())]


def test_is_quiet_the_day_before_the_restriction() -> None:
    assert found([vm("pass_vm")], POLICY, on(SINCE - dt.timedelta(days=1))) == []


def test_is_quiet_once_the_size_is_retired() -> None:
    assert found([vm("pass_vm")], POLICY, on(LIFECYCLE["date"])) == []


def test_a_cluster_s_restricted_pool_is_named_after_a_pool_that_is_not() -> None:
    pools = [{"name": "system", "vmSize": "Standard_D4s_v5"}, {"name": "old", "vmSize": SIZE}]
    cluster = Res(
        "azure-native:containerservice:ManagedCluster", "aks", {"resourceGroupName": "rg", "agentPoolProfiles": pools}
    )

    [(_, _, message)] = found([cluster], POLICY, on(SINCE))
    assert message.startswith(f"agentPoolProfiles[1].vmSize is '{SIZE}', which Azure has restricted since {SINCE}")
