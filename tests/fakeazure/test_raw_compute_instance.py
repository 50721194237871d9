"""Raw Pulumi programs with `machinelearningservices:Compute` (ComputeInstance), as teams write them: judged by the
fake ARM and the pack as Azure and `pulumi preview --policy-pack` would judge them.

Facts (observed 2026-11-26): Learn, "Create an Azure Machine Learning compute instance"
(https://learn.microsoft.com/azure/machine-learning/how-to-create-compute-instance): idle shutdown from 15 minutes to
3 days; Azure ML refuses a request with the code UserError, HTTP 400.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.engine.cli import main

# A team's dev box: a workspace with its dependencies and a T4 compute instance, written from Learn's ARM quickstart
# shape; `idle` is the line each test changes.
PROGRAM = """
import pulumi
from pulumi_azure_native import applicationinsights, keyvault, machinelearningservices as ml, resources, storage

rg = resources.ResourceGroup("rg", resource_group_name="rg-ml-dev", location="eastus")
st = storage.StorageAccount("st", account_name="stmldev001", resource_group_name=rg.name, kind="StorageV2",
                            sku=storage.SkuArgs(name="Standard_LRS"))
kv = keyvault.Vault("kv", vault_name="kv-ml-dev-001", resource_group_name=rg.name,
                    properties=keyvault.VaultPropertiesArgs(tenant_id="00000000-0000-0000-0000-0000000000bb",
                                                            sku=keyvault.SkuArgs(family="A", name="standard")))
ws = ml.Workspace("ws", workspace_name="ml-dev", resource_group_name=rg.name, storage_account=st.id,
                  key_vault=kv.id, identity=ml.ManagedServiceIdentityArgs(type="SystemAssigned"))
ml.Compute(
    "devbox",
    compute_name="ana-devbox",
    resource_group_name=rg.name,
    workspace_name=ws.name,
    properties=ml.ComputeInstanceArgs(
        compute_type="ComputeInstance",
        properties=ml.ComputeInstancePropertiesArgs(
            vm_size="Standard_NC4as_T4_v3",
            IDLE
        ),
    ),
)
"""


def project(tmp_path: Path, idle: str) -> Path:
    (tmp_path / "Pulumi.yaml").write_text("name: ml-dev\nruntime: python\n", encoding="utf-8")
    (tmp_path / "__main__.py").write_text(PROGRAM.replace("IDLE", idle), encoding="utf-8")
    (tmp_path / "Pulumi.dev.yaml").write_text("config:\n  azure-native:location: eastus\n", encoding="utf-8")
    return tmp_path


def policies_violated(plan: dict[str, Any]) -> list[str]:
    """The mandatory policies a plan violates, sorted."""
    return sorted({v["policy"] for v in plan["violations"] if v["level"] == "mandatory"})


def check(capsys: pytest.CaptureFixture[str], root: Path) -> tuple[int, dict[str, Any]]:
    code = main(["check", "--project", str(root), "--format", "json"])
    [plan] = json.loads(capsys.readouterr().out)["stacks"]
    return code, plan


def test_a_gpu_instance_that_never_stops_is_refused_by_the_policy(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, plan = check(capsys, project(tmp_path, ""))
    found = [v for v in plan["violations"] if v["policy"] == "require-aml-gpu-instance-shutdown"]

    assert code == 1
    assert [(v["level"], v["resource"]) for v in found] == [("mandatory", "devbox")]
    assert policies_violated(plan) == ["require-aml-gpu-instance-shutdown", "require-cost-alerts"]
    assert plan["refusals"] == []


def test_a_gpu_instance_with_idle_shutdown_passes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    _, plan = check(capsys, project(tmp_path, 'idle_time_before_shutdown="PT1H",'))

    assert policies_violated(plan) == ["require-cost-alerts"]  # the program has no budget: not this policy's matter
    assert plan["refusals"] == []


def test_a_gpu_instance_stopping_on_a_schedule_passes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    stop = (
        'schedules=ml.ComputeSchedulesArgs(compute_start_stop=[ml.ComputeStartStopScheduleArgs(action="Stop", '
        'trigger_type="Cron", cron=ml.CronArgs(expression="0 19 * * 1-5", time_zone="UTC"), status="Enabled")]),'
    )
    _, plan = check(capsys, project(tmp_path, stop))

    assert policies_violated(plan) == ["require-cost-alerts"]
    assert plan["refusals"] == []


@pytest.mark.parametrize(
    ("idle", "seconds"), [("PT10M", 600), ("P7D", 604800)], ids=["under-15-minutes", "over-3-days"]
)
def test_an_idle_time_outside_azures_range_is_refused_with_user_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, idle: str, seconds: int
) -> None:
    _, plan = check(capsys, project(tmp_path, f'idle_time_before_shutdown="{idle}",'))
    [refusal] = plan["refusals"]

    assert (refusal["resource"], refusal["code"]) == ("devbox", "UserError")
    assert f"'{idle}' ({seconds} seconds) is out of range; allowed: PT15M to P3D" in refusal["message"]


def test_an_instance_without_a_public_ip_needs_a_subnet_or_a_managed_network(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # The workspace above has no managed network and the instance no subnet (Learn, same page, "No public IP").
    _, plan = check(capsys, project(tmp_path, 'idle_time_before_shutdown="PT1H", enable_node_public_ip=False,'))
    [refusal] = plan["refusals"]

    # Azure ML answers its validation errors with UserError (HTTP 400): fakeazure/errors.py
    assert (refusal["resource"], refusal["code"]) == ("devbox", "UserError")
    assert "nodes without public IPs need a subnet" in refusal["message"]
