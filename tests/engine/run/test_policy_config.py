"""`--policy-config`: levels resolve as `pulumi preview --policy-pack-config` resolves them."""

from __future__ import annotations

from pathlib import Path

import yaml
from azure_gpu_stacks.catalog.clock import utc_today
from azure_gpu_stacks.engine.run.plan import plan_stack
from azure_gpu_stacks.engine.run.policy_config import PolicySettings, resolve
from azure_gpu_stacks.engine.run.policy_run import pack_policies
from azure_gpu_stacks.engine.run.project import load_project

from tests.conftest import REPO


def test_policy_config_levels_resolve_named_then_all_then_own() -> None:
    settings = resolve(
        list(pack_policies()),
        {
            "all": "advisory",
            "require-cost-alerts": {"enforcementLevel": "disabled"},
            "warn-retiring-vm-sizes": {"retiringWindowDays": 30},
        },
    )

    assert settings["require-cost-alerts"] == PolicySettings("disabled", {})
    assert settings["warn-retiring-vm-sizes"] == PolicySettings("advisory", {"retiringWindowDays": 30})
    assert settings["disallow-retired-vm-sizes"].level == "advisory"


def test_policy_config_without_a_file_keeps_each_policy_level() -> None:
    settings = resolve(list(pack_policies()))

    assert settings["disallow-retired-vm-sizes"].level == "mandatory"
    assert settings["warn-unknown-vm-sizes"].level == "advisory"


def test_preview_plan_of_the_t4_stack_passes_with_unknown_ids() -> None:
    # In preview the budget's scope and every resourceGroupName (the resource group's id and name)
    # are unknown; the pack traces them to the stack's resource group instead of failing them.
    plan = plan_stack(load_project(REPO), "inference-t4", preview=True, day=utc_today())

    # only the one advisory every plan of this stack has: its VM runs without encryption at host
    assert [(v.policy, v.level) for v in plan.violations] == [("warn-gpu-host-without-encryption-at-host", "advisory")]


def test_preview_plan_without_a_budget_still_fails(tmp_path: Path) -> None:
    data = yaml.safe_load((REPO / "stacks" / "Pulumi.inference-t4.yaml").read_text(encoding="utf-8"))
    del data["config"]["azure-gpu-stacks:costAlert"]
    path = tmp_path / "Pulumi.inference-t4.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")

    plan = plan_stack(load_project(REPO), str(path), preview=True, day=utc_today())

    mandatory = [(v.policy, v.resource) for v in plan.violations if v.level == "mandatory"]
    assert mandatory == [("require-cost-alerts", "gpu-vm-vm")]
