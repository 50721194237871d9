"""Which Python runs a project's program: the environment Pulumi.yaml names, found (and, when asked,
created) as `pulumi preview` finds and creates it, and checked to speak the engine protocol gpu-stacks
serves.

How Pulumi chooses (pulumi/pulumi `sdk/python/cmd/pulumi-language-python/main.go` `parseOptions` and
`sdk/python/toolchain/toolchain.go`, `pip.go`, `uv.go`, `poetry.go`; observed 2026-11-25):
- `toolchain: pip` (the default): `runtime.options.virtualenv`, joined to the project's directory unless
  absolute; none set: the Python on PATH, which offline is gpu-stacks' own (`named_environment` is None
  and the program is forked from this process, the fastest path). A directory is a virtual environment
  when `bin/python` is a file (`IsVirtualEnv`). A missing or empty directory is created with
  `python3 -m venv` (`PULUMI_PYTHON_CMD` names another command), then `pip install -r requirements.txt`
  in the program's directory; a path that is a file, or a directory that is not an environment, is an
  error.
- `toolchain: uv`: `virtualenv`, else `.venv` beside the nearest `uv.lock` upward from the project, else
  beside the nearest `pyproject.toml`, else in the project; made with `uv sync` (UV_PROJECT_ENVIRONMENT
  set to it).
- `toolchain: poetry`: the environment `poetry env info --path` names in the program's directory; made
  with `poetry install`.
Where gpu-stacks differs, on purpose: it creates an environment only when told (`--create-venv`), since a
check that silently reaches the network and writes into the project is not a check (until then the
program runs with gpu-stacks' own environment and the plan says so, `missing_environment`); it does not run
`pip install --upgrade pip setuptools wheel` first; and for uv and poetry it never converts a
requirements.txt into a pyproject.toml (Pulumi then deletes requirements.txt): it asks for one.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import functools
import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from ...inputs.files import escaped
from ..errors import InputError
from .project import Project

CREATE_FLAG = "--create-venv"
CREATE_TIMEOUT_S = 900.0  # a pip or uv install that takes longer is stopped and named
PROBE_TIMEOUT_S = 60.0
CHECKED_WITH = "3.272.0"  # the pulumi release whose protocols the engine serves (engine.run.monitor)
SUPPORTED_MAJOR = 3
# What the probe prints, as JSON, from inside the environment: its Python, and the versions of the
# pulumi SDK and grpcio (None when not importable) and whether the SDK's Settings take what
# `program_host.run` gives them. It imports nothing of gpu-stacks.
PROBE = """
import importlib.metadata as m, inspect, json, sys
found = {"python": "%d.%d.%d" % sys.version_info[:3], "prefix": sys.prefix}
for name, dist in (("pulumi", "pulumi"), ("grpc", "grpcio")):
    try:
        __import__(name)
        found[name] = m.version(dist)
    except Exception as exc:
        found[name] = None
        found[name + "_error"] = "%s: %s" % (type(exc).__name__, exc)
if found["pulumi"]:
    import pulumi.runtime
    wanted = {"organization", "root_directory"}
    found["settings"] = wanted <= set(inspect.signature(pulumi.runtime.Settings).parameters)
print(json.dumps(found))
"""


@dataclass(frozen=True)
class Environment:
    """A project's Python environment: its directory, what in Pulumi.yaml named it, and its toolchain."""

    directory: Path
    named_by: str  # "runtime.options.virtualenv: 'venv'", for messages
    toolchain: str
    project_file: str  # the project's Pulumi.yaml, as messages name it
    program_dir: Path  # where Pulumi installs from (requirements.txt, pyproject.toml)

    @property
    def python(self) -> Path:
        return self.directory / "bin" / "python"

    def is_virtualenv(self) -> bool:
        return self.python.is_file()

    @property
    def missing(self) -> bool:
        """Not made yet: no directory there, or an empty one (what Pulumi creates the environment in)."""
        directory = self.directory
        return not directory.exists() or (directory.is_dir() and not any(directory.iterdir()))

    def error(self, problem: str, allowed: str) -> InputError:
        """The one line: Pulumi.yaml, the key, the path, what is wrong and what to do."""
        return InputError(f"{self.project_file}: {self.named_by}: {self.directory}: {problem}; allowed: {allowed}")


