"""The fake ARM's layout: one module per Azure namespace, each registering its own types, no import cycle."""

from __future__ import annotations

import ast
from pathlib import Path

from azure_gpu_stacks.fakeazure import models
from azure_gpu_stacks.fakeazure.models import INVOKES, NAMESPACES, RESOURCE_TYPES

FAKEAZURE = Path(models.__file__).resolve().parent.parent
PACKAGE = "azure_gpu_stacks.fakeazure"


def _module_name(path: Path) -> str:
    rel = path.relative_to(FAKEAZURE).with_suffix("")
    parts = [p for p in rel.parts if p != "__init__"]
    return ".".join([PACKAGE, *parts])


def _runtime_imports(path: Path) -> set[str]:
    """The fakeazure modules `path` imports when it runs (imports under `if TYPE_CHECKING:` left out)."""
    tree = ast.parse(path.read_text())
    type_only = {
        id(node)
        for stmt in ast.walk(tree)
        if isinstance(stmt, ast.If) and isinstance(stmt.test, ast.Name) and stmt.test.id == "TYPE_CHECKING"
        for node in ast.walk(stmt)
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(PACKAGE):
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith(PACKAGE))
    return found


def test_every_namespace_module_registers_only_its_own_namespace() -> None:
    for namespace in NAMESPACES:
        module = namespace.__name__.rsplit(".", 1)[-1]
        assert namespace.TYPES, module
        for rtype in namespace.TYPES:
            assert rtype.token.split(":")[1] == module, (module, rtype.token)
        for token in getattr(namespace, "INVOKES", {}):
            assert token.split(":")[1] == module, (module, token)
    assert len(RESOURCE_TYPES) == sum(len(ns.TYPES) for ns in NAMESPACES), "a token registered twice"
    assert "azure-native:authorization:getClientConfig" in INVOKES


def test_no_import_cycle_in_the_fake_arm() -> None:
    files = {_module_name(p): p for p in FAKEAZURE.rglob("*.py")}
    graph = {name: {m for m in _runtime_imports(path) if m in files and m != name} for name, path in files.items()}
    # the package __init__ composes its namespace modules; a namespace module must not import it back
    state: dict[str, int] = {}

    def visit(name: str, trail: list[str]) -> None:
        if state.get(name) == 2:
            return
        assert state.get(name) != 1, " -> ".join([*trail, name])
        state[name] = 1
        for dep in sorted(graph[name]):
            visit(dep, [*trail, name])
        state[name] = 2

    for name in sorted(graph):
        visit(name, [])
