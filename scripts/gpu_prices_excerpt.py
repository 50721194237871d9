"""Save the N-series (GPU, FPGA) rows of Jumbo2020/gpu_prices's `azure_gpu_prices.json` at one commit, unchanged,
with the commit, its committer and commit time: the file `scripts/refresh_catalog.py apply --snapshot` reads
(`scripts/untyped_price_rows.py`).

The repository's GitHub Actions workflow (`.github/workflows/azure-fetch.yml`, hourly) ran its `azure_fetch.py` and
committed the answer as "GitHub Actions": every page of the Azure Retail Prices API for `serviceFamily eq 'Compute'
and armRegionName eq R` (no `priceType`, so pay-as-you-go, Spot, Low Priority, DevTest and reservation rows alike),
written as `region`, `skuName`, `productName`, `pricePerHour` (the row's `retailPrice`) and `currency` only: the
row's `type`, `reservationTerm` and `meterName` are not kept. A commit made by the workflow is the day the rows were
read. The script at the same commit is the one that ran (its filter on the names decides which sizes are there).

    git clone https://github.com/Jumbo2020/gpu_prices gpu_prices
    python scripts/gpu_prices_excerpt.py --repo gpu_prices --commit 64a289fdc0cbc0f5c9c8ae9af27158c68d5dca7a \
        --out data/prices/jumbo2020-gpu-prices-64a289f-n-series.json
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ORIGIN = "https://github.com/Jumbo2020/gpu_prices"
PRICES_FILE = "azure_gpu_prices.json"
FETCH_SCRIPT = "azure_fetch.py"


def is_n_series(row: dict[str, object]) -> bool:
    """A row of an N-series size: its `skuName`, without `Standard_` (any case), starts with N."""
    name = str(row.get("skuName") or "")
    return name[len("standard_") :].startswith("N") if name.lower().startswith("standard_") else name.startswith("N")


def excerpt(repo: Path, commit: str) -> dict[str, object]:
    """The N-series rows of the commit's price file, with where and when they were read."""

    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout

    full = git("rev-parse", commit).strip()
    committer, committed = git("log", "-1", "--format=%cn <%ce>%n%cI", full).splitlines()
    rows = json.loads(git("show", f"{full}:{PRICES_FILE}"))
    return {
        "origin": f"{ORIGIN}/blob/{full}/{PRICES_FILE}",
        "fetchScript": f"{ORIGIN}/blob/{full}/{FETCH_SCRIPT}",
        "license": "none stated (the repository has no licence file); the rows are Azure's published retail prices",
        "commit": full,
        "committer": committer,
        "committed": committed,
        "rows": [row for row in rows if is_n_series(row)],
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gpu_prices_excerpt", description=__doc__)
    parser.add_argument("--repo", type=Path, required=True, help="a clone of Jumbo2020/gpu_prices")
    parser.add_argument("--commit", required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    try:
        data = excerpt(args.repo, args.commit)
    except (subprocess.CalledProcessError, json.JSONDecodeError, ValueError) as exc:
        print(f"gpu_prices_excerpt: error: {args.repo} at {args.commit}: {exc}", file=sys.stderr)
        return 2
    args.out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
