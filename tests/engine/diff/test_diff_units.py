"""The parts of `gpu-stacks diff` that need no plan: matching, renames, secrets, acknowledgements,
the create-only table, renamed stack files, and reading the toolkit's components from BASE."""

from __future__ import annotations

import importlib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.catalog.clock import utc_today
from azure_gpu_stacks.catalog.create_only import TABLE, create_only
from azure_gpu_stacks.engine.diff.compare import Side, diff_stack
from azure_gpu_stacks.engine.diff.report import stack_text
from azure_gpu_stacks.engine.diff.revision import toolkit_from
from azure_gpu_stacks.engine.diff.run import _pairs
from azure_gpu_stacks.engine.run.plan import Plan
from azure_gpu_stacks.engine.run.project import load_project
from azure_gpu_stacks.engine.run.runtime import RecordedResource
from azure_gpu_stacks.fakeazure.models import RESOURCE_TYPES

from tests.conftest import REPO

POOL = "azure-native:containerservice:AgentPool"
VM = "azure-native:compute:VirtualMachine"
SECRET_KEY = {"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270"}

DAY = utc_today()


def resource(name: str, type_: str, inputs: dict[str, Any], stack: str = "dev", parent: str = "") -> RecordedResource:
    qualified = f"{parent}${type_}" if parent else type_
    return RecordedResource(f"urn:pulumi:{stack}::proj::{qualified}::{name}", type_, name, None, True, False, inputs)


def side(*resources: RecordedResource, stack: str = "dev") -> Side:
    return Side(
        Plan("proj", stack, f"stacks/Pulumi.{stack}.yaml", list(resources), {}, set(), [], [], [], [], DAY), "eastus"
    )


def pool(name: str, size: str = "Standard_NC4as_T4_v3", stack: str = "dev", **extra: Any) -> RecordedResource:
    inputs = {
        "resourceGroupName": "rg",
        "resourceName": "aks",
        "agentPoolName": "gpu",
        "vmSize": size,
        "enableAutoScaling": True,
        "minCount": 0,
        "maxCount": 3,
        **extra,
    }
    return resource(name, POOL, inputs, stack=stack, parent="azure-gpu-stacks:index:AksGpuPool")


def test_diff_rename_without_alias_is_a_replacement_with_the_alias_hint() -> None:
    d = diff_stack("dev", side(pool("gpu-pool")), side(pool("gpu-pool-a")))
    assert (len(d.added), len(d.removed), len(d.replaced)) == (0, 0, 1)
    assert "\n".join(stack_text(d)) == (
        "dev: +0 ~0 -0, replaces 1, +0.00 USD/month busy, +0.00 idle\n"
        "  +- gpu-pool-a [azure-native:containerservice:AgentPool] replace\n"
        "       renamed from gpu-pool without an alias; an alias keeps it: "
        "opts=pulumi.ResourceOptions(aliases=[pulumi.Alias(name='gpu-pool')])\n"
        "  cost: busy 0.00 -> 0.00 USD/month (+0.00); idle 0.00 -> 0.00 (+0.00)"
    )
    assert d.problems == ["1 unacknowledged GPU pool/cluster replacement"]


def test_diff_unrelated_new_and_old_resources_are_an_add_and_a_remove() -> None:
    old = resource(
        "vm-a", VM, {"hardwareProfile": {"vmSize": "Standard_D4s_v5"}, "location": "eastus", "tags": {"a": "1"}}
    )
    new = resource(
        "vm-b", VM, {"hardwareProfile": {"vmSize": "Standard_D8s_v5"}, "location": "westus2", "tags": {"b": "2"}}
    )
    d = diff_stack("dev", side(old), side(new))
    assert ([r.name for r in d.added], [r.name for r in d.removed], d.replaced) == (["vm-b"], ["vm-a"], [])


def test_diff_secret_change_is_shown_as_secret_on_both_sides() -> None:
    def vm(key: str) -> RecordedResource:
        ssh = {
            **SECRET_KEY,
            "value": {"publicKeys": [{"keyData": key, "path": "/home/azureuser/.ssh/authorized_keys"}]},
        }
        return resource("vm", VM, {"osProfile": {"adminUsername": "azureuser", "linuxConfiguration": {"ssh": ssh}}})

    d = diff_stack("dev", side(vm("ssh-ed25519 AAAAold")), side(vm("ssh-ed25519 AAAAnew")))
    assert [(c.path, c.old, c.new) for c in d.updated[0].changes] == [
        ("osProfile.linuxConfiguration.ssh", "[secret]", "[secret]")
    ]
    assert "AAAA" not in "\n".join(stack_text(d))


