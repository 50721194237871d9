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
