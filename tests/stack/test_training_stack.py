"""The training-a100 stack end to end through `gpu-stacks plan`, and each refusal of a bad cluster."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.catalog import catalog
from azure_gpu_stacks.engine.cli import main

from tests.conftest import REPO
from tests.shared_plans import plans_shared


@pytest.fixture(scope="module", autouse=True)
def plans() -> Iterator[dict[str, Any]]:
    """The file's plans by their arguments (tests/shared_plans.py):
    the text and JSON plans of the stack are one plan."""
    with plans_shared() as plans:
        yield plans


VMSS = "azure-native:compute:VirtualMachineScaleSet"
PPG = "azure-native:compute:ProximityPlacementGroup"
HOURS_PER_MONTH = 730


@pytest.fixture
def plan_json(shipped_plan_json: Callable[[str], dict[str, Any]]) -> dict[str, Any]:
    """`gpu-stacks plan training-a100 --json`, planned once for the session."""
    return shipped_plan_json("training-a100")


def resource(plan: dict[str, Any], type_token: str) -> dict[str, Any]:
    [found] = [r for r in plan["resources"] if r["type"] == type_token]
    return found


def test_training_stack_plans_cleanly_and_shows_the_cluster(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["plan", "training-a100"])
    out = capsys.readouterr().out

    assert code == 0
    assert (
        "train-vmss  [azure-native:compute:VirtualMachineScaleSet]  size=Standard_ND96asr_v4  nodes=2  mode=Uniform  "
        "single placement group=True  overprovision=False  upgrades=Manual  image=ubuntu-hpc  health check=on" in out
    )
    assert "train-ppg  [azure-native:compute:ProximityPlacementGroup]  for=Standard_ND96asr_v4" in out
    assert "clusterSshCommand  ssh azureuser@train000000" in out
    # Always on (the shipped default): the policy pack says what an idle day costs and how to park it.
    # ... and that its nodes run without encryption at host (opt-in: the subscription must register the feature).
    assert "OK: training-a100 deploys as planned (8 resources, 2 advisory policy notes)." in out
    assert "[advisory] warn-gpu-host-without-encryption-at-host: train-vmss: sku.name 'Standard_ND96asr_v4'" in out
    assert (
        "[advisory] warn-always-on-infiniband-cluster: train-vmss: 'train-vmss' runs 2 x Standard_ND96asr_v4 around "
        "the clock: about 1,305.46 USD for every day nothing trains" in out
    )


def test_training_stack_json_carries_the_scale_set_properties(plan_json: dict[str, Any]) -> None:
    vmss = resource(plan_json, VMSS)["inputs"]
    profile = vmss["virtualMachineProfile"]

    assert (vmss["orchestrationMode"], vmss["singlePlacementGroup"], vmss["overprovision"], vmss["upgradePolicy"]) == (
        "Uniform",
        True,
        False,
        {"mode": "Manual"},
    )
    assert vmss["sku"] == {"name": "Standard_ND96asr_v4", "tier": "Standard", "capacity": 2}
    assert profile["storageProfile"]["imageReference"]["offer"] == "ubuntu-hpc"
    assert profile["networkProfile"]["networkInterfaceConfigurations"][0]["enableAcceleratedNetworking"] is True
    assert profile["osProfile"]["linuxConfiguration"]["disablePasswordAuthentication"] is True
    assert profile["osProfile"]["customData"]  # the health check


def test_training_stack_json_hides_the_ssh_key_but_not_the_profile(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # As after `pulumi config set --secret sshPublicKey ...`: the key is ciphertext in the stack file.
    shipped = (REPO / "stacks" / "Pulumi.training-a100.yaml").read_text()
    stack = tmp_path / "Pulumi.training-a100.yaml"
    stack.write_text(re.sub(r"(azure-gpu-stacks:sshPublicKey:) .*", r"\1\n    secure: v1:a2V5", shipped))
    assert main(["plan", str(stack), "--json"]) == 0
    os_profile = resource(json.loads(capsys.readouterr().out), VMSS)["inputs"]["virtualMachineProfile"]["osProfile"]

    assert os_profile["linuxConfiguration"]["ssh"]["publicKeys"][0]["keyData"] == "[secret]"
    assert os_profile["adminUsername"] == "azureuser"


def test_training_stack_scale_set_is_in_its_placement_group(plan_json: dict[str, Any]) -> None:
    ppg_id = plan_json["outputs"]["placementGroupId"]

    assert resource(plan_json, VMSS)["inputs"]["proximityPlacementGroup"] == {"id": ppg_id}
    assert resource(plan_json, PPG)["inputs"]["intent"] == {"vmSizes": ["Standard_ND96asr_v4"]}


def test_training_stack_outputs(plan_json: dict[str, Any]) -> None:
    outputs = plan_json["outputs"]

    assert (outputs["nodeCount"], outputs["gpusTotal"], outputs["clusterSshCommand"]) == (
        2,
        16,
        "ssh azureuser@train000000",
    )
    assert outputs["scaleSetId"].endswith(
        f"/providers/Microsoft.Compute/virtualMachineScaleSets/{outputs['scaleSetName']}"
    )
    assert "/providers/Microsoft.Compute/proximityPlacementGroups/" in outputs["placementGroupId"]


def test_training_stack_budget_covers_a_month_of_the_cluster(plan_json: dict[str, Any]) -> None:
    budget = resource(plan_json, "azure-native:consumption:Budget")["inputs"]
    hourly = catalog().get("Standard_ND96asr_v4").usd_per_hour("eastus")
    assert hourly is not None
    monthly = hourly * 2 * HOURS_PER_MONTH

    assert budget["amount"] == math.ceil(monthly) == 39708


def write_stack(tmp_path: Path, cluster: str) -> str:
    path = tmp_path / "Pulumi.bad.yaml"
    # A budget too, so the plans below pass the policy pack's require-cost-alerts.
    path.write_text(
        f"config:\n  azure-native:location: eastus\n  azure-gpu-stacks:trainingCluster: {cluster}\n"
        "  azure-gpu-stacks:sshPublicKey: {secure: v1:a2V5}\n"
        "  azure-gpu-stacks:costAlert: {amount: 5000, contactEmails: [ml@example.com]}\n"
    )
    return str(path)


KEY = "gpu-stacks: error: {file}: azure-gpu-stacks:trainingCluster"


@pytest.mark.parametrize(
    ("cluster", "expected"),
    [
        (
            "{vmSize: Standard_NC96ads_A100_v4}",
            f"{KEY}.vmSize: 'Standard_NC96ads_A100_v4' has no InfiniBand; allowed: a GPU size with InfiniBand, e.g. "
            "Standard_ND96asr_v4, Standard_ND96amsr_A100_v4, Standard_ND96isr_H100_v5, Standard_ND96isr_H200_v5",
        ),
        (
            "{vmSize: Standard_NC24rs_v3}",
            f"{KEY}.vmSize: 'Standard_NC24rs_v3' was retired on 2025-09-30 and can no longer be deployed; "
            "allowed: a current size, e.g. Standard_NC80adis_H100_v5",
        ),
        (
            "{nodeCount: 101}",
            f"{KEY}.nodeCount: 101 nodes; allowed: 0 (parked: no nodes run) to 100 (InfiniBand needs a single "
            "placement group, which holds "
            "at most 100 VMs unless Azure support raises the limit)",
        ),
        (
            "{vnetAddressSpace: 172.16.0.0/12}",
            f"{KEY}.vnetAddressSpace: '172.16.0.0/12' overlaps 172.16.0.0/16, which the InfiniBand network reserves; "
            "allowed: a range outside it, e.g. 10.50.0.0/16",
        ),
        (
            "{subnetPrefix: 172.16.1.0/24}",
            f"{KEY}.subnetPrefix: '172.16.1.0/24' overlaps 172.16.0.0/16, which the InfiniBand network reserves; "
            "allowed: a range outside it, e.g. 10.50.0.0/16",
        ),
        (
            "{zones: [1, 2]}",
            f"{KEY}.zones: ['1', '2'] spans 2 zones; allowed: at most one zone (a proximity placement group, which "
            "InfiniBand nodes share, cannot span zones)",
        ),
        (
            "{workingHours: {start: '1900', end: '0800'}}",
            f"{KEY}.workingHours: end 0800 is not after start 1900; allowed: start and end on the same day, e.g. "
            "0800 to 1900",
        ),
        (
            "{workingHours: {start: '0800', end: '1900', timeZone: Europe/Berlin}}",
            f"{KEY}.workingHours.timeZone: 'Europe/Berlin' is an IANA time zone name (did you mean W. Europe Standard "
            "Time?); allowed: a Windows time zone id, e.g. UTC, W. Europe Standard Time, Eastern Standard Time (all of "
            "them: `tzutil /l` on Windows, or `Get-TimeZone -ListAvailable` in PowerShell)",
        ),
        (
            "{workingHours: {start: '0800', end: '1900', days: [Monday, Funday]}}",
            f"{KEY}.workingHours.days: 'Funday' not a day; allowed: Monday, Tuesday, Wednesday, Thursday, Friday, "
            "Saturday, Sunday",
        ),
        ("{workingHours: {start: '0800'}}", f"{KEY}.workingHours.end: required key is missing"),
    ],
)
def test_training_stack_refuses_a_bad_cluster_with_exit_code_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cluster: str, expected: str
) -> None:
    stack_file = write_stack(tmp_path, cluster)
    code = main(["plan", stack_file])
    captured = capsys.readouterr()

    assert code == 2
    assert captured.err == expected.replace("{file}", stack_file) + "\n"  # names the file actually read
    assert captured.out == ""


def test_training_stack_spot_plans_with_a_warning(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["plan", write_stack(tmp_path, "{spot: true, evictionPolicy: Delete}"), "--json"])
    plan = json.loads(capsys.readouterr().out)

    assert code == 0
    assert resource(plan, VMSS)["inputs"]["virtualMachineProfile"]["priority"] == "Spot"
    assert plan["warnings"] == [
        "TrainingCluster 'train': spot: Spot nodes can be evicted with 30 seconds' notice, and losing one node stops "
        "a tightly-coupled (MPI/NCCL) job on every node; checkpoint often and expect restarts"
    ]


def test_training_stack_component_refusal_also_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The component checks the subnet lies in the VNet; the stack schema delegates to it, so the
    # refusal names the stack file and the key as users write it.
    stack_file = write_stack(tmp_path, "{vnetAddressSpace: 10.50.0.0/16, subnetPrefix: 10.60.0.0/24}")
    code = main(["plan", stack_file])

    assert code == 2
    assert capsys.readouterr().err == (
        f"gpu-stacks: error: {stack_file}: azure-gpu-stacks:trainingCluster.subnetPrefix: '10.60.0.0/24' is not "
        "inside the VNet's address space 10.50.0.0/16\n"
    )
