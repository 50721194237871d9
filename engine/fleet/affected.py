"""`check --affected BASE`: the stacks a change since the git revision BASE can alter, and why.

The change is every file that differs between BASE and the working tree (`git diff --name-only
--no-renames BASE`, both sides of a rename) plus untracked files git does not ignore. A stack is in
when (each a reason the report prints):
- its stack file changed;
- its project file changed, or a module of its program's import graph (`imports`);
- a file of its project changed and its program has dependencies that cannot be read statically
  (a dynamic import, a file opened at run time): then any file of the project counts;
- a `stack-outputs/` file of its project changed, or a stack it references through a StackReference
  is in (the edges are the project's `stack-outputs/ORG/PROJECT/STACK.json` files and
  `--stack-outputs`; followed transitively);
- a dependency pin of its project changed (requirements.txt, pyproject.toml, lock files);
and every stack is in when a file every stack reads changed (`--usage`, `--aml-usage`, `--skus`,
`--existing`, `--policy-config`, a `--stack-outputs` file), the installed azure-gpu-stacks changed
(a file of its packages, catalog included, is in the change), a dependency pin outside every project
changed, or a size's lifecycle (current, retiring, capacity-restricted, retired: what verdicts read
the day for) differs between BASE's commit day and the day of this check.
"""

from __future__ import annotations

import datetime as dt
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ...catalog.usage import USAGE_FILE
from ...inputs.files import InputFileError, read_head
from ..errors import InputError
from ..run.stack_references import CONVENTIONAL_DIR
from .discover import Fleet, FleetStack, Member
from .imports import program_graph

DEPENDENCY_PINS = frozenset(
    {"requirements.txt", "pyproject.toml", "uv.lock", "poetry.lock", "Pipfile", "Pipfile.lock", "setup.py", "setup.cfg"}
)
GIT_TIMEOUT_S = 60


@dataclass(frozen=True)
class Change:
    base: str  # the revision as given
    commit: str
    day: dt.date  # BASE's commit day (UTC)
    files: frozenset[Path]  # resolved paths


class GitNotFound(InputError):
    """git itself could not be started: a missing tool, not a bad revision."""


def _git(root: Path, *argv: str) -> str:
    try:
        done = subprocess.run(["git", "-C", str(root), *argv], capture_output=True, timeout=GIT_TIMEOUT_S, check=False)
    except FileNotFoundError:
        raise GitNotFound("--affected: git not found; allowed: git installed and on PATH") from None
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise InputError(f"--affected: git {' '.join(argv)}: {exc}; allowed: a git work tree and git on PATH") from None
    if done.returncode != 0:
        first = (done.stderr.decode("utf-8", "replace").strip().splitlines() or ["failed"])[0]
        raise InputError(f"--affected: git {argv[0]}: {first}")
    return done.stdout.decode("utf-8", "surrogateescape")


def read_change(root: Path, base: str) -> Change:
    if base.startswith("-") or not base:
        raise InputError(f"--affected {base!r}: allowed: a git revision (a branch, tag or commit)")
    try:
        top, commit = _git(root, "rev-parse", "--show-toplevel", "--verify", "--quiet", f"{base}^{{commit}}").split()
    except GitNotFound:
        raise
    except (InputError, ValueError):
        raise InputError(
            f"--affected {base!r}: not a commit of the repository at {root}; allowed: a git revision "
            "(fetch it first: actions/checkout fetch-depth: 0)"
        ) from None
    stamp = int(_git(root, "show", "-s", "--format=%ct", commit).strip())
    names = _git(root, "diff", "--name-only", "--no-renames", "-z", commit, "--").split("\0")
    names += _git(root, "ls-files", "--others", "--exclude-standard", "-z", "--full-name").split("\0")
    files = frozenset((Path(top) / name).resolve() for name in names if name)
    return Change(base, commit, dt.datetime.fromtimestamp(stamp, dt.timezone.utc).date(), files)


def lifecycle_changes(before: dt.date, after: dt.date) -> list[str]:
    """Sizes whose lifecycle differs between the two days, `Standard_X: retiring -> retired`."""
    from ...catalog.model import catalog

    return [
        f"{size.name}: {size.status_on(before)} -> {size.status_on(after)}"
        for size in catalog().sizes
        if size.status_on(before) != size.status_on(after)
    ]


