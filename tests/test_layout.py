"""The package layout: dependencies run one way (ARCHITECTURE.md draws it).

`sdk` (the adapter over pulumi's and pulumi-policy's internals, and values as the SDK hands them)
and `inputs` (the capped readers of outside files) are leaves. `catalog` (Azure's facts) reads
only them. `components` read the catalog; `stack` (the schema and the one program) reads the
components. `policies` and `fakeazure` read the catalog, never each other, the components or
`engine`; `engine` uses all of them. Read from the source with `ast`, so an import added anywhere
(inside a function too) is held to the rule.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import REPO

PACKAGE = "azure_gpu_stacks"
SDK = "azure_gpu_stacks.sdk"
INPUTS = "azure_gpu_stacks.inputs"
CATALOG = "azure_gpu_stacks.catalog"
# folder -> the modules of ours it may import (a prefix allows everything under it)
ALLOWED: dict[str, tuple[str, ...]] = {
    "sdk": (SDK,),
    "inputs": (INPUTS,),
    "catalog": (CATALOG, INPUTS, SDK),
    "components": ("azure_gpu_stacks.components", CATALOG, SDK),
    "stack": ("azure_gpu_stacks.stack", "azure_gpu_stacks.components", CATALOG, INPUTS, SDK),
    "policies": (
        "azure_gpu_stacks.policies",
        CATALOG,
        SDK,
        "azure_gpu_stacks.components.version",  # the pack's version is the package's
    ),
    "fakeazure": ("azure_gpu_stacks.fakeazure", CATALOG, INPUTS, SDK),
    "engine": (PACKAGE,),
}


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name == PACKAGE or name.startswith(f"{PACKAGE}.")}


def _folder(path: Path) -> str:
    return path.relative_to(REPO).as_posix().split("/", 1)[0]


def _ours(folder: str) -> list[Path]:
    """The package's modules under `folder` (not the virtualenv policies/venv links to)."""
    return sorted(p for p in (REPO / folder).rglob("*.py") if not {"venv", ".venv"} & set(p.relative_to(REPO).parts))


MODULES = [p for folder in ALLOWED for p in _ours(folder)]


@pytest.mark.parametrize("path", MODULES, ids=[p.relative_to(REPO).as_posix() for p in MODULES])
def test_layout_imports_run_one_way(path: Path) -> None:
    allowed = ALLOWED[_folder(path)]
    wrong = sorted(m for m in _imports(path) if not any(m == a or m.startswith(f"{a}.") for a in allowed))

    assert wrong == []


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