def named_environment(project: Project) -> Environment | None:
    """The environment Pulumi would run the program with, or None when Pulumi.yaml names none."""
    project_file = f"Pulumi{project.extension}"
    program_dir = project.program if project.program.is_dir() else project.program.parent
    if project.toolchain == "poetry":
        return Environment(
            _poetry_path(project_file, program_dir),
            "runtime.options.toolchain: poetry",
            "poetry",
            project_file,
            program_dir,
        )
    if project.virtualenv:
        path = Path(project.virtualenv)
        directory = path if path.is_absolute() else project.root / path
        return Environment(
            directory,
            f"runtime.options.virtualenv: {project.virtualenv!r}",
            project.toolchain,
            project_file,
            program_dir,
        )
    if project.toolchain == "uv":
        anchor = _search_up(project.root, "uv.lock") or _search_up(project.root, "pyproject.toml") or project.root
        return Environment(anchor / ".venv", "runtime.options.toolchain: uv", "uv", project_file, program_dir)
    return None


def _search_up(start: Path, name: str) -> Path | None:
    """`searchup`: the nearest directory from `start` upward that holds `name`."""
    return next((d for d in (start, *start.parents) if (d / name).exists()), None)


def _poetry_path(project_file: str, program_dir: Path) -> Path:
    poetry = shutil.which("poetry")
    if poetry is None:
        raise InputError(
            f"{project_file}: runtime.options.toolchain: poetry: no `poetry` on PATH to find the environment "
            "with; allowed: install poetry (1.8 or later), or toolchain pip with a virtualenv"
        )
    done = subprocess.run(
        [poetry, "env", "info", "--path"], cwd=program_dir, capture_output=True, text=True, timeout=PROBE_TIMEOUT_S
    )
    found = done.stdout.strip()
    # No environment yet: poetry answers nothing (or fails). Where it will make one is poetry's to
    # choose; until then its in-project place stands for it (`python_for` asks again once it is made).
    return Path(found) if done.returncode == 0 and found else program_dir / ".venv"


def python_for(
    project: Project,
    *,
    create: bool = False,
    say: Callable[[str], None] | None = None,
    timeout_s: float = PROBE_TIMEOUT_S,
) -> Path | None:
    """The interpreter to run the program with: None for gpu-stacks' own (no environment named, or the named
    one not made yet and `create` not asked: `missing_environment` says so), else the named environment's
    `bin/python`, checked (`check_sdk`, within `timeout_s`: the run's --timeout); created first when missing and
    `create`. InputError, one line, when the path is not an environment, cannot be made, or cannot run the program."""
    environment = named_environment(project)
    if environment is None or _is_this_environment(environment.directory):
        return None  # gpu-stacks' own: a fork runs the same interpreter and packages, faster
    directory = environment.directory
    if directory.exists() and not directory.is_dir():
        raise environment.error("not a directory", "the directory of a virtual environment, or remove the file")
    if not environment.is_virtualenv():
        if not environment.missing:
            raise environment.error(
                "not a virtual environment (no bin/python)",
                "remove it so that it can be created, or name a virtual environment",
            )
        if not create:
            return None  # gpu-stacks' own, said in the plan's warnings (`missing_environment`)
        _create(environment, say or _progress)
        environment = named_environment(project) or environment  # poetry names its environment once made
    check_sdk(environment, timeout_s)
    return environment.python


