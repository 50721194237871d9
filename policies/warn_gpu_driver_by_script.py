"""warn-gpu-driver-by-script: GPU drivers come from NVIDIA's signed VM extension or the GPU Operator, not a script.

Rule: in a stack with GPU hosts, a script that installs an NVIDIA driver is reported: a Custom Script
extension's `commandToExecute` (a `compute:VirtualMachineExtension` or `VirtualMachineScaleSetExtension`,
or one inline in a scale set's `extensionProfile`), and a VM's or scale set's `osProfile.customData` or
`userData` (base64, as Azure takes them), whose text runs one of `DRIVER_INSTALLS`. Protected settings
are secret and never read.
Why: a driver a script compiles or pulls at boot drifts from the kernel on the next update, is not
signed for Secure Boot (Trusted Launch refuses to load it), and fails silently on a new size. Azure's
NVIDIA GPU Driver Extension (`Microsoft.HpcCompute/NvidiaGpuDriverLinux`) installs the driver Azure
validated for the size (https://learn.microsoft.com/azure/virtual-machines/extensions/hpccompute-gpu-linux,
observed 2026-11-26); on AKS, the NVIDIA GPU Operator or AKS's own driver install own it (docs/aks-gpu-modes.md).
Peers: neither checkov nor PSRule for Azure has a rule on how a GPU driver is installed (observed 2026-11-26).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator
from typing import Any

from pulumi_policy import EnforcementLevel, ReportViolation, Severity, StackValidationArgs, StackValidationPolicy

from ..catalog.shapes import VM, VMSS, canonical_type
from . import config
from .values import elements, get, text
from .vm_size_lifecycle import classify

NAME = "warn-gpu-driver-by-script"
CONFIG = config.schema({})
EXTENSION_TYPES = frozenset(
    {"azure-native:compute:VirtualMachineExtension", "azure-native:compute:VirtualMachineScaleSetExtension"}
)
# What installs an NVIDIA driver from a shell: the distributions' driver packages, NVIDIA's CUDA
# meta-package that pulls the driver, Ubuntu's driver installer and NVIDIA's .run installer.
DRIVER_INSTALLS = (
    (
        "a distribution's NVIDIA driver package",
        re.compile(
            r"\b(apt|apt-get|dnf|yum|zypper)\b[^\n;&|]*\binstall\b[^\n;&|]*\bnvidia-(driver|headless|open)", re.I
        ),
    ),
    ("the cuda-drivers package", re.compile(r"\binstall\b[^\n;&|]*\bcuda-drivers\b", re.I)),
    ("ubuntu-drivers", re.compile(r"\bubuntu-drivers\s+(auto)?install\b", re.I)),
    ("NVIDIA's .run installer", re.compile(r"NVIDIA-Linux-[\w.-]+\.run", re.I)),
)
MAX_SCRIPT_BYTES = 1024 * 1024  # customData is at most 64 KiB; anything larger is not read


def validate(args: StackValidationArgs, report_violation: ReportViolation) -> None:
    if not any(v.entry and v.entry.is_gpu for r in args.resources for v in classify(r.resource_type, r.props)):
        return
    for resource in args.resources:
        for where, script in _scripts(canonical_type(resource.resource_type), resource.props):
            found = next((what for what, pattern in DRIVER_INSTALLS if pattern.search(script)), None)
            if found is not None:
                report_violation(
                    f"{where} of '{resource.name}' installs the NVIDIA driver with {found}; install it with the NVIDIA "
                    "GPU Driver Extension (Microsoft.HpcCompute NvidiaGpuDriverLinux, as GpuVm and TrainingCluster "
                    "do) or, on AKS, let the GPU Operator or AKS own it.",
                    resource.urn,
                )


def _scripts(kind: str, props: Any) -> Iterator[tuple[str, str]]:
    """(where, text) of every script the resource runs that this rule can read."""
    if kind in EXTENSION_TYPES:
        yield from _extension_commands("settings.commandToExecute", props)
    elif kind in (VM, VMSS):
        profile = get(props, "virtualMachineProfile") if kind == VMSS else props
        prefix = "virtualMachineProfile." if kind == VMSS else ""
        for path in (("osProfile", "customData"), ("userData",)):
            if (decoded := _base64_text(get(profile, *path))) is not None:
                yield prefix + ".".join(path), decoded
        for index, extension in enumerate(elements(get(profile, "extensionProfile", "extensions"))):
            yield from _extension_commands(
                f"{prefix}extensionProfile.extensions[{index}].settings.commandToExecute", extension
            )


def _extension_commands(where: str, extension: Any) -> Iterator[tuple[str, str]]:
    command = text(get(extension, "settings", "commandToExecute"))
    if command is not None:
        yield where, command[:MAX_SCRIPT_BYTES]


def _base64_text(value: Any) -> str | None:
    encoded = text(value)
    if encoded is None or len(encoded) > MAX_SCRIPT_BYTES:
        return None
    try:
        return base64.b64decode(encoded, validate=True).decode("utf-8", "replace")
    except (binascii.Error, ValueError):
        return encoded  # not base64: Azure refuses it, but the script is still what was meant


POLICY = StackValidationPolicy(
    name=NAME,
    description="GPU drivers should be installed by NVIDIA's VM extension or the GPU Operator, not by a script.",
    validate=validate,
    enforcement_level=EnforcementLevel.ADVISORY,
    config_schema=CONFIG,
    severity=Severity.MEDIUM,
    remediation_steps=(
        "Remove the driver installation from the script and add the NvidiaGpuDriverLinux extension (publisher "
        "Microsoft.HpcCompute) to the VM or scale set; on AKS, use the GPU Operator or AKS's managed driver."
    ),
    url="https://learn.microsoft.com/azure/virtual-machines/extensions/hpccompute-gpu-linux",
)
