"""TrainingCluster: each property the component promises, asserted on what the engine receives."""

from __future__ import annotations

import base64
import datetime as dt
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import yaml
from azure_gpu_stacks.catalog import SizeVerdict, catalog
from azure_gpu_stacks.catalog.az_files import Usage, family_key
from azure_gpu_stacks.components.checks import ComponentInputError
from azure_gpu_stacks.components.node_health import SCRIPT_FILE
from azure_gpu_stacks.fakeazure import FakeArm

from tests.conftest import TEST_SSH_KEY, Recording, in_resource_group, recorded

VMSS = "azure-native:compute:VirtualMachineScaleSet"
PPG = "azure-native:compute:ProximityPlacementGroup"
OTHER_SUBSCRIPTION_PPG = (
    "/subscriptions/11111111-2222-3333-4444-555555555555/resourceGroups/shared/providers/"
    "Microsoft.Compute/proximityPlacementGroups/ib-ppg"
)


def build_cluster(**overrides: Any) -> Callable[[], None]:
    def build(rg: Any) -> None:
        import pulumi
        from azure_gpu_stacks.components.training_cluster import TrainingCluster

        cluster = TrainingCluster(
            "train",
            {"resource_group_name": rg.name, "location": "eastus", "ssh_public_key": TEST_SSH_KEY, **overrides},
        )
        for output in (
            "scale_set_id",
            "scale_set_name",
            "placement_group_id",
            "node_count",
            "gpus_total",
            "principal_id",
            "ssh_command",
        ):
            pulumi.export(output, getattr(cluster, output))

    return in_resource_group(build)


@pytest.fixture(scope="module")
def default_cluster() -> Iterator[Recording]:
    """`build_cluster()` with every default, recorded once for the tests that only read it."""
    with recorded(build_cluster()) as rec:
        yield rec


def profile(rec: Recording) -> dict[str, Any]:
    return rec.inputs(VMSS)["virtualMachineProfile"]


def cloud_config(rec: Recording) -> dict[str, Any]:
    text = base64.b64decode(profile(rec)["osProfile"]["customData"]).decode()
    assert text.startswith("#cloud-config\n")
    return yaml.safe_load(text)


def written_file(config: dict[str, Any], path: str) -> str:
    [entry] = [f for f in config["write_files"] if f["path"] == path]
    return base64.b64decode(entry["content"]).decode() if entry.get("encoding") == "b64" else entry["content"]


def test_training_cluster_defaults_to_two_nd96asr_v4_nodes_in_a_uniform_scale_set(
    default_cluster: Recording,
) -> None:
    rec = default_cluster
    vmss = rec.inputs(VMSS)

    assert vmss["sku"] == {"name": "Standard_ND96asr_v4", "tier": "Standard", "capacity": 2}
    assert vmss["orchestrationMode"] == "Uniform"
    assert rec.refusals == []


def test_training_cluster_keeps_infiniband_in_one_placement_group_without_overprovisioning(
    default_cluster: Recording,
) -> None:
    vmss = default_cluster.inputs(VMSS)

    assert (vmss["singlePlacementGroup"], vmss["overprovision"]) == (True, False)


def test_training_cluster_upgrades_only_by_hand(default_cluster: Recording) -> None:
    assert default_cluster.inputs(VMSS)["upgradePolicy"] == {"mode": "Manual"}


def test_training_cluster_creates_a_placement_group_for_its_size(record: Callable[..., Recording]) -> None:
    rec = record(build_cluster(vm_size="Standard_ND96isr_H100_v5"))
    ppg = rec.inputs(PPG)
    [ppg_resource] = [r for r in rec.arm.resources() if r.type == "Microsoft.Compute/proximityPlacementGroups"]

    assert (ppg["proximityPlacementGroupType"], ppg["intent"]) == (
        "Standard",
        {"vmSizes": ["Standard_ND96isr_H100_v5"]},
    )
    assert rec.inputs(VMSS)["proximityPlacementGroup"] == {"id": ppg_resource.id}
    assert rec.outputs["placement_group_id"] == ppg_resource.id


def test_training_cluster_joins_an_existing_placement_group_by_id(record: Callable[..., Recording]) -> None:
    rec = record(build_cluster(proximity_placement_group_id=OTHER_SUBSCRIPTION_PPG))

    assert rec.of_type(PPG) == []
    assert rec.inputs(VMSS)["proximityPlacementGroup"] == {"id": OTHER_SUBSCRIPTION_PPG}
    assert rec.outputs["placement_group_id"] == OTHER_SUBSCRIPTION_PPG


