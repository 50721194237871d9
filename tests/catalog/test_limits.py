"""Azure limits and constants (`catalog/limits.py`): the one home of each, and what it says.

The facts pinned here are the ones users meet: the AKS release calendar decides which Kubernetes
versions a cluster may ask for on a given day, the taints decide where GPU pods land, and the name
rules decide which names ARM refuses.
"""

from __future__ import annotations

import ast
import datetime as dt
from pathlib import Path

import pytest
from azure_gpu_stacks.catalog.limits import LIMITS, normalize_region

from tests.conftest import REPO

# The packages that must read the limits rather than copy them.
READERS = ("components", "stack", "policies", "engine")
HOME = REPO / "catalog" / "limits.py"


def _facts() -> dict[str, str]:
    """Every string fact of the limits that a copy would repeat verbatim."""
    found = {"taints.gpu": LIMITS.taints.gpu, "taints.spot": LIMITS.taints.spot}
    for name in type(LIMITS.names).model_fields:
        found[f"names.{name}.pattern"] = getattr(LIMITS.names, name).pattern
    return found


def _string_constants(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    }


def test_limits_no_module_keeps_its_own_copy_of_a_limit() -> None:
    facts = _facts()
    copies = [
        f"{path.relative_to(REPO)}: {key}"
        for package in READERS
        for path in sorted((REPO / package).rglob("*.py"))
        if path != HOME
        for constants in [_string_constants(path)]  # each file parsed once, not once per fact
        for key, value in facts.items()
        if value in constants
    ]

    assert copies == []


@pytest.mark.parametrize(
    ("day", "supported"),
    [
        (dt.date(2026, 11, 22), ["1.34", "1.35", "1.36", "1.37"]),
        (dt.date(2026, 11, 30), ["1.34", "1.35", "1.36", "1.37"]),  # "Nov 2026" ends on its last day
        (dt.date(2026, 12, 1), ["1.35", "1.36", "1.37"]),
        (dt.date(2026, 7, 31), ["1.33", "1.34", "1.35", "1.36"]),
    ],
)
def test_limits_kubernetes_versions_supported_on_a_day(day: dt.date, supported: list[str]) -> None:
    assert LIMITS.supported_kubernetes_versions(day) == supported


def test_limits_kubernetes_version_accepts_a_patch_and_knows_its_end_of_life() -> None:
    entry = LIMITS.kubernetes_version("1.35.4")

    assert entry is not None and (entry.version, entry.end_of_life) == ("1.35", dt.date(2027, 3, 31))
    assert LIMITS.kubernetes_version("1.20") is None


def test_limits_kubernetes_versions_cite_the_aks_calendar() -> None:
    assert LIMITS.kubernetes_versions.source == "https://learn.microsoft.com/azure/aks/supported-kubernetes-versions"


@pytest.mark.parametrize(
    ("rule", "good", "bad"),
    [
        ("aks_node_pool", "gpu1", "gpu-pool"),
        ("aks_node_pool", "a" * 12, "a" * 13),
        ("aml_workspace", "ws-" + "a" * 30, "ws-" + "a" * 31),
        ("storage_account", "abc123", "Abc123"),
        ("key_vault", "kv-team-1", "kv--team"),
        ("resource_group", "rg-team(1)", "rg-team."),
    ],
)
def test_limits_name_rules_accept_and_refuse(rule: str, good: str, bad: str) -> None:
    name_rule = getattr(LIMITS.names, rule)

    assert (name_rule.matches(good), name_rule.matches(bad)) == (True, False)


def test_limits_every_name_rule_holds_its_own_max_length() -> None:
    for field in type(LIMITS.names).model_fields:
        rule = getattr(LIMITS.names, field)
        assert rule.max_length >= 1, field
        assert not rule.matches("a" * (rule.max_length + 1)), field


@pytest.mark.parametrize(
    ("written", "normal"), [("East US", "eastus"), ("westeurope", "westeurope"), ("West Europe ", "westeurope")]
)
def test_limits_normalize_region(written: str, normal: str) -> None:
    assert normalize_region(written) == normal
