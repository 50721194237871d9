"""`gpu-stacks preflight` when Azure gives no verdict on the template, or an answer that is too big or quotes
a secret: one line on stderr, exit 2 (or the verdict, with its message capped and masked), no traceback.

The answers are replayed through the real azure-mgmt-resource client (tests/arm_replay.py). Their bodies
follow ARM's error shape `{"error": {"code", "message"}}` (REST spec deployments.json, `CloudError`,
Azure/azure-rest-api-specs, observed 2026-11-25); the codes and wordings are Azure's documented ones:
AuthorizationFailed (learn.microsoft.com/azure/role-based-access-control/troubleshooting, observed
2026-11-25), TooManyRequests (learn.microsoft.com/azure/azure-resource-manager/management/
request-limits-and-throttling, observed 2026-11-25), ServiceUnavailable (HTTP 503).
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
from azure.core.pipeline.policies import RetryPolicy
from azure_gpu_stacks.engine.arm.client import Connection
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.engine.commands import preflight

from tests.arm_replay import RESPONSES, SUBSCRIPTION, RecordingTransport, Replay, StaticCredential
from tests.conftest import REPO
from tests.shared_plans import plans_shared

RETRIES = RetryPolicy().total_retries  # azure-core's default: 10 retries after the first try


def _error(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    return {
        "method": "POST",
        "path": "/validate",
        "status": status,
        "headers": headers or {},
        "body": {"error": {"code": code, "message": message}},
    }


FORBIDDEN = _error(
    403,
    "AuthorizationFailed",
    "The client 'ci@example.com' with object id '00000000-0000-0000-0000-00000000000a' does not have "
    "authorization to perform action 'Microsoft.Resources/deployments/validate/action' over scope "
    f"'/subscriptions/{SUBSCRIPTION}' or the scope is invalid.",
)
THROTTLED = _error(
    429,
    "TooManyRequests",
    "The request is being throttled as the limit has been reached for operation type - Write.",
    {"Retry-After": "7"},
)
UNAVAILABLE = _error(503, "ServiceUnavailable", "The service is temporarily unavailable.")


class Azure:
    def __init__(self, exchanges: list[dict[str, Any]]):
        self.replay = Replay(list(exchanges))
        self.transport = RecordingTransport(self.replay)

    def clock(self) -> float:
        """Time as the command sees it: the waits azure-core asked for (recorded, not slept)."""
        return sum(self.transport.waits)

    def connection(self, args: Any) -> Connection:
        options = {"transport": self.transport, "polling_interval": 0}
        return Connection(args.subscription, args.cloud, StaticCredential(), options, clock=self.clock)


@pytest.fixture
def azure(monkeypatch: pytest.MonkeyPatch) -> Any:
    def answer(exchanges: list[dict[str, Any]]) -> Azure:
        fake = Azure(exchanges)
        monkeypatch.setattr(preflight, "make_connection", fake.connection)
        return fake

    return answer


@pytest.fixture(scope="module", autouse=True)
def plans() -> Iterator[dict[str, Any]]:
    """The file's plans by their arguments (tests/shared_plans.py): each case asks Azure about the same template."""
    with plans_shared() as plans:
        yield plans


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str, float]:
    start = time.monotonic()
    code = main(["preflight", "training-a100", "--subscription", SUBSCRIPTION, *argv])
    out, err = capsys.readouterr()
    return code, out, err, time.monotonic() - start


@pytest.mark.parametrize(
    ("exchanges", "status", "code"),
    [
        ([FORBIDDEN], 403, "AuthorizationFailed"),
        ([THROTTLED] * (RETRIES + 1), 429, "TooManyRequests"),
        ([UNAVAILABLE] * (RETRIES + 1), 503, "ServiceUnavailable"),
    ],
    ids=["forbidden", "throttled-past-retries", "unavailable-past-retries"],
)
def test_an_answer_that_is_no_verdict_is_one_line_exit_2(
    azure: Any, capsys: pytest.CaptureFixture[str], exchanges: list[dict[str, Any]], status: int, code: str
) -> None:
    fake = azure(exchanges)
    exit_code, out, err, seconds = run(capsys)

    assert exit_code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"{status}" in err and code in err and "refused" not in err
    assert len(fake.replay.sent) == (1 if status == 403 else len(exchanges) - len(fake.replay.exchanges))
    assert seconds < 120  # the waits are recorded, not slept


def test_a_20_mb_message_is_capped_to_one_short_line(azure: Any, capsys: pytest.CaptureFixture[str]) -> None:
    policy = json.loads((RESPONSES / "validate-policy.json").read_text())["exchanges"]
    huge = copy.deepcopy(policy)
    leaf = huge[0]["body"]["error"]["details"][0]["details"][0]
    leaf["message"] = "x" * (20 * 1024 * 1024)
    azure(huge)
    exit_code, out, err, _ = run(capsys)

    assert exit_code == 1, err  # still Azure's verdict: the template is refused
    assert len(out) < 2000 and "more characters not shown" in out and "Traceback" not in err


