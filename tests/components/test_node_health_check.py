"""The node health check script, run with bash against real GPU output (fake commands on PATH).

`nvidia-smi`, `dmesg`, `ibstat` and `all_reduce_perf` on PATH are fakes that answer from files: the
real output of an NVIDIA H100 80GB HBM3 node (tests/data/node_health/h100-80gb-hbm3/), and copies
of it changed one fault at a time. The fake nvidia-smi answers only `--query-gpu=<fields>
--format=csv,noheader` and `--query-remapped-rows=<fields> --format=csv,noheader` for the field lists the
script under test declares (GPU_FIELDS, REMAP_FIELDS), with the asked-for columns of the real capture picked
by name; anything else (the human table, other fields) exits 64.
"""

from __future__ import annotations

import base64
import csv
import re
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml
from azure_gpu_stacks.catalog import catalog
from azure_gpu_stacks.components.node_health import INSTALL_PATH, SETTINGS_PATH, cloud_config
from azure_gpu_stacks.components.training_cluster import node_expectations

from tests.conftest import REPO

SCRIPT = REPO / "components" / "scripts" / "node_health_check.sh"
DATA = REPO / "tests" / "data" / "node_health"
H100 = DATA / "h100-80gb-hbm3"
BASH = shutil.which("bash") or "/bin/bash"
BUS = "00000000:00:06.0"  # the real H100's bus id
XID_79 = "[ 4211.734502] NVRM: Xid (PCI:0000:00:06): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.\n"

# The queries the script makes, by the variable that holds each one's fields.
QUERIES = {"--query-gpu": "GPU_FIELDS", "--query-remapped-rows": "REMAP_FIELDS"}


def answer(rows: Sequence[dict[str, str]], fields: str) -> str:
    """What nvidia-smi prints for `--query-...=<fields> --format=csv,noheader`: the fields' columns, by name."""
    return "".join(", ".join(row[name] for name in fields.split(",")) + "\n" for row in rows)


def write_fake_nvidia_smi(path: Path, tables: dict[str, list[dict[str, str]]], script: Path, fault: str) -> None:
    """A shell script at `path` that answers the queries `script` declares from `tables` (option -> rows), their
    answers rendered here beside it; `fault` "answers", "wedged" (sleeps first) or a line it fails with (exit 9).

    A shell script, not Python: a check calls it twice or more, and an interpreter's start (25 CPU-ms, even with
    -I -S) was about half of what a check costs (docs/testing.md)."""
    text = script.read_text()
    failure = path.with_name(f"{path.name}.fails")
    failure.write_text(f"{fault}\n")
    cases = []
    for option, variable in QUERIES.items():
        fields = re.search(rf'^{variable}="([^"]+)"$', text, re.MULTILINE)
        assert fields, f"{variable} not found in {script.name}"
        rendered = path.with_name(f"{path.name}{option}")
        rendered.write_text(answer(tables[option], fields[1]))
        cases.append(f"'{option}={fields[1]} --format=csv,noheader') out='{rendered}' ;;\n")
    _fake(
        path,
        ("sleep 600\n" if fault == "wedged" else "")
        + 'out=""\n[ $# -eq 2 ] && case "$*" in\n'
        + "".join(cases)
        + "esac\n"
        + '[ -n "$out" ] || { echo "unexpected arguments: $*" >&2; exit 64; }\n'
        + ("" if fault in ("answers", "wedged") else f"cat '{failure}'; exit 9\n")
        + 'exec cat "$out"\n',
    )


def read_capture(path: Path) -> list[dict[str, str]]:
    """Rows of a `--format=csv` capture, keyed by field name (units such as ` [W]` dropped)."""
    with path.open() as fh:
        rows = list(csv.reader(fh, skipinitialspace=True))
    names = [name.split(" [")[0] for name in rows[0]]
    return [dict(zip(names, row, strict=True)) for row in rows[1:]]


def h100_gpus(count: int = 1) -> list[dict[str, str]]:
    """The real H100's --query-gpu row; for count > 1, copies with their own index and bus id."""
    (real,) = read_capture(H100 / "query-gpu.csv")
    if count == 1:
        return [real]
    return [{**real, "index": str(i), "pci.bus_id": f"00000000:00:{6 + i:02X}.0"} for i in range(count)]


