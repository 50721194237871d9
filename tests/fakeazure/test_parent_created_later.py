"""A child the program registers before the parent it names, in a saved (`--existing`) resource group.

A program that names its parent by a plain string (`virtual_network_name="vnet1"`) registers the child when its line
runs, which may be before the line that declares the parent (or the component holding it). Azure creates the child
once its parent exists, and refuses it `ParentResourceNotFound` while it does not (Learn, "Resolve errors for parent
resources", azure-resource-manager/troubleshooting/error-parent-resource: "the parent resource must exist before the
child resource is created"; without a dependency "the database deployment might start before the server has
deployed"; observed 2026-11-27). The fake judged the child at its registration and refused it where the parent came
later in the program, but accepted the same two resources in the other order. Now the child waits for its parent: it
is judged, with every check, once the parent is created, and the plan warns that nothing orders the two; it is
refused as before where the program never creates the parent, and not attempted where Azure refuses the parent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.fakeazure.existing import adopt, parse

from tests.conftest import Recording

SUBSCRIPTION = "11111111-2222-3333-4444-555555555555"
GROUP = "rg-saved"
SAVED_GROUP = {  # `az group show` output's shape (Microsoft.Resources/resourceGroups)
    "id": f"/subscriptions/{SUBSCRIPTION}/resourceGroups/{GROUP}",
    "location": "westeurope",
    "managedBy": None,
    "name": GROUP,
    "properties": {"provisioningState": "Succeeded"},
    "tags": None,
    "type": "Microsoft.Resources/resourceGroups",
}


def _vnet(name: str = "vnet1", **options: Any) -> Any:
    from pulumi_azure_native import network

    return network.VirtualNetwork(
        name,
        resource_group_name=GROUP,
        virtual_network_name="vnet1",
        address_space={"address_prefixes": ["10.0.0.0/16"]},
        **options,
    )


def _subnet(prefix: str = "10.0.1.0/24", vnet: str = "vnet1") -> Any:
    from pulumi_azure_native import network

    return network.Subnet(
        "sn", resource_group_name=GROUP, virtual_network_name=vnet, subnet_name="a", address_prefix=prefix
    )


def subnet_then_vnet() -> None:
    _subnet()
    _vnet()


def subnet_then_component_holding_the_vnet() -> None:
    import pulumi

    class Net(pulumi.ComponentResource):
        def __init__(self, name: str) -> None:
            super().__init__("team:net:Net", name)
            _vnet(opts=pulumi.ResourceOptions(parent=self))
            self.register_outputs({})

    _subnet()
    Net("net")


def _run(record: Callable[..., Recording], fake_arm: FakeArm, program: Callable[[], None]) -> Recording:
    adopt(fake_arm, parse(SAVED_GROUP, "group.json"))
    return record(program)


@pytest.mark.parametrize("program", [subnet_then_vnet, subnet_then_component_holding_the_vnet])
def test_a_child_registered_before_its_parent_is_created_once_the_parent_is(
    record: Callable[..., Recording], fake_arm: FakeArm, program: Callable[[], None]
) -> None:
    recording = _run(record, fake_arm, program)

    assert recording.refusals == []
    [advisory] = recording.arm.advisories
    assert advisory.startswith("sn: registered before its parent 'vnet1', with no dependency on it")
    subnet = f"/subscriptions/{SUBSCRIPTION}/resourceGroups/{GROUP}/providers/Microsoft.Network/virtualNetworks/vnet1"
    assert fake_arm.find(f"{subnet}/subnets/a") is not None


def test_the_waiting_child_is_still_judged_against_its_parent(
    record: Callable[..., Recording], fake_arm: FakeArm
) -> None:
    def program() -> None:
        _subnet(prefix="10.9.0.0/24")  # outside the VNet's 10.0.0.0/16
        _vnet()

    recording = _run(record, fake_arm, program)

    assert [(r.resource, r.code) for r in recording.refusals] == [("sn", "NetcfgSubnetRangeOutsideVnet")]


def test_a_child_whose_parent_the_program_never_creates_is_refused_as_azure_refuses_it(
    record: Callable[..., Recording], fake_arm: FakeArm
) -> None:
    def program() -> None:
        _subnet(vnet="vnet-nobody-makes")
        _vnet()

    recording = _run(record, fake_arm, program)

    [refusal] = recording.refusals
    assert (refusal.resource, refusal.code) == ("sn", "ParentResourceNotFound")
    assert "'vnet-nobody-makes' not found" in refusal.message


def test_a_child_waiting_for_a_parent_azure_refuses_is_not_attempted(
    record: Callable[..., Recording], fake_arm: FakeArm
) -> None:
    def program() -> None:
        from pulumi_azure_native import network

        _subnet()
        network.VirtualNetwork(  # 10.0.0.0/33 is no address prefix: Azure refuses the network
            "vnet1",
            resource_group_name=GROUP,
            virtual_network_name="vnet1",
            address_space={"address_prefixes": ["10.0.0.0/33"]},
        )

    recording = _run(record, fake_arm, program)

    assert [r.resource for r in recording.refusals] == ["vnet1"]
    assert [name for name, _ in recording.arm.skipped] == ["sn"]