def missing_environment(project: Project) -> str | None:
    """The warning for a program run with gpu-stacks' own environment because the one Pulumi.yaml names is
    not made yet (None otherwise). A checkout in CI has no environment (it is not committed), and
    refusing every such project would turn every check red for a step `pulumi preview` does itself; so
    the program runs, and the plan says with what and how to run it as Pulumi would."""
    environment = named_environment(project)
    if environment is None or _is_this_environment(environment.directory) or not environment.missing:
        return None  # none named, gpu-stacks' own, made, or not an environment (`python_for` refuses it)
    return (
        f"{environment.project_file}: {environment.named_by}: {environment.directory} does not exist, so the "
        f"program ran with gpu-stacks' own Python environment ({sys.prefix}), whose pulumi and provider packages "
        f"may differ from the project's (`pulumi preview` would create it): add {CREATE_FLAG}, or {_how(environment)}"
    )


def _is_this_environment(directory: Path) -> bool:
    """Whether `directory` is the environment gpu-stacks itself runs in (as the repository's own
    Pulumi.yaml names `.venv`)."""
    try:
        return directory.resolve(strict=True) == Path(sys.prefix).resolve()
    except OSError:
        return False


def at_base(base: Project, head: Project) -> Project:
    """`base` (a project read from another revision's worktree) with the environment `head`'s Pulumi.yaml
    names in the working tree: a worktree holds no untracked environment, and the comparison is of the
    code, run by the same interpreter and packages."""
    environment = named_environment(head)
    if environment is None or environment.toolchain == "poetry":
        return base
    return dataclasses.replace(base, virtualenv=str(environment.directory.resolve()))


def _how(environment: Environment) -> str:
    """The commands that make the environment by hand, as Pulumi would."""
    if environment.toolchain == "uv":
        return f"run `UV_PROJECT_ENVIRONMENT={environment.directory} uv sync` in {environment.program_dir}"
    if environment.toolchain == "poetry":
        return f"run `poetry install` in {environment.program_dir}"
    return (
        f"run `python3 -m venv {environment.directory}` and `{environment.python} -m pip install -r "
        f"requirements.txt` in {environment.program_dir}"
    )


def _progress(line: str) -> None:
    print(f"gpu-stacks: {line}", file=sys.stderr, flush=True)


def _create(environment: Environment, say: Callable[[str], None]) -> None:
    """Make the environment as Pulumi would, once even when several workers ask (a lock on the program's
    directory); what was made is removed again when the install fails."""
    program_dir = environment.program_dir
    lock = os.open(program_dir, os.O_RDONLY)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if environment.is_virtualenv():  # another worker made it while this one waited
            return
        steps = _steps(environment)
        say(
            f"creating the virtual environment {environment.directory} ({environment.named_by} in "
            f"{environment.project_file}): {'; '.join(' '.join(step) for step in steps)}…"
        )
        existed = environment.directory.exists()
        try:
            for step in steps:
                _run_step(environment, step)
        except InputError:
            if not existed:
                shutil.rmtree(environment.directory, ignore_errors=True)
            raise
    finally:
        os.close(lock)


def _steps(environment: Environment) -> list[list[str]]:
    program_dir = environment.program_dir
    if environment.toolchain == "uv":
        uv = shutil.which("uv")
        if uv is None:
            raise environment.error("does not exist, and there is no `uv` on PATH to make it", "install uv")
        if _search_up(program_dir, "uv.lock") is None and _search_up(program_dir, "pyproject.toml") is None:
            raise environment.error(
                f"does not exist, and there is no uv.lock or pyproject.toml in {program_dir} to install from",
                "add a pyproject.toml listing the packages the program imports",
            )
        return [[uv, "sync"]]
    if environment.toolchain == "poetry":
        if _search_up(program_dir, "pyproject.toml") is None:
            raise environment.error(
                f"does not exist, and there is no pyproject.toml in {program_dir} to install from",
                "add a pyproject.toml listing the packages the program imports",
            )
        return [[str(shutil.which("poetry")), "install", "--no-ansi"]]
    if not (program_dir / "requirements.txt").is_file():
        raise environment.error(
            f"does not exist, and there is no requirements.txt in {program_dir} to install from",
            f"add requirements.txt listing the packages the program imports, or {_how(environment)} yourself",
        )
    command = os.environ.get("PULUMI_PYTHON_CMD") or ("python3" if shutil.which("python3") else "python")
    python = shutil.which(command)
    if python is None:
        raise environment.error(f"does not exist, and there is no {command} on PATH to make it", "install Python 3")
    return [
        [python, "-m", "venv", str(environment.directory)],
        [str(environment.python), "-m", "pip", "install", "-r", "requirements.txt"],
    ]


