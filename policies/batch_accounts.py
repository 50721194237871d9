"""The Batch account of each Batch pool in a stack, as the Batch policies read it (not a policy).

A pool names its account by `accountName`; an account created in the stack with an auto-generated name is found as
the stack's only account. An account outside the stack is not known (None): its region and pool allocation mode
cannot be read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..catalog.batch import BATCH_SERVICE
from ..catalog.shapes import canonical_type
from .values import get, text

BATCH_ACCOUNT = "azure-native:batch:BatchAccount"


def account_of(pool: Any, resources: Sequence[Any]) -> Any | None:
    """The stack's Batch account that `pool` belongs to, or None."""
    accounts = [r for r in resources if canonical_type(r.resource_type) == BATCH_ACCOUNT]
    name = (text(get(pool.props, "accountName")) or "").lower()
    named = [a for a in accounts if (text(get(a.props, "accountName")) or a.name).lower() == name]
    if named:
        return named[0]
    return accounts[0] if len(accounts) == 1 else None


def allocation_mode(account: Any) -> str:
    """The account's pool allocation mode (ARM's default: BatchService)."""
    return text(get(account.props, "poolAllocationMode")) or BATCH_SERVICE
