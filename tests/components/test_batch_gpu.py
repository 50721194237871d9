"""Azure Batch GPU pools: the BatchGpuPool component, the batch-gpu stack, and raw `azure-native:batch` programs
written as teams write them, judged as Azure would judge them (issue 38).

Expected values come from Azure's pages (observed 2026-11-26), written out here: the node agent SKU of Ubuntu
22.04 and the HPC GPU driver extension (learn.microsoft.com/azure/batch/create-pool-extensions), the retirements of
low-priority nodes (2025-09-30), classic node communication (2026-03-31) and Cloud Services pools, the REST spec's
64-character pool id, and the catalog's data file for sizes and prices.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from azure_gpu_stacks.components.checks import ComponentInputError
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.fakeazure import FAKE_SUBSCRIPTION_ID

from tests.conftest import TEST_RG, Recording, in_resource_group
from tests.policy_helpers import catalog_size

ACCOUNT = "azure-native:batch:BatchAccount"
POOL = "azure-native:batch:Pool"
VAULT_ID = f"/subscriptions/{FAKE_SUBSCRIPTION_ID}/resourceGroups/{TEST_RG}/providers/Microsoft.KeyVault/vaults/kvbatch"
T4 = "Standard_NC4as_T4_v3"


def build_pool(**overrides: Any) -> Callable[[], None]:
    def build(rg: Any) -> None:
        import pulumi
        from azure_gpu_stacks.components.batch_gpu_pool import BatchGpuPool

        pool = BatchGpuPool("batch", {"resource_group_name": rg.name, "location": "eastus", **overrides})
        for name in ("account_name", "pool_id", "vm_size", "node_range", "autoscale_formula"):
            pulumi.export(name, getattr(pool, name))

    return in_resource_group(build)


def refusals(rec: Recording) -> list[tuple[str, str]]:
    return [(r.resource, r.code) for r in rec.refusals]


# --- the component ------------------------------------------------------------------------------


def test_batch_pool_defaults_to_ubuntu_t4_nodes_with_the_driver_extension_and_simplified_communication(
    record: Callable[..., Recording],
) -> None:
    rec = record(build_pool())
    pool = rec.inputs(POOL)
    machine = pool["deploymentConfiguration"]["virtualMachineConfiguration"]

    assert rec.refusals == []
    assert pool["vmSize"] == T4
    assert pool["poolName"] == "gpu-pool"
    assert machine["nodeAgentSkuId"] == "batch.node.ubuntu 22.04"
    assert machine["imageReference"]["offer"] == "0001-com-ubuntu-server-jammy"
    assert [(e["publisher"], e["type"]) for e in machine["extensions"]] == [
        ("Microsoft.HpcCompute", "NvidiaGpuDriverLinux")
    ]
    assert pool["targetNodeCommunicationMode"] == "Simplified"
    assert rec.inputs(ACCOUNT).get("poolAllocationMode") == "BatchService"


def test_batch_pool_autoscale_follows_pending_tasks_and_returns_to_zero(record: Callable[..., Recording]) -> None:
    rec = record(build_pool(max_nodes=6))
    scale = rec.inputs(POOL)["scaleSettings"]
    formula = scale["autoScale"]["formula"]

    assert "fixedScale" not in scale
    assert "$PendingTasks" in formula
    assert "$TargetDedicatedNodes = max(0, min($tasks, 6));" in formula
    assert scale["autoScale"]["evaluationInterval"] == "PT5M"  # Batch's shortest interval
    assert rec.outputs["node_range"] == "0..6"
    # the fake reports the nodes the pool keeps when idle: none
    [stored] = [r for r in rec.arm.resources() if r.type == "Microsoft.Batch/batchAccounts/pools"]
    assert stored.outputs["currentDedicatedNodes"] == 0


def test_batch_pool_fixed_scale_keeps_the_nodes_asked_for(record: Callable[..., Recording]) -> None:
    rec = record(build_pool(scale="fixed", fixed_nodes=2))
    scale = rec.inputs(POOL)["scaleSettings"]

    assert "autoScale" not in scale
    assert scale["fixedScale"]["targetDedicatedNodes"] == 2
    assert scale["fixedScale"]["targetLowPriorityNodes"] == 0
    assert rec.outputs["node_range"] == "2..2"


def test_batch_pool_spot_nodes_in_a_user_subscription_account(record: Callable[..., Recording]) -> None:
    def build(rg: Any) -> None:
        from azure_gpu_stacks.components.batch_gpu_pool import BatchGpuPool
        from pulumi_azure_native import keyvault

        keyvault.Vault(
            "kv",
            vault_name="kvbatch",
            resource_group_name=rg.name,
            location="eastus",
            properties=keyvault.VaultPropertiesArgs(
                tenant_id="00000000-0000-0000-0000-0000000000bb",
                sku=keyvault.SkuArgs(family="A", name="standard"),
                enable_rbac_authorization=True,
            ),
        )
        BatchGpuPool(
            "batch",
            {
                "resource_group_name": rg.name,
                "location": "eastus",
                "pool_allocation_mode": "UserSubscription",
                "key_vault_id": VAULT_ID,
                "spot": True,
                "max_nodes": 3,
            },
        )

    rec = record(in_resource_group(build))
    formula = rec.inputs(POOL)["scaleSettings"]["autoScale"]["formula"]

    assert rec.refusals == []
    assert rec.inputs(ACCOUNT)["keyVaultReference"] == {"id": VAULT_ID, "url": "https://kvbatch.vault.azure.net/"}
    assert "$TargetLowPriorityNodes = max(0, min($tasks, 3));" in formula
    assert "$TargetDedicatedNodes = 0;" in formula


def test_batch_pool_accepts_a_64_character_pool_id(record: Callable[..., Recording]) -> None:
    rec = record(build_pool(pool_id="p" * 64))
    assert rec.refusals == []
    assert rec.inputs(POOL)["poolName"] == "p" * 64


def test_batch_pool_reports_every_problem_at_once_before_registering_anything(
    record: Callable[..., Recording], fake_arm: Any
) -> None:
    with pytest.raises(ComponentInputError) as err:
        record(
            build_pool(
                pool_id="p" * 65,
                spot=True,
                vm_size="Standard_NC6s_v3",
                max_nodes=0,
                evaluation_interval="PT1M",
                pool_allocation_mode="UserSubscription",
            )
        )

    problems = dict(err.value.problems)
    assert str(err.value).startswith("BatchGpuPool 'batch': 5 problems:")
    assert problems["pool_id"] == f"{'p' * 65!r}; allowed: 1 to 64 letters, digits, '-' and '_'"
    assert problems["key_vault_id"].startswith("required for a UserSubscription account and missing")
    assert "Standard_NC6s_v3" in problems["vm_size"] and "retired" in problems["vm_size"]
    assert problems["max_nodes"] == "0; allowed: a whole number of nodes, at least 1"
    assert problems["evaluation_interval"].endswith("allowed: PT5M to PT168H")
    assert [r.type for r in fake_arm.resources()] == ["Microsoft.Resources/resourceGroups"]


def test_batch_pool_refuses_spot_in_a_batch_managed_account(record: Callable[..., Recording]) -> None:
    with pytest.raises(ComponentInputError) as err:
        record(build_pool(spot=True))

    [(path, message)] = err.value.problems
    assert path == "spot"
    assert "low-priority nodes, retired on 2025-09-30" in message


# --- the shipped stack --------------------------------------------------------------------------


@pytest.fixture
def plan(shipped_plan_json: Callable[[str], dict[str, Any]]) -> dict[str, Any]:
    return shipped_plan_json("batch-gpu")


def test_batch_stack_plans_clean_and_idles_at_zero_cost(plan: dict[str, Any]) -> None:
    price = catalog_size(T4)["prices"]["eastus"]["payg"]

    assert plan["refusals"] == []
    assert [v for v in plan["violations"] if v["level"] == "mandatory"] == []
    [line] = plan["cost"]["resources"]
    assert (line["size"], line["count"], line["idleCount"]) == (T4, 4, 0)
    assert line["hourlyUsd"] == pytest.approx(4 * price)
    assert plan["cost"]["idleHourlyUsd"] == 0
    assert not [v for v in plan["violations"] if v["policy"] == "require-batch-gpu-scale-to-zero"]


def test_quota_names_the_batch_accounts_own_ledger(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["quota", "batch-gpu", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["quota"]
    family = catalog_size(T4)["quotaFamily"]

    assert {(r["provider"], r["family"], r["needed"]) for r in rows} == {
        ("Microsoft.Batch", family, 16),  # 4 nodes x 4 vCPUs
        ("Microsoft.Batch", "dedicatedCoreQuota", 16),
    }


# --- raw programs, as teams write them ----------------------------------------------------------


def raw_pool(
    *,
    vm_size: str = T4,
    allocation: str | None = None,
    scale: dict[str, Any] | None = None,
    communication: str | None = "Simplified",
    pool_name: str = "gpu-pool",
    deployment: dict[str, Any] | None = None,
) -> Callable[[], None]:
    """The sample's shape: an account, then a pool of one size on Ubuntu with a fixed target."""

    def build(rg: Any) -> None:
        from pulumi_azure_native import batch

        account = batch.BatchAccount(
            "account",
            account_name="teambatch",
            resource_group_name=rg.name,
            location="eastus",
            pool_allocation_mode=allocation,
        )
        batch.Pool(
            "pool",
            account_name=account.name,
            resource_group_name=rg.name,
            pool_name=pool_name,
            vm_size=vm_size,
            deployment_configuration=deployment
            or {
                "virtual_machine_configuration": {
                    "image_reference": {
                        "publisher": "canonical",
                        "offer": "0001-com-ubuntu-server-jammy",
                        "sku": "22_04-lts",
                        "version": "latest",
                    },
                    "node_agent_sku_id": "batch.node.ubuntu 22.04",
                }
            },
            scale_settings=scale or {"fixed_scale": {"target_dedicated_nodes": 1}},
            target_node_communication_mode=communication,
        )

    return in_resource_group(build)


