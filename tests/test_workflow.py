"""The pull-request workflow runs what the README and docs/policies.md promise."""

from __future__ import annotations

from typing import Any

import yaml

from tests.conftest import REPO


def workflow() -> dict[str, Any]:
    return yaml.safe_load((REPO / ".github" / "workflows" / "pull-request.yml").read_text(encoding="utf-8"))


def test_workflow_runs_tests_then_the_markdown_check_into_the_job_summary() -> None:
    runs = [step.get("run", "") for step in workflow()["jobs"]["offline"]["steps"]]

    assert "make test" in runs
    [check] = [r for r in runs if "gpu-stacks check" in r]
    assert "--format markdown" in check and "GITHUB_STEP_SUMMARY" in check and "pipefail" in check


def test_workflow_previews_with_the_policy_pack_only_where_credentials_exist() -> None:
    # PyYAML reads the key `on` as True; the workflow's trigger is pull requests.
    data = workflow()
    preview = data["jobs"]["preview"]
    [action] = [s for s in preview["steps"] if str(s.get("uses", "")).startswith("pulumi/actions@")]

    assert "pull_request" in data[True]
    assert preview["if"] == "${{ vars.PULUMI_PREVIEW == 'true' }}"
    assert (action["with"]["command"], action["with"]["policyPacks"]) == ("preview", "policies")
    assert preview["strategy"]["matrix"]["stack"] == "${{ fromJSON(needs.offline.outputs.stacks) }}"


def test_workflow_diffs_against_the_base_branch_into_the_summary_and_one_comment() -> None:
    from azure_gpu_stacks.preflight.diff_markdown import MARKER

    job = workflow()["jobs"]["diff"]
    checkout = next(s for s in job["steps"] if str(s.get("uses", "")).startswith("actions/checkout@"))
    [diff] = [s for s in job["steps"] if "gpu-stacks diff" in s.get("run", "")]
    [comment] = [s for s in job["steps"] if str(s.get("uses", "")).startswith("actions/github-script@")]

    assert checkout["with"]["fetch-depth"] == 0
    assert job["permissions"] == {"contents": "read", "pull-requests": "write"}
    assert diff["env"]["BASE_REF"] == "${{ github.base_ref }}"
    assert '.venv/bin/gpu-stacks diff "origin/$BASE_REF" --format markdown > diff.md' in diff["run"]
    assert 'cat diff.md >> "$GITHUB_STEP_SUMMARY"' in diff["run"]
    # Updated in place: the previous comment is found by the marker the markdown starts with.
    assert f"const marker = '{MARKER}';" in comment["with"]["script"]
    assert "updateComment" in comment["with"]["script"] and "createComment" in comment["with"]["script"]
    assert job["steps"][-1]["run"] == 'exit "$CODE"'
