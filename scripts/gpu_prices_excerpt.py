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
    python scripts/gpu_prices_excerpt.py --repo gpu_prices --commit 64a289fdc0cbc0f5c9c8ae9af27158c68d5dca7a \
        --cpu-sizes catalog/vm_sizes.yaml --out data/prices/jumbo2020-gpu-prices-64a289f-cpu-sizes.json

With `--cpu-sizes CATALOG`, the rows of the catalog's sizes that are not N-series instead (the CPU sizes of system
pools and the like; a row's `skuName`, less ` Spot` or ` Low Priority`, names the size up to `Standard_`, case, spaces
and underscores).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import yaml

ORIGIN = "https://github.com/Jumbo2020/gpu_prices"
PRICES_FILE = "azure_gpu_prices.json"
FETCH_SCRIPT = "azure_fetch.py"


def is_n_series(row: dict[str, object]) -> bool:
    """A row of an N-series size: its `skuName`, without `Standard_` (any case), starts with N."""
    name = str(row.get("skuName") or "")
    return name[len("standard_") :].startswith("N") if name.lower().startswith("standard_") else name.startswith("N")


def compact(name: str) -> str:
    """A size name without `Standard_`, case, spaces and underscores (scripts/price_pages.py `compact_size_name`)."""
    return re.sub(r"[\s_]", "", name.strip().lower().removeprefix("standard_"))


def of_cpu_sizes(catalog_file: Path) -> Callable[[dict[str, object]], bool]:
    """A row of one of the catalog's sizes that are not N-series."""
    sizes = yaml.safe_load(catalog_file.read_text(encoding="utf-8"))["sizes"]
    names = {compact(s["name"]) for s in sizes if not s["name"].startswith("Standard_N")}

    def keep(row: dict[str, object]) -> bool:
        sku = str(row.get("skuName") or "").removesuffix(" Spot").removesuffix(" Low Priority")
        return compact(sku) in names

    return keep


def excerpt(repo: Path, commit: str, keep: Callable[[dict[str, object]], bool] = is_n_series) -> dict[str, object]:
    """The N-series rows (or those `keep` names) of the commit's price file, with where and when they were read."""

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
        "rows": [row for row in rows if keep(row)],
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gpu_prices_excerpt", description=__doc__)
    parser.add_argument("--repo", type=Path, required=True, help="a clone of Jumbo2020/gpu_prices")
    parser.add_argument("--commit", required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--cpu-sizes", type=Path, metavar="CATALOG", help="the rows of this catalog's non-N sizes")
    args = parser.parse_args(argv)
    try:
        data = excerpt(args.repo, args.commit, of_cpu_sizes(args.cpu_sizes) if args.cpu_sizes else is_n_series)
    except (subprocess.CalledProcessError, json.JSONDecodeError, ValueError, OSError, KeyError, yaml.YAMLError) as exc:
        print(f"gpu_prices_excerpt: error: {args.repo} at {args.commit}: {exc}", file=sys.stderr)
        return 2
    args.out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
