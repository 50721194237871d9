"""README "For other teams": every step runs as written, from an empty directory to a green
offline check, and the `--policy-pack` argument of the real preview names a pack that starts.

Two things differ from a team's machine, both to stay offline: the install line is replaced by the
wheel built from this checkout (the third-party packages come from the test environment, see
tests/distribution.py), and the steps that need Pulumi Cloud or Azure (`pulumi`, `az`) are not run.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from azure_gpu_stacks.components.version import __version__
from google.protobuf import empty_pb2

from tests.conftest import REPO
from tests.pack_process import CALL_TIMEOUT_S, running_pack

INSTALL = f'echo "azure-gpu-stacks @ git+https://github.com/<org>/azure-gpu-stacks@v{__version__}" > requirements.txt'
PIP = "venv/bin/pip install -r requirements.txt"
NEEDS_AZURE = ("pulumi ", "az ")


def section() -> str:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    match = re.search(r"^## For other teams\n(.*?)(?=^## |\Z)", readme, flags=re.DOTALL | re.MULTILINE)
    assert match, "README.md has no 'For other teams' section"
    return match.group(1)


def shell_blocks() -> list[str]:
    return re.findall(r"^```sh\n(.*?)^```", section(), flags=re.DOTALL | re.MULTILINE)


@pytest.fixture(scope="module")
def team(wheel: Path, third_party: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    offline = shell_blocks()[0]
    assert INSTALL in offline and PIP in offline
    site = f"venv/lib/python{sys.version_info.major}.{sys.version_info.minor}/site-packages"
    script = offline.replace(
        PIP,
        f'echo "{third_party}" > {site}/test-third-party.pth && venv/bin/pip install -q --no-index --no-deps "{wheel}"',
    )
    empty = tmp_path_factory.mktemp("empty")
    # `python3` is this interpreter's, so the new venv matches the packages the .pth lends it.
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", "PYTHONPATH": ""}
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script], cwd=empty, env=env, capture_output=True, text=True, timeout=600,
        check=False,
    )  # fmt: skip

    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    assert re.search(r"^OK: dev deploys as planned \(\d+ resources", done.stdout, flags=re.MULTILINE), done.stdout
    (project,) = [p.parent for p in empty.rglob("Pulumi.yaml")]
    return project


def test_readme_steps_end_in_a_green_offline_check(team: Path) -> None:
    assert sorted(p.name for p in team.iterdir()) == [
        "Pulumi.dev.yaml", "Pulumi.yaml", "__main__.py", "requirements.txt", "venv",
    ]  # fmt: skip


def test_readme_preview_runs_the_installed_pack(team: Path) -> None:
    azure = shell_blocks()[1]
    assert all(line.startswith(NEEDS_AZURE) for line in azure.splitlines() if line and not line.startswith("#"))
    (command,) = re.findall(r'^pulumi preview .*--policy-pack "\$\((.+?)\)"', azure, flags=re.MULTILINE)

    done = subprocess.run(
        ["bash", "-c", command], cwd=team, capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, "PYTHONPATH": ""},
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    with running_pack(Path(done.stdout.strip())) as stub:
        info = stub.GetAnalyzerInfo(empty_pb2.Empty(), timeout=CALL_TIMEOUT_S)
    assert info.name == "azure-gpu-stacks"
