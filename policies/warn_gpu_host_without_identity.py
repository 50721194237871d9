"""warn-gpu-host-without-identity: GPU hosts reach secrets and data with a managed identity, not embedded keys.

Rule: a `compute:VirtualMachine`, `compute:VirtualMachineScaleSet`, `machinelearningservices:Compute` (an
AmlCompute cluster or a compute instance) or `containerservice:ManagedCluster` (judged by its inline pools) billed by
a GPU VM size whose `identity.type` is missing or `None` is reported. Unknown values are judged after deployment.
"The Azure Machine Learning compute cluster uses a managed identity to retrieve connection information for datastores
from Azure Key Vault and to pull Docker images from ACR" (Learn, how-to-identity-based-service-authentication,
observed 2026-11-27). An AKS cluster without one runs on a
service principal's client secret (`servicePrincipalProfile`), which someone must store and rotate; "we recommend
using managed identities instead of service principals" (Learn, kubernetes-service-principal, observed 2026-11-27).
Why: a training or inference host needs storage, a registry and Key Vault; without a managed identity
the only way in is a key or connection string copied onto the machine, where every process and every
snapshot can read it. A managed identity gets Entra ID tokens from the instance metadata service and is
granted roles like any principal (https://learn.microsoft.com/entra/identity/managed-identities-azure-resources/overview,
observed 2026-11-26). GpuVm, TrainingCluster, AmlCluster, AmlComputeInstance and AksGpuPool's cluster have a
system-assigned identity.
Peers: no checkov or PSRule for Azure rule asks a VM, scale set or Azure ML compute for a managed identity (PSRule's
Azure.AppService.ManagedIdentity and similar cover other services; its Azure.ML.UserManagedIdentity asks it of the
workspace only); PSRule's Azure.AKS.ManagedIdentity asks it of every AKS cluster, GPU or not; checkov 3.3.30 has no
AKS identity check (observed 2026-11-27).
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, ReportViolation, ResourceValidationArgs, ResourceValidationPolicy, Severity

from ..catalog.shapes import MANAGED_CLUSTER, ML_COMPUTE, VM, VMSS, canonical_type
from . import config
from .values import UNKNOWN, get, text
from .vm_size_lifecycle import classify

NAME = "warn-gpu-host-without-identity"
CONFIG = config.schema({})
HOSTS = (VM, VMSS, ML_COMPUTE, MANAGED_CLUSTER)


def validate(args: ResourceValidationArgs, report_violation: ReportViolation) -> None:
    if canonical_type(args.resource_type) not in HOSTS:
        return
    gpu = next((v for v in classify(args.resource_type, args.props) if v.entry and v.entry.is_gpu), None)
    if gpu is None:
        return
    kind = get(args.props, "identity", "type")
    if kind is UNKNOWN or (text(kind) or "none").lower() != "none":
        return
    report_violation(
        f"{gpu.path} '{gpu.size}' runs without a managed identity (identity.type is {text(kind) or 'not set'}): "
        "its jobs could reach storage, registries and Key Vault only with keys copied onto the host; set "
        "identity.type to SystemAssigned (or UserAssigned) and grant it roles.",
        None,
    )


POLICY = ResourceValidationPolicy(
    name=NAME,
    description=(
        "GPU VMs, scale sets, Azure ML computes and AKS clusters should have a managed identity to reach secrets and "
        "data."
    ),
    validate=validate,
    enforcement_level=EnforcementLevel.ADVISORY,
    config_schema=CONFIG,
    severity=Severity.MEDIUM,
    remediation_steps=(
        "Set identity.type to SystemAssigned (or attach a user-assigned identity) and grant it the roles it needs, "
        "such as Storage Blob Data Reader or Key Vault Secrets User, instead of copying keys onto the host."
    ),
    url="https://learn.microsoft.com/entra/identity/managed-identities-azure-resources/overview",
)
