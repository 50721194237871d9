"""The node health check script, run with bash against captured tool outputs (fake commands on PATH)."""

from __future__ import annotations

import base64
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from tests.conftest import REPO

SCRIPT = REPO / "components" / "scripts" / "node_health_check.sh"
DATA = Path(__file__).parent / "data" / "node_health"
NVIDIA_SMI_ARGS = "--query-gpu=index,name,driver_version --format=csv,noheader"
BASH = shutil.which("bash") or "/bin/bash"


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str
    verdict: str
    nhc_log: Path


def _fake(path: Path, body: str) -> None:
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)


@pytest.fixture
def node(tmp_path: Path) -> Callable[..., Run]:
    """`node(nvidia_smi=(file, rc) | None, ibstat=[file, ...] | None, azure_nhc=(rc, line) | None, script=, settings=, **env)`.

    Missing tools are simply absent from PATH; `ibstat` answers with the files in turn (the last
    one from then on), as a port that comes up while the check waits.
    """

    def run(
        nvidia_smi: tuple[str, int] | None = ("nvidia-smi-healthy.csv", 0),
        ibstat: Sequence[str] | None = ("ibstat-healthy.txt",),
        azure_nhc: tuple[int, str] | None = None,
        script: Path = SCRIPT,
        settings: str = "EXPECTED_GPUS=8\nEXPECTED_IB_PORTS=8\nEXPECTED_IB_RATE=200\n",
        **env: str,
    ) -> Run:
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir(exist_ok=True)
        if nvidia_smi is not None:
            out, rc = nvidia_smi
            _fake(
                bin_dir / "nvidia-smi",
                f'[ "$*" = "{NVIDIA_SMI_ARGS}" ] || {{ echo "unexpected arguments: $*" >&2; exit 64; }}\n'
                f"cat '{DATA / out}'\nexit {rc}\n",
            )
        if ibstat is not None:
            files = " ".join(f"'{DATA / f}'" for f in ibstat)
            counter = tmp_path / "ibstat-calls"
            _fake(
                bin_dir / "ibstat",
                f"n=$(cat '{counter}' 2>/dev/null || echo 0); echo $((n + 1)) > '{counter}'\n"
                f"set -- {files}; i=0; for f in \"$@\"; do last=$f; [ $i -eq $n ] && break; i=$((i + 1)); done\n"
                'cat "$last"\n',
            )
        nhc = tmp_path / "azurehpc-health-checks" / "run-health-checks.sh"
        if azure_nhc is not None:
            nhc.parent.mkdir(exist_ok=True)
            rc, line = azure_nhc
            _fake(nhc, f"echo 'running checks in' \"$(pwd)\"\necho '{line}'\nexit {rc}\n")
        verdict = tmp_path / "log" / "verdict"
        environment = {
            "PATH": f"{bin_dir}:/usr/bin:/bin",
            # The settings file, read as systemd's EnvironmentFile= reads KEY=VALUE lines.
            **dict(line.split("=", 1) for line in settings.splitlines() if line),
            "WAIT_SECONDS": "0",
            "RETRY_SECONDS": "0",
            "VERDICT_FILE": str(verdict),
            "AZURE_NHC": str(nhc),
            **env,
        }
        done = subprocess.run([BASH, str(script)], env=environment, capture_output=True, text=True, timeout=60)
        text = verdict.read_text() if verdict.exists() else ""
        return Run(done.returncode, done.stdout, done.stderr, text, verdict.parent / "azurehpc-health-checks.log")

    return run


def test_health_check_healthy_node_writes_healthy_verdict(node: Callable[..., Run]) -> None:
    run = node()

    assert run.returncode == 0, run.stdout + run.stderr
    assert run.verdict == "HEALTHY\n"
    assert run.stdout.splitlines()[-1].startswith(
        "node-health-check: HEALTHY: 8 GPUs and 8 InfiniBand ports at 200 Gb/s; verdict in "
    )


def test_health_check_missing_gpu_is_unhealthy(node: Callable[..., Run]) -> None:
    run = node(nvidia_smi=("nvidia-smi-missing-gpu.csv", 0))

    assert run.returncode == 1
    assert run.verdict == "UNHEALTHY\n- GPU: nvidia-smi sees 7 GPUs, expected 8\n"
    assert "node-health-check: UNHEALTHY: do not run jobs on this node: GPU: nvidia-smi sees 7 GPUs, expected 8;" in run.stdout


def test_health_check_down_infiniband_port_is_unhealthy(node: Callable[..., Run]) -> None:
    run = node(ibstat=["ibstat-port-down.txt"])

    assert run.returncode == 1
    assert run.verdict == "UNHEALTHY\n- InfiniBand: mlx5_ib5 port 1 is Down, expected Active\n"


def test_health_check_port_at_wrong_rate_is_unhealthy(node: Callable[..., Run]) -> None:
    run = node(ibstat=["ibstat-port-slow.txt"])

    assert run.verdict == "UNHEALTHY\n- InfiniBand: mlx5_ib2 port 1 runs at 100 Gb/s, expected 200\n"