def test_training_cluster_nic_has_accelerated_networking_and_no_public_ip(default_cluster: Recording) -> None:
    rec = default_cluster
    [nic] = profile(rec)["networkProfile"]["networkInterfaceConfigurations"]
    [subnet] = [r for r in rec.arm.resources() if r.type == "Microsoft.Network/virtualNetworks/subnets"]

    assert nic["enableAcceleratedNetworking"] is True
    [ip] = nic["ipConfigurations"]
    assert ip == {"name": "primary", "primary": True, "subnet": {"id": subnet.id}}  # no publicIPAddressConfiguration
    assert rec.of_type("azure-native:network:PublicIPAddress") == []


def test_training_cluster_network_stays_clear_of_the_infiniband_range(default_cluster: Recording) -> None:
    rec = default_cluster

    assert rec.inputs("azure-native:network:VirtualNetwork")["addressSpace"] == {"addressPrefixes": ["10.50.0.0/16"]}
    assert rec.inputs("azure-native:network:Subnet")["addressPrefix"] == "10.50.0.0/24"


def test_training_cluster_logs_in_with_an_ssh_key_only(default_cluster: Recording) -> None:
    os_profile = profile(default_cluster)["osProfile"]

    assert "adminPassword" not in os_profile
    assert os_profile["linuxConfiguration"]["disablePasswordAuthentication"] is True
    assert os_profile["linuxConfiguration"]["ssh"]["publicKeys"] == [
        {"keyData": TEST_SSH_KEY, "path": "/home/azureuser/.ssh/authorized_keys"}
    ]


def test_training_cluster_uses_the_azure_hpc_ubuntu_2204_image_without_driver_extensions(
    default_cluster: Recording,
) -> None:
    vm_profile = profile(default_cluster)

    assert vm_profile["storageProfile"]["imageReference"] == {
        "publisher": "microsoft-dsvm",
        "offer": "ubuntu-hpc",
        "sku": "2204",
        "version": "latest",
    }
    assert "extensionProfile" not in vm_profile


def test_training_cluster_keeps_the_boot_log(default_cluster: Recording) -> None:
    assert profile(default_cluster)["diagnosticsProfile"] == {"bootDiagnostics": {"enabled": True}}


def test_training_cluster_outputs(record: Callable[..., Recording]) -> None:
    rec = record(build_cluster(node_count=4))
    [vmss] = [r for r in rec.arm.resources() if r.type == "Microsoft.Compute/virtualMachineScaleSets"]

    assert rec.outputs == {
        "scale_set_id": vmss.id,
        "scale_set_name": vmss.name,
        "placement_group_id": rec.outputs["placement_group_id"],
        "node_count": 4,
        "gpus_total": 32,
        "principal_id": vmss.outputs["identity"]["principalId"],  # what Azure gave the nodes' identity
        "ssh_command": "ssh azureuser@train000000",
    }
    assert rec.inputs(VMSS)["identity"] == {"type": "SystemAssigned"}
    assert rec.outputs["principal_id"]
    assert vmss.outputs["instances"][0]["computerName"] == "train000000"  # the host the command logs in to


def test_training_cluster_spot_sets_priority_eviction_and_price_cap_on_every_node(
    record: Callable[..., Recording],
) -> None:
    vm_profile = profile(record(build_cluster(spot=True, eviction_policy="Delete")))

    assert (vm_profile["priority"], vm_profile["evictionPolicy"], vm_profile["billingProfile"]) == (
        "Spot",
        "Delete",
        {"maxPrice": -1},
    )


def test_training_cluster_spot_warns_that_evictions_break_coupled_jobs(record: Callable[..., Recording]) -> None:
    rec = record(build_cluster(spot=True))

    assert [log.message for log in rec.result.logs] == [
        "TrainingCluster 'train': spot: Spot nodes can be evicted with 30 seconds' notice, and losing one node "
        "stops a tightly-coupled (MPI/NCCL) job on every node; checkpoint often and expect restarts"
    ]


def test_training_cluster_on_demand_has_no_priority_and_no_warning(default_cluster: Recording) -> None:
    rec = default_cluster

    assert "priority" not in profile(rec)
    assert rec.result.logs == []


AUTOSCALE = "azure-native:monitor:AutoscaleSetting"