def test_raw_pool_of_a_retired_size_is_sku_not_available(record: Callable[..., Recording]) -> None:
    rec = record(raw_pool(vm_size="Standard_NC6s_v3"))  # the usual sample's size, retired 2025-09-30

    assert refusals(rec) == [("pool", "SkuNotAvailable")]
    assert "Standard_NC6s_v3" in rec.refusals[0].message


def test_raw_pool_of_low_priority_nodes_in_a_batch_managed_account_is_refused(record: Callable[..., Recording]) -> None:
    rec = record(raw_pool(scale={"fixed_scale": {"target_dedicated_nodes": 0, "target_low_priority_nodes": 4}}))

    assert refusals(rec) == [("pool", "InvalidPropertyValue")]
    assert "low-priority nodes were retired on 2025-09-30" in rec.refusals[0].message


def test_raw_pool_of_spot_nodes_in_a_user_subscription_account_needs_its_key_vault(
    record: Callable[..., Recording],
) -> None:
    rec = record(raw_pool(allocation="UserSubscription", scale={"fixed_scale": {"target_low_priority_nodes": 4}}))

    # the account is refused (no Key Vault), so its pool is never attempted
    assert refusals(rec) == [("account", "InvalidParameter")]
    assert "keyVaultReference" in rec.refusals[0].message


