"""Price rows reach the size they price, whatever their spelling. The Retail Prices API (and karpenter-provider-
azure's table saved in data/prices/) names Standard_NG32adms_V620 without the `_v1` of its ARM name, the name
the catalog, Learn's NGads V620 page and the Resource SKUs API use; its three siblings' rows carry `_v1`.
Expected values come from the saved price tables."""

from __future__ import annotations

import csv
import re
from pathlib import Path

from azure_gpu_stacks.catalog import catalog, load_catalog

from scripts.refresh_catalog import main
from tests.conftest import KARPENTER_PRICES, REPO, SKYPILOT_PRICES, karpenter_prices

NG = "Standard_NG32adms_V620_v1"


def table_prices() -> dict[tuple[str, str], float]:
    """(name as the table spells it, region) -> Linux pay-as-you-go USD/h, from both saved tables."""
    _, prices = karpenter_prices()
    with SKYPILOT_PRICES.open(encoding="utf-8") as fh:
        prices.update({(r["InstanceType"], r["Region"]): float(r["Price"]) for r in csv.DictReader(fh) if r["Price"]})
    return prices


def spellings(name: str) -> set[str]:
    """The name with and without a trailing `_v1`, lower-case: the variants a price table may use."""
    bare = re.sub(r"_v1$", "", name.lower())
    return {bare, bare + "_v1"}


def test_the_ng32adms_rows_named_without_v1_price_the_catalog_size_in_each_region() -> None:
    rows = {region: usd for (name, region), usd in table_prices().items() if name == "Standard_NG32adms_V620"}

    assert len(rows) == 7
    assert {region: p.payg for region, p in catalog().get(NG).prices.items()} == rows


def test_no_catalog_size_is_unpriced_while_a_table_prices_it_under_a_version_variant() -> None:
    table_names = {name.lower() for name, _ in table_prices()}
    named_differently = [
        size.name for size in catalog().sizes if size.is_gpu and not size.prices and spellings(size.name) & table_names
    ]

    assert named_differently == []


def test_refresh_writes_the_ng32adms_prices_from_rows_named_without_v1(tmp_path: Path) -> None:
    path = tmp_path / "vm_sizes.yaml"
    lines = (REPO / "catalog" / "vm_sizes.yaml").read_text(encoding="utf-8").splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith(f"  - name: {NG}"))
    prices = next(i for i in range(start, len(lines)) if lines[i] == "    prices:\n")
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("    lifecycle:"))
    path.write_text("".join(lines[:prices] + lines[end:]))  # the size without its prices
    assert not load_catalog(path).get(NG).prices

    argv = ["apply", "--catalog", str(path), "--observed", "2026-12-01", "--snapshot", str(KARPENTER_PRICES)]
    assert main([*argv, "--snapshot-source", "karpenter-azure-2b431da"]) == 0

    assert load_catalog(path).get(NG).prices == catalog().get(NG).prices
