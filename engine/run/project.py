"""A Pulumi project on disk, read as the Pulumi CLI reads it: `Pulumi.yaml`, the main program and
the stack files (`<stackConfigDir>/Pulumi.<stack>.yaml`).

Where the CLI looks (pulumi/pulumi `sdk/go/common/workspace/paths.go`, observed 2026-11-22): the
project file is `Pulumi.json`, `Pulumi.yaml` or `Pulumi.yml`, tried in that order, and a stack's
file is `Pulumi.<stack>` with the project file's own extension (`ProjectStackPath`): next to a
`Pulumi.yaml`, a `Pulumi.<stack>.yml` is never read.

A stack file's `config` becomes the flat string map the CLI hands a Python program
(`{"azure-gpu-stacks:vm": "{\"vmSize\": ...}"}`), after the project's `config:` declarations are
applied as `pulumi preview` applies them (`engine.run.pulumi_config`). Values only the CLI can decrypt
(`secure:`) become a placeholder, marked secret, so the program still runs offline.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...catalog.usage import SHIPPED_USAGE, Usage, read_usage
from ...inputs.files import InputFileError, load_yaml
from ...inputs.offline_secret import OFFLINE_SECRET
from ..errors import InputError
from .pulumi_config import (
    Declaration,
    StackValue,
    apply_project_config,
    check_namespace,
    full_key,
    parse_declarations,
    stack_name_problem,
    stack_value,
)

PROJECT_FILE = "Pulumi.yaml"
PROJECT_FILES = ("Pulumi.json", "Pulumi.yaml", "Pulumi.yml")  # the CLI's order (encoding.Exts)
STACK_FILE = re.compile(r"^Pulumi\.(?P<stack>[^/]+)\.(ya?ml|json)$")
# runtime.options.toolchain (pulumi/pulumi sdk/python/cmd/pulumi-language-python/main.go `parseOptions`,
# observed 2026-11-25); pip, the default, uses `virtualenv` alone.
TOOLCHAINS = ("pip", "poetry", "uv")
PROJECT_NAME = re.compile(r"^[A-Za-z0-9_.-]+$")  # tokens.IsName


@dataclass(frozen=True)
class Project:
    root: Path
    name: str
    main_file: Path
    stack_dir: Path
    declarations: tuple[Declaration, ...] = ()  # Pulumi.yaml's `config:`
    extension: str = ".yaml"  # the project file's, which stack files share
    virtualenv: str | None = None  # runtime.options.virtualenv (engine.run.interpreter resolves it)
    toolchain: str = "pip"  # runtime.options.toolchain: pip, poetry or uv
    main_is_directory: bool = True  # `main:` unset or a directory, rather than a file
    usage: Usage = SHIPPED_USAGE  # gpu-stacks.usage.yaml beside the project file over the shipped defaults

    @property
    def program(self) -> Path:
        """What the CLI's Python host runs: the `main:` directory (its `__main__.py`), or the `main:` file."""
        return self.main_file.parent if self.main_is_directory else self.main_file

    def stacks(self) -> list[str]:
        """The stacks whose files the CLI reads (`Pulumi.<stack>` + the project file's extension)."""
        found = (STACK_FILE.match(p.name) for p in self.stack_dir.glob(f"Pulumi.*{self.extension}"))
        return sorted(m["stack"] for m in found if m and not stack_name_problem(m["stack"]))

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
    warnings: list[str] = field(default_factory=list)  # what the CLI would warn about, or ignore

    @property
    def declared_secrets(self) -> list[str]:
        """The values the stack file makes secret (`secure:` values and keys declared secret), known before
        the program runs: whatever the program does with them, no output may show them."""
        return [value for key, value in self.config.items() if key in self.secret_keys and value]


def declared_secrets(project: Project, stack: str) -> list[str]:
    """The stack's declared secret values; none when its stack file cannot be read (that is said elsewhere)."""
    try:
        return load_stack(project, stack).declared_secrets
    except InputError:
        return []


def _read_yaml(path: Path, label: str, kind: str) -> Any:
    """The file's one YAML document, read with the caps of `azure_gpu_stacks.inputs.files`."""
    try:
        return load_yaml(path, kind, label)
    except InputFileError as exc:
        raise InputError(str(exc)) from None


