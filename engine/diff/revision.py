"""The project as it was at a git revision: a temporary worktree, and the toolkit's code from it.

`gpu-stacks diff BASE` plans the project twice, at BASE and in the working tree. BASE is checked out
with `git worktree add --detach` into a temporary directory: the user's checkout, index and branches
are never touched (git only records the worktree under `.git/worktrees/`, and the record is removed
with it). Where the project's program is this toolkit's own code (the repository being diffed is the
one the installed `azure_gpu_stacks.components` comes from, as in this repository), the BASE plan
runs BASE's program-side code too: `toolkit_from` points the imports of the packages a program
runs (`PROGRAM_PACKAGES`: the components, the stack schema and program, the catalog they read, the
input readers) at the worktree's copies for the length of a plan, so a pull request that changes a
component shows what that change does. A package BASE does not have yet (an older layout) stays the
installed one. pulumi, pulumi-azure-native, the fake ARM, the policy pack and the prices are the
ones installed, shared by both plans (one import of the SDKs).
"""

from __future__ import annotations

import datetime as dt
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType, ModuleType

from ..errors import InputError

PACKAGE = "azure_gpu_stacks"
# The packages a program runs, in the toolkit's repository: each folder is mapped under PACKAGE.
PROGRAM_PACKAGES = ("components", "stack", "catalog", "inputs")


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
        raise InputError(
            f"{project_root}: not inside a git repository; `gpu-stacks diff` compares two revisions of one"
        )
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


# Signals that end a run the way Ctrl-C does (a CI job cancelled, a terminal closed): the worktree is
# removed first, then the process ends by the same signal, as it would have without us.
ENDING_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


class _Ended(BaseException):
    """SIGTERM or SIGHUP arrived while a worktree existed."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


@contextmanager
def _ended_by_signals() -> Iterator[None]:
    """Inside the block, SIGTERM and SIGHUP unwind the stack (so `finally` blocks run) in this process;
    a process forked inside it (a worker, a program) still ends at once, as by default."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    owner = os.getpid()

    def end(signum: int, frame: FrameType | None) -> None:
        if os.getpid() != owner:
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        raise _Ended(signum)

    previous = {signum: signal.signal(signum, end) for signum in ENDING_SIGNALS}
    try:
        yield
    except _Ended as ended:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        signal.signal(ended.signum, signal.SIG_DFL)
        os.kill(os.getpid(), ended.signum)  # end as the signal would have, now that nothing is left behind
        raise  # where the signal is ignored or handled elsewhere after all
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


@contextmanager
def checkout(repo: Path, revision: Revision) -> Iterator[Path]:
    """A temporary detached worktree of `revision` with its submodules, removed afterwards (on Ctrl-C,
    SIGTERM and SIGHUP too); yields its root."""
    with _ended_by_signals():
        parent = Path(tempfile.mkdtemp(prefix="gpu-stacks-diff-"))
        tree = parent / "base"
        try:
            done = _git(repo, "worktree", "add", "--detach", "--quiet", str(tree), revision.commit)
            if done.returncode != 0:
                message = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "git worktree add failed"
                raise InputError(f"BASE {revision.name!r}: cannot check it out: {message}")
            fill_submodules(_git_dir(repo), revision.commit, tree, revision)
            yield tree
        finally:
            if tree.exists():
                _git(repo, "worktree", "remove", "--force", str(tree))
            shutil.rmtree(parent, ignore_errors=True)
            _git(repo, "worktree", "prune")


def _git_dir(repo: Path) -> Path:
    """The repository's common git directory (the main one's, from a linked worktree too)."""
    done = _git(repo, "rev-parse", "--path-format=absolute", "--git-common-dir")
    return Path(done.stdout.strip())


def fill_submodules(git_dir: Path, commit: str, tree: Path, revision: Revision, where: str = "") -> None:
    """Put each submodule of `commit` into `tree` as BASE records it (the gitlink's commit), offline
    and read-only: from the module repositories this clone already has (`<git dir>/modules/<name>`,
    where `git submodule update --init` keeps them), with `git archive`; nested ones the same way."""
    listing = subprocess.run(
        ["git", f"--git-dir={git_dir}", "ls-tree", "-r", "-z", commit], capture_output=True, check=False
    ).stdout.decode("utf-8", "surrogateescape")
    links = {}
    for entry in filter(None, listing.split("\0")):
        meta, _, path = entry.partition("\t")
        mode, kind, sha = meta.split()
        if kind == "commit":
            links[path] = sha
    if not links:
        return
    names = _submodule_names(git_dir, commit)
    for path, sha in sorted(links.items()):
        name = names.get(path, path)
        module = git_dir / "modules" / name
        shown_path = f"{where}{path}"
        has = subprocess.run(
            ["git", f"--git-dir={module}", "cat-file", "-e", f"{sha}^{{commit}}"], capture_output=True, check=False
        )
        if not module.is_dir() or has.returncode != 0:
            raise InputError(
                f"BASE {revision.name!r}: submodule {shown_path} ({sha[:7]}) is not in this clone; allowed: fetch it "
                "once with `git submodule update --init --recursive` (diff reads submodules offline)"
            )
        target = tree / path
        target.mkdir(parents=True, exist_ok=True)
        _check_out(module, sha, target, f"BASE {revision.name!r}: submodule {shown_path} ({sha[:7]})")
        fill_submodules(module, sha, target, revision, f"{shown_path}/")


