"""Azure's Deployments Validate and What-If at subscription scope, through azure-mgmt-resource.

`POST /subscriptions/{id}/providers/Microsoft.Resources/deployments/{name}/validate` answers 200 (valid),
400 (`DeploymentValidateResult` with the error) or 202 (polled until done); `.../whatIf` answers 200 or
202 with a `WhatIfOperationResult`. Source: Azure/azure-rest-api-specs
specification/resources/resource-manager/Microsoft.Resources/deployments/stable/2025-04-01/deployments.json
and its examples PostDeploymentValidateOnSubscription.json, PostDeploymentWhatIfOnSubscription.json
(observed 2026-11-25; saved under tests/data/arm-responses/). Throttling (429 with `Retry-After`) is
retried by azure-core's RetryPolicy, which waits as the header says.

Credentials: azure-identity's DefaultAzureCredential (environment, workload identity as the pull-request
workflow's OpenID Connect login sets it, managed identity, the `az login` session...), signing in at the
cloud's authority. Nothing here needs more than the `azure` extra; the command imports this module
only when it runs.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from azure_gpu_stacks.engine.arm.clouds import cloud
from azure_gpu_stacks.engine.arm.template import Template

INSTALL_HINT = "`gpu-stacks preflight` needs the `azure` extra: pip install 'azure-gpu-stacks[azure]'"


class AzureUnavailable(Exception):
    """The `azure` extra is not installed."""


class AzureRequestFailed(Exception):
    """Azure answered with an error that is not a verdict on the template (sign-in, permission, throttling
    past the retries): one line, without secrets."""


@dataclass(frozen=True)
class AzureError:
    """One error of Azure's answer, nested as Azure nests them."""

    code: str
    message: str
    target: str | None = None
    details: tuple[AzureError, ...] = ()
    additional_info: tuple[Mapping[str, Any], ...] = ()

    def leaves(self) -> list[AzureError]:
        """The innermost errors: what is actually wrong (the outer ones say "see inner errors")."""
        return [leaf for d in self.details for leaf in d.leaves()] if self.details else [self]

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "target": self.target,
            "details": [d.to_json() for d in self.details],
            "additionalInfo": [dict(a) for a in self.additional_info],
        }


@dataclass(frozen=True)
class WhatIfChange:
    resource_id: str
    change_type: str  # Create, Delete, Ignore, Deploy, NoChange, Modify, Unsupported
    paths: tuple[str, ...] = ()  # property paths that change (Modify)
    unsupported_reason: str | None = None


@dataclass(frozen=True)
class AzureAnswer:
    """What Azure said of the template: Validate's error (None: accepted) and, with --what-if, the changes."""

    error: AzureError | None
    validated: tuple[str, ...] = ()  # ids Azure validated
    diagnostics: tuple[AzureError, ...] = ()
    changes: tuple[WhatIfChange, ...] | None = None
    what_if_error: AzureError | None = None
    cloud: str = ""

    @property
    def accepted(self) -> bool:
        return self.error is None and self.what_if_error is None


@dataclass(frozen=True)
class Connection:
    subscription: str
    cloud: str = "AzureCloud"
    credential: Any = None  # None: DefaultAzureCredential at the cloud's authority
    client_options: Mapping[str, Any] = field(default_factory=dict)  # transport, polling_interval (tests)


def deployment_body(template: Template, location: str, *, what_if: bool = False) -> bytes:
    """The request body: the template inline, the secret parameters' values (sent, never written)."""
    properties: dict[str, Any] = {
        "mode": "Incremental",
        "template": template.document,
        "parameters": {name: {"value": value} for name, value in template.secret_values.items()},
    }
    if what_if:
        properties["whatIfSettings"] = {"resultFormat": "FullResourcePayloads"}  # with each change's delta
    return json.dumps({"location": location, "properties": properties}).encode()


