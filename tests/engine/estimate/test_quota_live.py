"""`gpu-stacks quota --live` against recorded answers of Compute's Usage - List, under azure-core's real
pipeline (tests/arm_replay.py: only the socket is replaced): what it reads, and that no answer Azure (or
whatever stands in its place) gives can hang it, crash it or leak a secret (issue 40).

The 200 answer is a ListUsagesResult, `{"value": [Usage], "nextLink": ...}`, each Usage `{"unit": "Count",
"currentValue": int32, "limit": int64, "name": {"value", "localizedValue"}}`; errors are CloudError
`{"error": {"code", "message"}}` (learn.microsoft.com/rest/api/compute/usage/list, api-version 2024-07-01,
observed 2026-11-27). The counters are tests/data/list-usage-rest.json, in that shape.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import requests
from azure_gpu_stacks.catalog import catalog
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.engine.estimate import quota
from azure_gpu_stacks.engine.estimate.live import LiveConnection
from urllib3 import HTTPResponse

from tests.arm_replay import RecordingTransport, Replay, StaticCredential
from tests.conftest import REPO

SUBSCRIPTION = "11111111-2222-3333-4444-555555555555"
COUNTERS = json.loads((REPO / "tests" / "data" / "list-usage-rest.json").read_text())
T4_FAMILY = catalog().get("Standard_NC4as_T4_v3").quota_family
USAGES = "/providers/Microsoft.Compute/locations/eastus/usages"


def page(value: Any, next_link: str | None = None, status: int = 200, headers: dict[str, str] | None = None) -> Any:
    body: Any = {"value": value} if next_link is None else {"value": value, "nextLink": next_link}
    return {"method": "GET", "path": USAGES, "status": status, "headers": headers or {}, "body": body}


def error(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> Any:
    body = {"error": {"code": code, "message": message}}
    return {"method": "GET", "path": USAGES, "status": status, "headers": headers or {}, "body": body}


class RawReplay(Replay):
    """Replay, where an exchange may give its body as raw bytes (`raw`): JSON nested past what Python's own
    encoder writes."""

    def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        expected = self.exchanges[0]
        if "raw" not in expected:
            return super().send(request, **kwargs)
        self.exchanges.pop(0)
        self.sent.append((str(request.method), str(request.url), None))
        headers = {"Content-Type": "application/json"}
        raw = HTTPResponse(body=io.BytesIO(expected["raw"]), headers=headers, status=200, preload_content=False)
        return self.build_response(request, raw)


class Azure:
    def __init__(self, exchanges: list[Any]) -> None:
        self.replay = RawReplay(list(exchanges))
        self.transport = RecordingTransport(self.replay)
        self.credential = StaticCredential()

    def connection(self, subscription: str, timeout_s: float) -> LiveConnection:
        return LiveConnection(
            subscription,
            timeout_s,
            self.credential,
            {"transport": self.transport},
            clock=lambda: sum(self.transport.waits),  # time as the command sees it: the recorded waits
        )


_PLANS: dict[Any, Any] = {}
_plan_stack = quota.plan_stack


def _shared_plan(project: Any, stack: str, *args: Any, **kwargs: Any) -> Any:
    """One plan per stack for the whole file: what is under test is what follows the plan."""
    key = (str(project.root), stack)
    if key not in _PLANS:
        _PLANS[key] = _plan_stack(project, stack, *args, **kwargs)
    return _PLANS[key]


@pytest.fixture
def azure(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(quota, "plan_stack", _shared_plan)

    def answer(exchanges: list[Any]) -> Azure:
        fake = Azure(exchanges)
        monkeypatch.setattr(quota, "live_connection", fake.connection)
        return fake

    return answer


def run(capsys: pytest.CaptureFixture[str], *argv: str, stack: str = "inference-t4") -> tuple[int, str, str]:
    code = main(["quota", stack, "--live", "--subscription", SUBSCRIPTION, *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_live_limits_are_the_usage_list_of_the_stack_region(azure: Any, capsys: Any) -> None:
    fake = azure([page(COUNTERS)])
    code, out, err = run(capsys, "--format", "json")
    report = json.loads(out)

    [(method, url, _)] = fake.replay.sent
    assert method == "GET" and f"/subscriptions/{SUBSCRIPTION}{USAGES}?api-version=2024-07-01" in url
    [t4] = [c for c in COUNTERS if c["name"]["value"].lower() == T4_FAMILY.lower()]
    row = report["quota"][0]
    assert (row["limit"], row["used"]) == (t4["limit"], t4["currentValue"]), row
    assert report["limitsFrom"] == f"Azure, subscription {SUBSCRIPTION}" and code == report["exitCode"], err


# Resource Manager's endpoint per cloud, as Learn lists them (learn.microsoft.com/azure/china/resources-developer-guide
# and learn.microsoft.com/azure/azure-government/compare-azure-government-global-azure, observed 2026-11-27); the
# token is asked for the endpoint's `.default` scope (Microsoft identity platform, "Scopes and permissions").
ENDPOINTS = {None: "https://management.azure.com", "AZURE_CHINA_CLOUD": "https://management.chinacloudapi.cn"}


@pytest.mark.parametrize("configured", list(ENDPOINTS), ids=["default", "china"])
def test_the_request_signs_in_for_resource_manager_of_the_sdks_configured_cloud(
    azure: Any, capsys: Any, monkeypatch: pytest.MonkeyPatch, configured: str | None
) -> None:
    """The request goes to Resource Manager of the cloud azure-core is configured for (its AZURE_SDK_CLOUD_CONF
    setting, the public cloud by default), with a token asked for that endpoint's scope, as azure-mgmt's clients
    send it."""
    if configured:
        monkeypatch.setenv("AZURE_SDK_CLOUD_CONF", configured)
    else:
        monkeypatch.delenv("AZURE_SDK_CLOUD_CONF", raising=False)
    fake = azure([page(COUNTERS)])
    code, _, err = run(capsys, "--format", "json")

    [(_, url, _)] = fake.replay.sent
    assert url.startswith(f"{ENDPOINTS[configured]}/subscriptions/{SUBSCRIPTION}/"), url
    assert fake.credential.scopes and set(fake.credential.scopes) == {(f"{ENDPOINTS[configured]}/.default",)}
    assert code in (0, 1), err


def test_every_page_of_next_link_is_read(azure: Any, capsys: Any) -> None:
    first, rest = COUNTERS[:2], COUNTERS[2:]
    fake = azure([page(first, f"https://management.azure.com/subscriptions/{SUBSCRIPTION}{USAGES}?page=2"), page(rest)])
    code, out, _ = run(capsys, "--format", "json")

    assert len(fake.replay.sent) == 2
    assert json.loads(out)["quota"][0]["limit"] is not None


def deep() -> dict[str, Any]:
    return {"method": "GET", "path": USAGES, "raw": b'{"value": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"}


# Each case's answers are made when its test runs (one of them is 20 MiB): a collected module keeps its constants
# for the whole run in every test process, and each fork of that process pays for the memory it holds.
HOSTILE: dict[str, tuple[Callable[[], list[Any]], str]] = {
    "forbidden": (lambda: [error(403, "AuthorizationFailed", "The client has no authorization.")], "HTTP 403"),
    "expired-token": (lambda: [error(401, "ExpiredAuthenticationToken", "The token has expired.")], "HTTP 401"),
    "retry-after-a-day": (
        lambda: [error(429, "TooManyRequests", "throttled", {"Retry-After": "86400"})],
        "past the deadline of --timeout",
    ),
    "unavailable-past-retries": (lambda: [error(503, "ServiceUnavailable", "down")] * 11, "HTTP 503"),
    "body-is-a-list": (lambda: [{"method": "GET", "path": USAGES, "status": 200, "body": [1, 2]}], "not an object"),
    "value-is-an-object": (lambda: [page({"cores": 1})], "value is dict, not a list"),
    "current-value-is-text": (
        lambda: [page([{**COUNTERS[0], "currentValue": "twelve"}])],
        "value[0].currentValue is not a 32-bit whole number",
    ),
    "limit-is-a-boolean": (
        lambda: [page([{**COUNTERS[0], "limit": True}])],
        "value[0].limit is not a 64-bit whole number",
    ),
    "limit-past-64-bits": (
        lambda: [page([{**COUNTERS[0], "limit": 2**70}])],
        "value[0].limit is not a 64-bit whole number",
    ),
    "name-is-a-string": (lambda: [page([{**COUNTERS[0], "name": "cores"}])], "value[0].name.value is not a string"),
    "nested-100000-deep": (lambda: [deep()], "nested deeper than"),
    "next-link-not-https": (lambda: [page(COUNTERS, "file:///etc/passwd")], "nextLink is not an https URL"),
    "next-link-forever": (
        lambda: [page(COUNTERS, f"https://management.azure.com/subscriptions/{SUBSCRIPTION}{USAGES}?again")] * 101,
        "more than 100 pages",
    ),
    "20-mb-message": (
        lambda: [error(500, "InternalServerError", "z" * (20 * 1024 * 1024))] * 11,
        "more characters not shown",
    ),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_answer_is_one_line_exit_2_within_the_deadline(azure: Any, capsys: Any, case: str) -> None:
    answers, said = HOSTILE[case]
    fake = azure(answers())
    code, out, err = run(capsys, "--timeout", "60")

    assert code == 2 and out == "", err
    assert err.count("\n") == 1 and "Traceback" not in err and len(err) < 1000, err[:2000]
    assert err.startswith("gpu-stacks: error: --live: ") and said in err, err
    assert sum(fake.transport.waits) <= 60


def test_an_answer_past_the_size_cap_is_cut_before_it_is_parsed(azure: Any, capsys: Any) -> None:
    huge = [{**COUNTERS[0], "unit": "u" * (65 * 1024 * 1024)}]
    azure([page(huge)])
    code, out, err = run(capsys)

    assert code == 2 and out == "" and err.count("\n") == 1
    assert "over 64 MiB" in err and "uuuu" not in err


def test_a_secret_azure_quotes_back_in_another_case_is_masked(azure: Any, capsys: Any, tmp_path: Path) -> None:
    from tests.engine.arm.test_export_arm import MARKER, SECRET_PROGRAM

    root = tmp_path / "secretive"
    root.mkdir()
    (root / "Pulumi.yaml").write_text("name: secretive\nruntime: python\n")
    (root / "__main__.py").write_text(SECRET_PROGRAM)
    (root / "Pulumi.dev.yaml").write_text("config: {}\n")
    azure([error(400, "InvalidParameter", f"The value '{MARKER.swapcase()}' is not valid.")])
    code = main(["quota", "dev", "--project", str(root), "--live", "--subscription", SUBSCRIPTION])
    out, err = capsys.readouterr()

    assert code == 2 and err.count("\n") == 1, err
    assert MARKER.lower() not in (out + err).lower() and "[secret]" in err


def test_the_subscription_from_the_environment_is_named_in_the_az_step(
    azure: Any, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    exhausted = [{**c, "limit": 0, "currentValue": 0} for c in COUNTERS]
    azure([page(exhausted)])
    monkeypatch.setenv("AZURE_SUBSCRIPTION_ID", FROM_ENV)
    code = main(["quota", "inference-t4", "--live"])

    assert code == 1
    assert f"--scope /subscriptions/{FROM_ENV}/providers/Microsoft.Compute/locations/eastus" in capsys.readouterr().out


FROM_ENV = "99999999-8888-7777-6666-555555555555"


@pytest.mark.parametrize("subscription", ["../../providers/Microsoft.Authorization", "sub?api-version=1", "sub"])
def test_a_subscription_that_is_not_a_guid_is_refused_before_azure_is_asked(
    azure: Any, capsys: Any, subscription: str
) -> None:
    """It goes into the request's path: `../..` or a query would ask Azure something else."""
    fake = azure([page(COUNTERS)])
    code = main(["quota", "inference-t4", "--live", "--subscription", subscription])
    err = capsys.readouterr().err

    assert code == 2 and err.count("\n") == 1 and "not a subscription id; allowed: a GUID" in err, err
    assert fake.replay.sent == []
