"""Save the N-series (GPU, FPGA) rows of andy-diericks/azure-pricing-radar's VM price snapshots at one commit,
unchanged, with the commit and its own `last-checked.json` stamp: the file `scripts/refresh_catalog.py apply
--snapshot` reads (`scripts/price_pages.py` `read_radar_snapshot`).

The repository (MIT) saves the Azure Retail Prices API (api-version 2023-01-01-preview, `serviceName eq 'Virtual
Machines' and armRegionName eq R and priceType eq 'Consumption'`) for a few regions every six hours: each
`data/latest/vm-<scope>.json` maps `skuId|meterId|type|reservationTerm` to the row's `retailPrice`, `unitPrice`,
`unitOfMeasure`, `productName`, `skuName`, `meterName`, `armRegionName` and, for a row with a savings plan,
`savingsPlanPrice` (the 1-year term's price; its `scripts/fetch_prices.py`, read 2026-11-27). Every run rewrites
every scope and then `data/latest/last-checked.json`, so the stamp is the day the rows were read.

    git clone https://github.com/andy-diericks/azure-pricing-radar radar
    python scripts/radar_excerpt.py --repo radar --commit cf741f25c50759745f8eb5dcaf6c3746669c8f31 \
        --out data/prices/azure-pricing-radar-cf741f2-vm-n-series.json
    python scripts/radar_excerpt.py --repo radar --commit cf741f25c50759745f8eb5dcaf6c3746669c8f31 --disks \
        --out data/prices/azure-pricing-radar-cf741f2-managed-disks.json

With `--disks`, the managed disk rows (`productName` "Premium SSD Managed Disks", "Standard SSD Managed Disks",
"Standard HDD Managed Disks") of its `storage-<scope>.json` files (`serviceName eq 'Storage'`), the prices of
catalog/charge_prices.yaml's `premiumSsdRegions`.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ORIGIN = "https://github.com/andy-diericks/azure-pricing-radar"
VM_SCOPE = re.compile(r"^data/latest/(vm-[a-z0-9-]+)\.json$")
STORAGE_SCOPE = re.compile(r"^data/latest/(storage-[a-z0-9-]+)\.json$")
MANAGED_DISKS = ("Premium SSD Managed Disks", "Standard SSD Managed Disks", "Standard HDD Managed Disks")


def is_n_series(row: dict[str, object]) -> bool:
    """A row of an N-series size: its `skuName`, without `Standard_`, starts with N."""
    name = str(row.get("skuName") or "")
    return name.removeprefix("Standard_").startswith("N")


def is_managed_disk(row: dict[str, object]) -> bool:
    """A row of a managed disk tier (`productName` "Premium SSD Managed Disks" and the like)."""
    return row.get("productName") in MANAGED_DISKS


def excerpt(repo: Path, commit: str, disks: bool = False) -> dict[str, object]:
    """The N-series rows of the VM scopes, or with `disks` the managed disk rows of the storage scopes."""

    def show(path: str) -> str:
        return subprocess.run(
            ["git", "-C", str(repo), "show", f"{commit}:{path}"], check=True, capture_output=True, text=True
        ).stdout

    full = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", commit], check=True, capture_output=True, text=True
    ).stdout.strip()
    listing = subprocess.run(
        ["git", "-C", str(repo), "ls-tree", "--name-only", f"{commit}:data/latest"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    scopes = {}
    for name in sorted(listing):
        scope, keep = (STORAGE_SCOPE, is_managed_disk) if disks else (VM_SCOPE, is_n_series)
        if m := scope.match(f"data/latest/{name}"):
            rows = json.loads(show(f"data/latest/{name}"))
            scopes[m[1]] = {key: row for key, row in rows.items() if keep(row)}
    return {
        "origin": f"{ORIGIN}/tree/{full}/data/latest",
        "license": "MIT",
        "commit": full,
        "lastChecked": json.loads(show("data/latest/last-checked.json")),
        "scopes": scopes,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="radar_excerpt", description=__doc__)
    parser.add_argument("--repo", type=Path, required=True, help="a clone of andy-diericks/azure-pricing-radar")
    parser.add_argument("--commit", required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--disks", action="store_true", help="the storage scopes' managed disk rows instead")
    args = parser.parse_args(argv)
    try:
        data = excerpt(args.repo, args.commit, disks=args.disks)
    except (subprocess.CalledProcessError, json.JSONDecodeError) as exc:
        print(f"radar_excerpt: error: {args.repo} at {args.commit}: {exc}", file=sys.stderr)
        return 2
    args.out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
