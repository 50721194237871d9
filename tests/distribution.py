"""The distribution as users get it: a wheel built from this checkout, installed into new virtual
environments that share nothing with the repository.

Offline and in seconds: the wheel is built once per session with the build backend the test
environment already has (its PEP 517 hook called directly, setuptools pinned in the `test` extra), and a new
environment gets its third-party packages (pulumi, pulumi-azure-native, pulumi-policy, pydantic,
pyyaml, pip, ...) from the test environment through a `.pth` file instead of downloading them.
That `.pth` names a directory of links to the test environment's packages minus everything of
azure-gpu-stacks (the editable install's finder and metadata), so the only azure-gpu-stacks a new
environment can import, or pip can see as installed, is the one installed into it from the wheel.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from tests.conftest import REPO

# What a checkout holds besides sources (.gitignore's entries, and git's own): never copied into the build (`.tools`
# is the uv binary that `make` installs, 38 MB).
_NOT_SOURCES = shutil.ignore_patterns(
    ".git", ".venv", "venv", ".tools", "build", "dist", "*.egg-info", "__pycache__", "*.pyc", ".pytest_cache",
    ".mypy_cache", ".ruff_cache",
)  # fmt: skip
_OURS = ("azure_gpu_stacks", "__editable__.azure_gpu_stacks", "__editable___azure_gpu_stacks")


# PEP 517's build_wheel hook of the backend pyproject.toml names, called in one interpreter: what `pip wheel
# --no-build-isolation` calls too, after starting pip and a second interpreter for the metadata hook (the same
# 257 files, byte for byte, RECORD included: 2.6 against 1.2 CPU-s, docs/testing.md).
_BUILD_WHEEL = """
import importlib, sys, tomllib
with open("pyproject.toml", "rb") as fh:
    backend = tomllib.load(fh)["build-system"]["build-backend"]
print(importlib.import_module(backend).build_wheel(sys.argv[1]))
"""


def build_wheel(work: Path) -> Path:
    """The wheel of a copy of this checkout (a stale build/ of the checkout cannot leak in), built by the build
    backend the test environment has (setuptools, pinned in the `test` extra), offline."""
    source = work / "source"
    shutil.copytree(REPO, source, ignore=_NOT_SOURCES, symlinks=True)
    out = work / "wheelhouse"
    out.mkdir()
    subprocess.run(
        [sys.executable, "-c", _BUILD_WHEEL, str(out)], cwd=source, check=True, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    (wheel,) = out.glob("azure_gpu_stacks-*.whl")
    return wheel


def third_party_packages(work: Path) -> Path:
    """A directory of links to the test environment's installed packages, none of azure-gpu-stacks."""
    site = Path(sysconfig.get_paths()["purelib"])
    packages = work / "third-party"
    packages.mkdir()
    for entry in site.iterdir():
        if not entry.name.startswith(_OURS) and entry.suffix != ".pth":
            (packages / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    return packages


def new_venv(where: Path, third_party: Path, *, with_pip: bool = False) -> Path:
    """A new virtual environment at `where` whose third-party packages come from `third_party`; its python."""
    subprocess.run(
        [sys.executable, "-m", "venv", *([] if with_pip else ["--without-pip"]), str(where)],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    python = where / "bin" / "python"
    add_third_party(python, third_party)
    return python


def add_third_party(python: Path, third_party: Path) -> None:
    """Let the environment of `python` import the test environment's third-party packages (see above)."""
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True, timeout=60,
    ).stdout.strip()  # fmt: skip
    (Path(purelib) / "test-third-party.pth").write_text(f"{third_party}\n", encoding="utf-8")


def pip_install(python: Path, *args: str, cwd: Path | None = None) -> None:
    """`python -m pip install` offline, no dependencies resolved (they are the test environment's)."""
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        + ["--no-index", "--no-deps", *args],
        cwd=cwd, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