@pytest.mark.parametrize("how", ["flag", "annotation"])
def test_diff_gpu_pool_replacement_acknowledged_passes(how: str) -> None:
    urn = pool("gpu-pool").urn
    allowed = [urn] if how == "flag" else []
    text = f"config: {{}}\n# gpu-stacks: allow-replace {urn}\n" if how == "annotation" else ""
    d = diff_stack(
        "dev",
        side(pool("gpu-pool")),
        side(pool("gpu-pool", "Standard_NC8as_T4_v3")),
        allowed=allowed,
        stack_file_text=text,
    )
    assert [c.acknowledged for c in d.gpu_replacements] == [True]
    assert d.problems == []


def test_diff_node_count_of_a_pool_is_an_update_not_a_gpu_replacement() -> None:
    d = diff_stack("dev", side(pool("gpu-pool")), side(pool("gpu-pool", maxCount=5)))
    assert [(c.name, [(p.path, p.old, p.new, p.forces) for p in c.changes]) for c in d.updated] == [
        ("gpu-pool", [("maxCount", 3, 5, None)])
    ]
    assert (d.replaced, d.problems) == ([], [])


def test_diff_renamed_stack_matches_resources_without_the_stack_name() -> None:
    d = diff_stack("dev2", side(pool("gpu-pool"), stack="dev"), side(pool("gpu-pool", stack="dev2"), stack="dev2"))
    assert (d.status, d.base_stack, d.unchanged, d.replaced) == ("renamed", "dev", 1, [])


@pytest.mark.parametrize(
    ("type_", "path", "replaces"),
    [
        (POOL, "vmSize", True),
        (POOL, "gpuInstanceProfile", True),
        (POOL, "maxCount", False),
        ("azure-native:containerservice:ManagedCluster", "agentPoolProfiles[0].vmSize", True),
        ("azure-native:containerservice:ManagedCluster", "agentPoolProfiles[0].count", False),
        ("azure-native:containerservice:ManagedCluster", "networkProfile.podCidr", True),
        ("azure-native:compute:VirtualMachineScaleSet", "sku.capacity", False),
        ("azure-native:compute:VirtualMachineScaleSet", "orchestrationMode", True),
        ("azure-native:compute:VirtualMachineScaleSet", "zones[0]", True),
        (VM, "storageProfile.imageReference.sku", True),
        (VM, "hardwareProfile.vmSize", False),
        ("azure-native:machinelearningservices:Compute", "properties.properties.vmSize", True),
        ("azure-native:machinelearningservices:Compute", "properties.properties.scaleSettings.maxNodeCount", False),
        ("azure-native:network:Subnet", "location", True),
        ("azure-native:monitor:AutoscaleSetting", "targetResourceUri", True),
        ("azure-native:monitor:AutoscaleSetting", "profiles[1].capacity.minimum", False),
    ],
)
def test_create_only_table_decides_replace_or_update(type_: str, path: str, replaces: bool) -> None:
    assert (create_only(type_, path) is not None) == replaces


def test_create_only_table_covers_every_azure_type_the_toolkit_registers_with_a_source() -> None:
    covered = {row.type for row in TABLE}
    assert sorted(set(RESOURCE_TYPES) - covered) == []
    assert all(row.source and row.how in ("provider", "refused") for row in TABLE)


def write_project(root: Path, stacks: dict[str, str]) -> None:
    (root / "stacks").mkdir(parents=True)
    (root / "__main__.py").write_text("", encoding="utf-8")
    (root / "Pulumi.yaml").write_text("name: proj\nruntime: python\nstackConfigDir: stacks\n", encoding="utf-8")
    for name, text in stacks.items():
        (root / "stacks" / f"Pulumi.{name}.yaml").write_text(text, encoding="utf-8")


def test_diff_stack_files_renamed_removed_and_added_are_told_apart(tmp_path: Path) -> None:
    training = (
        "config:\n  azure-native:location: eastus\n  proj:trainingCluster:\n    vmSize: Standard_ND96asr_v4\n"
        "    nodeCount: 2\n"
    )
    old = "config:\n  azure-native:location: westus2\n  proj:amlCluster:\n    computeName: a100\n    maxNodeCount: 4\n"
    new = "config:\n  proj:aksGpuPool:\n    poolName: gpu\n    minCount: 0\n    maxCount: 3\n"
    write_project(tmp_path / "base", {"train": training, "old": old})
    write_project(tmp_path / "head", {"train-eu": training.replace("eastus", "westeurope"), "new": new})
    pairs = _pairs(load_project(tmp_path / "base"), load_project(tmp_path / "head"), [])
    assert pairs == [(None, "new"), ("old", None), ("train", "train-eu")]


