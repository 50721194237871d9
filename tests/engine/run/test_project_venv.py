"""The program runs with the project's own Python environment (issue 24), as `pulumi preview` runs it:
Pulumi.yaml's `runtime.options.virtualenv` (or toolchain uv / poetry) names the interpreter, which runs
`engine/run/program_host.py` against the engine in gpu-stacks' process.

The environments are real virtual environments made here by the `venv` module (as `python -m venv --without-pip`)
from the project's own interpreter. `--system-site-packages` would not help: the project's `.venv` is itself a
virtual environment, and a venv made from it sees its base interpreter's site-packages, not `.venv`'s.
So a `.pth` file lends them the SDK that `.venv` holds (pulumi, grpc, azure-native), without network.
A `.pth` file's lines are added to sys.path without their own `.pth` files being read, so gpu-stacks'
editable install is not importable there: the host runs where azure_gpu_stacks is not installed.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import sysconfig
from pathlib import Path
from venv import EnvBuilder

import pytest
from azure_gpu_stacks.engine.cli import main

from tests.conftest import REPO
from tests.generated_programs import write_project

DATA = REPO / "tests" / "data"
TAMPERING = DATA / "tampering"
SITE = f"lib/python{sys.version_info.major}.{sys.version_info.minor}/site-packages"
MARKER = "only_in_the_team_venv"  # a module only the project's environment has


def make_venv(directory: Path, *lent: Path) -> Path:
    """A virtual environment at `directory` whose imports also reach the `lent` directories: what
    `python -m venv --without-pip` makes (its builder, with the symlinks it uses on POSIX), made in this process
    rather than in a new interpreter (0.05 CPU-s each)."""
    EnvBuilder(symlinks=os.name != "nt", with_pip=False).create(directory)
    site = directory / SITE
    (site / "lent.pth").write_text("".join(f"{path}\n" for path in lent))
    return directory


@pytest.fixture(scope="module")
def team_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    venv = make_venv(tmp_path_factory.mktemp("envs") / "team-venv", Path(sysconfig.get_paths()["purelib"]))
    (venv / SITE / MARKER).mkdir()
    (venv / SITE / MARKER / "__init__.py").write_text('WHO = "the team"\n')
    return venv


def venv_project(root: Path, program: str, virtualenv: str | Path = "venv", config: str = "config: {}\n") -> Path:
    write_project(root, program, config)
    (root / "Pulumi.yaml").write_text(
        f"name: team\nruntime:\n  name: python\n  options:\n    virtualenv: {virtualenv}\n"
    )
    return root


def plan_json(root: Path, capsys: pytest.CaptureFixture[str], *flags: str) -> tuple[int, dict, str]:
    code = main(["plan", "dev", "--project", str(root), "--json", *flags])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else {}), err


def test_program_importing_what_only_its_venv_has_plans_under_that_interpreter(
    tmp_path: Path, team_venv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = venv_project(
        tmp_path / "team",
        f"""
        import importlib.util
        import sys

        import pulumi
        from {MARKER} import WHO
        from pulumi_azure_native import resources

        resources.ResourceGroup("rg", location="eastus", tags={{"owner": WHO}})
        pulumi.export("prefix", sys.prefix)
        pulumi.export("gpuStacksImportable", importlib.util.find_spec("azure_gpu_stacks") is not None)
        print("hello from", sys.prefix)
        """,
        virtualenv=team_venv,
    )

    code, plan, err = plan_json(root, capsys)

    assert (code, err) == (0, "")
    assert plan["outputs"] == {"prefix": str(team_venv), "gpuStacksImportable": False}
    [group] = plan["resources"]
    assert group["inputs"]["tags"] == {"owner": "the team"}
    assert plan["programOutput"] == f"hello from {team_venv}\n"


def test_virtualenv_is_relative_to_the_project(
    tmp_path: Path, team_venv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = venv_project(tmp_path / "team", f"import {MARKER}\n", virtualenv="env/team")
    (root / "env").mkdir()
    (root / "env" / "team").symlink_to(team_venv)

    assert plan_json(root, capsys)[0] == 0


LIMITS = ["--timeout", "20", "--memory-limit", "200"]


@pytest.mark.parametrize(
    ("program", "flags", "error"),
    [
        (
            'raise ValueError("no GPU quota here")\n',
            [],
            "the program raised ValueError: no GPU quota here (at __main__.py:1)",
        ),
        (
            "import time\ntime.sleep(60)\n",
            ["--timeout", "1"],
            "Pulumi.dev.yaml: the program did not finish within 1 s (--timeout); it was stopped",
        ),
        (
            "hoard = bytearray(1536 * 1024 * 1024)\n",
            LIMITS,
            "Pulumi.dev.yaml: the program ran out of memory: it needed more than 200 MiB (--memory-limit)",
        ),
        ("import sys\nsys.exit(3)\n", [], "Pulumi.dev.yaml: the program called sys.exit(3) before it finished"),
        (
            "import os\nos._exit(4)\n",
            [],
            "Pulumi.dev.yaml: the program ended its process with status 4 (os._exit or a crash) before it finished",
        ),
    ],
    ids=["exception", "timeout", "memory", "sys.exit", "os._exit"],
)
def test_each_way_a_program_fails_is_one_line(
    tmp_path: Path, team_venv: Path, capsys: pytest.CaptureFixture[str], program: str, flags: list[str], error: str
) -> None:
    root = venv_project(tmp_path / "team", program, virtualenv=team_venv)

    code, _, err = plan_json(root, capsys, *flags)

    assert (code, err) == (2, f"gpu-stacks: error: {error}\n")


def test_module_missing_from_the_venv_names_the_venv(
    tmp_path: Path, team_venv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = venv_project(tmp_path / "team", "import pulumi_somewhere_else\n", virtualenv=team_venv)

    code, _, err = plan_json(root, capsys)

    assert code == 2
    assert err == (
        "gpu-stacks: error: the program raised ModuleNotFoundError: No module named 'pulumi_somewhere_else' "
        f"(at __main__.py:1); allowed: install it in {team_venv}, the environment Pulumi.yaml names\n"
    )


@pytest.mark.parametrize("program", ["patch_the_recorder.py", "garbage_on_the_channel.py", "raise_the_memory_limit.py"])
def test_tampering_programs_cannot_change_the_verdict_under_the_projects_interpreter(
    tmp_path: Path, team_venv: Path, capsys: pytest.CaptureFixture[str], program: str
) -> None:
    root = venv_project(tmp_path / "team", (TAMPERING / program).read_text(), virtualenv=team_venv)
    shutil.copy(TAMPERING / "retired_vm.py", root / "retired_vm.py")

    code = main(["plan", "dev", "--project", str(root), *LIMITS])
    out, err = capsys.readouterr()

    if program == "raise_the_memory_limit.py":
        assert (code, err) == (
            2,
            "gpu-stacks: error: Pulumi.dev.yaml: the program ran out of memory: it needed more than 200 MiB "
            "(--memory-limit)\n",
        )
        return
    assert code == 1, out + err
    assert "trainer [azure-native:compute:VirtualMachine]: SkuNotAvailable" in out
    assert "[mandatory] disallow-retired-vm-sizes: trainer:" in out


def test_aks_example_plans_through_its_own_venv_with_its_providers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """azure-py-aks imports pulumi_azuread, pulumi_random and pulumi_tls, which gpu-stacks does not have:
    its environment has them (the stand-ins of tests/data/provider_stand_ins)."""
    venv = make_venv(tmp_path / "aks-venv", Path(sysconfig.get_paths()["purelib"]), DATA / "provider_stand_ins")
    root = shutil.copytree(DATA / "azure-py-aks", tmp_path / "aks")
    (root / "Pulumi.yaml").write_text(
        f"name: azure-py-aks\nruntime:\n  name: python\n  options:\n    virtualenv: {venv}\n"
    )

    code, plan, err = plan_json(root, capsys)

    assert (code, err) == (0, "")
    assert {urn.split("::")[2].split(":")[0] for urn in plan["notChecked"]} == {"random", "tls", "azuread"}


def test_a_venv_not_made_yet_runs_the_program_with_gpu_stacks_own_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A fresh checkout (CI) has no environment: the plan is made anyway, and says with what and how to
    make the environment Pulumi would use; nothing is created unasked."""
    root = venv_project(tmp_path / "team", "import sys\nimport pulumi\npulumi.export('prefix', sys.prefix)\n")

    code, plan, err = plan_json(root, capsys)

    venv = root / "venv"
    assert (code, err) == (0, "")
    assert plan["outputs"]["prefix"] == sys.prefix
    [warning] = [w for w in plan["warnings"] if "virtualenv" in w]
    assert warning.startswith(f"Pulumi.yaml: runtime.options.virtualenv: 'venv': {venv} does not exist")
    assert f"add --create-venv, or run `python3 -m venv {venv}`" in warning
    assert not venv.exists()


