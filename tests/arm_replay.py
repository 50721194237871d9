"""Recorded Azure answers (tests/data/arm-responses) replayed under azure-core's own pipeline.

The client is the real azure-mgmt-resource client with its real policies (retry, polling, ARM error
parsing); only the socket is replaced: a `requests` adapter answers each request from the recording,
in order, and checks it is the request the recording expects. azure-core's waits (Retry-After,
polling) are recorded instead of slept.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests
from azure.core.credentials import AccessToken
from azure.core.pipeline.transport import RequestsTransport
from requests.adapters import HTTPAdapter
from urllib3 import HTTPResponse

RESPONSES = Path(__file__).parent / "data" / "arm-responses"
SUBSCRIPTION = "00000000-0000-0000-0000-000000000001"  # the spec examples' subscription


def spec_response(file: str, status: str) -> dict[str, Any]:
    return json.loads((RESPONSES / "spec" / file).read_text(encoding="utf-8"))["responses"][status]


def _resolve(value: Any, part: str) -> Any:
    if isinstance(value, dict) and "$spec" in value:
        return spec_response(value["$spec"], value["$response"]).get(part)
    return value


@dataclass
class Replay(HTTPAdapter):
    """Answers requests from one recording; `sent` keeps each request (method, url, JSON body)."""

    exchanges: list[dict[str, Any]]
    sent: list[tuple[str, str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__()

    def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        assert self.exchanges, f"no recorded answer left for {request.method} {request.url}"
        expected = self.exchanges.pop(0)
        assert request.method == expected["method"], (request.method, expected)
        assert expected["path"] in str(request.url), (request.url, expected["path"])
        body = request.body
        self.sent.append((str(request.method), str(request.url), json.loads(body) if body else None))
        headers = dict(_resolve(expected.get("headers"), "headers") or {})
        payload = _resolve(expected.get("body"), "body")
        content = json.dumps(payload).encode() if payload is not None else b""
        headers.setdefault("Content-Type", "application/json")
        raw = HTTPResponse(body=io.BytesIO(content), headers=headers, status=expected["status"], preload_content=False)
        return self.build_response(request, raw)


class RecordingTransport(RequestsTransport):
    """azure-core's requests transport whose waits are recorded, not slept."""

    def __init__(self, replay: Replay):
        session = requests.Session()
        session.mount("https://", replay)
        super().__init__(session=session, session_owner=False)
        self.waits: list[float] = []

    def sleep(self, duration: float) -> None:
        self.waits.append(duration)


class StaticCredential:
    """A TokenCredential that signs nothing in: the token the recording never checks."""

    def __init__(self) -> None:
        self.scopes: list[tuple[str, ...]] = []

    def get_token(self, *scopes: str, **kwargs: Any) -> AccessToken:
        self.scopes.append(scopes)
        return AccessToken("recorded-token", 4102444800)


def load(case: str) -> Replay:
    document = json.loads((RESPONSES / f"{case}.json").read_text(encoding="utf-8"))
    return Replay(list(document["exchanges"]))