def remapped_rows(gpus: Sequence[dict[str, str]]) -> list[dict[str, str]]:
    """The real H100's --query-remapped-rows row, one per GPU."""
    (real,) = read_capture(H100 / "query-remapped-rows.csv")
    return [{**real, "gpu_bus_id": gpu["pci.bus_id"]} for gpu in gpus]


@dataclass
class Node:
    gpus: list[dict[str, str]] = field(default_factory=h100_gpus)
    remap: list[dict[str, str]] | None = None
    dmesg: str = field(default_factory=lambda: (H100 / "dmesg.txt").read_text())
    nvidia_smi: str | None = "answers"  # or None (not installed), "wedged", or a failure line
    ibstat: Sequence[str] | None = None
    all_reduce: tuple[int, str] | None = None  # exit status, output


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
def run_check(tmp_path: Path) -> Callable[..., Run]:
    """`run_check(node, azure_nhc=(rc, line) | None, script=, settings=, **env)`: the script's outcome on `node`."""

    def run(
        node: Node,
        azure_nhc: tuple[int, str] | None = None,
        script: Path = SCRIPT,
        settings: str = "EXPECTED_GPUS=1\nEXPECTED_IB_PORTS=0\nEXPECTED_IB_RATE=0\n",
        **env: str,
    ) -> Run:
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir(exist_ok=True)
        if node.nvidia_smi is not None:
            tables = {"--query-gpu": node.gpus, "--query-remapped-rows": node.remap or remapped_rows(node.gpus)}
            write_fake_nvidia_smi(bin_dir / "nvidia-smi", tables, script, node.nvidia_smi)
        (tmp_path / "dmesg.txt").write_text(node.dmesg)
        _fake(bin_dir / "dmesg", f"cat '{tmp_path / 'dmesg.txt'}'\n")
        if node.ibstat is not None:
            files = " ".join(f"'{DATA / f}'" for f in node.ibstat)
            counter = tmp_path / "ibstat-calls"
            _fake(
                bin_dir / "ibstat",
                f"n=$(cat '{counter}' 2>/dev/null || echo 0); echo $((n + 1)) > '{counter}'\n"
                f'set -- {files}; i=0; for f in "$@"; do last=$f; [ $i -eq $n ] && break; i=$((i + 1)); done\n'
                'cat "$last"\n',
            )
        if node.all_reduce is not None:
            rc, out = node.all_reduce
            (tmp_path / "all_reduce.txt").write_text(out)
            _fake(
                bin_dir / "all_reduce_perf",
                f"echo \"$*\" > '{tmp_path / 'all_reduce.args'}'\ncat '{tmp_path / 'all_reduce.txt'}'\nexit {rc}\n",
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
            "ALL_REDUCE_PERF": str(bin_dir / "all_reduce_perf"),
            **env,
        }
        done = subprocess.run([BASH, str(script)], env=environment, capture_output=True, text=True, timeout=60)
        text = verdict.read_text() if verdict.exists() else ""
        return Run(done.returncode, done.stdout, done.stderr, text, verdict.parent / "azurehpc-health-checks.log")

    return run


def with_fault(
    changed: dict[str, str], gpus: list[dict[str, str]] | None = None, index: int = 0
) -> list[dict[str, str]]:
    """A copy of `gpus` (default: the real H100) with GPU `index`'s --query-gpu fields changed."""
    copies = [dict(gpu) for gpu in (gpus or h100_gpus())]
    copies[index].update(changed)
    return copies


EIGHT_GPUS = "EXPECTED_GPUS=8\nEXPECTED_IB_PORTS=8\nEXPECTED_IB_RATE=200\n"


# --- the real H100 node -------------------------------------------------------------------------


def test_health_check_real_h100_node_is_healthy_without_ibstat(run_check: Callable[..., Run]) -> None:
    run = run_check(Node())

    assert (run.returncode, run.verdict) == (0, "HEALTHY\n"), run.stdout + run.stderr
    assert run.stdout.splitlines()[-1].startswith("node-health-check: HEALTHY: 1 GPUs, no InfiniBand; verdict in ")