def _run_step(environment: Environment, step: list[str]) -> None:
    env = activated(os.environ, environment.directory)
    if environment.toolchain == "uv":
        env["UV_PROJECT_ENVIRONMENT"] = str(environment.directory)
    try:
        done = subprocess.run(
            step, cwd=environment.program_dir, env=env, capture_output=True, text=True, timeout=CREATE_TIMEOUT_S
        )
    except subprocess.TimeoutExpired:
        raise environment.error(
            f"`{' '.join(step)}` did not finish within {CREATE_TIMEOUT_S:g} s", _how(environment)
        ) from None
    if done.returncode != 0:
        said = meaningful_line(done.stderr, done.stdout)
        last = f": {escaped(said)}" if said else ""
        raise environment.error(
            f"could not be created: `{' '.join(step)}` exited with {done.returncode}{last}",
            f"fix what it says (a package name, a version, the network), or {_how(environment)}",
        )


# Lines an installer prints after its error that say nothing about it: pip's "[notice] A new release of pip
# is available" pair (pip/_internal/self_outdated_check.py), its "note: This error originates from a
# subprocess" and hint lines (pip/_internal/exceptions.py, DiagnosticPipError), and blank lines.
_NOT_THE_ERROR = ("[notice]", "note:", "hint:")
_ERROR_PREFIXES = ("ERROR:", "error:")  # pip's and uv's own error lines


def meaningful_line(stderr: str, stdout: str) -> str | None:
    """The line that says why an install failed: the last error line pip or uv printed (pip ends with
    "ERROR: No matching distribution found for ..."), else the last line that is not a notice or hint."""
    lines = [line.strip() for line in (stderr + "\n" + stdout).splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith(_ERROR_PREFIXES)]
    if errors:
        return errors[-1]
    said = [line for line in lines if not line.lower().startswith(_NOT_THE_ERROR)]
    return said[-1] if said else (lines[-1] if lines else None)


def activated(environ: Mapping[str, str], directory: Path) -> dict[str, str]:
    """`ActivateVirtualEnv`: the environment's bin first on PATH, VIRTUAL_ENV set, PYTHONHOME unset."""
    env = {k: v for k, v in environ.items() if k.upper() not in ("PYTHONHOME", "VIRTUAL_ENV")}
    env["PATH"] = os.pathsep.join(p for p in (str(directory / "bin"), environ.get("PATH", "")) if p)
    env["VIRTUAL_ENV"] = str(directory)
    return env


def check_sdk(environment: Environment, timeout_s: float = PROBE_TIMEOUT_S) -> None:
    """InputError, one line, unless the environment's Python runs, has grpc and a pulumi SDK of the
    protocol the engine serves (pulumi 3, with the runtime settings `program_host.run` passes)."""
    found = _probe(str(environment.python), _stamp(environment.python), timeout_s)
    if "failed" in found:
        raise environment.error(f"its Python does not run: {found['failed']}", "recreate the environment")
    if not found.get("pulumi"):
        raise environment.error(
            f"has no pulumi SDK ({escaped(str(found.get('pulumi_error')))})",
            "add pulumi to the requirements and install them",
        )
    version = escaped(str(found["pulumi"]))
    if version.split(".")[0] != str(SUPPORTED_MAJOR) or not found.get("settings"):
        raise environment.error(
            f"has pulumi {version}, whose protocol gpu-stacks does not serve (it serves the protocol of pulumi "
            f"{SUPPORTED_MAJOR}, checked with {CHECKED_WITH})",
            f"pulumi>=3.0,<{SUPPORTED_MAJOR + 1} with runtime Settings(organization, root_directory), "
            f"such as {CHECKED_WITH}",
        )
    if not found.get("grpc"):
        raise environment.error(
            f"has no grpc ({escaped(str(found.get('grpc_error')))}), which the pulumi SDK talks to the engine with",
            "install grpcio (pulumi depends on it: reinstall pulumi)",
        )


