"""The package layout: dependencies run one way, and every module stays small.

`sdk` (the one adapter over pulumi's and pulumi-policy's internals) is a leaf every layer may
import and that imports nothing of ours. `components` depends on nothing of ours but itself (and
`sdk`); its `catalog` (the size catalog, the shape table, the Azure limits) is a leaf every layer may
read. `policies` and `fakeazure` read the catalog (and a named module or two of `components`,
listed here), never each other or `preflight`; `preflight` uses all of them. Read from the source with `ast`, so an import added
anywhere (inside a function too) is held to the rule.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import REPO

PACKAGE = "azure_gpu_stacks"
SDK = "azure_gpu_stacks.sdk"  # the SDK adapter: every layer may import it
# folder -> the modules of ours it may import (a prefix allows everything under it)
ALLOWED: dict[str, tuple[str, ...]] = {
    "sdk": (SDK,),
    "components/catalog": ("azure_gpu_stacks.components.catalog",),
    "components": ("azure_gpu_stacks.components", SDK),
    "policies": (
        "azure_gpu_stacks.policies",
        SDK,
        "azure_gpu_stacks.components.catalog",
        "azure_gpu_stacks.components.version",  # the pack's version is the package's
    ),
    "fakeazure": (
        "azure_gpu_stacks.fakeazure",
        SDK,
        "azure_gpu_stacks.components.catalog",
        "azure_gpu_stacks.components.input_files",  # az files are read as stack files are: one reader
    ),
    "preflight": (PACKAGE,),
}
# Modules of these folders stay under this many lines (the fake ARM holds itself to it in its own test).
MAX_LINES = 400
SMALL = ("components", "policies", "preflight", "sdk")


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name == PACKAGE or name.startswith(f"{PACKAGE}.")}


def _folder(path: Path) -> str:
    rel = path.relative_to(REPO).as_posix()
    return "components/catalog" if rel.startswith("components/catalog/") else rel.split("/", 1)[0]


def _ours(folder: str) -> list[Path]:
    """The package's modules under `folder` (not the virtualenv policies/venv links to)."""
    return sorted(p for p in (REPO / folder).rglob("*.py") if not {"venv", ".venv"} & set(p.relative_to(REPO).parts))


MODULES = [p for folder in ("sdk", "components", "policies", "fakeazure", "preflight") for p in _ours(folder)]


@pytest.mark.parametrize("path", MODULES, ids=[p.relative_to(REPO).as_posix() for p in MODULES])
def test_layout_imports_run_one_way(path: Path) -> None:
    allowed = ALLOWED[_folder(path)]
    wrong = sorted(m for m in _imports(path) if not any(m == a or m.startswith(f"{a}.") for a in allowed))

    assert wrong == []


def test_layout_every_module_is_under_400_lines() -> None:
    long = {
        p.relative_to(REPO).as_posix(): n
        for folder in SMALL
        for p in _ours(folder)
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }

    assert long == {}