def project_file(root: Path) -> Path | None:
    """`findProjectInDir`: the first of Pulumi.json, Pulumi.yaml, Pulumi.yml that is a file."""
    return next((root / n for n in PROJECT_FILES if (root / n).is_file()), None)


def find_project_root(start: Path) -> Path | None:
    """`DetectProjectPathFrom`: the nearest directory from `start` upward that holds a project file."""
    for directory in (start, *start.parents):
        if project_file(directory) is not None:
            return directory
    return None


def load_project(root: Path) -> Project:
    """Read `root/Pulumi.yaml`; only Python projects can be run offline."""
    if not root.is_dir():
        raise InputError(f"{root}: no such project directory")
    file = project_file(root)
    if file is None:
        raise InputError(f"{root}: no {PROJECT_FILE}; allowed: the directory of a Pulumi project")
    label = str(file)
    data = _read_yaml(file, label, "project")
    if not isinstance(data, dict):
        raise InputError(f"{label}: expected a mapping with name and runtime")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise InputError(f"{label}: name: missing; allowed: the project's name")
    if len(name) > 100 or not PROJECT_NAME.match(name):  # tokens.ValidateProjectName
        raise InputError(
            f"{label}: name: {name!r}: project names may only contain alphanumerics, hyphens, underscores, and "
            "periods; allowed: at most 100 of those"
        )
    runtime = data.get("runtime")
    runtime_name = runtime.get("name") if isinstance(runtime, dict) else runtime
    if runtime_name != "python":
        raise InputError(f"{label}: runtime: {runtime_name!r}; allowed: python (gpu-stacks runs Python programs)")
    main_file = _main_file(root, data.get("main"), label)
    config = data.get("config")
    stack_dir_name = data.get("stackConfigDir")
    if isinstance(config, str):  # the deprecated `config: <dir>` (RewriteConfigPathIntoStackConfigDir)
        if stack_dir_name:
            raise InputError(
                f"{label}: config: Should not use both config and stackConfigDir to define the stack config directory"
            )
        stack_dir_name, config = config, None
    stack_dir = root / str(stack_dir_name or ".")
    declarations = parse_declarations(name, config, label)
    options = runtime.get("options") if isinstance(runtime, dict) else None
    virtualenv = options.get("virtualenv") if isinstance(options, dict) else None
    if virtualenv is not None and not isinstance(virtualenv, str):  # pulumi-language-python's parseOptions
        raise InputError(
            f"{label}: runtime.options.virtualenv: {virtualenv!r}; allowed: virtualenv option must be a string"
        )
    toolchain = options.get("toolchain", "pip") if isinstance(options, dict) else "pip"
    if toolchain not in TOOLCHAINS:  # parseOptions again: "unsupported toolchain option", "must be a string"
        raise InputError(f"{label}: runtime.options.toolchain: {toolchain!r}; allowed: {', '.join(TOOLCHAINS)}")
    main = data.get("main")
    main_is_directory = not main or (root / str(main)).is_dir()
    try:
        usage = read_usage(root)
    except InputFileError as exc:
        raise InputError(str(exc)) from None
    return Project(
        root, name, main_file, stack_dir, declarations, file.suffix, virtualenv, toolchain, main_is_directory, usage
    )


def _main_file(root: Path, main: Any, label: str) -> Path:
    target = root / str(main) if main else root
    if target.is_dir():
        target = target / "__main__.py"
    if not target.is_file():
        raise InputError(
            f"{label}: main: no Python program at {target}; allowed: a directory with __main__.py or a .py file"
        )
    return target.resolve()  # absolute: the program runs after a chdir into the project


def find_stack(project: Project, stack: str) -> tuple[str, Path]:
    """A stack name in the project's stack directory, or a path to a `Pulumi.<stack>.yaml`."""
    as_path = Path(stack)
    if as_path.suffix in (".yaml", ".yml", ".json") or "/" in stack:
        match = STACK_FILE.match(as_path.name)
        if not match:
            raise InputError(f"{stack}: not a stack file; allowed: a file named Pulumi.<stack>{project.extension}")
        if not (as_path.exists() or as_path.is_symlink()):
            raise InputError(f"{stack}: no such stack file")
        _check_stack_name(match["stack"], stack)
        if as_path.suffix != project.extension:
            raise InputError(
                _unread(project, as_path, as_path.with_name(f"Pulumi.{match['stack']}{project.extension}"))
            )
        return match["stack"], as_path
    _check_stack_name(stack, stack)
    path = project.stack_dir / f"Pulumi.{stack}{project.extension}"
    if path.exists() or path.is_symlink():  # a directory or a broken link is refused when read, by name
        return stack, path
    for other in _other_extensions(project, stack):
        raise InputError(_unread(project, other, path))
    names = project.stacks()
    guess = difflib.get_close_matches(stack, names, n=1)
    hint = f"did you mean '{guess[0]}'? " if guess else ""
    known = ", ".join(names) or "none"
    raise InputError(
        f"unknown stack '{stack}' in {project.relative(project.stack_dir) or '.'}/; {hint}known stacks: {known}"
    )