@pytest.mark.parametrize("row", [0, 1, 2], ids=["idle", "busy-sw-power-cap", "after"])
def test_health_check_real_h100_clock_events_idle_busy_and_after_are_healthy(
    run_check: Callable[..., Run], row: int
) -> None:
    # Under a bf16 GEMM loop the real GPU reports 0x4, SW Power Cap: a busy GPU at 700 W, not a fault.
    active = read_capture(H100 / "clock-events-idle-busy-after.csv")[row]["clocks_event_reasons.active"]

    run = run_check(Node(gpus=with_fault({"clocks_event_reasons.active": active})))

    assert (run.returncode, run.verdict) == (0, "HEALTHY\n")


def test_health_check_real_h100_retired_pages_not_applicable_is_not_a_fault(run_check: Callable[..., Run]) -> None:
    assert h100_gpus()[0]["retired_pages.pending"] == "[N/A]"  # H100 remaps rows instead

    assert run_check(Node()).verdict == "HEALTHY\n"


# --- one fault at a time ------------------------------------------------------------------------

FAULTS = {
    "ecc-uncorrectable": (
        {"ecc.errors.uncorrected.volatile.total": "2"},
        f"- GPU 0 ({BUS}): 2 volatile uncorrectable ECC errors",
    ),
    "ecc-disabled": ({"ecc.mode.current": "Disabled"}, f"- GPU 0 ({BUS}): ECC is disabled, expected Enabled"),
    "retired-pages-pending": (
        {"retired_pages.pending": "Yes"},
        f"- GPU 0 ({BUS}): retired pages pending; reset the GPU or reboot the node",
    ),
    "pcie-x8": (
        {"pcie.link.width.current": "8"},
        f"- GPU 0 ({BUS}): PCIe link at Gen5 x8, below its maximum Gen5 x16",
    ),
    "pcie-gen3": (
        {"pcie.link.gen.current": "3"},
        f"- GPU 0 ({BUS}): PCIe link at Gen3 x16, below its maximum Gen5 x16",
    ),
    "hw-slowdown": (
        {"clocks_event_reasons.active": "0x0000000000000008"},
        f"- GPU 0 ({BUS}): clocks held down by HW Slowdown (0x0000000000000008)",
    ),
    "hw-thermal-and-power-brake-under-load": (
        {"clocks_event_reasons.active": "0x00000000000000C4"},
        f"- GPU 0 ({BUS}): clocks held down by HW Thermal Slowdown, HW Power Brake Slowdown (0x00000000000000C4)",
    ),
    "sw-thermal": (
        {"clocks_event_reasons.active": "0x0000000000000020"},
        f"- GPU 0 ({BUS}): clocks held down by SW Thermal Slowdown (0x0000000000000020)",
    ),
}


@pytest.mark.parametrize("name", list(FAULTS))
def test_health_check_names_each_gpu_fault_with_index_and_bus_id(run_check: Callable[..., Run], name: str) -> None:
    changed, line = FAULTS[name]

    run = run_check(Node(gpus=with_fault(changed)))

    assert run.returncode == 1
    assert run.verdict == f"UNHEALTHY\n{line}\n"
    assert f"node-health-check: UNHEALTHY: do not run jobs on this node: {line[2:]}; verdict in " in run.stdout


@pytest.mark.parametrize(
    ("pending", "failure", "line"),
    [
        ("Yes", "No", f"- GPU 0 ({BUS}): row remapping pending; reset the GPU or reboot the node"),
        ("No", "Yes", f"- GPU 0 ({BUS}): row remapping failed; the GPU needs replacing"),
    ],
)
def test_health_check_remapped_rows_pending_or_failed_is_unhealthy(
    run_check: Callable[..., Run], pending: str, failure: str, line: str
) -> None:
    gpus = h100_gpus()
    remap = [{**row, "remapped_rows.pending": pending, "remapped_rows.failure": failure} for row in remapped_rows(gpus)]

    run = run_check(Node(gpus=gpus, remap=remap))

    assert (run.returncode, run.verdict) == (1, f"UNHEALTHY\n{line}\n")


def test_health_check_xid_79_in_the_kernel_log_drains_the_node(run_check: Callable[..., Run]) -> None:
    run = run_check(Node(dmesg=(H100 / "dmesg.txt").read_text() + XID_79))

    assert run.returncode == 1
    assert run.verdict == (
        f"UNHEALTHY\n- GPU 0 ({BUS}): Xid 79 in the kernel log since boot "
        "(pid='<unknown>', name=<unknown>, GPU has fallen off the bus.); drain this node\n"
    )


