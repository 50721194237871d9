"""`gpu-stacks preflight --format sarif` is SARIF GitHub code scanning keeps apart and tracks (issue 37): valid against
OASIS's SARIF 2.1.0 schema (tests/data/schemas/SOURCES.md), with its own `automationDetails` category and a
`partialFingerprints` entry per result, as check's SARIF has (GitHub's SARIF reference, docs.github.com
code-security ... sarif-support-for-code-scanning, observed 2026-11-26). Azure's answer is replayed from a
recording shaped from the REST spec's examples (tests/data/arm-responses)."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from azure_gpu_stacks.engine.arm.client import Connection
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.engine.commands import preflight

from tests.arm_replay import SUBSCRIPTION, RecordingTransport, StaticCredential, load
from tests.conftest import REPO

SCHEMA = json.loads((REPO / "tests" / "data" / "schemas" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))


@pytest.fixture
def sarif(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """The SARIF of training-a100's preflight where Azure's policy refuses the template."""
    transport = RecordingTransport(load("validate-policy"))

    def connection(args: Any) -> Connection:
        return Connection(
            args.subscription, args.cloud, StaticCredential(), {"transport": transport, "polling_interval": 0}
        )

    monkeypatch.setattr(preflight, "make_connection", connection)
    code = main(["preflight", "training-a100", "--subscription", SUBSCRIPTION, "--format", "sarif"])
    out = capsys.readouterr().out

    assert code == 1
    document: dict[str, Any] = json.loads(out)
    return document


def test_preflight_sarif_is_valid_sarif_2_1_0(sarif: dict[str, Any]) -> None:
    assert [e.message for e in jsonschema.Draft4Validator(SCHEMA).iter_errors(sarif)] == []
    assert sarif["runs"][0]["results"]  # Azure's refusal: not an empty run


def test_preflight_sarif_has_its_own_category_and_a_fingerprint_per_result(sarif: dict[str, Any]) -> None:
    [run] = sarif["runs"]

    assert run["automationDetails"]["id"] == "gpu-stacks/preflight/"  # never check's "gpu-stacks/check/"
    fingerprints = [result["partialFingerprints"] for result in run["results"]]
    assert all(len(f) == 1 and all(isinstance(v, str) and v for v in f.values()) for f in fingerprints)
    assert len({json.dumps(f) for f in fingerprints}) == len(fingerprints)