def test_a_module_only_the_missing_venv_would_have_names_the_venv(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = venv_project(tmp_path / "team", f"import {MARKER}\n")

    code, _, err = plan_json(root, capsys)

    assert code == 2 and err.count("\n") == 1
    assert f"No module named '{MARKER}'" in err
    assert f"{root / 'venv'} does not exist, so the program ran with gpu-stacks' own Python environment" in err


def test_create_venv_without_requirements_is_one_line_and_makes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = venv_project(tmp_path / "team", "import pulumi\n")

    code, _, err = plan_json(root, capsys, "--create-venv")

    assert code == 2
    assert err.splitlines() == [
        f"gpu-stacks: error: Pulumi.yaml: runtime.options.virtualenv: 'venv': {root / 'venv'}: does not exist, and "
        f"there is no requirements.txt in {root} to install from; allowed: add requirements.txt listing the "
        f"packages the program imports, or run `python3 -m venv {root / 'venv'}` and "
        f"`{root / 'venv'}/bin/python -m pip install -r requirements.txt` in {root} yourself"
    ]
    assert not (root / "venv").exists()


def test_create_venv_makes_it_as_pulumi_would_then_checks_its_sdk(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Offline, requirements.txt lists nothing to fetch: the environment is made (python -m venv, then
    pip install -r requirements.txt), and then found to lack the pulumi SDK."""
    root = venv_project(tmp_path / "team", "import pulumi\n")
    (root / "requirements.txt").write_text("# nothing yet\n")

    code, _, err = plan_json(root, capsys, "--create-venv")

    venv = root / "venv"
    assert code == 2
    progress, error = err.splitlines()
    assert progress.startswith(f"gpu-stacks: creating the virtual environment {venv} (runtime.options.virtualenv")
    assert "-m pip install -r requirements.txt" in progress
    assert error.startswith(
        f"gpu-stacks: error: Pulumi.yaml: runtime.options.virtualenv: 'venv': {venv}: has no pulumi SDK "
        "(ModuleNotFoundError: No module named 'pulumi'); allowed: add pulumi"
    )
    assert (venv / "bin" / "python").is_file()


def fake_sdk(venv: Path, version: str) -> None:
    """A pulumi distribution of `version` in `venv`, whose runtime Settings take what the host passes."""
    site = venv / SITE
    (site / "pulumi" / "runtime").mkdir(parents=True)
    (site / "pulumi" / "__init__.py").write_text("")
    (site / "pulumi" / "runtime" / "__init__.py").write_text(
        "class Settings:\n    def __init__(self, organization=None, root_directory=None):\n        pass\n"
    )
    (site / f"pulumi-{version}.dist-info").mkdir()
    (site / f"pulumi-{version}.dist-info" / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: pulumi\nVersion: {version}\n"
    )


@pytest.mark.parametrize(
    ("version", "problem"),
    [
        ("2.25.0", "has pulumi 2.25.0, whose protocol gpu-stacks does not serve"),
        ("4.0.0", "has pulumi 4.0.0, whose protocol gpu-stacks does not serve"),
        ("3.272.0", "has no grpc (ModuleNotFoundError: No module named 'grpc')"),
    ],
)
def test_an_sdk_of_another_protocol_or_without_grpc_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], version: str, problem: str
) -> None:
    venv = make_venv(tmp_path / "venv")
    fake_sdk(venv, version)
    root = venv_project(tmp_path / "team", "import pulumi\n", virtualenv=venv)

    code, _, err = plan_json(root, capsys)

    assert code == 2
    assert err.startswith(f"gpu-stacks: error: Pulumi.yaml: runtime.options.virtualenv: '{venv}': {venv}: {problem}")
    assert len(err.splitlines()) == 1


def test_a_venv_path_that_is_not_a_venv_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = venv_project(tmp_path / "team", "import pulumi\n")
    (root / "venv").mkdir()
    (root / "venv" / "notes.txt").write_text("not an environment\n")

    code, _, err = plan_json(root, capsys, "--create-venv")

    assert (code, err) == (
        2,
        f"gpu-stacks: error: Pulumi.yaml: runtime.options.virtualenv: 'venv': {root / 'venv'}: not a virtual "
        "environment (no bin/python); allowed: remove it so that it can be created, or name a virtual environment\n",
    )


def test_toolchain_uv_looks_for_dot_venv_in_the_project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_project(tmp_path / "team", "import pulumi\n")
    (root / "Pulumi.yaml").write_text("name: team\nruntime:\n  name: python\n  options:\n    toolchain: uv\n")

    code, plan, err = plan_json(root, capsys)

    assert (code, err) == (0, "")
    [warning] = [w for w in plan["warnings"] if "toolchain" in w]
    assert warning.startswith(f"Pulumi.yaml: runtime.options.toolchain: uv: {root / '.venv'} does not exist")
    assert warning.endswith(f"run `UV_PROJECT_ENVIRONMENT={root / '.venv'} uv sync` in {root}")


def test_an_unknown_toolchain_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_project(tmp_path / "team", "import pulumi\n")
    (root / "Pulumi.yaml").write_text("name: team\nruntime:\n  name: python\n  options:\n    toolchain: conda\n")

    code, _, err = plan_json(root, capsys)

    assert (code, err) == (
        2,
        f"gpu-stacks: error: {root / 'Pulumi.yaml'}: runtime.options.toolchain: 'conda'; allowed: pip, poetry, uv\n",
    )


def test_a_success_the_program_writes_itself_is_not_a_result(
    tmp_path: Path, team_venv: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The program finds the host's result pipe and writes "ok" on it, then ends its process before its
    stack is finished: the engine, which never saw the stack end, does not take the program's word."""
    root = venv_project(
        tmp_path / "team",
        """
        import os
        import stat

        for name in os.listdir("/proc/self/fd"):
            try:  # the descriptor listdir used is gone; a pipe's read end refuses writes
                if int(name) > 2 and stat.S_ISFIFO(os.fstat(int(name)).st_mode):
                    os.write(int(name), b'{"ok": true}\\n')
            except OSError:
                pass
        os._exit(0)
        """,
        virtualenv=team_venv,
    )

    code, _, err = plan_json(root, capsys)

    assert (code, err) == (
        2,
        "gpu-stacks: error: Pulumi.dev.yaml: the program reported success, but the engine never saw its stack finish\n",
    )
