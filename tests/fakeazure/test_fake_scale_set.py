"""The fake ARM's scale sets and proximity placement groups: what it refuses and what it returns."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from azure_gpu_stacks.catalog.az_files import Usage, family_key
from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.sdk.values import stable_uuid

from tests.conftest import TEST_SSH_KEY, Recording, in_resource_group

HPC_IMAGE = {"publisher": "microsoft-dsvm", "offer": "ubuntu-hpc", "sku": "2204", "version": "latest"}


def scale_set(
    *,
    capacity: int = 2,
    ppg_location: str | None = None,
    image: dict[str, Any] | None = None,
    spot: bool = False,
    custom_data: str | None = None,
    ppg_zones: list[str] | None = None,
) -> Callable[[], None]:
    """A program with a raw azure-native scale set (and, when asked, a placement group in `ppg_location`)."""

    def build(rg: Any) -> None:
        from pulumi_azure_native import compute

        ppg = None
        if ppg_location is not None:
            ppg = compute.ProximityPlacementGroup(
                "ppg",
                resource_group_name=rg.name,
                location=ppg_location,
                zones=ppg_zones,
                intent=compute.ProximityPlacementGroupPropertiesIntentArgs(vm_sizes=["Standard_ND96asr_v4"]),
            )
        compute.VirtualMachineScaleSet(
            "vmss",
            resource_group_name=rg.name,
            location="eastus",
            sku=compute.SkuArgs(name="Standard_ND96asr_v4", tier="Standard", capacity=capacity),
            orchestration_mode="Uniform",
            single_placement_group=True,
            proximity_placement_group=compute.SubResourceArgs(id=ppg.id) if ppg is not None else None,
            virtual_machine_profile=compute.VirtualMachineScaleSetVMProfileArgs(
                priority="Spot" if spot else None,
                os_profile=compute.VirtualMachineScaleSetOSProfileArgs(
                    computer_name_prefix="node",
                    admin_username="azureuser",
                    custom_data=custom_data,
                    linux_configuration=compute.LinuxConfigurationArgs(
                        disable_password_authentication=True,
                        ssh=compute.SshConfigurationArgs(
                            public_keys=[
                                compute.SshPublicKeyArgs(
                                    path="/home/azureuser/.ssh/authorized_keys", key_data=TEST_SSH_KEY
                                )
                            ]
                        ),
                    ),
                ),
                storage_profile=compute.VirtualMachineScaleSetStorageProfileArgs(
                    image_reference=compute.ImageReferenceArgs(**(image if image is not None else HPC_IMAGE))
                ),
            ),
        )

    return in_resource_group(build)


def the_scale_set(arm: FakeArm) -> Any:
    [vmss] = [r for r in arm.resources() if r.type == "Microsoft.Compute/virtualMachineScaleSets"]
    return vmss


def test_fake_scale_set_returns_unique_id_and_one_instance_per_capacity(record: Callable[..., Recording]) -> None:
    rec = record(scale_set(capacity=3))
    vmss = the_scale_set(rec.arm)

    assert rec.refusals == []
    assert vmss.outputs["uniqueId"] == stable_uuid(vmss.id, "uniqueId")
    assert vmss.outputs["provisioningState"] == "Succeeded"
    assert [(i["instanceId"], i["computerName"], i["id"]) for i in vmss.outputs["instances"]] == [
        (str(n), f"node00000{n}", f"{vmss.id}/virtualMachines/{n}") for n in range(3)
    ]


def test_fake_scale_set_accepts_a_placement_group_in_its_region(record: Callable[..., Recording]) -> None:
    assert record(scale_set(ppg_location="eastus")).refusals == []


def test_fake_scale_set_refuses_a_placement_group_in_another_region(record: Callable[..., Recording]) -> None:
    rec = record(scale_set(ppg_location="westus2"))
    [ppg] = [r for r in rec.arm.resources() if r.type == "Microsoft.Compute/proximityPlacementGroups"]

    [refusal] = rec.refusals
    assert (refusal.resource, refusal.code) == ("vmss", "InvalidParameter")
    assert refusal.message == (
        f"Scale set '{the_scale_set(rec.arm).name}' in 'eastus' cannot use proximity placement group '{ppg.name}', "
        "which is in 'westus2'; a proximity placement group must be in the same region."
    )


def test_fake_scale_set_refuses_more_than_one_placement_group_holds(record: Callable[..., Recording]) -> None:
    [refusal] = record(scale_set(capacity=101)).refusals

    assert refusal.code == "InvalidParameter"
    assert refusal.message.endswith(
        "asks for 101 VMs, but a scale set with singlePlacementGroup true holds at most 100."
    )


@pytest.mark.parametrize(
    "image",
    [
        {"publisher": "microsoft-dsvm", "offer": "ubuntu-hpc"},
        {**HPC_IMAGE, "id": "/subscriptions/x/resourceGroups/y/providers/Microsoft.Compute/images/z"},
        {"id": "/a", "shared_gallery_image_id": "/b"},
    ],
)
def test_fake_scale_set_refuses_an_unknown_image_reference_shape(
    record: Callable[..., Recording], image: dict[str, Any]
) -> None:
    [refusal] = record(scale_set(image=image)).refusals

    assert refusal.code == "InvalidParameter"
    assert ": the value of parameter imageReference is invalid (" in refusal.message


def test_fake_scale_set_accepts_an_image_by_id(record: Callable[..., Recording]) -> None:
    image = {"id": "/subscriptions/x/resourceGroups/y/providers/Microsoft.Compute/galleries/g/images/i/versions/1.0.0"}

    assert record(scale_set(image=image)).refusals == []


def test_fake_scale_set_refuses_custom_data_that_is_not_base64(record: Callable[..., Recording]) -> None:
    [refusal] = record(scale_set(custom_data="#cloud-config\n")).refusals

    assert refusal.message.endswith("osProfile.customData is not base64.")


def test_a_placement_group_in_more_than_one_zone_is_an_advisory(record: Callable[..., Recording]) -> None:
    # no public source gives Azure's refusal: a warning, never a refusal (issue 33)
    rec = record(scale_set(ppg_location="eastus", ppg_zones=["1", "2"]))

    assert rec.refusals == []
    assert any("Proximity placement group" in a and "one zone" in a for a in rec.arm.advisories)


def test_fake_scale_set_demands_quota_for_every_node(record: Callable[..., Recording], fake_arm: FakeArm) -> None:
    fake_arm.usage = {family_key("standardNDASv4_A100Family"): Usage("standardNDASv4_A100Family", 0, 300)}

    [refusal] = record(scale_set(capacity=4)).refusals

    assert refusal.code == "OperationNotAllowed"
    assert "Current Limit: 300, Current Usage: 0, Additional Required: 384" in refusal.message


def test_fake_scale_set_spot_nodes_use_the_low_priority_quota(
    record: Callable[..., Recording], fake_arm: FakeArm
) -> None:
    fake_arm.usage = {
        family_key("standardNDASv4_A100Family"): Usage("standardNDASv4_A100Family", 0, 0),
        family_key("lowPriorityCores"): Usage("lowPriorityCores", 0, 100),
    }

    [refusal] = record(scale_set(capacity=2, spot=True)).refusals

    assert "lowPriorityCores Cores quota" in refusal.message
    assert "Additional Required: 192" in refusal.message