def test_health_check_application_xid_is_a_note_not_a_fault(run_check: Callable[..., Run]) -> None:
    xid_13 = "[  900.100000] NVRM: Xid (PCI:0000:00:06): 13, pid=4242, name=python, Graphics Exception: ESR 0x505648\n"

    run = run_check(Node(dmesg=(H100 / "dmesg.txt").read_text() + xid_13))

    assert (run.returncode, run.verdict) == (0, "HEALTHY\n")
    assert f"node-health-check: note: GPU 0 ({BUS}): Xid 13 in the kernel log since boot" in run.stdout


def test_health_check_missing_gpu_is_unhealthy(run_check: Callable[..., Run]) -> None:
    gpus = h100_gpus(8)
    del gpus[5]

    run = run_check(Node(gpus=gpus), settings="EXPECTED_GPUS=8\nEXPECTED_IB_PORTS=0\nEXPECTED_IB_RATE=0\n")

    assert (run.returncode, run.verdict) == (1, "UNHEALTHY\n- GPU: nvidia-smi sees 7 GPUs, expected 8\n")


def test_health_check_two_driver_versions_is_unhealthy(run_check: Callable[..., Run]) -> None:
    gpus = with_fault({"driver_version": "570.172.08"}, h100_gpus(8), index=3)

    run = run_check(Node(gpus=gpus), settings="EXPECTED_GPUS=8\nEXPECTED_IB_PORTS=0\nEXPECTED_IB_RATE=0\n")

    assert (run.returncode, run.verdict) == (
        1,
        "UNHEALTHY\n- GPU: more than one driver version loaded: 580.159.04 570.172.08\n",
    )


def test_health_check_fault_on_one_gpu_of_eight_names_that_gpu(run_check: Callable[..., Run]) -> None:
    gpus = with_fault({"pcie.link.width.current": "8"}, h100_gpus(8), index=5)
    xid = XID_79.replace("PCI:0000:00:06", "PCI:0000:00:0b")

    run = run_check(Node(gpus=gpus, dmesg=xid), settings="EXPECTED_GPUS=8\nEXPECTED_IB_PORTS=0\nEXPECTED_IB_RATE=0\n")

    assert run.verdict.splitlines() == [
        "UNHEALTHY",
        "- GPU 5 (00000000:00:0B.0): PCIe link at Gen5 x8, below its maximum Gen5 x16",
        "- GPU 5 (00000000:00:0B.0): Xid 79 in the kernel log since boot "
        "(pid='<unknown>', name=<unknown>, GPU has fallen off the bus.); drain this node",
    ]


# --- tools missing, failing or wedged -----------------------------------------------------------


def test_health_check_wedged_nvidia_smi_is_cut_off(run_check: Callable[..., Run]) -> None:
    run = run_check(Node(nvidia_smi="wedged"), COMMAND_TIMEOUT="1")

    assert (run.returncode, run.verdict) == (1, "UNHEALTHY\n- GPU: nvidia-smi did not answer within 1 s\n")


def test_health_check_driver_not_loaded_is_unhealthy(run_check: Callable[..., Run]) -> None:
    run = run_check(Node(nvidia_smi=(DATA / "nvidia-smi-no-driver.txt").read_text().strip()))

    assert run.verdict == (
        "UNHEALTHY\n- GPU: nvidia-smi failed: NVIDIA-SMI has failed because it couldn't communicate with the "
        "NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n"
    )


def test_health_check_without_tools_reports_missing_drivers(run_check: Callable[..., Run]) -> None:
    run = run_check(Node(nvidia_smi=None), settings=EIGHT_GPUS)

    assert run.verdict == (
        "UNHEALTHY\n- GPU: nvidia-smi not found; the NVIDIA driver is not installed\n"
        "- InfiniBand: ibstat not found; the InfiniBand driver (Mellanox OFED) is not installed\n"
    )


# --- InfiniBand (composed ibstat output of an ND96asr_v4 node; see data/node_health/README.md) -----


def test_health_check_eight_gpus_and_eight_ports_is_healthy(run_check: Callable[..., Run]) -> None:
    run = run_check(Node(gpus=h100_gpus(8), ibstat=["ibstat-healthy.txt"]), settings=EIGHT_GPUS)

    assert (run.returncode, run.verdict) == (0, "HEALTHY\n")
    assert run.stdout.splitlines()[-1].startswith(
        "node-health-check: HEALTHY: 8 GPUs and 8 InfiniBand ports at 200 Gb/s; verdict in "
    )