def _check_out(module: Path, commit: str, target: Path, label: str) -> None:
    """The files of `commit` written into `target` by git itself, as `git submodule update` writes them: its tree
    read into an index of its own (the module's index is left alone), then checked out from that index. git
    refuses an index path that climbs out of the tree or into `.git` (read-cache.c, `verify_path`) and writes
    symlinks as symlinks, as in the worktree of BASE around it. An extraction of `git archive`'s tar instead needed
    Python's extraction filters, which 3.11 has only from 3.11.4 on (docs.python.org/3/library/tarfile.html,
    "Extraction filters", observed 2026-11-28; Debian 12's python3 is 3.11.2), and ended in a traceback on a
    symlink out of the submodule, which the "data" filter refuses."""
    with tempfile.TemporaryDirectory(prefix="gpu-stacks-index-") as scratch:
        environ = {**os.environ, "GIT_INDEX_FILE": str(Path(scratch) / "index")}
        for step in (["read-tree", commit], ["checkout-index", "--all", "--force"]):
            done = subprocess.run(
                ["git", f"--git-dir={module}", f"--work-tree={target}", *step],
                cwd=target, env=environ, capture_output=True, text=True, check=False,
            )  # fmt: skip
            if done.returncode != 0:
                said = done.stderr.strip().splitlines()
                raise InputError(f"{label} cannot be read from this clone: {said[-1] if said else step[0] + ' failed'}")


def _submodule_names(git_dir: Path, commit: str) -> dict[str, str]:
    """{path: name} from `.gitmodules` at `commit` (a module's directory is named by its name)."""
    done = subprocess.run(
        ["git", f"--git-dir={git_dir}", "config", f"--blob={commit}:.gitmodules", "-z", "--get-regexp", r"\.path$"],
        capture_output=True,
        check=False,
    )
    names = {}
    for entry in filter(None, done.stdout.decode("utf-8", "surrogateescape").split("\0")):
        key, _, path = entry.partition("\n")
        names[path] = key.removeprefix("submodule.").removesuffix(".path")
    return names


def _installed(package: str) -> Path | None:
    """The directory the installed `azure_gpu_stacks.<package>` is read from."""
    spec = importlib.util.find_spec(f"{PACKAGE}.{package}")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def toolkit_packages_at(repo: Path, tree: Path) -> dict[str, Path]:
    """The program-side packages the worktree `tree` of `repo` has its own copy of, when `repo` is the
    toolkit's own repository (the installed packages live inside it): {dotted name: directory}."""
    found: dict[str, Path] = {}
    for package in PROGRAM_PACKAGES:
        installed = _installed(package)
        if installed is None:
            continue
        try:
            inside = installed.relative_to(repo.resolve())
        except ValueError:
            continue
        candidate = tree / inside
        if (candidate / "__init__.py").is_file():
            found[f"{PACKAGE}.{package}"] = candidate
    return found


class _Finder(importlib.abc.MetaPathFinder):
    """Finds each mapped package and its submodules in its one directory, and nowhere else."""

    def __init__(self, directories: dict[str, Path]):
        self.directories = directories

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        package = _package_of(fullname, self.directories)
        if package is None:
            return None
        place = self.directories[package].joinpath(*fullname.split(".")[2:])
        if (place / "__init__.py").is_file():
            return importlib.util.spec_from_file_location(
                fullname, place / "__init__.py", submodule_search_locations=[str(place)]
            )
        if place.with_suffix(".py").is_file():
            return importlib.util.spec_from_file_location(fullname, place.with_suffix(".py"))
        # Not the installed copy instead: a module the base revision lacks is missing there.
        raise ModuleNotFoundError(f"No module named {fullname!r} in {self.directories[package]}", name=fullname)


def _package_of(fullname: str, packages: dict[str, Path] | tuple[str, ...]) -> str | None:
    return next((p for p in packages if fullname == p or fullname.startswith(p + ".")), None)


def _modules_of(packages: dict[str, Path]) -> dict[str, ModuleType]:
    return {name: m for name, m in sys.modules.items() if _package_of(name, packages)}


@contextmanager
def toolkit_from(directories: dict[str, Path]) -> Iterator[None]:
    """`import azure_gpu_stacks.<package>...` reads the given directories inside the block, the installed
    copies after it. `directories` maps a dotted package name to its folder (the folder's name may
    differ: the finder maps the package to it); an empty mapping leaves imports alone.
    """
    if not directories:
        yield
        return
    saved = _modules_of(directories)
    for name in saved:
        del sys.modules[name]
    root = sys.modules.get(PACKAGE)
    saved_attributes = {name: getattr(root, name.rsplit(".", 1)[1], None) for name in directories} if root else {}
    finder = _Finder(directories)
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
        for name in _modules_of(directories):
            del sys.modules[name]
        sys.modules.update(saved)
        for name, attribute in saved_attributes.items():
            if root is not None and attribute is not None:
                setattr(root, name.rsplit(".", 1)[1], attribute)


@contextmanager
def base_clock_pinned(day: dt.date) -> Iterator[None]:
    """Inside `toolkit_from`: BASE's own copy of the clock (its components judge sizes with it) pinned to
    `day`, the day the installed copy judges on, so both revisions are planned on one day (--as-of)."""
    try:
        clock = importlib.import_module(f"{PACKAGE}.catalog.clock")
    except ImportError:  # a BASE from before the catalog had a clock: nothing to pin
        yield
        return
    pinned = getattr(clock, "pinned", None)
    if pinned is None:
        yield
        return
    with pinned(day):
        yield