def test_training_cluster_parked_keeps_network_placement_group_and_scale_set_with_no_nodes(
    record: Callable[..., Recording],
) -> None:
    rec = record(build_cluster(node_count=0))

    assert rec.inputs(VMSS)["sku"] == {"name": "Standard_ND96asr_v4", "tier": "Standard", "capacity": 0}
    assert rec.inputs(PPG)["intent"] == {"vmSizes": ["Standard_ND96asr_v4"]}
    assert (
        len(rec.of_type("azure-native:network:VirtualNetwork")) == len(rec.of_type("azure-native:network:Subnet")) == 1
    )
    assert (rec.outputs["node_count"], rec.outputs["gpus_total"]) == (0, 0)
    assert rec.of_type(AUTOSCALE) == []


WORKING_HOURS = {"start": "0800", "end": "1900", "time_zone": "W. Europe Standard Time"}


def test_training_cluster_working_hours_scale_the_nodes_to_zero_outside_them(record: Callable[..., Recording]) -> None:
    rec = record(build_cluster(node_count=3, working_hours=WORKING_HOURS))

    setting = rec.inputs(AUTOSCALE)
    weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
    assert setting["enabled"] is True
    assert setting["targetResourceUri"] == rec.outputs["scale_set_id"]
    assert setting["profiles"] == [
        {
            "name": "working-hours",
            "capacity": {"minimum": "3", "maximum": "3", "default": "3"},
            "rules": [],
            "recurrence": {
                "frequency": "Week",
                "schedule": {"timeZone": "W. Europe Standard Time", "days": weekdays, "hours": [8], "minutes": [0]},
            },
        },
        {
            "name": "outside-working-hours",
            "capacity": {"minimum": "0", "maximum": "0", "default": "0"},
            "rules": [],
            "recurrence": {
                "frequency": "Week",
                "schedule": {"timeZone": "W. Europe Standard Time", "days": weekdays, "hours": [19], "minutes": [0]},
            },
        },
    ]
    # Updates leave the capacity to autoscale.
    assert rec.one(VMSS).ignore_changes == ("sku.capacity",)


def test_training_cluster_working_hours_warn_that_scaling_in_stops_jobs(record: Callable[..., Recording]) -> None:
    rec = record(build_cluster(working_hours={"start": "0730", "end": "1800", "days": ["sunday", "Monday"]}))

    assert [log.message for log in rec.result.logs] == [
        "TrainingCluster 'train': working_hours: the cluster scales in to 0 nodes at 1800 (UTC) every working day and "
        "stays there until 0730: scaling in deletes the nodes, which stops any job still running on them; finish or "
        "checkpoint jobs before 1800"
    ]
    assert rec.inputs(AUTOSCALE)["profiles"][0]["recurrence"]["schedule"]["days"] == ["Monday", "Sunday"]


def test_training_cluster_parked_with_working_hours_stays_parked(record: Callable[..., Recording]) -> None:
    rec = record(build_cluster(node_count=0, working_hours=WORKING_HOURS))

    # Autoscale would start the nodes at the next working hour.
    assert rec.of_type(AUTOSCALE) == []
    assert rec.inputs(VMSS)["sku"]["capacity"] == 0
    assert rec.one(VMSS).ignore_changes == ()


def test_training_cluster_always_on_has_no_autoscale(default_cluster: Recording) -> None:
    rec = default_cluster

    assert rec.of_type(AUTOSCALE) == []
    assert rec.one(VMSS).ignore_changes == ()


def test_training_cluster_single_zone_pins_nodes_and_placement_group(record: Callable[..., Recording]) -> None:
    rec = record(build_cluster(zones=["2"]))

    assert rec.inputs(VMSS)["zones"] == ["2"]
    assert rec.inputs(PPG)["zones"] == ["2"]


def test_training_cluster_joins_a_given_subnet_without_creating_a_vnet(record: Callable[..., Recording]) -> None:
    subnet = (
        "/subscriptions/11111111-2222-3333-4444-555555555555/resourceGroups/net/providers/Microsoft.Network/"
        "virtualNetworks/hub/subnets/ib"
    )
    rec = record(build_cluster(subnet_id=subnet))

    assert rec.of_type("azure-native:network:VirtualNetwork") == []
    [nic] = profile(rec)["networkProfile"]["networkInterfaceConfigurations"]
    assert nic["ipConfigurations"][0]["subnet"] == {"id": subnet}


