"""ARM errors the fake raises, with Azure Resource Manager's own error codes and HTTP statuses.

Messages follow the wording ARM uses where it is public; they are not byte-for-byte copies.
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


class InvalidParameter(ArmError):
    code = "InvalidParameter"
    status = 400


class SkuNotAvailable(ArmError):
    code = "SkuNotAvailable"
    status = 409


class QuotaExceeded(ArmError):
    code = "QuotaExceeded"
    status = 409


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
    status = 400


class AccountNameInvalid(ArmError):
    """A storage account name ARM refuses (Microsoft.Storage's own code)."""

    code = "AccountNameInvalid"
    status = 400
