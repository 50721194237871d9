"""disallow-linux-password-login: Linux VMs and scale sets accept SSH keys only.

Rule: a `compute:VirtualMachine` (`osProfile.linuxConfiguration`) or `compute:VirtualMachineScaleSet`
(`virtualMachineProfile.osProfile.linuxConfiguration`) with a Linux configuration sets
`disablePasswordAuthentication: true`. Windows VMs (no Linux configuration) are not judged.
Why: password logins are brute-forced; Azure enables them whenever the flag is not true.
Azure doc: https://learn.microsoft.com/azure/virtual-machines/linux/create-ssh-keys-detailed
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, ReportViolation, ResourceValidationArgs, ResourceValidationPolicy, Severity

from ..catalog.shapes import VMSS, canonical_type
from . import config
from .values import UNKNOWN, flag, get

NAME = "disallow-linux-password-login"
LINUX_CONFIGURATION: dict[str, tuple[str, ...]] = {
    "azure-native:compute:VirtualMachine": ("osProfile", "linuxConfiguration"),
    VMSS: ("virtualMachineProfile", "osProfile", "linuxConfiguration"),
}
CONFIG = config.schema({})


def validate(args: ResourceValidationArgs, report_violation: ReportViolation) -> None:
    path = LINUX_CONFIGURATION.get(canonical_type(args.resource_type))
    if path is None:
        return
    linux = get(args.props, *path)
    if linux is None or linux is UNKNOWN:
        return
    disabled = get(linux, "disablePasswordAuthentication")
    if disabled is UNKNOWN or flag(disabled) is True:
        return
    shown = "not set" if disabled is None else f"{disabled!r}"
    report_violation(
        f"{'.'.join(path)}.disablePasswordAuthentication is {shown}, so the VM accepts password logins; set it to "
        "true and log in with an SSH key (linuxConfiguration.ssh.publicKeys).",
        None,
    )


POLICY = ResourceValidationPolicy(
    name=NAME,
    description="Linux VMs must not accept password logins.",
    validate=validate,
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.HIGH,
    config_schema=CONFIG,
    remediation_steps=(
        "Set linuxConfiguration.disablePasswordAuthentication to true, remove adminPassword and add the admin's "
        "public key under linuxConfiguration.ssh.publicKeys (the GpuVm component does this)."
    ),
    url="https://learn.microsoft.com/azure/virtual-machines/linux/create-ssh-keys-detailed",
)
