"""Azure's published REST contract as an outside check, as `enums` is for enums: every PUT's ARM body
(pulumi-azure-native's inputs put back where the REST API nests them, `catalog.arm.bodies`) is checked
against the constraints the spec states (`catalog.arm.constraints`, generated from Azure's specs by
scripts/read_specs.py), and the first value it does not allow is refused as ARM refuses it:
`InvalidParameter`, with the property's path in the REST body and the spec data the rule comes from.

Wording: "The value of parameter X is invalid" and "Required parameter 'X' is missing (null)" are the
messages Compute and AKS return (quoted in Microsoft Learn's troubleshooting pages,
https://learn.microsoft.com/troubleshoot/azure/azure-kubernetes/create-upgrade-delete/error-code-invalidparameter,
observed 2026-11-25); the reason and the source after them are ours.
"""

from __future__ import annotations

from typing import Any

from ..catalog.arm.bodies import arm_type, to_arm_body
from ..catalog.arm.constraints import violations
from .errors import InvalidParameter


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


def refuse_spec_violations(token: str, name: str, props: dict[str, Any], location: str | None) -> None:
    """Raise ARM's InvalidParameter for the first value of the PUT the REST spec does not allow."""
    body = arm_body(token, name, props, location)
    if body is None:
        return
    found = violations(token, body)
    if not found:
        return
    first = found[0]
    what = f"{body['type']} '{name}'"
    if first.reason == "it is required":
        raise InvalidParameter(f"Required parameter '{first.path}' is missing (null) ({what}; {first.source}).")
    raise InvalidParameter(f"The value of parameter {first.path} is invalid: {first.reason} ({what}; {first.source}).")