def _inside(path: Path, directory: Path) -> bool:
    return path.is_relative_to(directory)


def select(
    fleet: Fleet,
    stacks: Sequence[FleetStack],
    change: Change,
    day: dt.date,
    input_files: Sequence[tuple[str, Path]],
    package_directories: Sequence[Path],
    stack_outputs_option: Sequence[str],
) -> dict[str, list[str]]:
    """The reasons of each stack a change can alter, by id; stacks not in it are unchanged."""
    root = fleet.root.resolve()

    def shown(path: Path) -> str:
        return path.relative_to(root).as_posix() if _inside(path, root) else str(path)

    everyone: list[str] = []
    for option, path in input_files:
        if path.resolve() in change.files:
            everyone.append(f"{option} file {path} changed")
    for path in sorted(change.files):
        if any(_inside(path, d) for d in package_directories):
            everyone.append(f"the installed azure-gpu-stacks changed ({shown(path)})")
            break
    owners = sorted((m.project.root.resolve() for m in fleet.members), key=lambda p: len(p.parts), reverse=True)

    def owner(path: Path) -> Path | None:
        return next((r for r in owners if _inside(path, r)), None)

    by_owner: dict[Path | None, list[Path]] = {}
    for path in sorted(change.files):
        by_owner.setdefault(owner(path), []).append(path)
    for path in by_owner.get(None, []):
        if path.name in DEPENDENCY_PINS:
            everyone.append(f"dependency pins changed ({shown(path)})")
    if moved := lifecycle_changes(change.day, day):
        everyone.append(
            f"size lifecycles differ between {change.base}'s day {change.day} and {day} ({', '.join(moved[:3])}"
            + (f" and {len(moved) - 3} more)" if len(moved) > 3 else ")")
        )

    # a change with no Python source (nor a program's entry file) in it changes no program's modules: no
    # import graph is read then
    entries = {m.project.main_file.resolve() for m in fleet.members}
    sources = any(path.suffix == ".py" or path in entries for path in change.files)
    per_project = {
        m.directory: _project_reasons(m, by_owner.get(m.project.root.resolve(), []), change, sources, shown)
        for m in fleet.members
    }
    # `Pulumi.<stack>.<anything>` in a stack directory: (directory, each name it can be the file of) -> files
    changed_stack_files: dict[tuple[Path, str], list[Path]] = {}
    for path in sorted(p for p in change.files if p.name.startswith("Pulumi.")):
        rest = path.name.removeprefix("Pulumi.")
        for end in (i for i, c in enumerate(rest) if c == "."):
            changed_stack_files.setdefault((path.parent, rest[:end]), []).append(path)
    stack_dirs = {m.directory: m.project.stack_dir.resolve() for m in fleet.members}
    references = References(fleet, stacks, sorted(change.files), stack_outputs_option)
    reasons: dict[str, list[str]] = {}
    for stack in stacks:
        own = list(everyone) + per_project[stack.member.directory]
        for path in changed_stack_files.get((stack_dirs[stack.member.directory], stack.name), []):
            own.append(f"stack file changed ({shown(path)})")
        for target, via in references.targets(stack.member):
            if via is not None and via in change.files and references.holds(stack, target):
                own.append(f"stack outputs of {target} changed ({shown(via)})")
        if own:
            reasons[stack.id] = own
    _follow_references(stacks, reasons, references, shown)
    return reasons


def _project_reasons(
    member: Member, mine: list[Path], change: Change, sources: bool, shown: Callable[[Path], str]
) -> list[str]:
    """The reasons every stack of the project is in; `mine`: the changed files of the project, in order."""
    if not mine and not sources:
        return []
    project = member.project
    root = project.root.resolve()
    found = []
    graph = program_graph(project)
    modules = set(graph.files)
    for path in mine:
        if path.parent == root and path.name.startswith("Pulumi.") and path.name.count(".") == 1:
            found.append(f"project file changed ({shown(path)})")
        elif path.parent == root and path.name == USAGE_FILE:  # the usage values its charges rest on
            found.append(f"usage file changed ({shown(path)})")
        elif path in modules:
            found.append(f"program module changed ({shown(path)})")
        elif path.name in DEPENDENCY_PINS:
            found.append(f"dependency pins changed ({shown(path)})")
    found += [f"program module changed ({shown(p)})" for p in sorted(change.files & modules) if p not in mine]
    if graph.unknown and mine:
        found.append(
            f"a file of the project changed ({shown(mine[0])}) and the program has dependencies that cannot be "
            f"read statically ({graph.unknown[0]})"
        )
    return found