def test_health_check_down_infiniband_port_is_unhealthy(run_check: Callable[..., Run]) -> None:
    run = run_check(Node(gpus=h100_gpus(8), ibstat=["ibstat-port-down.txt"]), settings=EIGHT_GPUS)

    assert (run.returncode, run.verdict) == (1, "UNHEALTHY\n- InfiniBand: mlx5_ib5 port 1 is Down, expected Active\n")


def test_health_check_port_at_wrong_rate_is_unhealthy(run_check: Callable[..., Run]) -> None:
    run = run_check(Node(gpus=h100_gpus(8), ibstat=["ibstat-port-slow.txt"]), settings=EIGHT_GPUS)

    assert run.verdict == "UNHEALTHY\n- InfiniBand: mlx5_ib2 port 1 runs at 100 Gb/s, expected 200\n"


def test_health_check_counts_only_infiniband_ports_not_the_ethernet_nic(run_check: Callable[..., Run]) -> None:
    # The capture lists nine CAs; the accelerated-networking NIC (Link layer: Ethernet, 40) is not one of the 8.
    run = run_check(Node(gpus=h100_gpus(8), ibstat=["ibstat-healthy.txt"]), settings=EIGHT_GPUS, EXPECTED_IB_PORTS="9")

    assert run.verdict == "UNHEALTHY\n- InfiniBand: ibstat shows 8 InfiniBand ports, expected 9\n"


def test_health_check_waits_for_a_port_that_comes_up(run_check: Callable[..., Run]) -> None:
    node = Node(gpus=h100_gpus(8), ibstat=["ibstat-port-down.txt", "ibstat-healthy.txt"])

    run = run_check(node, settings=EIGHT_GPUS, WAIT_SECONDS="30")

    assert run.verdict == "HEALTHY\n"
    assert "not ready yet (InfiniBand: mlx5_ib5 port 1 is Down, expected Active); retrying in 0 s" in run.stdout


# --- NCCL all-reduce (nccl-tests output layout; composed, see data/node_health/README.md) ---------


def all_reduce_output(busbw: str, wrong: int = 0) -> str:
    return (
        (DATA / "all-reduce-perf-8g.txt")
        .read_text()
        .replace("228.88", busbw)
        .replace("# Out of bounds values : 0 OK", f"# Out of bounds values : {wrong} {'OK' if not wrong else 'FAILED'}")
    )


def test_health_check_nccl_all_reduce_above_the_floor_is_healthy(run_check: Callable[..., Run], tmp_path: Path) -> None:
    node = Node(gpus=h100_gpus(8), all_reduce=(0, all_reduce_output("231.40")))

    run = run_check(node, settings="EXPECTED_GPUS=8\nEXPECTED_IB_PORTS=0\nEXPECTED_IB_RATE=0\nNCCL_BUSBW_FLOOR=228.0\n")

    assert (run.returncode, run.verdict) == (0, "HEALTHY\n")
    assert "node-health-check: NCCL all-reduce bus bandwidth 231.40 GB/s (floor 228.0 GB/s)" in run.stdout
    assert (tmp_path / "all_reduce.args").read_text() == "-b 8G -e 8G -f 2 -g 8 -c 1\n"


def test_health_check_nccl_all_reduce_below_the_floor_is_unhealthy(run_check: Callable[..., Run]) -> None:
    node = Node(gpus=h100_gpus(8), all_reduce=(0, all_reduce_output("150.02")))

    run = run_check(node, settings="EXPECTED_GPUS=8\nEXPECTED_IB_PORTS=0\nEXPECTED_IB_RATE=0\nNCCL_BUSBW_FLOOR=228.0\n")

    assert (run.returncode, run.verdict) == (
        1,
        "UNHEALTHY\n- NCCL: all-reduce bus bandwidth 150.02 GB/s, below the floor of 228.0 GB/s for this size\n",
    )


def test_health_check_nccl_all_reduce_wrong_values_is_unhealthy(run_check: Callable[..., Run]) -> None:
    node = Node(gpus=h100_gpus(8), all_reduce=(0, all_reduce_output("231.40", wrong=3)))

    run = run_check(node, settings="EXPECTED_GPUS=8\nEXPECTED_IB_PORTS=0\nEXPECTED_IB_RATE=0\nNCCL_BUSBW_FLOOR=228.0\n")

    assert run.verdict == "UNHEALTHY\n- NCCL: all_reduce_perf found 3 wrong values\n"


