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
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NoReturn

from ...inputs.files import escaped
from .clouds import cloud
from .template import Template

INSTALL_HINT = "`gpu-stacks preflight` needs the `azure` extra: pip install 'azure-gpu-stacks[azure]'"


class AzureUnavailable(Exception):
    """The `azure` extra is not installed."""


class AzureRequestFailed(Exception):
    """Azure answered with an error that is not a verdict on the template (sign-in, permission, throttling
    past the retries, a service error, no answer at all): `what` Azure said and what to `do`, for one line
    that the command masks and caps (`line`)."""

    def __init__(self, what: str, do: str) -> None:
        super().__init__(f"{what}; {do}")
        self.what = what
        self.do = do

    def line(self, mask: Callable[[str], str]) -> str:
        return f"Azure gave no verdict: {capped(mask(self.what))}; {self.do}"


# Only these statuses carry a verdict on the template: Validate answers 400 with the
# DeploymentValidateResult that says why it is invalid, What-If answers 400 with the error (REST spec
# deployments.json, Deployments_ValidateAtSubscriptionScope and Deployments_WhatIfAtSubscriptionScope,
# observed 2026-11-25), and a long-running operation that ends Failed answers 200 with the error. Any
# other status (401, 403, 404, 409, 429 after the retries, 5xx) says nothing about the template.
VERDICT_STATUSES = frozenset({200, 400})
# What to do after each status that carries no verdict (HTTP semantics, RFC 9110 section 15; ARM's own
# meanings: learn.microsoft.com/azure/azure-resource-manager/troubleshooting/common-deployment-errors,
# observed 2026-11-25).
NO_VERDICT_ADVICE: dict[int | None, str] = {
    401: "sign in again (`az login`, or the service principal's environment variables)",
    403: "the signed-in identity needs Microsoft.Resources/deployments/validate/action on the subscription",
    404: "check --subscription and that the identity can see that subscription",
    429: "Azure throttled the requests past the retries; run it again later",
    None: "Azure's service did not answer the request; run it again later",
}
UNREADABLE_ADVICE = "Azure's answer cannot be read as the REST spec describes it; run it again later"
# The most of one answer's body read before it is parsed. ARM allows 800 resources in a template
# (learn.microsoft.com/azure/azure-resource-manager/management/azure-subscription-service-limits,
# "Template limits", observed 2026-11-27); a What-If of that many full payloads stays well under this.
MAX_ANSWER_BYTES = 64 * 1024 * 1024


class AnswerTooLarge(Exception):
    """An answer's body is over MAX_ANSWER_BYTES: it is closed unread past the cap, never parsed."""

    def __init__(self, read: int, cap: int) -> None:
        super().__init__(f"Azure's answer is over {cap // (1024 * 1024)} MiB ({read:,} bytes read before it was cut)")


MAX_MESSAGE = 300  # characters of Azure's text in one line


def capped(text: str, limit: int = MAX_MESSAGE) -> str:
    """`text` on one line (whitespace runs as one space, control characters escaped), at most `limit`
    characters, saying how much was cut."""
    one_line = escaped(" ".join(str(text).split()))
    if len(one_line) <= limit:
        return one_line
    return f"{one_line[:limit]}… ({len(one_line) - limit:,} more characters not shown)"


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
    clock: Callable[[], float] = time.monotonic  # what the deadline reads (tests: the transport's recorded waits)


