"""The conventions users bring from the Pulumi CLI and other checkers: --version, `-C DIR`, JSON from `stacks`,
"did you mean" for a stack name, and the same `--format`/`--json` on the commands that report."""

from __future__ import annotations

import contextlib
import io
import json
import tomllib
from pathlib import Path

import pytest
from azure_gpu_stacks.engine.cli import main

from tests.conftest import REPO


def gpu_stacks(*argv: object) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([str(a) for a in argv])
        except SystemExit as exc:  # argparse's exits (--version, --help, a bad command line)
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


def shipped_stacks() -> list[str]:
    return sorted(p.name.removeprefix("Pulumi.").removesuffix(".yaml") for p in (REPO / "stacks").glob("Pulumi.*.yaml"))


def test_version_names_the_distribution_version() -> None:
    setuptools = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["dynamic"]["version"]
    assert setuptools == {"attr": "azure_gpu_stacks.components.version.__version__"}
    from azure_gpu_stacks.components.version import __version__

    assert gpu_stacks("--version") == (0, f"gpu-stacks {__version__}\n", "")


def test_stacks_json_has_a_format_version_and_every_stack_file() -> None:
    code, out, _ = gpu_stacks("stacks", "--json")

    assert code == 0
    assert json.loads(out) == {"formatVersion": 1, "stacks": shipped_stacks()}
    assert gpu_stacks("stacks", "--format", "json")[1] == out


def test_cwd_finds_the_project_upward_as_pulumi_does() -> None:
    code, out, _ = gpu_stacks("stacks", "-C", REPO / "stacks")

    assert code == 0 and out.split() == shipped_stacks()
    assert gpu_stacks("stacks", "--cwd", REPO / "docs")[1] == out


@pytest.mark.parametrize(("typed", "meant"), [("traning-a100", "training-a100"), ("aks-gpus", "aks-gpu")])
def test_a_mistyped_stack_gets_a_suggestion(typed: str, meant: str) -> None:
    code, out, err = gpu_stacks("plan", typed)

    assert (code, out) == (2, "")
    assert f"unknown stack '{typed}' in stacks/; did you mean '{meant}'?" in err


def test_a_name_like_none_gets_no_suggestion() -> None:
    _, _, err = gpu_stacks("plan", "zzzz")

    assert "did you mean" not in err and "known stacks: " + ", ".join(shipped_stacks()) in err


TINY = 'import pulumi\nfrom pulumi_azure_native import resources\n\nresources.ResourceGroup("rg", location="eastus")\n'


def tiny_project(root: Path, name: str) -> Path:
    root.mkdir(parents=True)
    (root / "Pulumi.yaml").write_text(f"name: {name}\nruntime: python\n")
    (root / "Pulumi.dev.yaml").write_text("config: {}\n")
    (root / "__main__.py").write_text(TINY)
    return root


@pytest.mark.parametrize("flag", [["--no-cache"], ["--cache-dir", "CACHE"]])
def test_cache_flags_do_not_widen_a_check_to_projects_below(tmp_path: Path, flag: list[str]) -> None:
    """A fixture project in a subfolder (tests/data/...) is not one of this project's stacks."""
    root = tiny_project(tmp_path / "team", "team")
    tiny_project(root / "tests" / "fixture", "fixture")
    argv = [str(tmp_path / "cache") if a == "CACHE" else a for a in flag]

    code, out, err = gpu_stacks("check", "--project", root, "--format", "json", *argv)

    assert code == 0, err
    assert [s["stack"] for s in json.loads(out)["stacks"]] == ["dev"]