def test_training_cluster_health_check_ships_the_repository_script_through_cloud_init(
    default_cluster: Recording,
) -> None:
    config = cloud_config(default_cluster)

    assert written_file(config, "/usr/local/sbin/node-health-check") == SCRIPT_FILE.read_text()
    assert "ExecStart=/usr/local/sbin/node-health-check" in written_file(
        config, "/etc/systemd/system/node-health-check.service"
    )
    assert "StandardOutput=journal+console" in written_file(config, "/etc/systemd/system/node-health-check.service")
    assert ["systemctl", "enable", "--now", "--no-block", "node-health-check.service"] in config["runcmd"]


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({}, "EXPECTED_GPUS=8\nEXPECTED_IB_PORTS=8\nEXPECTED_IB_RATE=200\nWAIT_SECONDS=1800\n"),
        (
            {"vm_size": "Standard_ND96isr_H100_v5", "health_check_wait_minutes": 10},
            "EXPECTED_GPUS=8\nEXPECTED_IB_PORTS=8\nEXPECTED_IB_RATE=400\nWAIT_SECONDS=600\n",
        ),
        (
            {"vm_size": "Standard_ND40rs_v2"},
            "EXPECTED_GPUS=8\nEXPECTED_IB_PORTS=1\nEXPECTED_IB_RATE=100\nWAIT_SECONDS=1800\n",
        ),
    ],
)
def test_training_cluster_health_check_expects_what_the_size_has(
    record: Callable[..., Recording], overrides: dict[str, Any], expected: str
) -> None:
    settings = written_file(cloud_config(record(build_cluster(**overrides))), "/etc/default/node-health-check")

    assert settings.startswith(expected)
    assert "VERDICT_FILE=/var/log/node-health-check/verdict\n" in settings


@pytest.mark.parametrize(
    ("vm_size", "expected"),
    [
        ("Standard_ND96asr_v4", "NCCL_BUSBW_FLOOR=228.0\nNCCL_MESSAGE_SIZE=8G\n"),
        ("Standard_ND96isr_H100_v5", "NCCL_BUSBW_FLOOR=460.0\nNCCL_MESSAGE_SIZE=16G\n"),
        ("Standard_ND40rs_v2", "NCCL_BUSBW_FLOOR=\nNCCL_MESSAGE_SIZE=8G\n"),  # Azure's checks give NDv2 no floor
    ],
)
def test_training_cluster_health_check_takes_the_nccl_floor_from_the_catalog(
    record: Callable[..., Recording], vm_size: str, expected: str
) -> None:
    settings = written_file(cloud_config(record(build_cluster(vm_size=vm_size))), "/etc/default/node-health-check")

    assert expected in settings


def test_training_cluster_health_check_unit_times_out_after_the_scripts_own_bound(
    record: Callable[..., Recording],
) -> None:
    config = cloud_config(record(build_cluster(health_check_wait_minutes=10)))

    # 600 s wait + 30 s retry + 4 x 61 s commands + 300 s NCCL + 1800 s Azure's checks + 2 s, then a 60 s margin.
    assert "TimeoutStartSec=3036\n" in written_file(config, "/etc/systemd/system/node-health-check.service")


def test_training_cluster_health_check_can_be_turned_off(record: Callable[..., Recording]) -> None:
    assert "customData" not in profile(record(build_cluster(health_check=False)))["osProfile"]


def test_training_cluster_knows_the_port_layout_of_every_nvidia_infiniband_size() -> None:
    from azure_gpu_stacks.components.training_cluster import node_expectations

    for size in catalog().sizes:
        if size.is_gpu and size.has_infiniband and size.status_on(size.observed) != "retired" and size.is_nvidia:
            expect = node_expectations(size, 0)
            assert expect.infiniband_ports * expect.infiniband_rate_gbps == size.infiniband_gbps, size.name
            assert expect.infiniband_rate_gbps in (100, 200, 400, 800), size.name  # EDR, HDR, NDR, XDR (GB300)


def test_training_cluster_quota_is_counted_for_every_node(record: Callable[..., Recording], fake_arm: FakeArm) -> None:
    fake_arm.usage = {family_key("standardNDASv4_A100Family"): Usage("standardNDASv4_A100Family", 0, 96)}

    rec = record(build_cluster())

    [refusal] = rec.refusals
    assert (refusal.resource, refusal.code) == ("train-vmss", "OperationNotAllowed")
    assert "Current Limit: 96, Current Usage: 0, Additional Required: 192" in refusal.message


