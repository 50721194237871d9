"""Azure's published REST contract as an outside check, as `enums` is for enums: every PUT's ARM body
(pulumi-azure-native's inputs put back where the REST API nests them, `catalog.arm.bodies`) is checked
against the constraints the spec states (`catalog.arm.constraints`, generated from Azure's specs by
scripts/read_specs.py), and the first value it does not allow is refused as ARM refuses it:
`InvalidParameter` (or the provider's own code where it is public: PROVIDER_CODES), with the property's path in
the REST body and the spec data the rule comes from.

Wording: "The value of parameter X is invalid" and "Required parameter 'X' is missing (null)" are the
messages Compute and AKS return (quoted in Microsoft Learn's troubleshooting pages,
https://learn.microsoft.com/troubleshoot/azure/azure-kubernetes/create-upgrade-delete/error-code-invalidparameter,
observed 2026-11-25); the reason and the source after them are ours.
"""

from __future__ import annotations

from typing import Any

from ..catalog.arm.bodies import arm_type, to_arm_body
from ..catalog.arm.constraints import violations
from .errors import ArmError, coded

# The code a resource provider answers a body its REST spec does not allow with, where it is public and not ARM's
# InvalidParameter: (code, where it was seen).
PROVIDER_CODES: dict[str, tuple[str, str]] = {
    "microsoft.batch/batchaccounts/pools": (
        "InvalidPropertyValue",
        "'The value provided for one of the properties in the request body is invalid.', quoted in hashicorp/terraform "
        "issue 36698 and Azure/batch-shipyard issue 53 (observed 2026-11-26)",
    ),
    "microsoft.machinelearningservices/workspaces/computes": (
        "UserError",
        "Azure ML's error.code for a caller's mistake, HTTP 400 (fakeazure/errors.py UserError: Learn's "
        "how-to-troubleshoot-online-endpoints; dotnet/machinelearning-modelbuilder issue 2386, observed 2026-11-26)",
    ),
    "microsoft.insights/autoscalesettings": (
        "BadRequest",
        "the capacity refusal quoted in microsoft/onefuzz issue 2249 (observed 2026-11-22)",
    ),
}


def provider_code(arm_type: str) -> str:
    """What the provider of `arm_type` answers a value its spec does not allow."""
    return PROVIDER_CODES.get(arm_type.lower(), ("InvalidParameter", ""))[0]


# How `catalog.arm.constraints` words a value of the wrong JSON type ("a number is expected, not a string").
WRONG_TYPE_WORDS = " is expected, not "


def arm_body(token: str, name: str, props: dict[str, Any], location: str | None) -> dict[str, Any] | None:
    """The body azure-native sends for these inputs (the location it falls back to filled in); None
    for a type the mapping does not cover."""
    found = arm_type(token)
    if found is None:
        return None
    body = to_arm_body(token, props)
    body["name"] = name  # the name given or the one azure-native generated
    if location is not None and "location" not in body:
        body["location"] = location
    if "lifted" in found.body:  # azure-native sends `properties` even when no input goes in it
        body.setdefault("properties", {})
    return body


def spec_refusals(token: str, name: str, props: dict[str, Any], location: str | None) -> list[ArmError]:
    """The provider's refusal (InvalidParameter unless PROVIDER_CODES says otherwise) of each value of the PUT the
    REST spec does not allow, a value of the wrong JSON type first (the backend refuses those before the type's own
    checks, which read values of the right type)."""
    body = arm_body(token, name, props, location)
    if body is None:
        return []
    what = f"{body['type']} '{name}'"
    out: list[ArmError] = []
    for found in sorted(violations(token, body), key=lambda v: WRONG_TYPE_WORDS not in v.reason):
        if found.reason == "it is required":
            message = f"Required parameter '{found.path}' is missing (null) ({what}; {found.source})."
        else:
            message = f"The value of parameter {found.path} is invalid: {found.reason} ({what}; {found.source})."
        out.append(coded(provider_code(str(body["type"])), message))
    return out


def is_wrong_type(error: ArmError) -> bool:
    """Whether `error` refuses a value of the wrong JSON type."""
    return WRONG_TYPE_WORDS in error.message


def refuse_spec_violations(token: str, name: str, props: dict[str, Any], location: str | None) -> None:
    """Raise the provider's refusal of the first value of the PUT the REST spec does not allow."""
    found = spec_refusals(token, name, props, location)
    if found:
        raise found[0]