def test_raw_pool_with_classic_node_communication_is_refused(record: Callable[..., Recording]) -> None:
    rec = record(raw_pool(communication="Classic"))

    assert refusals(rec) == [("pool", "InvalidPropertyValue")]
    assert "classic node communication was retired on 2026-03-31" in rec.refusals[0].message


def test_raw_pool_in_a_cloud_services_configuration_is_refused(record: Callable[..., Recording]) -> None:
    rec = record(raw_pool(deployment={"cloudServiceConfiguration": {"osFamily": "6"}}))

    assert refusals(rec) == [("pool", "InvalidPropertyValue")]
    assert "Cloud Services configuration pools were retired on 2024-02-29" in rec.refusals[0].message


@pytest.mark.parametrize(("length", "refused"), [(64, []), (65, [("pool", "InvalidPropertyValue")])])
def test_raw_pool_id_over_64_characters_is_refused(
    record: Callable[..., Recording], length: int, refused: list[tuple[str, str]]
) -> None:
    assert refusals(record(raw_pool(pool_name="p" * length))) == refused


# --- diff: a driver extension change replaces the pool ------------------------------------------


def test_diff_of_a_new_driver_version_replaces_the_pool_and_says_why() -> None:
    from azure_gpu_stacks.engine.diff.compare import diff_stack

    from tests.engine.diff.test_diff_units import resource, side

    def pool(version: str) -> Any:
        extension = {"name": "nvidia", "publisher": "Microsoft.HpcCompute", "type": "NvidiaGpuDriverLinux"}
        inputs = {
            "resourceGroupName": "rg",
            "accountName": "teambatch",
            "poolName": "gpu-pool",
            "vmSize": T4,
            "deploymentConfiguration": {
                "virtualMachineConfiguration": {
                    "nodeAgentSkuId": "batch.node.ubuntu 22.04",
                    "extensions": [{**extension, "typeHandlerVersion": version}],
                }
            },
        }
        return resource("gpu-pool", POOL, inputs, parent="azure-gpu-stacks:index:BatchGpuPool")

    d = diff_stack("dev", side(pool("1.6")), side(pool("1.7")))

    [replaced] = d.replaced
    [change] = replaced.changes
    assert change.path == "deploymentConfiguration.virtualMachineConfiguration.extensions[0].typeHandlerVersion"
    assert change.forces is not None and "create-pool-extensions" in change.forces.source