class Deadline:
    """One deadline (`--timeout`) over everything preflight waits for: azure-core's retries and the
    Retry-After they honour, and the polling of a 202 answer. azure-core sleeps as long as `Retry-After`
    says (RetryPolicy._sleep_for_retry) and polls a long-running operation until it ends, each wait the
    header's or the polling interval (LROBasePolling._delay / _extract_delay), with no overall bound
    (Azure/azure-sdk-for-python sdk/core/azure-core/azure/core/pipeline/policies/_retry.py and
    azure/core/polling/base_polling.py, azure-core 1.41.0, read 2026-11-26): every such wait goes
    through `wait`, which refuses one that would end past the deadline."""

    def __init__(self, seconds: float, clock: Callable[[], float]) -> None:
        self.seconds = seconds
        self.clock = clock
        self.end = clock() + seconds
        self.waiting_for = "Azure had not answered"  # what the last wait was for: said if the deadline passes

    def remaining(self) -> float:
        return self.end - self.clock()

    def wait(self, seconds: float, transport: Any, why: str) -> None:
        self.waiting_for = why
        if seconds > self.remaining():
            self.passed(f"{why} ({seconds:g} s)")
        transport.sleep(seconds)

    def passed(self, why: str) -> NoReturn:
        raise AzureRequestFailed(
            f"{why}, past the deadline of --timeout {self.seconds:g} s",
            "run it again later, or give it more time with --timeout SECONDS",
        )


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
    template: Template,
    connection: Connection,
    *,
    location: str,
    deployment: str,
    what_if: bool,
    timeout_s: float = 120.0,
) -> AzureAnswer:
    """Validate (and What-If) `template` in the subscription of `connection`, all within `timeout_s`."""
    try:
        from azure.core.exceptions import AzureError as SdkError
        from azure.core.exceptions import ClientAuthenticationError, DeserializationError, HttpResponseError
        from azure.mgmt.resource import ResourceManagementClient
    except ImportError:
        raise AzureUnavailable(INSTALL_HINT) from None
    where = cloud(connection.cloud)
    deadline = Deadline(timeout_s, connection.clock)
    credential = connection.credential or _default_credential(where.authority)
    client = ResourceManagementClient(
        credential,
        connection.subscription,
        base_url=where.resource_manager,
        credential_scopes=list(where.credential_scopes),
        **client_policies(deadline),
        **dict(connection.client_options),
    )
    operations = client.deployments
    polling_interval = client._config.polling_interval

    def finished(poller: Any) -> Any:
        poller.wait(max(deadline.remaining(), 0.0) + 1.0)  # the polling thread also stops at the deadline
        if not poller.done():
            deadline.passed("the operation was still running")
        return poller.result()

    try:
        try:
            validated = finished(
                operations.begin_validate_at_subscription_scope(
                    deployment,
                    deployment_body(template, location),
                    polling=_deadline_polling(deadline, polling_interval),
                )
            )
            error, ids, diagnostics = _validate_result(validated)
        except HttpResponseError as exc:
            error, ids, diagnostics = _verdict_error(exc), (), ()
        changes: tuple[WhatIfChange, ...] | None = None
        what_if_error = None
        if what_if:
            try:
                result = finished(
                    operations.begin_what_if_at_subscription_scope(
                        deployment,
                        deployment_body(template, location, what_if=True),
                        polling=_deadline_polling(deadline, polling_interval),
                    )
                )
                changes = tuple(_change(c) for c in (result.changes or []))
                what_if_error = _model_error(result.error) if getattr(result, "error", None) else None
            except HttpResponseError as exc:
                what_if_error = _verdict_error(exc)
    except ClientAuthenticationError as exc:
        raise AzureRequestFailed(f"sign-in failed: {exc.message}", NO_VERDICT_ADVICE[401]) from None
    except AnswerTooLarge as exc:
        raise AzureRequestFailed(str(exc), UNREADABLE_ADVICE) from None
    except RecursionError:  # the SDK reads an answer recursively: one nested past Python's limit
        raise AzureRequestFailed("Azure's answer is nested too deeply to read", UNREADABLE_ADVICE) from None
    except DeserializationError as exc:  # a value of a type the REST spec does not allow there
        raise AzureRequestFailed(f"Azure's answer does not fit the REST spec: {exc}", UNREADABLE_ADVICE) from None
    except SdkError as exc:  # no answer: the connection failed or timed out
        raise AzureRequestFailed(f"{type(exc).__name__}: {exc.message}", NO_VERDICT_ADVICE[None]) from None
    return AzureAnswer(error, ids, diagnostics, changes, what_if_error, where.name)


def answer_size_policy(cap: int = MAX_ANSWER_BYTES) -> Any:
    """An azure-core policy that reads each answer's body itself, in chunks, refusing it past `cap` bytes
    (AnswerTooLarge) before anything parses it. The transport is asked to stream the body (azure-core's
    RequestsTransport otherwise reads it whole first: `stream` in the pipeline's options, azure-core
    1.41.0 pipeline/transport/_requests_basic.py, read 2026-11-27); what was read is handed on as the
    response's content (which a caller that asked for a stream then reads from), so the SDK's own
    parsing and error mapping run as before."""
    from azure.core.pipeline.policies import HTTPPolicy

    class AnswerSizeCap(HTTPPolicy):  # type: ignore[type-arg]
        def send(self, request: Any) -> Any:
            options = request.context.options
            streamed = options.get("stream", False)
            options["stream"] = True
            try:
                response = self.next.send(request)
            finally:
                options["stream"] = streamed
            answer = response.http_response
            declared = str(answer.headers.get("Content-Length", ""))
            if declared.isdigit() and int(declared) > cap:
                answer.close()
                raise AnswerTooLarge(0, cap)
            body = bytearray()
            for chunk in answer.iter_bytes():
                body += chunk
                if len(body) > cap:
                    answer.close()
                    raise AnswerTooLarge(len(body), cap)
            answer._content = bytes(body)
            inner = getattr(answer, "internal_response", None)
            if inner is not None and hasattr(inner, "_content_consumed"):  # requests: its readers serve these bytes
                inner._content = answer._content
                inner._content_consumed = True
            return response

    return AnswerSizeCap()


