"""A third hostile round (issue 40) against what Azure answers `gpu-stacks preflight`: new shapes of
answers, each replayed under azure-core's real pipeline (tests/arm_replay.py) and shaped from the REST
spec's error (`{"error": {code, message, target, details}}`, Azure/azure-rest-api-specs
specification/resources/resource-manager/Microsoft.Resources/deployments/stable/2025-04-01, observed
2026-11-25). Each must end in one line, the right exit code (1: Azure's verdict; 2: no verdict), bounded
time (waits are recorded, not slept), no traceback and no secret.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from azure_gpu_stacks.engine.commands import export_arm

from tests.arm_replay import RESPONSES
from tests.engine.arm.test_preflight_no_verdict import _error, azure, run  # noqa: F401 (azure is a fixture)

_TEMPLATES: dict[Any, Any] = {}
_template_of = export_arm.template_of


def _shared_template(args: Any) -> Any:
    """One plan of the stack for the whole file (every case asks about the same template)."""
    key = (str(args.project), args.stack)
    if key not in _TEMPLATES:
        _TEMPLATES[key] = _template_of(args)
    return _TEMPLATES[key]


@pytest.fixture(autouse=True)
def _one_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(export_arm, "template_of", _shared_template)


def _policy_refusal() -> list[dict[str, Any]]:
    return json.loads((RESPONSES / "validate-policy.json").read_text())["exchanges"]


def test_an_answer_over_the_size_cap_is_no_verdict_and_never_parsed(
    azure: Any,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A 400 whose body is 80 MiB: past 64 MiB it is cut, one line says so, exit 2 (no verdict read)."""
    refused = _policy_refusal()
    refused[0]["body"]["error"]["details"][0]["details"][0]["message"] = "y" * (80 * 1024 * 1024)
    azure(refused)
    exit_code, out, err, _ = run(capsys)

    assert exit_code == 2 and out == "", err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "over 64 MiB" in err and "yyyy" not in err


def _case(case: str) -> tuple[list[dict[str, Any]], int]:
    """(the exchanges, the exit code they must give)."""
    refused = _policy_refusal()
    leaf = refused[0]["body"]["error"]["details"][0]["details"][0]
    if case == "error-is-a-string":  # a 400 is a refusal whatever its body says
        return [{"method": "POST", "path": "/validate", "status": 400, "body": {"error": "bad"}}], 1
    if case == "details-is-an-object":
        refused[0]["body"]["error"]["details"] = {"code": "X", "message": "not a list"}
        return refused, 1
    if case == "code-is-a-number":
        leaf["code"] = 403
        leaf["message"] = ["a", "list"]
        return refused, 1
    if case == "200-body-is-a-list":
        return [{"method": "POST", "path": "/validate", "status": 200, "body": [1, 2, 3]}], 2
    if case == "200-properties-is-a-number":
        return [{"method": "POST", "path": "/validate", "status": 200, "body": {"error": None, "properties": 7}}], 2
    if case == "401-expired-token":
        return [_error(401, "ExpiredAuthenticationToken", "The access token expiry UTC time has passed.")], 2
    if case == "409-conflict":
        return [_error(409, "DeploymentActive", "The deployment is already running.")], 2
    if case == "retry-after-http-date-far-away":
        throttled = _error(429, "TooManyRequests", "throttled", {"Retry-After": "Wed, 21 Oct 2099 07:28:00 GMT"})
        return [throttled], 2
    if case == "retry-after-negative":
        return [_error(429, "TooManyRequests", "throttled", {"Retry-After": "-5"})] * 12, 2
    raise AssertionError(case)


CASES = [
    "error-is-a-string",
    "details-is-an-object",
    "code-is-a-number",
    "200-body-is-a-list",
    "200-properties-is-a-number",
    "401-expired-token",
    "409-conflict",
    "retry-after-http-date-far-away",
    "retry-after-negative",
]


@pytest.mark.parametrize("case", CASES)
def test_a_hostile_answer_is_one_line_with_the_right_exit_code(
    azure: Any,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    case: str,
) -> None:
    exchanges, expected = _case(case)
    fake = azure(copy.deepcopy(exchanges))
    exit_code, out, err, _ = run(capsys, "--timeout", "60")

    assert exit_code == expected, err
    assert "Traceback" not in err and len(out) < 5000
    assert sum(fake.transport.waits) <= 60  # recorded waits: none past the deadline
    if expected == 2:
        assert out == "" and err.count("\n") == 1, err