def test_training_cluster_children_are_parented_to_the_component(default_cluster: Recording) -> None:
    rec = default_cluster
    component = rec.one("azure-gpu-stacks:index:TrainingCluster")

    children = {r.type.split(":")[-1] for r in rec.resources if r.parent == component.urn}
    assert children == {"VirtualNetwork", "Subnet", "ProximityPlacementGroup", "VirtualMachineScaleSet"}


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        (
            {"vm_size": "Standard_NC96ads_A100_v4"},
            "vm_size: 'Standard_NC96ads_A100_v4' has no InfiniBand; allowed: a GPU size with InfiniBand",
        ),
        (
            {"vm_size": "Standard_NC24rs_v3"},
            "vm_size: 'Standard_NC24rs_v3' was retired on 2025-09-30 and can no longer be deployed",
        ),
        (
            {"vm_size": "Standard_ND96isr_MI300X_v5"},
            "vm_size: 'Standard_ND96isr_MI300X_v5' has AMD Instinct MI300X GPUs",
        ),
        ({"node_count": 101}, "node_count: 101 nodes; allowed: 0 (parked: no nodes run) to 100"),
        ({"node_count": -1}, "node_count: -1 nodes; allowed: 0 (parked: no nodes run) to 100"),
        (
            {"working_hours": {"start": "1900", "end": "0800"}},
            "working_hours: end 0800 is not after start 1900; allowed: start and end on the same day, "
            "e.g. 0800 to 1900",
        ),
        (
            {"working_hours": {"start": "8:00", "end": "1900"}},
            "working_hours.start: '8:00' is not a time of day as HHmm",
        ),
        (
            {"working_hours": {"start": "0800", "end": "1900", "days": ["Monday", "Funday"]}},
            "working_hours.days: 'Funday' not a day; allowed: Monday, Tuesday, Wednesday, Thursday, Friday, "
            "Saturday, Sunday",
        ),
        (
            {"working_hours": {"start": "0800", "end": "1900", "days": []}},
            "working_hours.days: []; allowed: a list of days",
        ),
        (
            {"working_hours": {"start": "0800", "end": "1900", "time_zone": "Europe/Berlin"}},
            "working_hours.time_zone: 'Europe/Berlin' is an IANA time zone name "
            "(did you mean W. Europe Standard Time?); "
            "allowed: a Windows time zone id",
        ),
        (
            {"working_hours": {"start": "0800", "end": "1900", "time_zone": "W Europe Standard Time"}},
            "working_hours.time_zone: 'W Europe Standard Time' is not a Windows time zone id "
            "(did you mean W. Europe Standard Time",
        ),
        (
            {"vnet_address_space": "172.16.0.0/12", "subnet_prefix": "172.20.0.0/24"},
            "vnet_address_space: '172.16.0.0/12' overlaps 172.16.0.0/16, which the InfiniBand network reserves",
        ),
        (
            {"vnet_address_space": "172.16.0.0/16", "subnet_prefix": "172.16.1.0/24"},
            "subnet_prefix: '172.16.1.0/24' overlaps 172.16.0.0/16",
        ),
        (
            {"subnet_prefix": "10.60.0.0/24"},
            "subnet_prefix: '10.60.0.0/24' is not inside the VNet's address space 10.50.0.0/16",
        ),
        ({"zones": ["1", "2"]}, "zones: ['1', '2'] spans 2 zones; allowed: at most one zone"),
        ({"image": "windows"}, "image: 'windows'; allowed: ubuntu-hpc"),
        (
            {"proximity_placement_group_id": "ppg-1"},
            "proximity_placement_group_id: 'ppg-1' is not a proximity placement group id",
        ),
        (
            {"health_check_wait_minutes": 300},
            "health_check_wait_minutes: 300; allowed: a whole number of minutes from 0 to 240",
        ),
    ],
)
def test_training_cluster_refuses_bad_args_before_registering_anything(
    record: Callable[..., Recording], fake_arm: FakeArm, overrides: dict[str, Any], expected: str
) -> None:
    with pytest.raises(ComponentInputError) as err:
        record(build_cluster(**overrides))

    assert str(err.value).startswith("TrainingCluster 'train': ")
    assert expected in str(err.value)
    assert [r.type for r in fake_arm.resources()] == ["Microsoft.Resources/resourceGroups"]


def test_training_cluster_refuses_a_size_without_gen2(monkeypatch: pytest.MonkeyPatch) -> None:
    # No InfiniBand size in the catalog lacks Gen2 today; a Gen1-only one must still be refused.
    import azure_gpu_stacks.components.checks as checks

    gen1 = catalog().get("Standard_ND96asr_v4").model_copy(update={"hyperv_generations": ("V1",)})
    monkeypatch.setattr(checks, "deployable_size", lambda name, day: SizeVerdict(name, day, "current", gen1))

    with pytest.raises(ValueError, match="^'Standard_ND96asr_v4' does not boot Gen2 images; allowed: a Gen2 size"):
        checks.infiniband_gpu_size("Standard_ND96asr_v4", dt.date(2026, 11, 25))
