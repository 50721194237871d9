"""disallow-batch-low-priority-nodes: no low-priority nodes in a Batch-managed Batch account.

Rule: a `batch:Pool` whose scale settings ask for low-priority nodes (a fixed `targetLowPriorityNodes` above 0, or an
autoscale formula that sets `$TargetLowPriorityNodes` other than 0) belongs to a Batch account of the stack with
pool allocation mode `UserSubscription`, where those nodes are Spot nodes. In a `BatchService` account (ARM's
default) they are low-priority nodes, retired on 2025-09-30: Azure no longer provisions new pools with them. A pool
whose account is not in the stack is not judged.
Why: the pool fails to reach its target, or is refused, and the discount it was sized on does not exist.
Azure doc: https://learn.microsoft.com/azure/batch/low-priority-vms-retirement-migration-guide and
https://learn.microsoft.com/azure/batch/batch-spot-vms (observed 2026-11-26).
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, ReportViolation, Severity, StackValidationArgs, StackValidationPolicy

from ..catalog.batch import (
    LOW_PRIORITY_RETIRED,
    LOW_PRIORITY_SOURCE,
    USER_SUBSCRIPTION,
    low_priority_request,
)
from ..catalog.shapes import BATCH_POOL, canonical_type
from . import config
from .batch_accounts import account_of, allocation_mode
from .values import UNKNOWN, get, number, text

NAME = "disallow-batch-low-priority-nodes"
CONFIG = config.schema({})


def validate(args: StackValidationArgs, report_violation: ReportViolation) -> None:
    for pool in args.resources:
        if canonical_type(pool.resource_type) != BATCH_POOL:
            continue
        account = account_of(pool, args.resources)
        if account is None or allocation_mode(account).lower() == USER_SUBSCRIPTION.lower():
            continue
        fixed = get(pool.props, "scaleSettings", "fixedScale", "targetLowPriorityNodes")
        formula = get(pool.props, "scaleSettings", "autoScale", "formula")
        if fixed is UNKNOWN or formula is UNKNOWN:
            continue
        asked = low_priority_request(number(fixed), text(formula))
        if asked:
            report_violation(
                f"'{pool.name}' asks for low-priority nodes ({asked}) in Batch account '{account.name}', whose pool "
                f"allocation mode is {allocation_mode(account)}: Batch low-priority nodes were retired on "
                f"{LOW_PRIORITY_RETIRED.isoformat()}. Use dedicated nodes, or Spot nodes in a {USER_SUBSCRIPTION} "
                f"account ({LOW_PRIORITY_SOURCE}).",
                pool.urn,
            )


POLICY = StackValidationPolicy(
    name=NAME,
    description="Batch pools must not ask for low-priority nodes in a Batch-managed account (retired 2025-09-30).",
    validate=validate,
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.HIGH,
    config_schema=CONFIG,
    remediation_steps=(
        "Ask for dedicated nodes (targetDedicatedNodes, $TargetDedicatedNodes), or create the account with "
        "poolAllocationMode UserSubscription (a Key Vault and Azure Batch's access to the subscription), where "
        "low-priority targets are Spot nodes (BatchGpuPool: spot: true with poolAllocationMode UserSubscription)."
    ),
    url="https://learn.microsoft.com/azure/batch/batch-spot-vms",
)