def arm_pipeline(credential: Any, **options: Any) -> Any:
    """A Resource Manager client for requests made by hand (`send(client, HttpRequest)`): azure-mgmt-core's
    `ARMPipelineClient` with the policies, in the order, that azure-mgmt's generated clients chain (request id,
    headers, user agent, proxy, content decoding, resource-provider registration, redirect, retry, ARM's
    challenge sign-in, custom hook, logging, tracing, sensitive-header cleanup, ARM's HTTP logging), at the
    Resource Manager endpoint and token scope of azure-core's configured cloud (`settings.azure_cloud`: the public
    cloud unless AZURE_SDK_CLOUD_CONF names another), as those clients default them (azure-mgmt-compute 39.0.0
    `_client.py` and `_configuration.py`, azure-mgmt-core 1.6.0, azure-core 1.41.0, read 2026-11-27); `options` as
    those clients take them (`client_policies`, a transport). Quota's one request goes through it rather than
    azure-mgmt-compute's client, whose models cost `quota --live` about 100 MB and 0.8 CPU-s to import."""
    from azure.core.pipeline import policies
    from azure.core.settings import settings
    from azure.mgmt.core import ARMPipelineClient
    from azure.mgmt.core.policies import (
        ARMAutoResourceProviderRegistrationPolicy,
        ARMChallengeAuthenticationPolicy,
        ARMHttpLoggingPolicy,
    )
    from azure.mgmt.core.tools import get_arm_endpoints

    endpoints = get_arm_endpoints(settings.azure_cloud())
    chain = [
        policies.RequestIdPolicy(**options),
        options.get("headers_policy") or policies.HeadersPolicy(**options),
        options.get("user_agent_policy") or policies.UserAgentPolicy(sdk_moniker="azure-gpu-stacks", **options),
        options.get("proxy_policy") or policies.ProxyPolicy(**options),
        policies.ContentDecodePolicy(**options),
        ARMAutoResourceProviderRegistrationPolicy(),
        options.get("redirect_policy") or policies.RedirectPolicy(**options),
        options.get("retry_policy") or policies.RetryPolicy(**options),
        ARMChallengeAuthenticationPolicy(credential, *endpoints["credential_scopes"], **options),
        policies.CustomHookPolicy(**options),
        policies.NetworkTraceLoggingPolicy(**options),
        policies.DistributedTracingPolicy(**options),
        policies.SensitiveHeaderCleanupPolicy(**options),
        ARMHttpLoggingPolicy(**options),
    ]
    return ARMPipelineClient(base_url=endpoints["resource_manager"], policies=chain, **options)


def send(client: Any, request: Any) -> Any:
    """`request` (azure-core's `HttpRequest`, its URL relative to Resource Manager or absolute, as a `nextLink`)
    through `client`'s pipeline, as a generated client's `send_request` sends it."""
    request.url = client.format_url(request.url)
    return client.send_request(request)


def client_policies(deadline: Deadline) -> dict[str, Any]:
    """What every client we make sends through (keyword arguments of an azure-mgmt client): azure-core's
    retries waiting only within `deadline`, no request started past it nor waiting on a socket past it,
    and each answer's body cut at MAX_ANSWER_BYTES before it is parsed."""
    return {
        "retry_policy": _retry_policy(deadline),
        "per_retry_policies": [_deadline_policy(deadline), answer_size_policy()],
    }


def _deadline_policy(deadline: Deadline) -> Any:
    """Before each try: the deadline has not passed, and the transport waits for a connection and for each
    read of the socket at most what is left of it (azure-core's `connection_timeout`/`read_timeout`
    options; its defaults are 300 s each, azure-core 1.41.0 pipeline/transport/_base.py, read 2026-11-27)."""
    from azure.core.pipeline.policies import SansIOHTTPPolicy

    class DeadlinePolicy(SansIOHTTPPolicy):  # type: ignore[type-arg]
        def on_request(self, request: Any) -> None:
            left = deadline.remaining()
            if left <= 0:
                deadline.passed(deadline.waiting_for)
            options = request.context.options
            options["connection_timeout"] = min(float(options.get("connection_timeout", left)), left)
            options["read_timeout"] = min(float(options.get("read_timeout", left)), left)

    return DeadlinePolicy()


