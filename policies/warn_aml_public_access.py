"""warn-aml-public-access: Azure ML workspaces closed to the public internet, computes without local auth.

Rule: a `machinelearningservices:Workspace` whose `publicNetworkAccess` is not `Disabled` (Azure's
default when left out is Enabled) is reported; so is a `machinelearningservices:Compute` of computeType
AmlCompute or ComputeInstance whose `properties.disableLocalAuth` is not true (left out: local
authentication stays on). Unknown values are judged after deployment.
Why: a workspace open to the internet exposes its data, models and jobs to anyone holding a token;
Azure recommends private endpoints instead (https://learn.microsoft.com/azure/machine-learning/how-to-configure-private-link,
observed 2026-11-26). Local authentication lets a key or a node's local account reach a compute without
Entra ID, outside RBAC and its audit; `disableLocalAuth` is the spec's "Opt-out of local authentication
and ensure customers can use only MSI and AAD exclusively for authentication" (azure-rest-api-specs,
machinelearningservices Compute definition, observed 2026-11-26).
Peers: checkov CKV_AZURE_144 (workspace public access) and CKV_AZURE_142 (compute cluster local auth);
PSRule for Azure Azure.ML.PublicAccess and Azure.ML.DisableLocalAuth (observed 2026-11-26). This rule
also covers compute instances, the per-person GPU dev boxes.
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, ReportViolation, ResourceValidationArgs, ResourceValidationPolicy, Severity

from ..catalog.shapes import canonical_type
from . import config
from .values import UNKNOWN, flag, get, text

NAME = "warn-aml-public-access"
CONFIG = config.schema({})
WORKSPACE = "azure-native:machinelearningservices:Workspace"
COMPUTE = "azure-native:machinelearningservices:Compute"
COMPUTE_TYPES = frozenset({"amlcompute", "computeinstance"})


def validate(args: ResourceValidationArgs, report_violation: ReportViolation) -> None:
    kind = canonical_type(args.resource_type)
    if kind == WORKSPACE:
        access = get(args.props, "publicNetworkAccess")
        if access is UNKNOWN or (text(access) or "").lower() == "disabled":
            return
        shown = text(access) or "not set (Azure's default: Enabled)"
        report_violation(
            f"publicNetworkAccess is {shown}: the workspace answers the public internet; set it to Disabled and "
            "reach the workspace through a private endpoint (AmlCluster's public_network_access).",
            None,
        )
    elif kind == COMPUTE:
        compute_type = text(get(args.props, "properties", "computeType"))
        if compute_type is None or compute_type.lower() not in COMPUTE_TYPES:
            return
        disabled = get(args.props, "properties", "disableLocalAuth")
        if disabled is UNKNOWN or flag(disabled) is True:
            return
        report_violation(
            f"properties.disableLocalAuth is {'false' if flag(disabled) is False else 'not set'}: the {compute_type} "
            "can be reached with local credentials outside Entra ID; set it to true.",
            None,
        )


POLICY = ResourceValidationPolicy(
    name=NAME,
    description="Azure ML workspaces should be closed to the internet and their computes to local credentials.",
    validate=validate,
    enforcement_level=EnforcementLevel.ADVISORY,
    config_schema=CONFIG,
    severity=Severity.HIGH,
    remediation_steps=(
        "Set the workspace's publicNetworkAccess to Disabled and add a private endpoint for the people and "
        "pipelines that use it; set disableLocalAuth to true on clusters and compute instances."
    ),
    url="https://learn.microsoft.com/azure/machine-learning/how-to-configure-private-link",
)
