"""A Batch account's own core quota, read from what `az batch account show` writes: the ledger a Batch-managed
account's pools draw on (`catalog.quota_counters`: `dedicatedCoreQuota`, the per-family counters,
`lowPriorityCoreQuota`).

`az batch account show --name ACCOUNT --resource-group RG -o json` (the REST BatchAccount; Azure/azure-rest-api-specs
specification/batch/resource-manager, BatchManagement.json: `dedicatedCoreQuota`, `dedicatedCoreQuotaPerVMFamily`
[{name, coreQuota}], `dedicatedCoreQuotaPerVMFamilyEnforced`, `lowPriorityCoreQuota`; observed 2026-11-26). For a
user-subscription account these are not returned ("the value is not returned", the spec's descriptions): its pools
draw on the subscription's quota, so such a file is refused here. The file holds the limits, not what the account's
existing pools already use: the ledger starts at 0 in use (a new account), which the report says. When
`dedicatedCoreQuotaPerVMFamilyEnforced` is false, only the total applies: the per-family limits are left out.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..inputs.files import MAX_INT, InputFileError, load_json, shown
from .az_files import AzFileError, Usage, family_key
from .quota_counters import BATCH_DEDICATED_TOTAL, BATCH_LOW_PRIORITY_TOTAL

BATCH_ACCOUNT_FILE = "the JSON object that `az batch account show --name ACCOUNT --resource-group RG -o json` writes"


def _count(path: Path, where: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_INT:
        raise AzFileError(f"{path}: {where}: {shown(value)} is not a whole number; allowed: 0 to 2^63-1")
    return value


def read_batch_account(path: Path) -> dict[str, Usage]:
    """The account's core quota counters keyed by `family_key` (in use: 0, the file does not say)."""
    try:
        data = load_json(path, "usage")
    except InputFileError as exc:
        raise AzFileError(str(exc)) from None
    if not isinstance(data, dict):
        raise AzFileError(f"{path}: expected {BATCH_ACCOUNT_FILE}")
    if str(data.get("poolAllocationMode") or "BatchService").lower() == "usersubscription":
        raise AzFileError(
            f"{path}: poolAllocationMode: 'UserSubscription' accounts have no core quota of their own; allowed: a "
            "BatchService account's file (a UserSubscription account's pools draw on the subscription: pass --usage)"
        )
    if "dedicatedCoreQuota" not in data:
        raise AzFileError(f"{path}: dedicatedCoreQuota: missing; allowed: {BATCH_ACCOUNT_FILE}")
    counters = {
        family_key(BATCH_DEDICATED_TOTAL): Usage(
            BATCH_DEDICATED_TOTAL, 0, _count(path, "dedicatedCoreQuota", data["dedicatedCoreQuota"])
        )
    }
    if "lowPriorityCoreQuota" in data:
        counters[family_key(BATCH_LOW_PRIORITY_TOTAL)] = Usage(
            BATCH_LOW_PRIORITY_TOTAL, 0, _count(path, "lowPriorityCoreQuota", data["lowPriorityCoreQuota"])
        )
    families = data.get("dedicatedCoreQuotaPerVMFamily", data.get("dedicatedCoreQuotaPerVmFamily")) or []
    if not isinstance(families, list):
        raise AzFileError(f"{path}: dedicatedCoreQuotaPerVMFamily: {shown(families)} is not a list")
    if data.get("dedicatedCoreQuotaPerVMFamilyEnforced", data.get("dedicatedCoreQuotaPerVmFamilyEnforced")) is False:
        return counters
    for index, entry in enumerate(families):
        where = f"dedicatedCoreQuotaPerVMFamily[{index}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise AzFileError(f"{path}: {where}: {shown(entry)}; allowed: {{name, coreQuota}}")
        counters[family_key(entry["name"])] = Usage(
            entry["name"], 0, _count(path, f"{where}.coreQuota", entry.get("coreQuota"))
        )
    return counters
