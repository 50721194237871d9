"""`gpu-stacks quota --live`: Compute's quota counters of a region, asked of Azure and read as untrusted.

The request is Compute's Usage - List, `GET /subscriptions/{id}/providers/Microsoft.Compute/locations/
{location}/usages`, whose 200 answer is a `ListUsagesResult`: `value`, a list of `Usage` (`unit` "Count",
`currentValue` int32, `limit` int64, `name` {`value`, `localizedValue`}), and `nextLink` for the next page;
any other status is a `CloudError` (learn.microsoft.com/rest/api/compute/usage/list, api-version
2024-07-01, observed 2026-11-27). It is sent through the pipeline azure-mgmt's generated clients chain
(sign-in, retries, ARM's policies: `engine.arm.client.arm_pipeline`) with what preflight sends through
(`engine.arm.client`): one deadline (`--timeout`) over every request, retry and Retry-After, and each answer's
body cut at `MAX_ANSWER_BYTES` before it is parsed. The answer is parsed with a depth bound and checked against
those types before any number is used; whatever is wrong is one `LiveQuotaFailed` line (its message capped,
then masked by the caller).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from ...catalog.az_files import Usage, family_key
from ...inputs.files import InputFileError, parse_record_json, shown

API_VERSION = "2024-07-01"
MAX_PAGES = 100  # Compute answers a region's counters on one page; a nextLink chain past this is not Azure's
MAX_COUNTERS = 10_000
INT32 = 2**31 - 1
INT64 = 2**63 - 1
UNREADABLE = "Azure's answer is not a ListUsagesResult as the REST spec describes it (Compute Usage - List)"


class LiveQuotaFailed(Exception):
    """Azure could not be asked, or answered with something that is not quota: `what` it said, what to `do`."""

    def __init__(self, what: str, do: str) -> None:
        super().__init__(f"{what}; {do}")
        self.what = what
        self.do = do

    def line(self, mask: Callable[[str], str]) -> str:
        from ..arm.client import capped

        return f"--live: {capped(mask(self.what))}; {self.do}"


@dataclass(frozen=True)
class LiveConnection:
    subscription: str
    timeout_s: float
    credential: Any = None  # None: azure-identity's DefaultAzureCredential
    client_options: Mapping[str, Any] = field(default_factory=dict)  # transport (tests)
    clock: Callable[[], float] = time.monotonic


def usage_page_problem(data: Any) -> str | None:
    """What keeps `data` from being a ListUsagesResult, with the key path; None when it is one."""
    if not isinstance(data, dict):
        return f"the answer is {type(data).__name__}, not an object"
    items = data.get("value")
    if not isinstance(items, list):
        return f"value is {type(items).__name__}, not a list"
    if len(items) > MAX_COUNTERS:
        return f"value holds {len(items):,} counters; allowed: at most {MAX_COUNTERS:,}"
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            return f"value[{i}] is {type(item).__name__}, not an object"
        name = item.get("name")
        if not isinstance(name, dict) or not isinstance(name.get("value"), str) or not name["value"]:
            return f"value[{i}].name.value is not a string"
        for key, top in (("currentValue", INT32), ("limit", INT64)):
            number = item.get(key)
            if isinstance(number, bool) or not isinstance(number, int) or not -top - 1 <= number <= top:
                return f"value[{i}].{key} is not a {'32' if top == INT32 else '64'}-bit whole number"
    link = data.get("nextLink")
    if link is not None and not (isinstance(link, str) and urlsplit(link).scheme == "https"):
        return "nextLink is not an https URL"
    return None


def read_usage_page(body: bytes, region: str) -> tuple[dict[str, Usage], str | None]:
    """({family key: Usage}, the next page's link) of one answer; LiveQuotaFailed when it does not fit."""
    try:
        data = parse_record_json(body, f"Azure's answer for {region}")
    except InputFileError as exc:
        raise LiveQuotaFailed(f"{UNREADABLE}: {exc}", _AGAIN) from None
    if (problem := usage_page_problem(data)) is not None:
        raise LiveQuotaFailed(f"{UNREADABLE}: {problem}", _AGAIN)
    usages = {
        family_key(item["name"]["value"]): Usage(item["name"]["value"], item["currentValue"], item["limit"])
        for item in data["value"]
    }
    return usages, data.get("nextLink")


_AGAIN = "run it again later, or pass the limits with --usage FILE (`az vm list-usage -l REGION -o json`)"
_ADVICE: dict[int | None, str] = {
    401: "sign in again (`az login`, or the service principal's environment variables)",
    403: "the signed-in identity needs Microsoft.Compute/locations/usages/read on the subscription",
    404: "check --subscription, the stack's region, and that the identity can see that subscription",
    429: "Azure throttled the requests past the retries; " + _AGAIN,
    None: "Azure's service did not answer; " + _AGAIN,
}


def live_limits(connection: LiveConnection) -> Callable[[str], dict[str, Usage]]:
    """A `limits(region)` asking Azure; every call shares one deadline of `connection.timeout_s` seconds,
    started at the first request (the plan before it has its own `--timeout`)."""
    from azure.core.exceptions import AzureError as SdkError
    from azure.core.exceptions import ClientAuthenticationError
    from azure.core.rest import HttpRequest

    from ..arm.client import AnswerTooLarge, AzureRequestFailed, Deadline, arm_pipeline, client_policies, send

    clients: list[Any] = []

    def client() -> Any:
        if not clients:
            credential = connection.credential
            if credential is None:
                from azure.identity import DefaultAzureCredential

                credential = DefaultAzureCredential()
            deadline = Deadline(connection.timeout_s, connection.clock)
            options = {**client_policies(deadline), **dict(connection.client_options)}
            clients.append(arm_pipeline(credential, **options))
        return clients[0]

    def limits(region: str) -> dict[str, Usage]:
        from ..arm.clouds import REGION

        asked = region.replace(" ", "").lower() if isinstance(region, str) else ""  # "East US" is eastus
        if not REGION.match(asked):  # the stack's own value: it goes into the request's path
            raise LiveQuotaFailed(
                f"the region {shown(region)} cannot be asked about", "allowed: a region name such as eastus"
            )
        found: dict[str, Usage] = {}
        url: str | None = (
            f"/subscriptions/{connection.subscription}/providers/Microsoft.Compute/locations/{asked}/usages"
            f"?api-version={API_VERSION}"
        )
        pages = 0
        try:
            while url is not None:
                pages += 1
                if pages > MAX_PAGES:
                    raise LiveQuotaFailed(f"{UNREADABLE}: more than {MAX_PAGES} pages of nextLink", _AGAIN)
                response = send(client(), HttpRequest("GET", url))
                if response.status_code != 200:
                    raise LiveQuotaFailed(_refusal(response), _ADVICE.get(response.status_code) or _ADVICE[None])
                usages, url = read_usage_page(response.content, region)
                found.update(usages)
        except ClientAuthenticationError as exc:
            raise LiveQuotaFailed(f"sign-in failed: {exc.message}", _ADVICE[401]) from None
        except AnswerTooLarge as exc:
            raise LiveQuotaFailed(str(exc), _AGAIN) from None
        except RecursionError:  # azure-core's ContentDecodePolicy parses JSON with Python's recursive parser
            raise LiveQuotaFailed(f"{UNREADABLE}: nested deeper than Python's parser reads", _AGAIN) from None
        except AzureRequestFailed as exc:  # the deadline passed
            raise LiveQuotaFailed(exc.what, exc.do) from None
        except SdkError as exc:  # no answer: the connection failed or timed out
            raise LiveQuotaFailed(f"{type(exc).__name__}: {exc.message}", _ADVICE[None]) from None
        return found

    return limits


def _refusal(response: Any) -> str:
    """`HTTP status code: message` of a CloudError answer, read as untrusted."""
    status = response.status_code
    try:
        data = parse_record_json(response.content, "Azure's error")
    except InputFileError:
        data = None
    error = data.get("error") if isinstance(data, dict) else None
    if isinstance(error, dict):
        code = error.get("code") if isinstance(error.get("code"), str) else ""
        message = error.get("message") if isinstance(error.get("message"), str) else ""
        return f"HTTP {status} {code}: {message}"
    return f"HTTP {status}"
