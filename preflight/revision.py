"""The project as it was at a git revision: a temporary worktree, and the toolkit's code from it.

`gpu-stacks diff BASE` plans the project twice, at BASE and in the working tree. BASE is checked out
with `git worktree add --detach` into a temporary directory: the user's checkout, index and branches
are never touched (git only records the worktree under `.git/worktrees/`, and the record is removed
with it). Where the project's program is this toolkit's own code (the repository being diffed is the
one the installed `azure_gpu_stacks.components` comes from, as in this repository), the BASE plan
runs BASE's components too: `components_from` points the import of `azure_gpu_stacks.components`
at the worktree's copy for the length of a plan, so a pull request that changes a component shows
what that change does. pulumi, pulumi-azure-native, the fake ARM, the policy pack and the prices are
the ones installed, shared by both plans (one import of the SDKs).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from azure_gpu_stacks.preflight.errors import InputError

COMPONENTS = "azure_gpu_stacks.components"


@dataclass(frozen=True)
class Revision:
    name: str  # as the user wrote it: origin/main
    commit: str  # the full commit id

    @property
    def short(self) -> str:
        return self.commit[:7]


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=False)
    except FileNotFoundError:
        raise InputError("git is not installed; `gpu-stacks diff` needs git to read the base revision") from None


def repository_root(project_root: Path) -> Path:
    done = _git(project_root, "rev-parse", "--show-toplevel")
    if done.returncode != 0:
        raise InputError(f"{project_root}: not inside a git repository; `gpu-stacks diff` compares two revisions of one")
    return Path(done.stdout.strip())


def resolve(repo: Path, name: str) -> Revision:
    """The commit `name` names; InputError when there is none."""
    if name.startswith("-"):  # never let a revision be read as an option of git
        raise InputError(f"BASE {name!r}: not a revision; allowed: a branch, tag or commit such as origin/main")
    done = _git(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{name}^{{commit}}")
    if done.returncode != 0 or not done.stdout.strip():
        raise InputError(
            f"BASE {name!r}: no such revision in {repo}; allowed: a branch, tag or commit such as origin/main "
            f"(in CI, check out with fetch-depth: 0 so the base branch is there)"
        )
    return Revision(name, done.stdout.strip())


@contextmanager
def checkout(repo: Path, revision: Revision) -> Iterator[Path]:
    """A temporary detached worktree of `revision`, removed afterwards; yields its root."""
    parent = Path(tempfile.mkdtemp(prefix="gpu-stacks-diff-"))
    tree = parent / "base"
    done = _git(repo, "worktree", "add", "--detach", "--quiet", str(tree), revision.commit)
    if done.returncode != 0:
        shutil.rmtree(parent, ignore_errors=True)
        message = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "git worktree add failed"
        raise InputError(f"BASE {revision.name!r}: cannot check it out: {message}")
    try:
        yield tree
    finally:
        _git(repo, "worktree", "remove", "--force", str(tree))
        shutil.rmtree(parent, ignore_errors=True)
        _git(repo, "worktree", "prune")


def installed_components() -> Path:
    """The directory the installed `azure_gpu_stacks.components` package is read from."""
    spec = importlib.util.find_spec(COMPONENTS)
    assert spec is not None and spec.submodule_search_locations, "the toolkit is installed"
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def toolkit_components_at(repo: Path, tree: Path) -> Path | None:
    """Where the worktree `tree` of `repo` keeps the toolkit's components, when `repo` is the toolkit's
    own repository (the installed components live inside it); None otherwise."""
    installed = installed_components()
    try:
        inside = installed.relative_to(repo.resolve())
    except ValueError:
        return None
    candidate = tree / inside
    return candidate if (candidate / "__init__.py").is_file() else None


class _Finder(importlib.abc.MetaPathFinder):
    """Finds `azure_gpu_stacks.components` and its submodules in one directory, and nowhere else."""

    def __init__(self, directory: Path):
        self.directory = directory

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != COMPONENTS and not fullname.startswith(COMPONENTS + "."):
            return None
        place = self.directory.joinpath(*fullname.split(".")[2:])
        if (place / "__init__.py").is_file():
            return importlib.util.spec_from_file_location(
                fullname, place / "__init__.py", submodule_search_locations=[str(place)]
            )
        if place.with_suffix(".py").is_file():
            return importlib.util.spec_from_file_location(fullname, place.with_suffix(".py"))
        # Not the installed copy instead: a module the base revision lacks is missing there.
        raise ModuleNotFoundError(f"No module named {fullname!r} in {self.directory}", name=fullname)


def _component_modules() -> dict[str, ModuleType]:
    return {name: m for name, m in sys.modules.items() if name == COMPONENTS or name.startswith(COMPONENTS + ".")}


@contextmanager
def components_from(directory: Path | None) -> Iterator[None]:
    """`import azure_gpu_stacks.components...` reads `directory` inside the block, the installed copy after it.

    `directory` is a `components/` folder (its name may differ: the finder maps the package to it).
    None leaves imports alone.
    """
    if directory is None:
        yield
        return
    saved = _component_modules()
    for name in saved:
        del sys.modules[name]
    package = sys.modules.get("azure_gpu_stacks")
    saved_attribute = getattr(package, "components", None) if package else None
    finder = _Finder(directory)
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
        for name in _component_modules():
            del sys.modules[name]
        sys.modules.update(saved)
        if package is not None and saved_attribute is not None:
            package.components = saved_attribute  # type: ignore[attr-defined]
