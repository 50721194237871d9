"""warn-gpu-host-without-encryption-at-host: GPU hosts encrypt their temporary disks and disk caches on the host.

Rule: a `compute:VirtualMachine` (`securityProfile.encryptionAtHost`), `compute:VirtualMachineScaleSet`
(`virtualMachineProfile.securityProfile.encryptionAtHost`), `containerservice:AgentPool` (`enableEncryptionAtHost`) or
pool of a `containerservice:ManagedCluster` (`agentPoolProfiles[].enableEncryptionAtHost`) billed by a GPU VM size,
where that setting is missing or false, is reported, unless the catalog records that the size cannot have it (the
Resource SKUs API's `EncryptionAtHostSupported` False): a size that cannot is never asked to. A retired size is left
to disallow-retired-vm-sizes (the size has to change first). Unknown values are judged after deployment.
Why: without it the temporary disk (where training jobs stage datasets and checkpoints) and the OS and data disk caches
sit unencrypted on the host; with it the host encrypts them before they reach Azure Storage
(https://learn.microsoft.com/azure/virtual-machines/disk-encryption, "Encryption at host", observed 2026-11-27).
Advisory by default: ARM takes it only in a subscription that registered the feature
`Microsoft.Compute/EncryptionAtHost`; set the level to mandatory where every subscription has.
Peers (observed 2026-11-27): checkov CKV_AZURE_97 (VMs and scale sets) and CKV_AZURE_227 (AKS pools), which report
every size, including those that cannot have it; Azure Policy's built-in "Virtual machines and virtual machine scale
sets should have encryption at host enabled" (fc4d8e41-e223-45ea-9bf5-eada37891d87), audited after deployment. PSRule
for Azure has no encryption-at-host rule (its rule index, docs/en/rules/module.md).
"""

from __future__ import annotations

import re

from pulumi_policy import EnforcementLevel, ReportViolation, ResourceValidationArgs, ResourceValidationPolicy, Severity

from ..catalog.shapes import AGENT_POOL, MANAGED_CLUSTER, VM, VMSS, canonical_type
from . import config
from .values import UNKNOWN, flag, get
from .vm_size_lifecycle import classify

NAME = "warn-gpu-host-without-encryption-at-host"
CONFIG = config.schema({})

# Where each type keeps the setting: an absolute path, or (for pools) the key beside the pool's vmSize.
ABSOLUTE = {
    VM: "securityProfile.encryptionAtHost",
    VMSS: "virtualMachineProfile.securityProfile.encryptionAtHost",
}
BESIDE_THE_SIZE = {AGENT_POOL: "enableEncryptionAtHost", MANAGED_CLUSTER: "enableEncryptionAtHost"}
_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def setting_path(resource_type: str, size_path: str) -> str | None:
    """The path of the encryption-at-host setting that goes with the size at `size_path`; None for other types."""
    kind = canonical_type(resource_type)
    if kind in ABSOLUTE:
        return ABSOLUTE[kind]
    if kind in BESIDE_THE_SIZE:
        parent = size_path.rpartition(".")[0]
        return f"{parent}.{BESIDE_THE_SIZE[kind]}" if parent else BESIDE_THE_SIZE[kind]
    return None


def _steps(path: str) -> list[str | int]:
    return [name if name else int(index) for name, index in _STEP.findall(path)]


def validate(args: ResourceValidationArgs, report_violation: ReportViolation) -> None:
    for found in classify(args.resource_type, args.props, billed_only=True):
        size = found.entry
        path = setting_path(args.resource_type, found.path)
        if path is None or size is None or not size.is_gpu or size.supports_encryption_at_host is False:
            continue
        if found.status == "retired":  # the size has to change first: disallow-retired-vm-sizes says so
            continue
        value = get(args.props, *_steps(path))
        if value is UNKNOWN or flag(value) is True:
            continue
        shown = "false" if flag(value) is False else "not set"
        unsure = (
            ""
            if size.supports_encryption_at_host
            else f" (the catalog does not record whether {size.name} supports it: `az vm list-skus --size "
            f"{size.name}` shows EncryptionAtHostSupported)"
        )
        report_violation(
            f"{found.path} '{found.size}' runs without encryption at host ({path} is {shown}): "
            f"its temporary disk and disk caches stay unencrypted on the host{unsure}; set {path} to true once the "
            "subscription has registered Microsoft.Compute/EncryptionAtHost.",
            None,
        )


POLICY = ResourceValidationPolicy(
    name=NAME,
    description="GPU VMs, scale sets and AKS GPU pools should have encryption at host enabled where the size allows.",
    validate=validate,
    enforcement_level=EnforcementLevel.ADVISORY,
    config_schema=CONFIG,
    severity=Severity.MEDIUM,
    remediation_steps=(
        "Register the feature once per subscription (`az feature register --namespace Microsoft.Compute --name "
        "EncryptionAtHost`, then `az provider register -n Microsoft.Compute`), then set encryption_at_host: true on "
        "GpuVm, TrainingCluster or AksGpuPool (securityProfile.encryptionAtHost, enableEncryptionAtHost)."
    ),
    url="https://learn.microsoft.com/azure/virtual-machines/linux/disks-enable-host-based-encryption-cli",
)