def _retry_policy(deadline: Deadline) -> Any:
    """azure-core's RetryPolicy whose waits (Retry-After, back-off) end before `deadline`."""
    from azure.core.pipeline.policies import RetryPolicy

    class DeadlineRetryPolicy(RetryPolicy):
        def _sleep_for_retry(self, response: Any, transport: Any) -> bool:
            retry_after = self.get_retry_after(response)
            if not retry_after:
                return False
            status = response.http_response.status_code
            deadline.wait(retry_after, transport, f"HTTP {status}: Azure asked to wait (Retry-After) before retrying")
            return True

        def _sleep_backoff(self, settings: Any, transport: Any) -> None:
            backoff = self.get_backoff_time(settings)
            if backoff > 0:
                deadline.wait(backoff, transport, "Azure did not answer after the retries")

    return DeadlineRetryPolicy(timeout=max(1, int(deadline.seconds)))


def _deadline_polling(deadline: Deadline, interval: float) -> Any:
    """azure-mgmt-core's ARMPolling whose every wait between polls ends before `deadline`."""
    from azure.mgmt.core.polling.arm_polling import ARMPolling

    class DeadlinePolling(ARMPolling):  # type: ignore[misc]
        def _delay(self) -> None:
            deadline.wait(self._extract_delay(), self._transport, "the operation was still running")

    return DeadlinePolling(interval)


def _default_credential(authority: str) -> Any:
    from azure.identity import DefaultAzureCredential

    return DefaultAzureCredential(authority=authority)


def _validate_result(result: Any) -> tuple[AzureError | None, tuple[str, ...], tuple[AzureError, ...]]:
    properties = getattr(result, "properties", None)
    resources = getattr(properties, "validated_resources", None)
    ids = tuple(
        r.id for r in (resources if isinstance(resources, list) else []) if isinstance(getattr(r, "id", None), str)
    )
    found = getattr(properties, "diagnostics", None)
    diagnostics = tuple(_model_error(d, MAX_ERROR_DEPTH) for d in (found if isinstance(found, list) else []))
    error = _model_error(result.error) if getattr(result, "error", None) else None
    return error, ids, diagnostics


def _model_error(model: Any, depth: int = 1) -> AzureError:
    details = getattr(model, "details", None) if depth < MAX_ERROR_DEPTH else None
    return AzureError(
        code=_text(getattr(model, "code", None)),
        message=_text(getattr(model, "message", None)),
        target=_text(getattr(model, "target", None)) or None,
        details=tuple(_model_error(d, depth + 1) for d in details if d is not None)
        if isinstance(details, list)
        else (),
    )


MAX_ERROR_DEPTH = 32  # levels of `details` read; ARM's own answers nest two or three


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _json_error(data: Mapping[str, Any], depth: int = 1) -> AzureError:
    """An ARM error read as the spec types it (strings; `details` a list of errors), anything else left out,
    `details` read to MAX_ERROR_DEPTH levels."""
    details = data.get("details") if depth < MAX_ERROR_DEPTH else None
    info = data.get("additionalInfo")
    return AzureError(
        code=_text(data.get("code")),
        message=_text(data.get("message")),
        target=_text(data.get("target")) or None,
        details=tuple(_json_error(d, depth + 1) for d in details if isinstance(d, Mapping))
        if isinstance(details, list)
        else (),
        additional_info=tuple(a for a in info if isinstance(a, Mapping)) if isinstance(info, list) else (),
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


def _verdict_error(exc: Any) -> AzureError:
    """The error of an answer that is a verdict on the template; any other answer raises AzureRequestFailed
    with its status, Azure's code and message."""
    response = getattr(exc, "response", None)
    status = getattr(response, "status_code", None)
    error = _error_of(exc)
    if status in VERDICT_STATUSES:
        return error
    advice = NO_VERDICT_ADVICE.get(status) or NO_VERDICT_ADVICE[None]
    raise AzureRequestFailed(f"HTTP {status} {error.code}: {error.message}", advice)


def _change(change: Any) -> WhatIfChange:
    return WhatIfChange(
        resource_id=str(change.resource_id),
        change_type=str(change.change_type),
        paths=tuple(str(d.path) for d in (change.delta or [])),
        unsupported_reason=getattr(change, "unsupported_reason", None),
    )


def _first_line(text: str) -> str:
    return (text or "").strip().splitlines()[0] if (text or "").strip() else ""
