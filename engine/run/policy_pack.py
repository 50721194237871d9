"""Where the installed policy pack is, and a copy of it for `pulumi policy publish`.

The pack is three files (PulumiPolicy.yaml, requirements.txt, __main__.py); the policies themselves
come from the `azure-gpu-stacks` distribution its requirements.txt pins. The Pulumi CLI runs it with
`<pack>/venv/bin/python` (PulumiPolicy.yaml explains, with sources), so:

- `ready_pack_dir()` is the installed pack with `venv` linked to the environment this code runs in,
  which has the distribution and pulumi-policy: `pulumi preview --policy-pack` works from any project.
- `export(dest)` writes the three files and a `.gitignore` into a new directory: the CLI's publish
  archive honours `.gitignore` (pulumi/pulumi sdk/go/common/util/archive/archive.go, observed
  2026-11-22), so a local `venv` there is never uploaded; Pulumi Cloud builds its own from
  requirements.txt.
"""

from __future__ import annotations

import sys
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from ... import policies
from ...inputs.files import shown
from ..errors import InputError

PACK_FILES = ("PulumiPolicy.yaml", "requirements.txt", "__main__.py")
VENV = "venv"  # PulumiPolicy.yaml's runtime.options.virtualenv; a test keeps the two equal
EXPORT_GITIGNORE = (
    "# The pack's local virtual environment: never part of `pulumi policy publish`.\nvenv/\n__pycache__/\n"
)
DISTRIBUTION = "azure-gpu-stacks"
REQUIREMENT_FORMS = f"one line, '{DISTRIBUTION}==<version>' or '{DISTRIBUTION} @ <url>' (PEP 508)"
_PYTHON_IN_VENV = (Path("bin", "python"), Path("Scripts", "python.exe"))  # POSIX, Windows


def pack_dir() -> Path:
    """The directory of the installed pack: the `azure_gpu_stacks.policies` package itself."""
    return Path(policies.__file__).resolve().parent


def _has_python(venv: Path) -> bool:
    return any((venv / python).is_file() for python in _PYTHON_IN_VENV)


def ready_pack_dir() -> Path:
    """`pack_dir()`, its `venv` linked to this environment unless it already holds a Python."""
    pack = pack_dir()
    venv = pack / VENV
    if _has_python(venv):
        return pack
    if sys.prefix == sys.base_prefix:
        raise InputError(
            f"{venv}: gpu-stacks runs outside a virtual environment ({sys.prefix}), which the Pulumi CLI cannot "
            f"run the pack with; install azure-gpu-stacks into a virtual environment, or use "
            f"`gpu-stacks policy-pack export DIR` and create DIR/venv from DIR/requirements.txt"
        )
    if venv.is_symlink():  # a link to an environment that is gone
        venv.unlink()
    elif venv.exists():
        raise InputError(f"{venv}: exists but holds no Python; remove it, or point it at a virtual environment")
    try:
        venv.symlink_to(sys.prefix, target_is_directory=True)
    except FileExistsError:  # another gpu-stacks linked it meanwhile
        pass
    except OSError as exc:
        raise InputError(
            f"{venv}: cannot link it to {sys.prefix} ({exc.strerror}); use `gpu-stacks policy-pack export DIR` "
            f"and create DIR/venv from DIR/requirements.txt"
        ) from None
    return pack


def export(dest: Path, requirement: str | None = None) -> Path:
    """Write the pack into `dest` (new or empty) and return it; a refused `dest` is left as it was.

    `requirement` replaces the pinned `azure-gpu-stacks==<version>` line of requirements.txt, for
    machines whose package index lacks the distribution: `azure-gpu-stacks @ git+https://...@v<version>`.
    """
    if requirement is not None:
        _check_requirement(requirement)
    if dest.exists() and not dest.is_dir():
        raise InputError(f"{dest}: is a file; export writes a directory (a new or empty one)")
    if dest.is_dir() and any(dest.iterdir()):
        raise InputError(f"{dest}: is not empty; export writes a new or empty directory")
    source = pack_dir()
    files = {name: (source / name).read_text(encoding="utf-8") for name in PACK_FILES}
    if requirement is not None:
        files["requirements.txt"] = _with_requirement(files["requirements.txt"], requirement)
    files[".gitignore"] = EXPORT_GITIGNORE
    try:
        dest.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (dest / name).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{dest}: cannot write the pack there ({exc.strerror})") from None
    return dest


def _check_requirement(text: str) -> None:
    """`--requirement`: one PEP 508 requirement line (as pip reads requirements.txt, packaging's parser)
    of our distribution, pinned to a version or a URL; no other line, option or control character."""
    problem = None
    if not text.isprintable():  # a newline would add a line of its own to requirements.txt
        problem = "holds a line break or a control character"
    else:
        try:
            parsed = Requirement(text)
        except InvalidRequirement as exc:
            problem = f"is not a PEP 508 requirement ({str(exc).splitlines()[0]})"
        else:
            pinned = len(parsed.specifier) == 1 and next(iter(parsed.specifier)).operator == "=="
            if canonicalize_name(parsed.name) != DISTRIBUTION:
                problem = f"is not a requirement of {DISTRIBUTION}"
            elif parsed.extras or parsed.marker is not None or not (parsed.url or pinned):
                problem = f"is not a pinned requirement of {DISTRIBUTION}"
    if problem:
        raise InputError(f"--requirement: {shown(text)} {problem}; allowed: {REQUIREMENT_FORMS}")


def _with_requirement(text: str, requirement: str) -> str:
    """requirements.txt with its pinned line of the distribution replaced by `requirement`, as written."""
    lines = text.splitlines(keepends=True)
    pinned = [i for i, line in enumerate(lines) if line.startswith(f"{DISTRIBUTION}==")]
    # the pack's requirements.txt pins the distribution once (tests/policies/pack/test_policy_pack.py)
    assert len(pinned) == 1, "the pack's requirements.txt pins the distribution once"
    lines[pinned[0]] = requirement + "\n"
    return "".join(lines)
