"""The boot-time node health check, packaged as cloud-init user data for a scale set.

The check itself is `components/scripts/node_health_check.sh` (tested on its own with bash). This
module wraps it in a `#cloud-config` document that, on every node, writes the script, its settings
(what this node size should show: GPUs, InfiniBand ports, port rate, the single-node NCCL all-reduce
floor from the catalog) and a systemd unit, then starts the unit. The unit runs on every boot, so a
node re-checks itself after a driver extension reboots it; its output goes to the journal and the serial console, which
Azure keeps as the boot log.

What the check finds, its settings and its time bound: docs/node-health-check.md.

cloud-init docs: https://cloudinit.readthedocs.io/en/latest/reference/modules.html#write-files
"""

from __future__ import annotations

import base64
import functools
from dataclasses import dataclass
from pathlib import Path

import yaml

SCRIPT_FILE = Path(__file__).with_name("scripts") / "node_health_check.sh"
INSTALL_PATH = "/usr/local/sbin/node-health-check"
SETTINGS_PATH = "/etc/default/node-health-check"
UNIT_NAME = "node-health-check.service"
UNIT_PATH = f"/etc/systemd/system/{UNIT_NAME}"
VERDICT_FILE = "/var/log/node-health-check/verdict"
RETRY_SECONDS = 30
COMMAND_TIMEOUT_SECONDS = 60  # nvidia-smi, ibstat, dmesg: each answers in seconds unless wedged
NCCL_TIMEOUT_SECONDS = 300  # one all-reduce of 4-16 GB messages on 8 GPUs takes well under a minute
AZURE_NHC_TIMEOUT_SECONDS = 1800  # Azure's checks include GPU and InfiniBand bandwidth tests
SYSTEMD_MARGIN_SECONDS = 60


@dataclass(frozen=True)
class NodeExpectations:
    """What a healthy node of one size shows."""

    gpus: int
    infiniband_ports: int
    infiniband_rate_gbps: int
    wait_seconds: int  # how long drivers and links may take to come up after boot
    nccl_busbw_floor_gbps: float | None = None  # single-node all-reduce floor; None: not checked
    nccl_message_size: str = "8G"

    def bound_seconds(self) -> int:
        """The longest the check can run: the script's own bound (see node_health_check.sh)."""
        return (
            self.wait_seconds
            + RETRY_SECONDS
            + 4 * (COMMAND_TIMEOUT_SECONDS + 1)
            + NCCL_TIMEOUT_SECONDS
            + AZURE_NHC_TIMEOUT_SECONDS
            + 2
        )


@functools.cache
def script_text() -> str:
    return SCRIPT_FILE.read_text(encoding="utf-8")


def settings_text(expect: NodeExpectations) -> str:
    """The environment file the systemd unit hands the script."""
    values: dict[str, object] = {
        "EXPECTED_GPUS": expect.gpus,
        "EXPECTED_IB_PORTS": expect.infiniband_ports,
        "EXPECTED_IB_RATE": expect.infiniband_rate_gbps,
        "WAIT_SECONDS": expect.wait_seconds,
        "RETRY_SECONDS": RETRY_SECONDS,
        "COMMAND_TIMEOUT": COMMAND_TIMEOUT_SECONDS,
        "NCCL_BUSBW_FLOOR": "" if expect.nccl_busbw_floor_gbps is None else expect.nccl_busbw_floor_gbps,
        "NCCL_MESSAGE_SIZE": expect.nccl_message_size,
        "NCCL_TIMEOUT": NCCL_TIMEOUT_SECONDS,
        "AZURE_NHC_TIMEOUT": AZURE_NHC_TIMEOUT_SECONDS,
        "VERDICT_FILE": VERDICT_FILE,
    }
    return "".join(f"{key}={value}\n" for key, value in values.items())


def unit_text(expect: NodeExpectations) -> str:
    """The systemd unit; its start timeout is the script's own bound plus a margin."""
    return f"""[Unit]
Description=GPU and InfiniBand node health check (verdict in {VERDICT_FILE})
Wants=network-online.target
After=network-online.target

[Service]
Type=oneshot
RemainAfterExit=yes
EnvironmentFile={SETTINGS_PATH}
ExecStart={INSTALL_PATH}
StandardOutput=journal+console
StandardError=journal+console
# The script bounds itself (every command under a timeout); this only backs that bound up.
TimeoutStartSec={expect.bound_seconds() + SYSTEMD_MARGIN_SECONDS}

[Install]
WantedBy=multi-user.target
"""


def cloud_config(expect: NodeExpectations) -> str:
    document = {
        "write_files": [
            {
                "path": INSTALL_PATH,
                "permissions": "0755",
                "owner": "root:root",
                "encoding": "b64",
                "content": base64.b64encode(script_text().encode()).decode(),
            },
            {"path": SETTINGS_PATH, "permissions": "0644", "content": settings_text(expect)},
            {"path": UNIT_PATH, "permissions": "0644", "content": unit_text(expect)},
        ],
        # --no-block: the check may wait for drivers for many minutes; cloud-init must not wait with it.
        "runcmd": [["systemctl", "daemon-reload"], ["systemctl", "enable", "--now", "--no-block", UNIT_NAME]],
    }
    return "#cloud-config\n" + yaml.safe_dump(document, sort_keys=False, width=1000)


def custom_data(expect: NodeExpectations) -> str:
    """The scale set's `osProfile.customData`: the cloud-config, base64 as ARM requires."""
    return base64.b64encode(cloud_config(expect).encode()).decode()