class References:
    """The stacks each stack may reference, read only as far as a question needs.

    A project's references (`targets`) are the `stack-outputs/ORG/PROJECT/STACK.json` files it holds (and
    those of the change: changed ones, deleted ones included) and `--stack-outputs`, each with its outputs
    file (None for `--stack-outputs`). Which of its stacks reads one (`holds`) is known when stack files
    name it in full and the program does not: then those stacks; else all of them. The project's stack
    files and program are read the first time that is asked, so a change that reaches no reference reads
    no stack file.
    """

    def __init__(self, fleet: Fleet, stacks: Sequence[FleetStack], extra: Sequence[Path], option: Sequence[str]):
        self._stacks: dict[str, list[FleetStack]] = {}
        for stack in stacks:
            self._stacks.setdefault(stack.member.directory, []).append(stack)
        self._extra = extra
        self._option = [(value.partition("=")[0], None) for value in option]
        self._targets: dict[str, list[tuple[str, Path | None]]] = {}
        self._texts: dict[str, tuple[str, dict[str, str]]] = {}

    def targets(self, member: Member) -> list[tuple[str, Path | None]]:
        """`(ORG/PROJECT/STACK, its outputs file or None)` a stack of the project may reference."""
        if member.directory not in self._targets:
            found: list[tuple[str, Path | None]] = []
            if self._stacks.get(member.directory):
                outputs = (member.project.root / CONVENTIONAL_DIR).resolve()
                files = set(outputs.glob("*/*/*.json")) if outputs.is_dir() else set()
                files |= {p for p in self._extra if _inside(p, outputs)}
                found = [("/".join(p.relative_to(outputs).with_suffix("").parts), p) for p in sorted(files)]
                found += self._option
            self._targets[member.directory] = found
        return self._targets[member.directory]

    def holds(self, stack: FleetStack, target: str) -> bool:
        """Whether `stack` may read `target`'s outputs."""
        member = stack.member
        if member.directory not in self._texts:
            project = member.project
            program = _text(project.main_file) + "".join(_text(f) for f in program_graph(project).files)
            self._texts[member.directory] = (program, {s.id: _text(s.file) for s in self._stacks[member.directory]})
        program, texts = self._texts[member.directory]
        if target in program or not any(target in text for text in texts.values()):
            return True
        return target in texts[stack.id]


def _text(path: Path, limit: int = 4 * 1024 * 1024) -> str:
    try:
        return read_head(path, limit).decode("utf-8", "replace")
    except InputFileError:  # a FIFO or a device is never opened
        return ""


def _follow_references(
    stacks: Sequence[FleetStack],
    reasons: dict[str, list[str]],
    references: References,
    shown: Callable[[Path], str],
) -> None:
    """Add each stack that references a stack that is in, until nothing more is added."""
    by_name: dict[tuple[str, str], list[str]] = {}
    for stack in stacks:
        by_name.setdefault((stack.member.project.name, stack.name), []).append(stack.id)
    changed = True
    while changed:
        changed = False
        for stack in stacks:
            if stack.id in reasons:
                continue
            for target, via in references.targets(stack.member):
                parts = target.split("/")
                if len(parts) != 3:
                    continue
                hit = next((i for i in by_name.get((parts[1], parts[2]), []) if i in reasons and i != stack.id), None)
                if hit is not None and references.holds(stack, target):
                    where = "--stack-outputs" if via is None else shown(via)
                    reasons[stack.id] = [
                        f"references {target} ({hit}, which is checked) through a StackReference ({where})"
                    ]
                    changed = True
                    break
