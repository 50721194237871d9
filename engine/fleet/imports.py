"""What a program's result can depend on, read from its source without running it.

From the program's entry file, every `import` is followed: a module of the program's own directory
(the one `sys.path` entry Pulumi adds for a directory program: `engine.run.runtime.program_environment`)
is a file of the graph, and its imports are followed in turn; a module of the standard library or of
the installed environment belongs to the environment (the cache key holds its versions). What cannot
be known statically is named, with its file and line: an import found nowhere, a dynamic import
(`importlib.import_module`, `__import__`, `exec`, `eval`, `runpy`), a file opened or listed at run
time (`open`, `read_text`, `os.listdir`, `glob`...), a change to `sys.path`, a file that does not parse.
A program with any of these is taken to depend on every file of its project and of the fleet.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ...inputs.files import read_bytes
from ..run.project import Project

# Calls whose target is known only at run time: the function or method name -> what it does.
DYNAMIC_CALLS = {
    "__import__": "imports a module named at run time",
    "import_module": "imports a module named at run time",
    "exec": "runs code built at run time",
    "eval": "runs code built at run time",
    "run_path": "runs a file named at run time",
    "run_module": "runs a module named at run time",
    "open": "opens a file at run time",
    "read_text": "reads a file at run time",
    "read_bytes": "reads a file at run time",
    "listdir": "lists a directory at run time",
    "scandir": "lists a directory at run time",
    "iterdir": "lists a directory at run time",
    "glob": "lists files at run time",
    "rglob": "lists files at run time",
    "walk": "lists files at run time",
    "load_source": "imports a file at run time",
    "spec_from_file_location": "imports a file at run time",
}


@dataclass(frozen=True)
class Graph:
    files: tuple[Path, ...]  # the program's own modules, the entry file first, resolved
    unknown: tuple[str, ...]  # what cannot be known statically, `file:line: what`


def program_graph(project: Project) -> Graph:
    return _graph(project.main_file, project.program if project.main_is_directory else None, project.root)


@cache
def _graph(entry: Path, program_dir: Path | None, root: Path) -> Graph:
    search = program_dir.resolve() if program_dir is not None else None
    seen: dict[Path, None] = {}
    unknown: list[str] = []
    todo = [entry.resolve()]
    while todo:
        file = todo.pop()
        if file in seen:
            continue
        seen[file] = None
        where = _label(file, root)
        try:
            tree = ast.parse(read_bytes(file, "source", where), filename=str(file))
        except (OSError, ValueError, SyntaxError) as exc:
            unknown.append(f"{where}: cannot be read statically ({type(exc).__name__})")
            continue
        for node in ast.walk(tree):
            for module, line in _imported(node, file, search):
                found = _resolve(module, search)
                if found is None and not _environment_has(module):
                    unknown.append(
                        f"{where}:{line}: imports {module}, which is found neither beside the program nor installed"
                    )
                todo += found or []
            if isinstance(node, ast.Call):
                name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
                if name in DYNAMIC_CALLS:
                    unknown.append(f"{where}:{node.lineno}: {name}() {DYNAMIC_CALLS[name]}")
            if isinstance(node, ast.Attribute) and node.attr == "path" and getattr(node.value, "id", None) == "sys":
                unknown.append(f"{where}:{node.lineno}: sys.path changes where modules are found")
    return Graph(tuple(seen), tuple(unknown))


def _label(file: Path, root: Path) -> str:
    try:
        return file.relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(file)


def _imported(node: ast.AST, file: Path, search: Path | None) -> list[tuple[str, int]]:
    """Absolute module names an import statement loads (a relative one resolved against `file`'s package)."""
    if isinstance(node, ast.Import):
        return [(alias.name, node.lineno) for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level == 0:
        base = node.module or ""
    else:
        package = file.parent
        for _ in range(node.level - 1):
            package = package.parent
        if search is None or not package.is_relative_to(search):
            return [(f"{'.' * node.level}{node.module or ''}", node.lineno)]
        parts = package.relative_to(search).parts
        base = ".".join([*parts, *([node.module] if node.module else [])])
    # `from a import b`: b may be a submodule; both are tried, the one that exists counts
    names = [base] if base else []
    names += [f"{base}.{alias.name}" if base else alias.name for alias in node.names if alias.name != "*"]
    return [(name, node.lineno) for name in names]


def _resolve(module: str, search: Path | None) -> list[Path] | None:
    """The files beside the program that importing `module` runs (its packages' `__init__.py` too); None if none."""
    if search is None or module.startswith("."):
        return None
    parts = module.split(".")
    files: list[Path] = []
    for depth in range(1, len(parts) + 1):
        base = search.joinpath(*parts[:depth])
        for candidate in (base / "__init__.py", base.with_suffix(".py")):
            if candidate.is_file():
                files.append(candidate.resolve())
                break
        else:
            if not base.is_dir():  # a namespace package directory imports nothing itself
                break
    return files or None


@cache
def _environment_has(module: str) -> bool:
    """Whether `module`'s top-level package is in the standard library or installed (importable here)."""
    top = module.split(".")[0]
    if not top or top.startswith("."):
        return False
    if top in sys.stdlib_module_names or top in sys.builtin_module_names:
        return True
    try:
        return importlib.util.find_spec(top) is not None
    except (ImportError, ValueError):
        return False