def test_toolkit_from_reads_the_base_copy_then_the_installed_one_again(tmp_path: Path) -> None:
    import azure_gpu_stacks.components.version as installed

    base = tmp_path / "components"
    base.mkdir()
    (base / "__init__.py").write_text("", encoding="utf-8")
    (base / "version.py").write_text('__version__ = "0.0.1-base"\n', encoding="utf-8")
    with toolkit_from({"azure_gpu_stacks.components": base}):
        at_base = importlib.import_module("azure_gpu_stacks.components.version")
        assert at_base.__version__ == "0.0.1-base"
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module("azure_gpu_stacks.components.gpu_vm")  # BASE has no such module
        # a package BASE does not map stays the installed one
        assert importlib.import_module("azure_gpu_stacks.stack.sections").__file__.startswith(str(REPO))
    again = importlib.import_module("azure_gpu_stacks.components.version")
    assert again is installed


def test_diff_markdown_of_50_stacks_keeps_one_line_per_changed_stack_above_the_details() -> None:
    from azure_gpu_stacks.engine.diff.markdown import render_markdown
    from azure_gpu_stacks.engine.diff.revision import Revision
    from azure_gpu_stacks.engine.diff.run import DiffReport

    stacks = []
    for i in range(50):
        name = f"team{i:02d}"
        before = side(pool("gpu-pool", stack=name), stack=name)
        after = side(pool("gpu-pool", stack=name, maxCount=3 + (i % 5 == 0)), stack=name)
        stacks.append(diff_stack(name, before, after))
    comment = render_markdown(DiffReport(Revision("origin/main", "0" * 40), stacks))
    top = comment.split("\n\n<details>")[0].splitlines()
    assert len(top) == 4 + 3 + 10 + 2  # header, table head, a row per changed stack, the unchanged line
    assert top[-1] == "Unchanged (40): " + ", ".join(f"`team{i:02d}`" for i in range(50) if i % 5)
    assert comment.count("<details><summary><code>") == 10  # one fold per changed stack
    assert comment.count("```mermaid") == 10  # and inside it, the stack drawn


def test_diff_quota_delta_per_family_against_the_usage_file() -> None:
    from azure_gpu_stacks.catalog.az_files import Usage, family_key

    usage = {
        family_key("standardNCASv3_T4Family"): Usage("standardNCASv3_T4Family", current=4, limit=24),
        family_key("cores"): Usage("cores", current=10, limit=100),
    }
    d = diff_stack("dev", side(pool("gpu-pool")), side(pool("gpu-pool", maxCount=6)), usage=usage)
    assert [q.to_json() for q in d.quota] == [
        {
            "region": "eastus",
            "family": "standardNCASv3_T4Family",
            "before": 12,
            "after": 24,
            "limit": 24,
            "used": 4,
            "free": 20,
            "fits": False,
        },
        {
            "region": "eastus",
            "family": "cores",
            "before": 12,
            "after": 24,
            "limit": 100,
            "used": 10,
            "free": 90,
            "fits": True,
        },
    ]
    assert stack_text(d)[-2:] == [
        "  quota standardNCASv3_T4Family in eastus: 12 -> 24 vCPUs (free 20: SHORT)",
        "  quota cores in eastus: 12 -> 24 vCPUs (free 90: fits)",
    ]


def test_diff_new_refusal_fails_and_a_resolved_one_is_reported() -> None:
    from azure_gpu_stacks.fakeazure import Refusal

    def refused(code: str) -> Side:
        s = side(pool("gpu-pool"))
        return replace(s, plan=replace(s.plan, refusals=(Refusal("gpu-pool", POOL, code, f"{code} message"),)))

    d = diff_stack("dev", refused("QuotaExceeded"), refused("SkuNotAvailable"))
    assert [r.code for r in d.new_refusals] == ["SkuNotAvailable"]
    assert [r.code for r in d.resolved_refusals] == ["QuotaExceeded"]
    assert d.problems == ["1 new Azure refusal"]
    assert stack_text(d)[-2:] == [
        "  new refusal: gpu-pool [azure-native:containerservice:AgentPool]: SkuNotAvailable: SkuNotAvailable message",
        "  resolved refusal: gpu-pool [azure-native:containerservice:AgentPool]: QuotaExceeded: QuotaExceeded message",
    ]


def test_diff_json_of_a_removed_stack_writes_its_money_as_decimals() -> None:
    # The diff's figures are the plans' (to the cent); a side that is gone costs 0.0, as JSON readers expect.
    import json

    d = diff_stack("dev", side(pool("gpu-pool")), None)

    text = json.dumps(d.to_json()["cost"])
    assert '"busyMonthlyUsdAfter": 0.0' in text and '"idleMonthlyUsdAfter": 0.0' in text
    assert d.cost.busy_before == 0.0 and d.to_json()["violations"] == {"new": [], "resolved": []}
