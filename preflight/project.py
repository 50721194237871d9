"""A Pulumi project on disk, read as the Pulumi CLI reads it: `Pulumi.yaml`, the main program and
the stack files (`<stackConfigDir>/Pulumi.<stack>.yaml`).

A stack file's `config` becomes the flat string map the CLI hands a Python program
(`{"azure-gpu-stacks:vm": "{\"vmSize\": ...}"}`): strings as they are, everything else as JSON.
Values only the CLI can decrypt (`secure:`) and secret keys the project declares but the stack does
not set become a placeholder, marked secret, so the program still runs offline.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from azure_gpu_stacks.components.input_files import InputFileError, load_yaml
from azure_gpu_stacks.preflight.errors import InputError

PROJECT_FILE = "Pulumi.yaml"
STACK_FILE = re.compile(r"^Pulumi\.(?P<stack>[^/]+)\.ya?ml$")
CONFIG_KEY = re.compile(r"^[A-Za-z0-9_.-]+:[A-Za-z0-9_.-]+$")
# What an offline run sees in place of a secret. It is a well-formed OpenSSH public key line so
# that programs validating key formats accept it; it opens nothing.
OFFLINE_SECRET = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG9mZmxpbmUtcGxhY2Vob2xkZXItbm90LWEta2V5 offline-placeholder"


@dataclass(frozen=True)
class Project:
    root: Path
    name: str
    main_file: Path
    stack_dir: Path
    secret_keys: tuple[str, ...]  # project config keys declared `secret: true`, namespaced

    def stacks(self) -> list[str]:
        return sorted(m["stack"] for p in self.stack_dir.glob("Pulumi.*.y*ml") if (m := STACK_FILE.match(p.name)))

    def relative(self, path: Path) -> str:
        try:  # the entry itself, not where a symbolic link leads (a broken link is named as it is)
            return str((path.parent.resolve() / path.name).relative_to(self.root.resolve()))
        except (ValueError, RuntimeError, OSError):
            return str(path)


@dataclass(frozen=True)
class StackSettings:
    name: str
    file: Path
    config: dict[str, str]
    secret_keys: list[str]
    placeholders: list[str] = field(default_factory=list)  # keys given a placeholder offline


def _read_yaml(path: Path, label: str, kind: str) -> Any:
    """The file's one YAML document, read with the caps of `azure_gpu_stacks.components.input_files`."""
    try:
        return load_yaml(path, kind, label)
    except InputFileError as exc:
        raise InputError(str(exc)) from None


def load_project(root: Path) -> Project:
    """Read `root/Pulumi.yaml`; only Python projects can be run offline."""
    if not root.is_dir():
        raise InputError(f"{root}: no such project directory")
    file = root / PROJECT_FILE
    if not file.is_file():
        raise InputError(f"{root}: no {PROJECT_FILE}; allowed: the directory of a Pulumi project")
    label = str(file)
    data = _read_yaml(file, label, "project")
    if not isinstance(data, dict):
        raise InputError(f"{label}: expected a mapping with name and runtime")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise InputError(f"{label}: name: missing; allowed: the project's name")
    runtime = data.get("runtime")
    runtime_name = runtime.get("name") if isinstance(runtime, dict) else runtime
    if runtime_name != "python":
        raise InputError(f"{label}: runtime: {runtime_name!r}; allowed: python (gpu-stacks runs Python programs)")
    main_file = _main_file(root, data.get("main"), label)
    stack_dir = root / str(data.get("stackConfigDir") or ".")
    config = data.get("config")
    declared: dict[str, Any] = config if isinstance(config, dict) else {}
    secret_keys = tuple(
        key if ":" in key else f"{name}:{key}"
        for key, decl in declared.items()
        if isinstance(decl, dict) and decl.get("secret") is True
    )
    return Project(root, name, main_file, stack_dir, secret_keys)