# --- the stack with one default changed ---------------------------------------------------------


def test_batch_stack_at_fixed_scale_bills_idle_and_is_reported(
    capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    from tests.e2e.test_check_cli import stack_copy

    def fixed(config: dict[str, Any]) -> None:
        config["azure-gpu-stacks:batchGpuPool"].update(scale="fixed", fixedNodes=2)

    path = stack_copy(tmp_path, "batch-gpu", fixed)
    assert main(["plan", path, "--json"]) == 0
    plan = json.loads(capsys.readouterr().out)
    price = catalog_size(T4)["prices"]["eastus"]["payg"]

    assert plan["cost"]["idleHourlyUsd"] == pytest.approx(2 * price)
    assert "azure-gpu-stacks:batchGpuPool.fixedNodes: 2 nodes run, and bill, even when no task does" in plan["warnings"]
    [note] = [v for v in plan["violations"] if v["policy"] == "require-batch-gpu-scale-to-zero"]
    assert note["level"] == "advisory"
    assert f"about {2 * price * 24:,.2f} USD for every day no task runs" in note["message"]


def test_batch_stack_with_spot_in_a_batch_managed_account_exits_2_naming_the_key(
    capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    from tests.e2e.test_check_cli import stack_copy

    path = stack_copy(tmp_path, "batch-gpu", lambda c: c["azure-gpu-stacks:batchGpuPool"].update(spot=True))

    assert main(["plan", path]) == 2
    err = capsys.readouterr().err
    assert "azure-gpu-stacks:batchGpuPool.spot: true in a BatchService account" in err
    assert "Traceback" not in err


# --- quota: the Batch account's own ledger ------------------------------------------------------


def account_file(tmp_path: Any, **fields: Any) -> str:
    """What `az batch account show -o json` writes for a new Batch-managed account with no GPU cores (the case
    batch-quota-limit warns of), with `fields` changed."""
    family = catalog_size(T4)["quotaFamily"]
    data = {
        "name": "teambatch",
        "poolAllocationMode": "BatchService",
        "dedicatedCoreQuota": 500,
        "lowPriorityCoreQuota": 100,
        "dedicatedCoreQuotaPerVMFamilyEnforced": True,
        "dedicatedCoreQuotaPerVMFamily": [
            {"name": "standardDSv3Family", "coreQuota": 500},
            {"name": family, "coreQuota": 0},
        ],
        **fields,
    }
    path = tmp_path / "batch-account.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_quota_judges_the_pool_against_the_batch_accounts_family_quota(
    capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    code = main(["quota", "batch-gpu", "--batch-account", account_file(tmp_path), "--format", "json"])
    rows = {r["family"]: (r["needed"], r["limit"], r["verdict"]) for r in json.loads(capsys.readouterr().out)["quota"]}

    assert code == 1
    assert rows == {catalog_size(T4)["quotaFamily"]: (16, 0, "short"), "dedicatedCoreQuota": (16, 500, "ok")}


def test_quota_with_enough_batch_account_quota_exits_0(capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    family = catalog_size(T4)["quotaFamily"]
    path = account_file(tmp_path, dedicatedCoreQuotaPerVMFamily=[{"name": family, "coreQuota": 16}])

    assert main(["quota", "batch-gpu", "--batch-account", path]) == 0
    assert "OK: batch-gpu: the quota holds the stack at full scale." in capsys.readouterr().out


def test_quota_refuses_a_user_subscription_accounts_file(capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    path = account_file(tmp_path, poolAllocationMode="UserSubscription")

    assert main(["quota", "batch-gpu", "--batch-account", path]) == 2
    err = capsys.readouterr().err
    assert "poolAllocationMode: 'UserSubscription' accounts have no core quota of their own" in err
    assert "Traceback" not in err


def test_quota_of_a_user_subscription_pool_names_the_subscriptions_quota(
    capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    from tests.e2e.test_check_cli import stack_copy

    vault = f"/subscriptions/{FAKE_SUBSCRIPTION_ID}/resourceGroups/rg-keys/providers/Microsoft.KeyVault/vaults/kvbatch"

    def user_subscription(config: dict[str, Any]) -> None:
        config["azure-gpu-stacks:batchGpuPool"].update(
            poolAllocationMode="UserSubscription", keyVaultId=vault, spot=True
        )

    path = stack_copy(tmp_path, "batch-gpu", user_subscription)
    # the vault is the team's own, in a group the program does not create: offline it is saved as `az resource show
    # --ids VAULT -o json` prints it (Microsoft.KeyVault/vaults) and passed with --existing, as the error line asks
    saved = tmp_path / "vault.json"
    saved.write_text(
        json.dumps(
            {
                "id": vault,
                "name": "kvbatch",
                "type": "Microsoft.KeyVault/vaults",
                "location": "eastus",
                "properties": {
                    "tenantId": "00000000-0000-0000-0000-000000000001",
                    "sku": {"family": "A", "name": "standard"},
                },
            }
        )
    )
    assert main(["quota", path, "--format", "json"]) == 2  # without it, one line: what to save
    assert "kvbatch -o json > FILE` and pass --existing FILE" in capsys.readouterr().err
    assert main(["quota", path, "--format", "json", "--existing", str(saved)]) == 0
    rows = {(r["provider"], r["family"], r["needed"]) for r in json.loads(capsys.readouterr().out)["quota"]}

    # Spot nodes of a user-subscription account: the subscription's one regional Spot counter
    assert rows == {("Microsoft.Compute", "lowPriorityCores", 16)}


# --- how many nodes a pool's formula asks for (cost and quota read it) --------------------------


@pytest.mark.parametrize(
    ("formula", "full", "idle"),
    [
        ("$TargetDedicatedNodes = min(4, $PendingTasks.GetSample(1));", 4, 0),
        ("$TargetDedicatedNodes = max(0, min($PendingTasks.GetSample(1), 8));", 8, 0),
        ("$TargetDedicatedNodes = max(2, min($PendingTasks.GetSample(1), 8));", 8, 2),
        ("$TargetDedicatedNodes=1", 1, 1),  # the REST spec's "CreatePool - Full VirtualMachineConfiguration"
        ("// no target at all\n$NodeDeallocationOption = taskcompletion;", 0, 0),
    ],
)
def test_a_pool_is_counted_at_its_formulas_cap_and_idles_at_its_floor(formula: str, full: int, idle: int) -> None:
    from azure_gpu_stacks.catalog.shapes import read

    props = {"vmSize": T4, "scaleSettings": {"autoScale": {"formula": formula}}}
    [dedicated, _] = read(POOL, props)
    assert (dedicated.full_count, dedicated.idle_count, dedicated.priority) == (full, idle, "Regular")


def test_a_formula_of_a_long_chain_of_variables_is_read_without_recursion() -> None:
    from azure_gpu_stacks.catalog.batch_formula import read_formula

    chain = "".join(f"$a{i + 1} = $a{i};" for i in range(50_000))
    formula = f"$a0 = $PendingTasks.GetSample(1);{chain}$TargetDedicatedNodes = min($a50000, 3);"

    reading = read_formula(formula, "$TargetDedicatedNodes")
    assert (reading.follows_tasks, reading.idle, reading.cap) == (True, 0, 3)
