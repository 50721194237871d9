"""The package layout: dependencies run one way, as ARCHITECTURE.md's table of rooms says.

The table is read from ARCHITECTURE.md itself (the room, what it holds, what it may import), so the
document and the rule cannot drift: a new import direction is a new cell there. Imports are read from
the source with `ast`, so an import added anywhere (inside a function too) is held to the rule. One
case per room, naming every module that breaks it.
"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

from tests.conftest import REPO

PACKAGE = "azure_gpu_stacks"
ARCHITECTURE = REPO / "ARCHITECTURE.md"


def rooms() -> dict[str, tuple[str, ...]]:
    """room -> the modules of ours it may import (a prefix allows everything under it), from ARCHITECTURE.md."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    table = text.split("\n## Rooms\n", 1)[1].split("\n## ", 1)[0]
    found: dict[str, tuple[str, ...]] = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) != 3 or not re.fullmatch(r"`\w+`", cells[0]):
            continue
        allowed = re.findall(r"`([\w.*]+)`", cells[2])
        found[cells[0].strip("`")] = tuple(PACKAGE if a == "*" else f"{PACKAGE}.{a}" for a in allowed)
    return found


ROOMS = rooms()


def _package(path: Path) -> list[str]:
    """The import package a module under the repository root belongs to: catalog/arm/x.py is azure_gpu_stacks.catalog.arm."""
    return [PACKAGE, *path.relative_to(REPO).parent.parts]


def _imports(path: Path) -> set[str]:
    """Every module of ours `path` imports, relative imports resolved against its package (`..catalog` from a room)."""
    found: set[str] = set()
    package = _package(path)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - node.level + 1]
            found.add(".".join([*base, node.module] if node.module else base))
            if not node.module:
                found.update(".".join([*base, alias.name]) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name == PACKAGE or name.startswith(f"{PACKAGE}.")}


def _ours(folder: str) -> list[Path]:
    """The package's modules under `folder` (not the virtualenv policies/venv links to)."""
    return sorted(p for p in (REPO / folder).rglob("*.py") if not {"venv", ".venv"} & set(p.relative_to(REPO).parts))


def test_architecture_table_names_every_folder_the_distribution_installs() -> None:
    package_dir = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]

    assert set(ROOMS) == set(package_dir.values())
    assert all(ROOMS.values())


@pytest.mark.parametrize("room", sorted(ROOMS))
def test_layout_imports_run_one_way(room: str) -> None:
    allowed = ROOMS[room]
    wrong = {
        path.relative_to(REPO).as_posix(): sorted(
            m for m in _imports(path) if not any(m == a or m.startswith(f"{a}.") for a in allowed)
        )
        for path in _ours(room)
    }

    assert {path: imports for path, imports in wrong.items() if imports} == {}


def test_every_policy_of_the_pack_has_its_own_test_file() -> None:
    """One hop from a policy to its tests (ARCHITECTURE.md): tests/policies/test_<module>.py, and nothing else there."""
    from azure_gpu_stacks.policies.registry import REGISTRY

    modules = {p.name.replace("-", "_") for p in REGISTRY}
    test_files = {p.stem.removeprefix("test_") for p in (REPO / "tests" / "policies").glob("test_*.py")}

    assert modules <= {p.stem for p in (REPO / "policies").glob("*.py")}
    assert test_files == modules


COST_PATH = ("engine/estimate", "engine/report")


@pytest.mark.parametrize("room", COST_PATH)
def test_the_cost_path_stands_without_the_fake_arm(room: str) -> None:
    """Cost and quota estimates read plans and the catalog: a real estimate never depends on the fake ARM."""
    modules = sorted((REPO / room).rglob("*.py"))
    fake = {
        p.relative_to(REPO).as_posix(): sorted(m for m in _imports(p) if m.startswith(f"{PACKAGE}.fakeazure"))
        for p in modules
    }

    assert modules and {path: found for path, found in fake.items() if found} == {}