def _main_file(root: Path, main: Any, label: str) -> Path:
    target = root / str(main) if main else root
    if target.is_dir():
        target = target / "__main__.py"
    if not target.is_file():
        raise InputError(f"{label}: main: no Python program at {target}; allowed: a directory with __main__.py or a .py file")
    return target.resolve()  # absolute: the program runs after a chdir into the project


def find_stack(project: Project, stack: str) -> tuple[str, Path]:
    """A stack name in the project's stack directory, or a path to a `Pulumi.<stack>.yaml`."""
    as_path = Path(stack)
    if as_path.suffix in (".yaml", ".yml") or "/" in stack:
        match = STACK_FILE.match(as_path.name)
        if not match:
            raise InputError(f"{stack}: not a stack file; allowed: a file named Pulumi.<stack>.yaml")
        if not (as_path.exists() or as_path.is_symlink()):
            raise InputError(f"{stack}: no such stack file")
        return match["stack"], as_path
    for suffix in (".yaml", ".yml"):
        path = project.stack_dir / f"Pulumi.{stack}{suffix}"
        if path.exists() or path.is_symlink():  # a directory or a broken link is refused when read, by name
            return stack, path
    known = ", ".join(project.stacks()) or "none"
    raise InputError(f"unknown stack '{stack}' in {project.relative(project.stack_dir) or '.'}/; known stacks: {known}")


def load_stack(project: Project, stack: str) -> StackSettings:
    name, path = find_stack(project, stack)
    label = project.relative(path)
    data = _read_yaml(path, label, "stack")
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise InputError(f"{label}: expected a mapping with a `config` key, got {type(data).__name__}")
    config = data.get("config") or {}
    if not isinstance(config, dict):
        raise InputError(f"{label}: config: expected a mapping of namespace:key to values, got {type(config).__name__}")
    flat: dict[str, str] = {}
    secret: list[str] = []
    placeholders: list[str] = []
    for key, value in config.items():
        if not isinstance(key, str) or not CONFIG_KEY.match(key):
            raise InputError(
                f"{label}: config: key {key!r} is not of the form <namespace>:<name>; "
                f"allowed: e.g. {project.name}:vm or azure-native:location"
            )
        try:
            value, is_secret = _offline_value(value)
        except _NotCiphertext as exc:
            raise InputError(
                f"{label}: config.{key}{exc.where}.secure: a {exc.kind}, not ciphertext; allowed: the string "
                "`pulumi config set --secret` writes"
            ) from None
        flat[key] = value if isinstance(value, str) else json.dumps(value)
        if is_secret:
            secret.append(key)
            placeholders.append(key)
    for key in project.secret_keys:
        if key not in flat:
            flat[key] = OFFLINE_SECRET
            secret.append(key)
            placeholders.append(key)
    return StackSettings(name, path, flat, secret, placeholders)


_KINDS: dict[type, str] = {int: "number", float: "number", bool: "boolean", type(None): "null", list: "list", dict: "mapping"}


class _NotCiphertext(Exception):
    """A `secure:` whose value is not the CLI's ciphertext string (never shown: it may be a secret)."""

    def __init__(self, where: str, kind: str):
        super().__init__(where, kind)
        self.where = where
        self.kind = kind


def _offline_value(value: Any, where: str = "") -> tuple[Any, bool]:
    """The value with every `secure:` leaf replaced by the placeholder; whether one was."""
    if isinstance(value, dict) and set(value) == {"secure"}:
        if not isinstance(value["secure"], str) or not value["secure"]:
            raise _NotCiphertext(where, _KINDS.get(type(value["secure"]), "empty string"))
        return OFFLINE_SECRET, True
    if isinstance(value, dict):
        pairs = {k: _offline_value(v, f"{where}.{k}") for k, v in value.items()}
        return {k: v for k, (v, _) in pairs.items()}, any(s for _, s in pairs.values())
    if isinstance(value, list):
        items = [_offline_value(v, f"{where}[{i}]") for i, v in enumerate(value)]
        return [v for v, _ in items], any(s for _, s in items)
    return value, False