def test_health_check_counts_only_infiniband_ports_not_the_ethernet_nic(node: Callable[..., Run]) -> None:
    # The healthy capture lists nine CAs; the accelerated-networking NIC (Link layer: Ethernet, 40) is not one of the 8.
    assert node(EXPECTED_IB_PORTS="9").verdict == "UNHEALTHY\n- InfiniBand: ibstat shows 8 InfiniBand ports, expected 9\n"


def test_health_check_driver_not_loaded_is_unhealthy(node: Callable[..., Run]) -> None:
    run = node(nvidia_smi=("nvidia-smi-no-driver.txt", 9))

    assert run.verdict == (
        "UNHEALTHY\n- GPU: nvidia-smi failed: NVIDIA-SMI has failed because it couldn't communicate with the "
        "NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n"
    )


def test_health_check_without_tools_reports_missing_drivers(node: Callable[..., Run]) -> None:
    run = node(nvidia_smi=None, ibstat=None)

    assert run.verdict == (
        "UNHEALTHY\n- GPU: nvidia-smi not found; the NVIDIA driver is not installed\n"
        "- InfiniBand: ibstat not found; the InfiniBand driver (Mellanox OFED) is not installed\n"
    )


def test_health_check_waits_for_a_port_that_comes_up(node: Callable[..., Run]) -> None:
    run = node(ibstat=["ibstat-port-down.txt", "ibstat-healthy.txt"], WAIT_SECONDS="30")

    assert run.verdict == "HEALTHY\n"
    assert "not ready yet (InfiniBand: mlx5_ib5 port 1 is Down, expected Active); retrying in 0 s" in run.stdout


def test_health_check_runs_azure_node_health_checks_when_present(node: Callable[..., Run]) -> None:
    run = node(azure_nhc=(0, "ALL CHECKS PASSED"))

    assert run.verdict == "HEALTHY\n"
    assert run.nhc_log.read_text().splitlines()[-1] == "ALL CHECKS PASSED"
    assert "running checks in" in run.nhc_log.read_text() and "azurehpc-health-checks" in run.nhc_log.read_text()


def test_health_check_failing_azure_node_health_checks_is_unhealthy(node: Callable[..., Run]) -> None:
    run = node(azure_nhc=(1, "ERROR: nccl all_reduce bandwidth 90 GB/s below 180"))

    assert run.returncode == 1
    assert run.verdict == (
        "UNHEALTHY\n- Azure node health checks failed (exit 1): ERROR: nccl all_reduce bandwidth 90 GB/s below 180; "
        f"see {run.nhc_log}\n"
    )


def test_health_check_skips_azure_checks_when_basic_checks_fail(node: Callable[..., Run]) -> None:
    run = node(nvidia_smi=("nvidia-smi-missing-gpu.csv", 0), azure_nhc=(0, "ALL CHECKS PASSED"))

    assert not run.nhc_log.exists()
    assert "Azure" not in run.verdict


def test_health_check_refuses_missing_settings(node: Callable[..., Run]) -> None:
    run = node(EXPECTED_GPUS="")

    assert run.returncode == 2
    assert run.stderr == "node-health-check: misconfigured: EXPECTED_GPUS is ''; allowed: a whole number\n"


def delivered(tmp_path: Path, size_name: str) -> tuple[Path, str]:
    """The script and settings file cloud-init writes on a node of `size_name`."""
    from azure_gpu_stacks.components.catalog import catalog
    from azure_gpu_stacks.components.node_health import INSTALL_PATH, SETTINGS_PATH, cloud_config
    from azure_gpu_stacks.components.training_cluster import node_expectations

    document = yaml.safe_load(cloud_config(node_expectations(catalog().get(size_name), 1800)))
    files = {f["path"]: f for f in document["write_files"]}
    script = tmp_path / "node-health-check"
    script.write_bytes(base64.b64decode(files[INSTALL_PATH]["content"]))
    return script, files[SETTINGS_PATH]["content"]


def test_health_check_as_delivered_to_an_nd96asr_v4_node_passes_a_healthy_node(
    node: Callable[..., Run], tmp_path: Path
) -> None:
    script, settings = delivered(tmp_path, "Standard_ND96asr_v4")

    run = node(script=script, settings=settings, VERDICT_FILE=str(tmp_path / "log" / "verdict"))

    assert (run.returncode, run.verdict) == (0, "HEALTHY\n")


def test_health_check_as_delivered_to_an_h100_node_refuses_hdr_links(node: Callable[..., Run], tmp_path: Path) -> None:
    script, settings = delivered(tmp_path, "Standard_ND96isr_H100_v5")

    run = node(script=script, settings=settings, VERDICT_FILE=str(tmp_path / "log" / "verdict"))

    assert run.verdict.splitlines()[:2] == ["UNHEALTHY", "- InfiniBand: mlx5_ib0 port 1 runs at 200 Gb/s, expected 400"]
