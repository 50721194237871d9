"""Where the installed azure-gpu-stacks lives: its import packages and their folders.

An editable install (this repository's `make`) maps each package to the repository's folder of the same
name; a wheel puts them under site-packages. The fleet's cache key hashes these folders' files, `--affected`
treats a change inside them as a change to every stack, and a SARIF finding never points into them
(a team's pull request does not change the toolkit's own code).
"""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path

# The import packages of the installed azure-gpu-stacks (pyproject.toml's [tool.setuptools] packages).
PACKAGES = ("catalog", "components", "engine", "fakeazure", "inputs", "policies", "sdk", "stack")


@cache
def package_directories() -> tuple[Path, ...]:
    """The folder of each installed package (an editable install: the repository's folders)."""
    return tuple(
        Path(importlib.import_module(f"azure_gpu_stacks.{name}").__file__ or "").resolve().parent for name in PACKAGES
    )


def inside_package(path: Path) -> bool:
    """Whether `path` is a file of the installed azure-gpu-stacks."""
    resolved = path.resolve()
    return any(resolved.is_relative_to(directory) for directory in package_directories())
