"""warn-aks-local-accounts: AKS clusters sign in with Entra ID and authorize with Azure RBAC only.

Rule: a `containerservice:ManagedCluster` is reported when `disableLocalAccounts` is not true (left
out: the static cluster-admin credential stays available), or when `aadProfile.managed` or
`aadProfile.enableAzureRBAC` is not true (Entra ID sign-in and Azure RBAC for Kubernetes authorization).
Unknown values are judged after deployment.
Why: a local account's kubeconfig is a shared credential that bypasses Entra ID, its conditional
access and its audit; whoever holds it can schedule pods on every GPU node. Local accounts can be
disabled only on clusters with Entra ID integration
(https://learn.microsoft.com/azure/aks/manage-local-accounts-managed-azure-ad, observed 2026-11-26).
Peers: checkov CKV_AZURE_141 (`properties/disableLocalAccounts`); PSRule for Azure Azure.AKS.LocalAccounts,
Azure.AKS.ManagedAAD and Azure.AKS.AzureRBAC (observed 2026-11-26); one rule here says all three.
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, ReportViolation, ResourceValidationArgs, ResourceValidationPolicy, Severity

from ..catalog.shapes import MANAGED_CLUSTER, canonical_type
from . import config
from .values import UNKNOWN, flag, get

NAME = "warn-aks-local-accounts"
CONFIG = config.schema({})
# (property path, what it gives when true)
REQUIRED = (
    (("disableLocalAccounts",), "no static cluster-admin credential"),
    (("aadProfile", "managed"), "Entra ID sign-in"),
    (("aadProfile", "enableAzureRBAC"), "Azure RBAC for Kubernetes authorization"),
)


def validate(args: ResourceValidationArgs, report_violation: ReportViolation) -> None:
    if canonical_type(args.resource_type) != MANAGED_CLUSTER:
        return
    missing = []
    for path, gives in REQUIRED:
        value = get(args.props, *path)
        if value is not UNKNOWN and flag(value) is not True:
            missing.append(f"{'.'.join(path)} ({gives})")
    if missing:
        report_violation(
            f"set {', '.join(missing)} to true: otherwise a local kubeconfig reaches every GPU node outside "
            "Entra ID and its audit.",
            None,
        )


POLICY = ResourceValidationPolicy(
    name=NAME,
    description="AKS clusters should use Entra ID and Azure RBAC, with local accounts disabled.",
    validate=validate,
    enforcement_level=EnforcementLevel.ADVISORY,
    config_schema=CONFIG,
    severity=Severity.HIGH,
    remediation_steps=(
        "Set aadProfile.managed and aadProfile.enableAzureRBAC to true and disableLocalAccounts to true (the "
        "AksGpuPool component's new cluster does all three); users then sign in with kubelogin."
    ),
    url="https://learn.microsoft.com/azure/aks/manage-local-accounts-managed-azure-ad",
)