def _stamp(python: Path) -> tuple[float, float]:
    """Changes when the environment does (its interpreter, its site-packages): the probe's cache key."""
    site = python.parent.parent / "lib"
    with contextlib.suppress(OSError):
        return python.stat().st_mtime, max((p.stat().st_mtime for p in site.glob("python*/site-packages")), default=0)
    return 0.0, 0.0


@functools.lru_cache(maxsize=32)
def _probe(python: str, stamp: tuple[float, float], timeout_s: float) -> dict[str, object]:
    """What PROBE finds in the environment, once per environment and state in this process; a Python that
    does not answer within `timeout_s` (the run's --timeout) is stopped, with whatever it started."""
    try:
        process = subprocess.Popen(
            [python, "-c", PROBE],
            env=activated(os.environ, Path(python).parent.parent),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,  # its own process group: stopped whole at the deadline
        )
    except OSError as exc:
        return {"failed": escaped(f"{type(exc).__name__}: {exc}")}
    try:
        stdout, stderr = process.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(OSError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.communicate(timeout=1.0)  # a process that escaped the group may still hold the pipes
        process.kill()
        process.wait()
        return {"failed": f"it did not answer within {timeout_s:g} s (--timeout); it was stopped"}
    said = [line for line in stdout.splitlines() if line.strip()]
    try:
        found = json.loads(said[-1])
    except (IndexError, ValueError):
        errors = [line.strip() for line in stderr.splitlines() if line.strip()]
        return {"failed": escaped(errors[-1] if errors else f"exit status {process.returncode}")}
    return found if isinstance(found, dict) else {"failed": "no answer"}


# How the host runs under the environment's Python: as a script, but from `-c`, so that its own
# directory (gpu-stacks' engine/run) is not put first on the program's import path; `runpy` then runs
# it as `__main__`, which `program_host` turns into the program's run as pulumi-language-python-exec.
BOOTSTRAP = "import runpy, sys; del sys.path[0]; runpy.run_path(sys.argv.pop(1), run_name='__main__')"


def host_command(python: Path, program: str, arguments: Mapping[str, object]) -> tuple[list[str], dict[str, str]]:
    """The command line and environment that run `program_host.py` under `python` against the engine:
    `arguments` are `ProgramEngine.host_arguments()`; config goes in PULUMI_CONFIG and
    PULUMI_CONFIG_SECRET_KEYS, as the Pulumi CLI hands it to its language host."""
    from . import program_host

    argv = [str(python), "-c", BOOTSTRAP, str(Path(program_host.__file__).resolve())]
    argv += ["--project", str(arguments["project"]), "--stack", str(arguments["stack"])]
    argv += ["--organization", str(arguments["organization"]), "--monitor", str(arguments["address"])]
    if arguments.get("root_directory"):
        argv += ["--root-directory", str(arguments["root_directory"])]
    if arguments.get("dry_run"):
        argv.append("--dry-run")
    argv.append(program)
    env = activated(os.environ, python.parent.parent)
    env["PULUMI_CONFIG"] = json.dumps(arguments["config"])
    env["PULUMI_CONFIG_SECRET_KEYS"] = json.dumps(arguments["secret_keys"])
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # a check leaves nothing in the project (engine.run.runtime)
    env.setdefault("GRPC_VERBOSITY", "ERROR")
    return argv, env