def test_health_check_without_nccl_tests_notes_it_and_passes(run_check: Callable[..., Run]) -> None:
    run = run_check(Node(), NCCL_BUSBW_FLOOR="460.0", ALL_REDUCE_PERF="/nonexistent/all_reduce_perf")

    assert (run.returncode, run.verdict) == (0, "HEALTHY\n")
    assert (
        "node-health-check: note: all_reduce_perf (nccl-tests) not on this image; NCCL all-reduce not checked"
        in run.stdout
    )


def test_health_check_skips_nccl_when_a_gpu_is_faulty(run_check: Callable[..., Run], tmp_path: Path) -> None:
    node = Node(
        gpus=with_fault({"ecc.errors.uncorrected.volatile.total": "1"}), all_reduce=(0, all_reduce_output("500.0"))
    )

    run_check(node, NCCL_BUSBW_FLOOR="228.0")

    assert not (tmp_path / "all_reduce.args").exists()


# --- Azure's node health checks -----------------------------------------------------------------


def test_health_check_runs_azure_node_health_checks_when_present(run_check: Callable[..., Run]) -> None:
    run = run_check(Node(), azure_nhc=(0, "ALL CHECKS PASSED"))

    assert run.verdict == "HEALTHY\n"
    assert run.nhc_log.read_text().splitlines()[-1] == "ALL CHECKS PASSED"
    assert "running checks in" in run.nhc_log.read_text() and "azurehpc-health-checks" in run.nhc_log.read_text()


def test_health_check_failing_azure_node_health_checks_is_unhealthy(run_check: Callable[..., Run]) -> None:
    run = run_check(Node(), azure_nhc=(1, "ERROR: nccl all_reduce bandwidth 90 GB/s below 180"))

    assert run.returncode == 1
    assert run.verdict == (
        "UNHEALTHY\n- Azure node health checks failed (exit 1): ERROR: nccl all_reduce bandwidth 90 GB/s below 180; "
        f"see {run.nhc_log}\n"
    )


def test_health_check_skips_azure_checks_when_basic_checks_fail(run_check: Callable[..., Run]) -> None:
    run = run_check(Node(gpus=with_fault({"pcie.link.width.current": "8"})), azure_nhc=(0, "ALL CHECKS PASSED"))

    assert not run.nhc_log.exists()
    assert "Azure" not in run.verdict


# --- settings -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "value", "allowed"),
    [
        ("EXPECTED_GPUS", "", "a whole number"),
        ("COMMAND_TIMEOUT", "1m", "a whole number"),
        ("NCCL_BUSBW_FLOOR", "fast", "GB/s as a number, or empty to skip"),
        ("NCCL_MESSAGE_SIZE", "8 GB", "a size such as 8G"),
    ],
)
def test_health_check_refuses_bad_settings(run_check: Callable[..., Run], key: str, value: str, allowed: str) -> None:
    run = run_check(Node(), **{key: value})

    assert run.returncode == 2
    assert run.stderr == f"node-health-check: misconfigured: {key} is '{value}'; allowed: {allowed}\n"
    assert run.verdict == ""


def test_health_check_of_a_node_without_infiniband_needs_no_link_rate(run_check: Callable[..., Run]) -> None:
    """An NC-series node has no InfiniBand: EXPECTED_IB_PORTS=0 alone is a whole setting, as the script says."""
    run = run_check(Node(), settings="EXPECTED_GPUS=1\nEXPECTED_IB_PORTS=0\n")

    assert (run.returncode, run.verdict) == (0, "HEALTHY\n")


def test_health_check_of_an_infiniband_node_still_needs_its_link_rate(run_check: Callable[..., Run]) -> None:
    run = run_check(Node(), settings="EXPECTED_GPUS=1\nEXPECTED_IB_PORTS=8\n")

    assert run.returncode == 2
    assert run.stderr == "node-health-check: misconfigured: EXPECTED_IB_RATE is ''; allowed: a whole number\n"