def test_a_secret_quoted_in_another_case_is_masked(
    azure: Any, capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    from tests.engine.arm.test_export_arm import MARKER, SECRET_PROGRAM

    root = tmp_path / "secretive"
    root.mkdir()
    (root / "Pulumi.yaml").write_text("name: secretive\nruntime: python\n")
    (root / "__main__.py").write_text(SECRET_PROGRAM)
    (root / "Pulumi.dev.yaml").write_text("config: {}\n")
    quoted = "The value '" + MARKER.swapcase() + "' is not valid for the parameter."
    refused = json.loads((RESPONSES / "validate-policy.json").read_text())["exchanges"]
    refused[0]["body"]["error"]["details"][0]["details"][0]["message"] = quoted
    forbidden = [_error(403, "AuthorizationFailed", quoted)]
    for exchanges, expected in ((refused, 1), (forbidden, 2)):
        azure(exchanges)
        code = main(["preflight", "dev", "--project", str(root), "--subscription", SUBSCRIPTION])
        out, err = capsys.readouterr()

        assert code == expected, err
        assert MARKER.lower() not in (out + err).lower() and "[secret]" in out + err


def test_without_the_azure_packages_one_line_names_the_extra(tmp_path: Any) -> None:
    """The packages hidden (None in sys.modules), not uninstalled: `import azure` fails as if absent."""
    hide = (
        "import sys\n"
        "for name in ('azure', 'azure.core', 'azure.identity', 'azure.mgmt', 'azure.mgmt.resource',"
        " 'azure.mgmt.core'):\n"
        "    sys.modules[name] = None\n"
        "from azure_gpu_stacks.engine.cli import main\n"
        "raise SystemExit(main(sys.argv[1:]))\n"
    )
    for argv in (
        ["preflight", "training-a100", "--subscription", SUBSCRIPTION],
        ["quota", "training-a100", "--live", "--subscription", SUBSCRIPTION],
    ):
        done = subprocess.run(
            [sys.executable, "-c", hide, *argv], cwd=REPO, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 2, done.stderr
        assert done.stdout == "" and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
        assert "pip install 'azure-gpu-stacks[azure]'" in done.stderr


def test_a_retry_after_past_the_deadline_is_not_slept(azure: Any, capsys: pytest.CaptureFixture[str]) -> None:
    fake = azure([_error(429, "TooManyRequests", THROTTLED["body"]["error"]["message"], {"Retry-After": "86400"})])
    exit_code, out, err, seconds = run(capsys, "--timeout", "60")

    assert exit_code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert "--timeout 60" in err and fake.transport.waits == []


def test_a_202_that_never_completes_is_polled_until_the_deadline(
    azure: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    recorded = json.loads((RESPONSES / "validate-long-running.json").read_text())["exchanges"]
    first, polled = copy.deepcopy(recorded[0]), copy.deepcopy(recorded[1])
    polled["headers"]["Retry-After"] = "30"
    fake = azure([first] + [polled] * 1000)  # "still running", for longer than anyone waits
    exit_code, out, err, seconds = run(capsys, "--timeout", "300")

    assert exit_code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert "still running" in err and "--timeout 300" in err
    assert sum(fake.transport.waits) <= 300 and len(fake.replay.sent) <= 300 / 30 + 2


def _policy_refusal() -> list[dict[str, Any]]:
    return json.loads((RESPONSES / "validate-policy.json").read_text())["exchanges"]


def _malformed(case: str) -> list[dict[str, Any]]:
    exchanges = _policy_refusal()
    leaf = exchanges[0]["body"]["error"]["details"][0]["details"][0]
    if case == "target-object":
        leaf["target"] = {"id": leaf["target"]}
    elif case == "deep-details":
        error = {"code": "Inner", "message": "innermost"}
        for _ in range(400):
            error = {"code": "Outer", "message": "see inner errors", "details": [error]}
        exchanges[0]["body"]["error"] = error
    elif case == "validated-resources-of-wrong-types":
        body = {"properties": {"validatedResources": [{"id": 5}, "x", None]}}
        exchanges = [{"method": "POST", "path": "/validate", "status": 200, "body": body}]
    elif case == "not-json":
        exchanges[0]["body"] = "<html>upstream error</html>"
    return exchanges


@pytest.mark.parametrize(
    ("case", "expected"),
    [("target-object", 1), ("deep-details", 2), ("validated-resources-of-wrong-types", 2), ("not-json", 1)],
)
def test_a_malformed_answer_is_read_without_a_traceback(
    azure: Any, capsys: pytest.CaptureFixture[str], case: str, expected: int
) -> None:
    """Exit 1 where the verdict itself is readable (a 400 is a refusal whatever its body), else exit 2."""
    azure(_malformed(case))
    exit_code, out, err, _ = run(capsys)

    assert exit_code == expected, err
    assert "Traceback" not in err and len(out) < 5000
    if expected == 2:
        assert out == "" and err.count("\n") == 1


@pytest.mark.parametrize("kind", ["directory", "fifo", "device"])
def test_record_is_never_written_over_a_directory_fifo_or_device(
    azure: Any, capsys: pytest.CaptureFixture[str], tmp_path: Any, kind: str
) -> None:
    import os

    if kind == "directory":
        target = tmp_path
    elif kind == "fifo":
        target = tmp_path / "fifo"
        os.mkfifo(target)
    else:
        target = tmp_path / "null"
        target.symlink_to("/dev/null")
    fake = azure(_policy_refusal())
    exit_code, out, err, _ = run(capsys, "--record", str(target))

    assert exit_code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert "--record" in err and fake.replay.sent == []  # refused before Azure is asked
    assert kind != "fifo" or (tmp_path / "fifo").is_fifo()
