"""The fleet-check workflow runs the shards docs/fleet.md describes and merges them into one verdict,
and the GitLab and Azure Pipelines equivalents there shard and merge the same way."""

from __future__ import annotations

import re
import shlex
from typing import Any

import yaml

from tests.conftest import REPO

WORKFLOW = REPO / ".github" / "workflows" / "fleet-check.yml"
DOCS = REPO / "docs" / "fleet.md"


def workflow() -> dict[str, Any]:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def runs(job: dict[str, Any]) -> str:
    return "\n".join(step.get("run", "") for step in job["steps"])


def uses(job: dict[str, Any]) -> list[str]:
    return [step["uses"].split("@")[0] for step in job["steps"] if "uses" in step]


def test_one_shard_job_per_matrix_value_each_checking_its_share() -> None:
    data = workflow()
    shard = data["jobs"]["shard"]
    values = shard["strategy"]["matrix"]["shard"]

    assert values == list(range(1, int(data["env"]["SHARDS"]) + 1))
    assert shard["strategy"]["fail-fast"] is False
    assert '--shard "$SHARD/$SHARDS"' in runs(shard) and "--affected" in runs(shard) and "--as-of" in runs(shard)
    assert "actions/cache" in uses(shard) and "actions/upload-artifact" in uses(shard)
    cache = next(s for s in shard["steps"] if s.get("uses", "").startswith("actions/cache"))
    assert "${{ matrix.shard }}" in cache["with"]["key"] and cache["with"]["restore-keys"]
    assert "--cache-dir " + cache["with"]["path"] in runs(shard)


def test_one_merge_job_posts_one_comment_and_uploads_one_sarif() -> None:
    merge = workflow()["jobs"]["merge"]

    assert merge["needs"] == "shard" and "cancelled()" in merge["if"]
    assert uses(merge).count("github/codeql-action/upload-sarif") == 1
    assert uses(merge).count("actions/github-script") == 1
    assert merge["permissions"] == {
        "contents": "read",
        "pull-requests": "write",
        "security-events": "write",
        "actions": "read",
    }
    # one merge writes both reports
    assert re.findall(r"gpu-stacks merge \S+ (--format \S+ --format \S+)", runs(merge)) == [
        "--format markdown --format sarif=gpu-stacks.sarif"
    ]


def test_every_shard_judges_the_same_day() -> None:
    data = workflow()

    assert data["jobs"]["shard"]["needs"] == "day"
    assert next(s for s in data["jobs"]["shard"]["steps"] if "run" in s and "--shard" in s["run"])["env"]["AS_OF"] == (
        "${{ needs.day.outputs.as-of }}"
    )


def _blocks() -> list[dict[str, Any]]:
    return [yaml.safe_load(block) for block in re.findall(r"```yaml\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)]


def _commands(value: Any) -> list[list[str]]:
    """The gpu-stacks command lines in a pipeline's scripts."""
    if isinstance(value, dict):
        return [c for v in value.values() for c in _commands(v)]
    if isinstance(value, list):
        return [c for v in value for c in _commands(v)]
    if isinstance(value, str):
        text = value.replace("\\\n", " ")
        lines = [line.split("gpu-stacks ", 1)[1] for line in text.splitlines() if "gpu-stacks " in line]
        return [shlex.split(line.split("||")[0].split(">")[0]) for line in lines]
    return []


def test_the_gitlab_and_azure_pipelines_equivalents_shard_and_merge() -> None:
    gitlab, azure = _blocks()
    shard_values = gitlab["gpu-stacks-shard"]["parallel"]["matrix"][0]["SHARD"]
    azure_values = [v["SHARD"] for v in azure["stages"][0]["jobs"][0]["strategy"]["matrix"].values()]

    for pipeline, values, total in [
        (gitlab, shard_values, gitlab["gpu-stacks-shard"]["variables"]["SHARDS"]),
        (azure, azure_values, azure["variables"]["SHARDS"]),
    ]:
        commands = _commands(pipeline)
        assert values == list(range(1, total + 1))
        assert any(c[0] == "check" and "--shard" in c and "--affected" in c for c in commands)
        merges = [c for c in commands if c[0] == "merge"]
        formats = {c[i + 1].split("=")[0] for c in merges for i, word in enumerate(c) if word == "--format"}
        assert len(merges) == 1 and formats == {"markdown", "sarif", "junit"}  # one merge writes all three


def test_the_gitlab_and_azure_pipelines_equivalents_publish_the_junit_report() -> None:
    # GitLab: artifacts:reports:junit (docs.gitlab.com/ci/yaml); Azure Pipelines: PublishTestResults@2, JUnit
    gitlab, azure = _blocks()
    [merge_job] = azure["stages"][1]["jobs"]
    [publish] = [s for s in merge_job["steps"] if s.get("task") == "PublishTestResults@2"]

    assert gitlab["gpu-stacks-merge"]["artifacts"]["reports"]["junit"] == "gpu-stacks.xml"
    assert publish["inputs"] == {"testResultsFormat": "JUnit", "testResultsFiles": "gpu-stacks.xml"}
    assert publish["condition"] == "succeededOrFailed()"  # the report of a failing check is the one to read