# The script's own queries, answered by a real H100 node's nvidia-smi (580.159.04) on 2026-11-27: the fake
# nvidia-smi every other test uses must print exactly what the real one printed for the same arguments.
REAL_ANSWERS = DATA / "h100-80gb-hbm3-2026-11-27"


@pytest.mark.parametrize(
    ("option", "fields_variable", "capture"),
    [
        ("--query-gpu", "GPU_FIELDS", "query-gpu-script-fields.csv"),
        ("--query-remapped-rows", "REMAP_FIELDS", "query-remapped-rows-script-fields.csv"),
    ],
)
def test_fake_nvidia_smi_answers_the_scripts_queries_as_a_real_h100_did(
    tmp_path: Path, option: str, fields_variable: str, capture: str
) -> None:
    gpus = h100_gpus()
    fake = tmp_path / "nvidia-smi"
    write_fake_nvidia_smi(fake, {"--query-gpu": gpus, "--query-remapped-rows": remapped_rows(gpus)}, SCRIPT, "answers")
    fields = re.search(rf'^{fields_variable}="([^"]+)"$', SCRIPT.read_text(), re.MULTILINE)
    assert fields, f"{fields_variable} not found in {SCRIPT.name}"

    done = subprocess.run(
        [str(fake), f"{option}={fields[1]}", "--format=csv,noheader"],
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )

    assert done.stdout == (REAL_ANSWERS / capture).read_text()


# --- as cloud-init delivers it ------------------------------------------------------------------


def delivered(tmp_path: Path, size_name: str) -> tuple[Path, str]:
    """The script and settings file cloud-init writes on a node of `size_name`."""
    document = yaml.safe_load(cloud_config(node_expectations(catalog().get(size_name), 1800)))
    files = {f["path"]: f for f in document["write_files"]}
    script = tmp_path / "node-health-check"
    script.write_bytes(base64.b64decode(files[INSTALL_PATH]["content"]))
    return script, files[SETTINGS_PATH]["content"]


def test_health_check_as_delivered_to_an_nd96asr_v4_node_passes_a_healthy_node(
    run_check: Callable[..., Run], tmp_path: Path
) -> None:
    script, settings = delivered(tmp_path, "Standard_ND96asr_v4")
    node = Node(gpus=h100_gpus(8), ibstat=["ibstat-healthy.txt"], all_reduce=(0, all_reduce_output("231.40")))

    run = run_check(node, script=script, settings=settings, RETRY_SECONDS="30")  # a healthy node never waits

    assert (run.returncode, run.verdict) == (0, "HEALTHY\n")
    assert "NCCL all-reduce bus bandwidth 231.40 GB/s (floor 228.0 GB/s)" in run.stdout
    # The bound the script prints is the one systemd is given (less its margin), for the same settings.
    bound = node_expectations(catalog().get("Standard_ND96asr_v4"), 0).bound_seconds()
    assert f"(waiting up to 0 s; done within {bound} s)" in run.stdout.splitlines()[0]


def test_health_check_as_delivered_to_an_h100_node_holds_it_to_azures_floor(
    run_check: Callable[..., Run], tmp_path: Path
) -> None:
    script, settings = delivered(tmp_path, "Standard_ND96isr_H100_v5")
    node = Node(gpus=h100_gpus(8), ibstat=["ibstat-healthy.txt"], all_reduce=(0, all_reduce_output("231.40")))

    run = run_check(node, script=script, settings=settings.replace("EXPECTED_IB_RATE=400", "EXPECTED_IB_RATE=200"))

    assert (
        run.verdict
        == "UNHEALTHY\n- NCCL: all-reduce bus bandwidth 231.40 GB/s, below the floor of 460.0 GB/s for this size\n"
    )
    assert (tmp_path / "all_reduce.args").read_text() == "-b 16G -e 16G -f 2 -g 8 -c 1\n"


def test_health_check_as_delivered_to_an_h100_node_refuses_hdr_links(
    run_check: Callable[..., Run], tmp_path: Path
) -> None:
    script, settings = delivered(tmp_path, "Standard_ND96isr_H100_v5")

    run = run_check(Node(gpus=h100_gpus(8), ibstat=["ibstat-healthy.txt"]), script=script, settings=settings)

    assert run.verdict.splitlines()[:2] == ["UNHEALTHY", "- InfiniBand: mlx5_ib0 port 1 runs at 200 Gb/s, expected 400"]
