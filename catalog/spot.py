"""Spot price caps, as Azure takes them on VMs, scale sets and AKS Spot node pools.

-1 means "up to the pay-as-you-go price, never evicted for price"; otherwise a positive USD price
per hour with at most five decimal places (Learn, "Azure Spot Virtual Machines", pricing, and AKS
spot-node-pool, `--spot-max-price`; observed 2026-11-25).
"""

from __future__ import annotations

SPOT_NO_PRICE_CAP = -1
MAX_SPOT_PRICE_DECIMALS = 5


def is_spot_price_cap(value: object) -> bool:
    """-1, or a positive number with at most five decimals (never a bool)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return value == SPOT_NO_PRICE_CAP or (value > 0 and round(value, MAX_SPOT_PRICE_DECIMALS) == value)
