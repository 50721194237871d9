"""The fake ARM's Microsoft.Batch (fakeazure/models/batch.py), in process: each refusal a Batch account or pool PUT
meets, on the day each retirement begins, and what Azure answers for a pool it accepts.

Expected values are the sources' (observed 2026-11-27): the REST spec's examples (Azure/azure-rest-api-specs
specification/batch/resource-manager/Microsoft.Batch/stable/2024-07-01/examples: BatchAccountCreate_Default.json at
89310f552e7e, BatchAccountCreate_BYOS.json at 3873f33d7b91, PoolCreate_MinimalVirtualMachineConfiguration.json at
39af66030c28) and BatchManagement.json's name patterns; Learn's retirement pages for the days (low-priority nodes
2025-09-30, classic node communication 2026-03-31, Cloud Services pools 2024-02-29), "Automatically scale compute nodes
in an Azure Batch pool" for the evaluation interval (5 minutes to 168 hours) and "Azure Private Endpoint private DNS
zone values" for the node management endpoint's zone.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.fakeazure.errors import ArmError

GROUP = "default-azurebatch-japaneast"
TODAY = dt.date(2026, 11, 27)
# PoolCreate_MinimalVirtualMachineConfiguration.json's image, with the node agent SKU Batch lists for it
MACHINE = {
    "imageReference": {"publisher": "Canonical", "offer": "UbuntuServer", "sku": "18.04-LTS", "version": "latest"},
    "nodeAgentSkuId": "batch.node.ubuntu 18.04",
}
VAULT_NAME = "sample"


def _arm(day: dt.date = TODAY) -> FakeArm:
    arm = FakeArm(default_location="japaneast", now=dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC))
    arm.put("azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": GROUP, "location": "japaneast"}, "rg")
    return arm


def _group_id(arm: FakeArm) -> str:
    return f"/subscriptions/{arm.subscription_id}/resourceGroups/{GROUP}"


def _vault(arm: FakeArm) -> str:
    vault = {
        "resourceGroupName": GROUP,
        "vaultName": VAULT_NAME,
        "properties": {"tenantId": arm.tenant_id, "sku": {"family": "A", "name": "standard"}},
    }
    return arm.put("azure-native:keyvault:Vault", "kv", vault, "urn:kv").id


def _account(arm: FakeArm, name: str = "sampleacct", **properties: Any) -> dict[str, Any]:
    inputs = {"resourceGroupName": GROUP, "accountName": name, **properties}
    return arm.put("azure-native:batch:BatchAccount", name, inputs, f"urn:account:{name}").outputs


def _pool(arm: FakeArm, name: str = "testpool", account: str = "sampleacct", **properties: Any) -> dict[str, Any]:
    inputs = {
        "resourceGroupName": GROUP,
        "accountName": account,
        "poolName": name,
        "vmSize": "STANDARD_D4",
        "deploymentConfiguration": {"virtualMachineConfiguration": MACHINE},
        **properties,
    }
    return arm.put("azure-native:batch:Pool", name, inputs, f"urn:pool:{name}").outputs


def _refusal(call: Any, *args: Any, **kwargs: Any) -> ArmError:
    with pytest.raises(ArmError) as refused:
        call(*args, **kwargs)
    return refused.value


def _user_subscription_account(arm: FakeArm) -> dict[str, Any]:
    vault = _vault(arm)
    reference = {"id": vault, "url": f"https://{VAULT_NAME}.vault.azure.net/"}
    return _account(arm, "byosacct", poolAllocationMode="UserSubscription", keyVaultReference=reference)


# --- accounts ------------------------------------------------------------------------------------------------------


def test_a_new_account_answers_as_the_spec_s_example_does() -> None:
    # BatchAccountCreate_Default.json: sampleacct in japaneast, no allocation mode asked
    out = _account(_arm())

    assert out["accountEndpoint"] == "sampleacct.japaneast.batch.azure.com"
    # Learn, "Azure Private Endpoint private DNS zone values": Batch's nodeManagement zone is
    # {regionName}.service.batch.azure.com
    assert out["nodeManagementEndpoint"].endswith(".japaneast.service.batch.azure.com")
    assert (out["provisioningState"], out["poolAllocationMode"]) == ("Succeeded", "BatchService")


def test_a_user_subscription_account_keeps_its_mode() -> None:
    # BatchAccountCreate_BYOS.json answers poolAllocationMode UserSubscription
    assert _user_subscription_account(_arm())["poolAllocationMode"] == "UserSubscription"


@pytest.mark.parametrize("name", ["Sampleacct", "sample-acct", "ab", "a" * 25])
def test_an_account_name_outside_the_spec_s_pattern_is_refused(name: str) -> None:
    # BatchManagement.json: accountName ^[a-z0-9]+$, 3 to 24 characters
    error = _refusal(_account, _arm(), name)

    assert (error.code, error.message) == (
        "InvalidParameter",
        f"'{name}' is not a valid Batch account name; allowed: 3 to 24 lower-case letters and digits.",
    )


@pytest.mark.parametrize("name", ["abc", "a" * 24, "sampleacct01"])
def test_an_account_name_inside_the_spec_s_pattern_is_accepted(name: str) -> None:
    assert _account(_arm(), name)["provisioningState"] == "Succeeded"


def test_a_user_subscription_account_without_a_key_vault_reference_is_refused() -> None:
    # Learn, "Create a Batch account in the Azure portal", user subscription mode: a Key Vault is required
    arm = _arm()
    error = _refusal(_account, arm, poolAllocationMode="UserSubscription")
    empty = _refusal(_account, arm, poolAllocationMode="UserSubscription", keyVaultReference={"url": "https://x/"})

    assert error.code == empty.code == "InvalidParameter"
    assert error.message == (
        "Batch account 'sampleacct': poolAllocationMode UserSubscription needs keyVaultReference (the id and url of a "
        "Key Vault), and Azure Batch's access to the subscription "
        "(https://learn.microsoft.com/azure/batch/batch-account-create-portal)."
    )


def test_a_key_vault_reference_must_name_a_vault_that_exists() -> None:
    arm = _arm()
    missing = f"{_group_id(arm)}/providers/Microsoft.KeyVault/vaults/nosuchvault"
    storage = {"resourceGroupName": GROUP, "accountName": "samplestorage", "sku": {"name": "Standard_LRS"}}
    not_a_vault = arm.put("azure-native:storage:StorageAccount", "st", {**storage, "kind": "StorageV2"}, "urn:st").id

    gone = _refusal(_account, arm, keyVaultReference={"id": missing, "url": "https://nosuchvault.vault.azure.net/"})
    wrong = _refusal(_account, arm, keyVaultReference={"id": not_a_vault, "url": "https://x.vault.azure.net/"})

    assert (gone.code, gone.message) == (
        "ResourceNotFound",
        f"The Resource '{missing}' was not found (keyVaultReference.id).",
    )
    assert (wrong.code, wrong.message) == (
        "InvalidParameter",
        f"keyVaultReference.id: '{not_a_vault}' is a Microsoft.Storage/storageAccounts, not a "
        "Microsoft.KeyVault/vaults.",
    )


# --- pools ---------------------------------------------------------------------------------------------------------


def test_a_minimal_pool_answers_the_spec_s_defaults_and_its_account_s_nodes() -> None:
    # PoolCreate_MinimalVirtualMachineConfiguration.json: `$TargetDedicatedNodes=1` every PT5M; Azure answers
    # interNodeCommunication Disabled, one task slot per node, Spread scheduling (the fake holds the pool steady at
    # what its formula keeps, where Azure's example shows it still resizing)
    arm = _arm()
    _account(arm)
    out = _pool(arm, scaleSettings={"autoScale": {"formula": "$TargetDedicatedNodes=1", "evaluationInterval": "PT5M"}})

    assert out["id"] == f"{_group_id(arm)}/providers/Microsoft.Batch/batchAccounts/sampleacct/pools/testpool"
    assert (out["provisioningState"], out["interNodeCommunication"], out["taskSlotsPerNode"]) == (
        "Succeeded",
        "Disabled",
        1,
    )
    assert out["taskSchedulingPolicy"] == {"nodeFillType": "Spread"}
    assert (out["allocationState"], out["currentDedicatedNodes"], out["currentLowPriorityNodes"]) == ("Steady", 1, 0)
    assert out["currentNodeCommunicationMode"] == "Simplified"  # what Default became after classic's retirement
    assert out["creationTime"].startswith(TODAY.isoformat())


def test_a_fixed_pool_answers_its_targets_as_its_nodes() -> None:
    arm = _arm()
    _user_subscription_account(arm)
    fixed = {"fixedScale": {"targetDedicatedNodes": 3, "targetLowPriorityNodes": 2}}
    out = _pool(arm, account="byosacct", scaleSettings=fixed)
    idle = _pool(arm, "idle", account="byosacct")

    assert (out["currentDedicatedNodes"], out["currentLowPriorityNodes"]) == (3, 2)
    assert (idle["currentDedicatedNodes"], idle["currentLowPriorityNodes"]) == (0, 0)


def test_a_formula_s_low_priority_nodes_are_answered_in_a_user_subscription_account() -> None:
    arm = _arm()
    _user_subscription_account(arm)
    formula = "$TargetDedicatedNodes=2;\n$TargetLowPriorityNodes=4;"
    out = _pool(arm, account="byosacct", scaleSettings={"autoScale": {"formula": formula}})

    assert (out["currentDedicatedNodes"], out["currentLowPriorityNodes"]) == (2, 4)


@pytest.mark.parametrize("name", ["testpool", "a", "pool_1-A", "p" * 64])
def test_a_pool_id_inside_the_spec_s_pattern_is_accepted(name: str) -> None:
    arm = _arm()
    _account(arm)
    assert _pool(arm, name)["provisioningState"] == "Succeeded"


@pytest.mark.parametrize("name", ["p" * 65, "test.pool"])
def test_a_pool_id_outside_the_spec_s_pattern_is_refused(name: str) -> None:
    # BatchManagement.json: poolName ^[a-zA-Z0-9_-]+$, 1 to 64 characters
    arm = _arm()
    _account(arm)
    error = _refusal(_pool, arm, name)

    assert error.code == "InvalidPropertyValue"
    assert f"The pool id '{name}' ({len(name)} characters) is invalid" in error.message


@pytest.mark.parametrize(
    "deployment",
    [{}, {"virtualMachineConfiguration": {"imageReference": MACHINE["imageReference"]}}, {"virtualMachineConfiguration":
     {"nodeAgentSkuId": "batch.node.ubuntu 18.04"}}],
    ids=["none", "no-node-agent", "no-image"],
)  # fmt: skip
def test_a_pool_without_a_virtual_machine_configuration_is_refused(deployment: dict[str, Any]) -> None:
    arm = _arm()
    _account(arm)
    error = _refusal(_pool, arm, deploymentConfiguration=deployment)

    assert error.code == "InvalidPropertyValue"
    assert "needs deploymentConfiguration.virtualMachineConfiguration with imageReference and nodeAgentSkuId" in (
        error.message
    )


def _cloud_services_pool(day: dt.date) -> ArmError | None:
    arm = _arm(day)
    _account(arm)
    deployment = {"cloudServiceConfiguration": {"osFamily": "5"}, "virtualMachineConfiguration": MACHINE}
    try:
        _pool(arm, deploymentConfiguration=deployment)
    except ArmError as error:
        return error
    return None


def test_a_cloud_services_pool_is_refused_from_the_day_of_its_retirement() -> None:
    refused = _cloud_services_pool(dt.date(2024, 2, 29))

    assert refused is not None and refused.code == "InvalidPropertyValue"
    assert "Cloud Services configuration pools were retired on 2024-02-29" in refused.message
    assert _cloud_services_pool(dt.date(2024, 2, 28)) is None


def _classic_pool(day: dt.date, mode: str = "Classic") -> ArmError | None:
    arm = _arm(day)
    _account(arm)
    try:
        _pool(arm, targetNodeCommunicationMode=mode)
    except ArmError as error:
        return error
    return None


def test_classic_node_communication_is_refused_from_the_day_of_its_retirement() -> None:
    refused = _classic_pool(dt.date(2026, 3, 31))

    assert refused is not None and refused.code == "InvalidPropertyValue"
    assert "classic node communication was retired on 2026-03-31; set targetNodeCommunicationMode to Simplified" in (
        refused.message
    )
    assert _classic_pool(dt.date(2026, 3, 30)) is None
    assert _classic_pool(TODAY, "Simplified") is None
    assert _classic_pool(TODAY, "Default") is None


def test_fixed_and_autoscale_settings_together_are_refused() -> None:
    arm = _arm()
    _account(arm)
    both = {"fixedScale": {"targetDedicatedNodes": 1}, "autoScale": {"formula": "$TargetDedicatedNodes=1"}}
    error = _refusal(_pool, arm, scaleSettings=both)

    assert error.code == "InvalidPropertyValue"
    assert "scaleSettings takes fixedScale or autoScale, not both" in error.message


@pytest.mark.parametrize("interval", ["PT5M", "PT15M", "PT168H", "P7D"])
def test_an_evaluation_interval_of_5_minutes_to_168_hours_is_accepted(interval: str) -> None:
    arm = _arm()
    _account(arm)
    auto = {"formula": "$TargetDedicatedNodes=1", "evaluationInterval": interval}
    assert _pool(arm, scaleSettings={"autoScale": auto})["provisioningState"] == "Succeeded"


@pytest.mark.parametrize("interval", ["PT4M59S", "PT168H1S", "P8D", "fifteen minutes"])
def test_an_evaluation_interval_outside_5_minutes_to_168_hours_is_refused(interval: str) -> None:
    arm = _arm()
    _account(arm)
    auto = {"formula": "$TargetDedicatedNodes=1", "evaluationInterval": interval}
    error = _refusal(_pool, arm, scaleSettings={"autoScale": auto})

    assert error.code == "InvalidPropertyValue"
    assert f"autoScale.evaluationInterval {interval!r} is outside PT5M to PT168H" in error.message


LOW_PRIORITY = {
    "fixed": {"fixedScale": {"targetDedicatedNodes": 0, "targetLowPriorityNodes": 2}},
    "formula": {"autoScale": {"formula": "$TargetDedicatedNodes=0;\n$TargetLowPriorityNodes=2;"}},
}


@pytest.mark.parametrize("scale", LOW_PRIORITY.values(), ids=LOW_PRIORITY.keys())
def test_low_priority_nodes_in_a_batch_managed_account_are_refused_from_their_retirement(scale: dict[str, Any]) -> None:
    arm = _arm(dt.date(2025, 9, 30))
    _account(arm)
    error = _refusal(_pool, arm, scaleSettings=scale)

    assert error.code == "InvalidPropertyValue"
    assert "asks for low-priority nodes" in error.message
    assert (
        "in Batch account 'sampleacct', whose pool allocation mode is BatchService: low-priority nodes were retired on "
        "2025-09-30. Use dedicated nodes, or Spot nodes in a UserSubscription account "
        "(https://learn.microsoft.com/azure/batch/low-priority-vms-retirement-migration-guide)."
    ) in error.message


@pytest.mark.parametrize("scale", LOW_PRIORITY.values(), ids=LOW_PRIORITY.keys())
def test_low_priority_nodes_are_accepted_before_their_retirement_and_as_spot_in_a_user_subscription_account(
    scale: dict[str, Any],
) -> None:
    before = _arm(dt.date(2025, 9, 29))
    _account(before)
    spot = _arm()
    _user_subscription_account(spot)

    assert _pool(before, scaleSettings=scale)["provisioningState"] == "Succeeded"
    assert _pool(spot, account="byosacct", scaleSettings=scale)["provisioningState"] == "Succeeded"


def test_a_pool_with_no_low_priority_nodes_is_accepted_in_a_batch_managed_account() -> None:
    arm = _arm()
    _account(arm)
    none = {"fixedScale": {"targetDedicatedNodes": 1, "targetLowPriorityNodes": 0}}

    assert _pool(arm, scaleSettings=none)["currentLowPriorityNodes"] == 0
