"""The Pulumi projects under a directory, and their stacks, in one deterministic order.

A project is a directory holding a project file (`Pulumi.json`, `Pulumi.yaml` or `Pulumi.yml`, as
the Pulumi CLI looks for it: `engine.run.project`); its stacks are the files of its
`stackConfigDir`. Directories that hold environments, caches or version control (`.git`, `.venv`,
`node_modules`, any hidden directory) are not searched. A stack is named in a fleet's reports by its
project's directory and its name, `teams/vision:dev` (`dev` alone for a project at the root), so two
projects' `dev` stacks never collide.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ...inputs.files import InputFileError, load_yaml
from ..errors import InputError
from ..run.project import Project, load_project, project_file

SKIPPED_DIRECTORIES = frozenset({"node_modules", "__pycache__", "venv", "site-packages"})
STACK_SEPARATOR = ":"


@dataclass(frozen=True)
class Member:
    """One project of the fleet: its directory relative to the root (POSIX, "." for the root) and the project."""

    directory: str
    project: Project

    def stack_id(self, stack: str) -> str:
        return stack if self.directory == "." else f"{self.directory}{STACK_SEPARATOR}{stack}"

    def path(self, relative: str) -> str:
        """A project-relative path as a root-relative one."""
        return relative if self.directory == "." else f"{self.directory}/{relative}"


@dataclass(frozen=True)
class FleetStack:
    member: Member
    name: str

    @property
    def id(self) -> str:
        return self.member.stack_id(self.name)

    @property
    def file(self) -> Path:
        project = self.member.project
        return project.stack_dir / f"Pulumi.{self.name}{project.extension}"


@dataclass(frozen=True)
class Fleet:
    root: Path
    members: tuple[Member, ...]
    not_python: tuple[str, ...]  # project files of other runtimes: named, not run

    def stacks(self) -> list[FleetStack]:
        """Every stack, by project directory then stack name."""
        return [FleetStack(m, s) for m in self.members for s in m.project.stacks()]


def project_directories(root: Path) -> list[Path]:
    """Directories under `root` (itself included) holding a project file, sorted."""
    found = []
    for directory, subdirectories, _ in os.walk(root):
        subdirectories[:] = sorted(d for d in subdirectories if not d.startswith(".") and d not in SKIPPED_DIRECTORIES)
        if project_file(Path(directory)) is not None:
            found.append(Path(directory))
    return sorted(found, key=lambda p: p.relative_to(root).parts)


def find_fleet(root: Path) -> Fleet:
    if not root.is_dir():
        raise InputError(f"--root {root}: no such directory; allowed: a directory holding Pulumi projects")
    root = root.resolve()  # programs run in their own directory: every path the run holds is absolute
    members, others = [], []
    for directory in project_directories(root):
        relative = directory.relative_to(root).as_posix()
        file = project_file(directory)
        assert file is not None
        runtime = _runtime(file, root)
        if runtime != "python":
            others.append(f"{file.relative_to(root).as_posix()}: runtime {runtime!r}")
            continue
        try:
            members.append(Member(relative, load_project(directory)))
        except InputError as exc:
            raise InputError(f"{relative}: {exc}") from None
    if not members:
        raise InputError(f"--root {root}: no Python Pulumi project (Pulumi.yaml with runtime python) under it")
    return Fleet(root, tuple(members), tuple(others))


def _runtime(file: Path, root: Path) -> object:
    try:
        data = load_yaml(file, "project", file.relative_to(root).as_posix())
    except InputFileError as exc:
        raise InputError(str(exc)) from None
    runtime = data.get("runtime") if isinstance(data, dict) else None
    return runtime.get("name") if isinstance(runtime, dict) else runtime
