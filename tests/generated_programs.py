"""Generated Pulumi projects of a given size, for the scaling tests and bench/plan_scaling_bench.py."""

from __future__ import annotations

import textwrap
from pathlib import Path

LOCATION = "eastus"
TEST_SSH_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGVuZXJhdGVkLWZvci10ZXN0cy1vbmx5 generated"


def write_project(root: Path, program: str, config: str = "config: {}\n") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "Pulumi.yaml").write_text("name: generated\nruntime: python\n")
    (root / "Pulumi.dev.yaml").write_text(config)
    (root / "__main__.py").write_text(textwrap.dedent(program))
    return root


def resource_groups(root: Path, count: int) -> Path:
    """A project whose program registers `count` resource groups, rg0 to rg<count-1>, in that order."""
    return write_project(
        root,
        f"""
        from pulumi_azure_native import resources

        for i in range({count}):
            resources.ResourceGroup(f"rg{{i}}", location="{LOCATION}")
        """,
    )


def gpu_vms(root: Path, count: int) -> Path:
    """A project whose program makes `count` GpuVm components (each its network, NIC, VM, extension, schedule)."""
    return write_project(
        root,
        f"""
        from azure_gpu_stacks.components import GpuVm
        from pulumi_azure_native import resources

        KEY = "{TEST_SSH_KEY}"
        rg = resources.ResourceGroup("rg", location="{LOCATION}")
        for i in range({count}):
            GpuVm(f"vm{{i}}", {{"resource_group_name": rg.name, "location": "{LOCATION}", "ssh_public_key": KEY}})
        """,
    )