def ask_azure(
    template: Template, connection: Connection, *, location: str, deployment: str, what_if: bool
) -> AzureAnswer:
    """Validate (and What-If) `template` in the subscription of `connection`."""
    try:
        from azure.core.exceptions import ClientAuthenticationError, HttpResponseError
        from azure.mgmt.resource import ResourceManagementClient
    except ImportError:
        raise AzureUnavailable(INSTALL_HINT) from None
    where = cloud(connection.cloud)
    credential = connection.credential or _default_credential(where.authority)
    client = ResourceManagementClient(
        credential,
        connection.subscription,
        base_url=where.resource_manager,
        credential_scopes=list(where.credential_scopes),
        **dict(connection.client_options),
    )
    operations = client.deployments
    try:
        try:
            validated = operations.begin_validate_at_subscription_scope(
                deployment, deployment_body(template, location)
            ).result()
            error, ids, diagnostics = _validate_result(validated)
        except HttpResponseError as exc:
            error, ids, diagnostics = _error_of(exc), (), ()
        changes: tuple[WhatIfChange, ...] | None = None
        what_if_error = None
        if what_if:
            try:
                result = operations.begin_what_if_at_subscription_scope(
                    deployment, deployment_body(template, location, what_if=True)
                ).result()
                changes = tuple(_change(c) for c in (result.changes or []))
                what_if_error = _model_error(result.error) if getattr(result, "error", None) else None
            except HttpResponseError as exc:
                what_if_error = _error_of(exc)
    except ClientAuthenticationError as exc:
        raise AzureRequestFailed(f"Azure sign-in failed: {_first_line(exc.message)}") from None
    return AzureAnswer(error, ids, diagnostics, changes, what_if_error, where.name)


def _default_credential(authority: str) -> Any:
    from azure.identity import DefaultAzureCredential

    return DefaultAzureCredential(authority=authority)


def _validate_result(result: Any) -> tuple[AzureError | None, tuple[str, ...], tuple[AzureError, ...]]:
    properties = getattr(result, "properties", None)
    ids = tuple(r.id for r in (getattr(properties, "validated_resources", None) or []) if r.id)
    diagnostics = tuple(
        AzureError(str(d.code), str(d.message), getattr(d, "target", None))
        for d in (getattr(properties, "diagnostics", None) or [])
    )
    error = _model_error(result.error) if getattr(result, "error", None) else None
    return error, ids, diagnostics


def _model_error(model: Any) -> AzureError:
    return AzureError(
        code=str(model.code or ""),
        message=str(model.message or ""),
        target=model.target,
        details=tuple(_model_error(d) for d in (model.details or [])),
        additional_info=tuple({"type": a.type, "info": a.info} for a in (model.additional_info or [])),
    )


def _json_error(data: Mapping[str, Any]) -> AzureError:
    return AzureError(
        code=str(data.get("code", "")),
        message=str(data.get("message", "")),
        target=data.get("target"),
        details=tuple(_json_error(d) for d in data.get("details") or [] if isinstance(d, Mapping)),
        additional_info=tuple(a for a in data.get("additionalInfo") or [] if isinstance(a, Mapping)),
    )


def _error_of(exc: Any) -> AzureError:
    """The ARM error of an HTTP error answer (`{"error": {...}}`), else its status line."""
    response = getattr(exc, "response", None)
    try:
        data = response.json() if response is not None else None
    except (ValueError, AttributeError):
        data = None
    if isinstance(data, Mapping) and isinstance(data.get("error"), Mapping):
        return _json_error(data["error"])
    status = getattr(response, "status_code", None)
    return AzureError(code=f"HTTP{status}" if status else "HttpResponseError", message=_first_line(str(exc)))


def _change(change: Any) -> WhatIfChange:
    return WhatIfChange(
        resource_id=str(change.resource_id),
        change_type=str(change.change_type),
        paths=tuple(str(d.path) for d in (change.delta or [])),
        unsupported_reason=getattr(change, "unsupported_reason", None),
    )


def _first_line(text: str) -> str:
    return (text or "").strip().splitlines()[0] if (text or "").strip() else ""
