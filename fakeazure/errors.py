"""ARM errors the fake raises, with the codes and HTTP statuses Azure returns to a direct PUT.

pulumi-azure-native creates each resource with one PUT (no template deployment), so the codes are
the ones a resource provider returns to that PUT, not the wrappers of a template validation (where
a quota shortfall reads `QuotaExceeded`, a direct PUT returns `OperationNotAllowed`). Messages
follow the wording Azure uses where it is public (quoted in Microsoft Learn's troubleshooting pages
and in public issue threads, observed 2026-11-22); they are not byte-for-byte copies.
Sources: https://learn.microsoft.com/azure/azure-resource-manager/troubleshooting/common-deployment-errors
"""

from __future__ import annotations

from typing import ClassVar


class ArmError(Exception):
    """An error Azure Resource Manager would return for a PUT of this resource."""

    code: ClassVar[str] = "BadRequest"
    status: ClassVar[int] = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class BadRequest(ArmError):
    """The generic refusal of a resource provider (a key vault's purge protection switched off...)."""


class InvalidParameter(ArmError):
    code = "InvalidParameter"


class UserError(ArmError):
    """Azure ML's answer to a compute request it refuses (a compute instance's idle shutdown out of range, a
    cluster without its node counts...): the `error.code` of Azure ML's error responses for a caller's mistake,
    HTTP 400 ("Troubleshoot online endpoints deployment and scoring",
    https://learn.microsoft.com/azure/machine-learning/how-to-troubleshoot-online-endpoints, observed 2026-11-26;
    "ScaleSettings.MaxNodeCount and ScaleSettings.MinNodeCount must be specified for create compute. Status: 400
    ... ErrorCode: UserError", dotnet/machinelearning-modelbuilder issue 2386, observed 2026-11-26)."""

    code = "UserError"


class SkuNotAvailable(ArmError):
    """A known size the subscription cannot use in the region (restricted, not offered, retired)."""

    code = "SkuNotAvailable"
    status = 409


class OperationNotAllowed(ArmError):
    """Compute's answer to a PUT that would exceed a vCPU quota ("... exceeding approved ... quota")."""

    code = "OperationNotAllowed"
    status = 409


class QuotaExceeded(ArmError):
    """AKS's answer to a cluster or node pool whose nodes exceed a vCPU quota: Compute's message wrapped
    in "Provisioning of resource(s) for container service ... failed" (mspnp/aks-baseline issue 377,
    MicrosoftDocs/azure-docs issue 62378: code `QuotaExceeded`; Azure/azure-cli issue 15013: 400)."""

    code = "QuotaExceeded"


class ClusterMinNodesExceedCoreQuota(ArmError):
    """Azure ML's answer to a compute whose nodes its own quota cannot hold.

    The code and the wording ("The specified subscription has a Standard NCADSA100v4 family vCPU
    quota of 0 and cannot accomodate for at least 1 requested managed compute nodes which maps to
    24 vCPUs") are those public reports quote from the Azure ML SDK and CLI (observed 2026-11-22);
    no Microsoft page documents the code. Terraform's client reported the same message under the
    top-level code `BadRequest` (Azure/mlops-v2 issue 81), hence the status 400; the name of the
    inner code is the closest documented answer, not verified against a live subscription.
    """

    code = "ClusterMinNodesExceedCoreQuota"


class ResourceNotFound(ArmError):
    code = "ResourceNotFound"
    status = 404


class InvalidResourceReference(ArmError):
    code = "InvalidResourceReference"
    status = 400


class ResourceGroupNotFound(ArmError):
    code = "ResourceGroupNotFound"
    status = 404


class ParentResourceNotFound(ArmError):
    code = "ParentResourceNotFound"
    status = 404


class Conflict(ArmError):
    """What pulumi-azure-native reports when a create finds the resource already there."""

    code = "Conflict"
    status = 409


class LocationNotAvailableForResourceType(ArmError):
    code = "LocationNotAvailableForResourceType"


class AccountNameInvalid(ArmError):
    """A storage account name ARM refuses (Microsoft.Storage's own code)."""

    code = "AccountNameInvalid"


class VaultNameNotValid(ArmError):
    """A key vault name Microsoft.KeyVault refuses."""

    code = "VaultNameNotValid"


class NetcfgSubnetRangeOutsideVnet(ArmError):
    """A subnet whose range is outside its virtual network's address space."""

    code = "NetcfgSubnetRangeOutsideVnet"


class SecurityRuleConflict(ArmError):
    """Two rules of one network security group with the same priority and direction."""

    code = "SecurityRuleConflict"


class InvalidScheduleId(ArmError):
    """An auto-shutdown schedule not named `shutdown-computevm-<vm>` or not in its VM's resource group."""

    code = "InvalidScheduleId"


class AgentPoolK8sVersionNotSupported(ArmError):
    """A Kubernetes version AKS does not offer (not in the supported list on the day of the PUT)."""

    code = "AgentPoolK8sVersionNotSupported"


class VMSizeIsNotPermittedToEnableAcceleratedNetworking(ArmError):
    """Accelerated networking on a network interface attached to a size without it."""

    code = "VMSizeIsNotPermittedToEnableAcceleratedNetworking"


class UnmatchedPrincipalType(ArmError):
    """A role assignment whose principalType is not the type of the principal it names."""

    code = "UnmatchedPrincipalType"


class VMExtensionProvisioningError(ArmError):
    """A VM extension that fails on the VM (no outbound path to its downloads, an OS it does not support)."""

    code = "VMExtensionProvisioningError"


class TargetResourceNotFound(ArmError):
    """An autoscale setting whose targetResourceUri names no resource (the code azure-powershell
    issue 11710 reports for it, observed 2026-11-22; its status is not public: 400 as the fake's
    other refusals of a PUT's body)."""

    code = "TargetResourceNotFound"


class NetcfgSubnetRangesOverlap(ArmError):
    """Two subnets of one VNet whose ranges overlap. Code seen in public deployment notes ("Overlap leads to
    `NetcfgSubnetRangesOverlap` and failed deployments", an Azure AI Foundry sample's Bicep parameters, and an
    `az network vnet subnet create` lab log, both in public repositories, observed 2026-11-26)."""

    code = "NetcfgSubnetRangesOverlap"


class SecurityRuleInvalidPriority(ArmError):
    """An NSG rule priority outside 100-4096: 'Code="SecurityRuleInvalidPriority" Message="Security rule has
    invalid Priority. Value provided: 0 Allowed range 100-4096."' (pulumi/pulumi-azure-native issue 2221,
    observed 2026-11-26)."""

    code = "SecurityRuleInvalidPriority"


def coded(code: str, message: str, status: int = 400) -> ArmError:
    """An ArmError with `code`, for the rules kept as data (`fakeazure.prose`), each naming its code."""
    error = type(code, (ArmError,), {"code": code, "status": status})
    return error(message)
