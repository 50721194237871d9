"""Microsoft.Batch: Batch accounts and their pools.

What ARM refuses here (every fact and its source: `azure_gpu_stacks.catalog.batch`, observed 2026-11-26): an account
or pool name outside the REST spec's pattern (a pool id over 64 characters); a user-subscription account without a
Key Vault reference; a pool without a Virtual Machine Configuration, or with a Cloud Services configuration (retired
2024-02-29); classic node communication (retired 2026-03-31); low-priority nodes (a fixed `targetLowPriorityNodes`,
or a formula that sets `$TargetLowPriorityNodes` above 0) in a Batch-managed account (retired 2025-09-30: a
user-subscription account's are Spot nodes, still allowed); both fixed and autoscale settings; an autoscale evaluation
interval outside 5 minutes to 168 hours. Retired VM sizes are refused by the backend, from the shape table.

Codes: the Batch resource provider answers an invalid pool body with `InvalidPropertyValue` ("The value provided for
one of the properties in the request body is invalid.", quoted in hashicorp/terraform issue 36698 and
Azure/batch-shipyard issue 53); no public code was found for the account's refusals: `InvalidParameter`.

Not faked: node allocation (a pool reports the nodes its fixed target or formula keeps when idle, as
`catalog.shapes` reads them), the Batch account's own core quota (the `quota` command lists its counters), formula
evaluation (a formula Batch cannot parse is accepted), image and node agent SKU pairing, and the data plane.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ...catalog import batch as facts
from ...catalog.durations import duration_seconds
from ...catalog.shapes import formula_counts
from ...sdk.values import dig
from ..core import ArmResourceType, Invoke, Resource, expect_type, system_identity
from ..errors import ArmError, InvalidParameter
from ..lookups import lookup
from .keyvault import KeyVault

if TYPE_CHECKING:
    from ..core import Arm


class InvalidPropertyValue(ArmError):
    """The Batch resource provider's refusal of a pool body (see the module's sources)."""

    code: ClassVar[str] = "InvalidPropertyValue"


class BatchAccount(ArmResourceType):
    token = "azure-native:batch:BatchAccount"
    arm_type = "Microsoft.Batch/batchAccounts"
    name_input = "accountName"
    autoname_max = facts.ACCOUNT_NAME.max_length

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        if not facts.ACCOUNT_NAME.matches(name):
            allowed = facts.ACCOUNT_NAME.allowed
            raise InvalidParameter(f"'{name}' is not a valid Batch account name; allowed: {allowed}.")
        vault = props.get("keyVaultReference")
        if _user_subscription(props) and not dig(vault, "id"):
            raise InvalidParameter(
                f"Batch account '{name}': poolAllocationMode UserSubscription needs keyVaultReference (the id and url "
                "of a Key Vault), and Azure Batch's access to the subscription "
                "(https://learn.microsoft.com/azure/batch/batch-account-create-portal)."
            )
        if (vault_id := dig(vault, "id")) is not None:
            expect_type(arm.require(vault_id, "keyVaultReference.id"), KeyVault.arm_type, "keyVaultReference.id")

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        return {
            "accountEndpoint": f"{res.name}.{res.location}.batch.azure.com",
            "nodeManagementEndpoint": f"{res.name}.{res.location}.service.batch.azure.com",
            "poolAllocationMode": res.properties.get("poolAllocationMode") or facts.BATCH_SERVICE,
            "provisioningState": "Succeeded",
            **system_identity(arm, res),
        }


class BatchPool(ArmResourceType):
    token = "azure-native:batch:Pool"
    arm_type = f"{BatchAccount.arm_type}/pools"
    name_input = "poolName"
    parent_inputs = ("accountName",)
    located = False  # a pool has no `location` in its body: it is where its account is

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        if not facts.POOL_NAME.matches(name):
            raise InvalidPropertyValue(
                f"The pool id '{name}' ({len(name)} characters) is invalid; allowed: {facts.POOL_NAME.allowed}."
            )
        day = arm.now.date()
        deployment = props.get("deploymentConfiguration") or {}
        if deployment.get("cloudServiceConfiguration") is not None and day >= facts.CLOUD_SERVICES_RETIRED:
            raise InvalidPropertyValue(
                f"Pool '{name}': Cloud Services configuration pools were retired on "
                f"{facts.CLOUD_SERVICES_RETIRED.isoformat()}; use deploymentConfiguration.virtualMachineConfiguration "
                f"({facts.CLOUD_SERVICES_SOURCE})."
            )
        machine = deployment.get("virtualMachineConfiguration")
        if not isinstance(machine, dict) or not machine.get("imageReference") or not machine.get("nodeAgentSkuId"):
            raise InvalidPropertyValue(
                f"Pool '{name}' needs deploymentConfiguration.virtualMachineConfiguration with imageReference and "
                f"nodeAgentSkuId (e.g. '{facts.NODE_AGENT_SKU}')."
            )
        classic = str(props.get("targetNodeCommunicationMode") or "").lower() == facts.CLASSIC.lower()
        if classic and day >= facts.CLASSIC_COMMUNICATION_RETIRED:
            raise InvalidPropertyValue(
                f"Pool '{name}': classic node communication was retired on "
                f"{facts.CLASSIC_COMMUNICATION_RETIRED.isoformat()}; set targetNodeCommunicationMode to "
                f"{facts.SIMPLIFIED} ({facts.CLASSIC_COMMUNICATION_SOURCE})."
            )
        scale = props.get("scaleSettings") or {}
        fixed, auto = scale.get("fixedScale"), scale.get("autoScale")
        if fixed is not None and auto is not None:
            raise InvalidPropertyValue(f"Pool '{name}': scaleSettings takes fixedScale or autoScale, not both.")
        if auto is not None:
            interval = auto.get("evaluationInterval")
            if interval is not None and not _within_evaluation_bounds(interval):
                low, high = facts.EVALUATION_INTERVAL_MIN[0], facts.EVALUATION_INTERVAL_MAX[0]
                raise InvalidPropertyValue(
                    f"Pool '{name}': autoScale.evaluationInterval {interval!r} is outside {low} to {high}."
                )
        account = arm.parent_of(self, props)
        if not _user_subscription(account.properties) and day >= facts.LOW_PRIORITY_RETIRED:
            count = dig(fixed, "targetLowPriorityNodes") if isinstance(fixed, dict) else None
            formula = dig(auto, "formula") if isinstance(auto, dict) else None
            low_priority = facts.low_priority_request(
                float(count) if isinstance(count, (int, float)) else None, formula if isinstance(formula, str) else None
            )
            if low_priority:
                raise InvalidPropertyValue(
                    f"Pool '{name}' asks for low-priority nodes ({low_priority}) in Batch account '{account.name}', "
                    "whose pool allocation mode is BatchService: low-priority nodes were retired on "
                    f"{facts.LOW_PRIORITY_RETIRED.isoformat()}. Use dedicated nodes, or Spot nodes in a "
                    f"UserSubscription account ({facts.LOW_PRIORITY_SOURCE})."
                )

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        scale = res.properties.get("scaleSettings") or {}
        formula = dig(scale, "autoScale", "formula")
        if isinstance(formula, str):
            dedicated = formula_counts(formula, facts.DEDICATED_TARGET)[2]
            low_priority = formula_counts(formula, facts.LOW_PRIORITY_TARGET)[2]
        else:
            dedicated = int(dig(scale, "fixedScale", "targetDedicatedNodes") or 0)
            low_priority = int(dig(scale, "fixedScale", "targetLowPriorityNodes") or 0)
        return {
            "id": res.id,
            "provisioningState": "Succeeded",
            "allocationState": "Steady",
            "currentDedicatedNodes": dedicated,
            "currentLowPriorityNodes": low_priority,
            "currentNodeCommunicationMode": facts.SIMPLIFIED,  # what Default becomes after classic's retirement
            "creationTime": arm.now.isoformat(),
        }


def _user_subscription(props: dict[str, Any]) -> bool:
    return str(props.get("poolAllocationMode") or facts.BATCH_SERVICE).lower() == facts.USER_SUBSCRIPTION.lower()


def _within_evaluation_bounds(value: Any) -> bool:
    try:
        seconds = duration_seconds(value)
    except ValueError:
        return False
    return facts.EVALUATION_INTERVAL_MIN[1] <= seconds <= facts.EVALUATION_INTERVAL_MAX[1]


TYPES: tuple[ArmResourceType, ...] = (BatchAccount(), BatchPool())
INVOKES: dict[str, Invoke] = {
    "azure-native:batch:getBatchAccount": lookup(BatchAccount.arm_type, "accountName"),
    "azure-native:batch:getPool": lookup(BatchAccount.arm_type + "/pools", "accountName", "poolName"),
}