def _check_stack_name(name: str, given: str) -> None:
    if problem := stack_name_problem(name):
        raise InputError(f"stack {given!r}: {problem}; allowed: letters, digits, '-', '_' and '.', at most 100")


def _other_extensions(project: Project, stack: str) -> list[Path]:
    """Files of this stack with another extension than the project file's: the CLI never reads them."""
    names = (f"Pulumi.{stack}{ext}" for ext in (".yaml", ".yml", ".json") if ext != project.extension)
    return [p for n in names if (p := project.stack_dir / n).is_file()]


def _unread(project: Project, file: Path, read: Path) -> str:
    return (
        f"{project.relative(file)}: the Pulumi CLI does not read this file: next to "
        f"Pulumi{project.extension} it reads {project.relative(read)}; allowed: rename it to {read.name}"
    )


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
    values: dict[str, StackValue] = {}
    written: dict[str, str] = {}
    empty: list[str] = []
    for key, value in config.items():
        namespaced = full_key(project.name, key) if isinstance(key, str) else None
        if namespaced is None:
            raise InputError(
                f"{label}: config: could not parse {key!r} as a configuration key; "
                f"allowed: <namespace>:<name> such as {project.name}:vm or azure-native:location, or <name> for "
                f"{project.name}:<name>"
            )
        if namespaced in written:
            raise InputError(
                f"{label}: config: '{written[namespaced]}' and '{key}' are the same key, {namespaced}; allowed: "
                "one of them"
            )
        check_namespace(namespaced, project.name, project.declarations, label)
        written[namespaced] = key
        if value is None:
            empty.append(namespaced)
        try:
            _offline_value(value)  # every `secure:` holds ciphertext
        except _NotCiphertext as exc:
            raise InputError(
                f"{label}: config.{key}{exc.where}.secure: a {exc.kind}, not ciphertext; allowed: the string "
                "`pulumi config set --secret` writes"
            ) from None
        values[namespaced] = stack_value(value)
    values = apply_project_config(name, project.name, project.declarations, values, label)
    flat: dict[str, str] = {}
    secret: list[str] = []
    # A key declared secret but given in plain text (warned of below) is still never shown.
    plain_secrets = {
        d.full_key for d in project.declarations if d.secret and d.full_key in values and not values[d.full_key].secure
    }
    for key, held in values.items():
        flat[key] = _offline_text(held)
        if held.secure or key in plain_secrets:
            secret.append(key)
    warnings = [f'{label}: {key}: no value; Pulumi treats it as an empty string ""' for key in empty]
    warnings += [
        f"{label}: {d.full_key}: declared secret in Pulumi.yaml but given in plain text; "
        f"`pulumi config set --secret {d.key} <value>` encrypts it"
        for d in project.declarations
        if d.secret and d.type is None and d.full_key in values and not values[d.full_key].secure
    ]
    warnings += [
        f"{project.relative(other)}: ignored, as the Pulumi CLI ignores it: it reads {label}"
        for other in _other_extensions(project, name)
    ]
    return StackSettings(name, path, flat, secret, [k for k in secret if values[k].secure], warnings)


def _offline_text(held: StackValue) -> str:
    """The text the program gets offline: a `secure:` value, or each inside an object, a placeholder."""
    if not held.secure:
        return held.text
    if not held.object:
        return OFFLINE_SECRET
    return json.dumps(_offline_value(json.loads(held.text))[0], separators=(",", ":"), sort_keys=True)


_KINDS: dict[type, str] = {
    int: "number",
    float: "number",
    bool: "boolean",
    type(None): "null",
    list: "list",
    dict: "mapping",
}


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
