"""Fidelity records (tests/data/fidelity/*.json, written by `gpu-stacks preflight --record`): Azure answered
this for this body, so the fake ARM must answer the same. Each record is one test per resource.

The stack is planned again with the record's day and reference files; a body whose hash differs from
the record's is no longer the body Azure judged (the record is stale: re-record it), and otherwise the
fake's verdict on it must be Azure's. A resource whose disagreement is known and explained carries
`knownGap` (why) in the record and is expected to fail until the fake is fixed.
"""

from __future__ import annotations

import datetime as dt
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.engine.arm.template import Template, export
from azure_gpu_stacks.engine.run.plan import Plan, ReferenceFiles, plan_stack
from azure_gpu_stacks.engine.run.project import load_project

from tests.conftest import REPO

RECORDS = sorted((REPO / "tests" / "data" / "fidelity").glob("*.json"))


def _cases() -> list[Any]:
    cases = []
    for path in RECORDS:
        record = json.loads(path.read_text(encoding="utf-8"))
        for row in record["resources"]:
            marks = [pytest.mark.xfail(reason=row["knownGap"], strict=True)] if row.get("knownGap") else []
            cases.append(pytest.param(path, row, marks=marks, id=f"{path.stem}:{row['urn'].rsplit('::', 1)[-1]}"))
    return cases


@cache
def replanned(path: Path) -> tuple[Plan, Template]:
    record = json.loads(path.read_text(encoding="utf-8"))
    refs = record.get("references", {})
    at = REPO
    reference = ReferenceFiles(
        usage=at / refs["usage"] if refs.get("usage") else None,
        aml_usage=at / refs["amlUsage"] if refs.get("amlUsage") else None,
        skus=at / refs["skus"] if refs.get("skus") else None,
        existing=tuple(at / p for p in refs.get("existing", [])),
    )
    day = dt.date.fromisoformat(record["asOf"])
    plan = plan_stack(load_project(at / record["projectDir"]), record["stack"], reference, day=day)
    return plan, export(plan.resources, project=plan.project, stack=plan.stack, identity=plan.identity)


def test_there_is_a_record_to_hold_the_fake_to() -> None:
    assert RECORDS, "tests/data/fidelity/ holds no record"


@pytest.mark.parametrize(("path", "row"), _cases())
def test_the_fake_gives_azure_s_verdict_on_the_recorded_body(path: Path, row: dict[str, Any]) -> None:
    plan, template = replanned(path)
    res = template.resource(row["urn"])
    assert res is not None, f"{path.name}: {row['urn']} is no longer in the stack; re-record"
    assert res.body_hash == row["bodySha256"], f"{path.name}: the body Azure judged has changed; re-record"
    refused = sorted(r.code for r in plan.refusals if (r.resource, r.type) == (res.logical_name, res.token))

    assert ("refused" if refused else "accepted") == row["azure"]["verdict"], (refused, row["azure"])
