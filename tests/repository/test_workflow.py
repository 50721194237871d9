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
    [check] = [r for r in runs if "gpu-stacks check" in r and "--format markdown" in r]
    assert "--format markdown" in check and "GITHUB_STEP_SUMMARY" in check and "pipefail" in check


def test_workflow_previews_with_the_policy_pack_only_where_credentials_exist() -> None:
    # PyYAML reads the key `on` as True; the workflow's trigger is pull requests.
    data = workflow()
    preview = data["jobs"]["preview"]
    [action] = [s for s in preview["steps"] if str(s.get("uses", "")).startswith("pulumi/actions@") and "with" in s]

    assert "pull_request" in data[True]
    assert preview["if"] == (
        "${{ vars.PULUMI_PREVIEW == 'true' && github.event.pull_request.head.repo.full_name == github.repository }}"
    )
    assert (action["with"]["command"], action["with"]["policyPacks"]) == ("preview", "policies")
    assert preview["strategy"]["matrix"]["stack"] == "${{ fromJSON(needs.offline.outputs.stacks) }}"


def test_preview_job_may_comment_on_the_pull_request() -> None:
    preview = workflow()["jobs"]["preview"]
    [action] = [s for s in preview["steps"] if str(s.get("uses", "")).startswith("pulumi/actions@") and "with" in s]

    assert action["with"]["comment-on-pr"] is True
    assert preview["permissions"]["pull-requests"] == "write"


def test_preview_job_deploys_aks_stacks_as_a_service_principal() -> None:
    steps = workflow()["jobs"]["preview"]["steps"]
    names = [s.get("name", s.get("uses", "")) for s in steps]
    [setting] = [s["run"] for s in steps if "deployerPrincipalType" in s.get("run", "")]

    assert (
        'pulumi config set --stack "${{ matrix.stack }}" --path aksGpuPool.deployerPrincipalType ServicePrincipal'
        in setting
    )
    assert names.index("Deployer principal type (AKS stacks)") < next(
        i for i, s in enumerate(steps) if s.get("with", {}).get("command") == "preview"
    )


def test_offline_job_writes_markdown_and_sarif_in_one_check_and_uploads_the_sarif_whatever_the_verdict() -> None:
    offline = workflow()["jobs"]["offline"]
    steps = offline["steps"]
    [check] = [s["run"] for s in steps if "gpu-stacks check" in s.get("run", "")]
    [upload] = [s for s in steps if str(s.get("uses", "")).startswith("github/codeql-action/upload-sarif@")]

    assert "--format markdown" in check and "--format sarif=gpu-stacks.sarif" in check
    assert "test $? -eq 1" not in check  # the exit code is the verdict: the job fails on findings
    assert upload["with"]["sarif_file"] == "gpu-stacks.sarif"
    # after a failed step (exit 1: findings) too, as long as the check wrote the file
    assert "!cancelled()" in upload["if"] and "hashFiles('gpu-stacks.sarif')" in upload["if"]
    assert offline["permissions"]["security-events"] == "write"
    assert steps.index(upload) > next(i for i, s in enumerate(steps) if "gpu-stacks check" in s.get("run", ""))


def test_the_stack_matrix_is_read_from_stacks_json() -> None:
    [listing] = [s["run"] for s in workflow()["jobs"]["offline"]["steps"] if s.get("id") == "stacks"]

    assert "gpu-stacks stacks --json" in listing and '["stacks"]' in listing


def test_workflow_diffs_against_the_base_branch_into_the_summary_and_one_comment() -> None:
    from azure_gpu_stacks.engine.diff.markdown import MARKER

    job = workflow()["jobs"]["diff"]
    checkout = next(s for s in job["steps"] if str(s.get("uses", "")).startswith("actions/checkout@"))
    [diff] = [s for s in job["steps"] if "gpu-stacks diff" in s.get("run", "")]
    [comment] = [s for s in job["steps"] if str(s.get("uses", "")).startswith("actions/github-script@")]

    assert checkout["with"]["fetch-depth"] == 0
    assert job["permissions"] == {"contents": "read", "pull-requests": "write"}
    assert diff["env"]["BASE_REF"] == "${{ github.base_ref }}"
    assert (
        '.venv/bin/gpu-stacks diff "origin/$BASE_REF" --format markdown --policy-config .github/cost-guardrails.json'
        in (diff["run"])
    )
    assert "> diff.md 2> diff.err" in diff["run"]
    assert 'cat diff.md >> "$GITHUB_STEP_SUMMARY"' in diff["run"]
    # Updated in place: the previous comment is found by the marker the markdown starts with.
    assert f"const marker = '{MARKER}';" in comment["with"]["script"]
    assert "updateComment" in comment["with"]["script"] and "createComment" in comment["with"]["script"]
    assert job["steps"][-1]["run"] == 'exit "$CODE"'


def _preflight_step() -> dict[str, Any]:
    [step] = [s for s in workflow()["jobs"]["preflight"]["steps"] if s.get("id") == "preflight"]
    return step


def _run_preflight_step(tmp_path: Any, signed_in: bool, stub_exit: int = 0) -> tuple[int, str, str, str]:
    """The step's script under bash, with a stub `gpu-stacks` that logs its arguments."""
    import os
    import subprocess

    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    stub = bin_dir / "gpu-stacks"
    stub.write_text(f'#!/bin/sh\necho "$@" >> calls.log\necho "verdict of $2"\nexit {stub_exit}\n')
    stub.chmod(0o755)
    summary, output = tmp_path / "summary.md", tmp_path / "output.txt"
    env = {
        **os.environ,
        "STACK": "inference-t4",
        "AZURE_SUBSCRIPTION_ID": "00000000-0000-0000-0000-000000000001",
        "SIGNED_IN": "true" if signed_in else "false",
        "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_OUTPUT": str(output),
    }
    done = subprocess.run(["bash", "-e", "-c", _preflight_step()["run"]], cwd=tmp_path, env=env, timeout=60)
    return (
        done.returncode,
        (tmp_path / "calls.log").read_text(),
        (tmp_path / "comment.md").read_text(),
        output.read_text(),
    )


def test_preflight_job_signs_in_with_openid_connect_only_where_the_repository_has_the_variables() -> None:
    job = workflow()["jobs"]["preflight"]
    [login] = [s for s in job["steps"] if str(s.get("uses", "")).startswith("azure/login@")]

    assert job["permissions"]["id-token"] == "write"
    assert job["strategy"]["matrix"]["stack"] == "${{ fromJSON(needs.offline.outputs.stacks) }}"
    assert all(f"env.{v} != ''" in login["if"] for v in ("AZURE_CLIENT_ID", "AZURE_TENANT_ID", "AZURE_SUBSCRIPTION_ID"))
    assert _preflight_step()["env"]["SIGNED_IN"] == "${{ steps.login.outcome == 'success' }}"


def test_preflight_step_asks_azure_when_signed_in(tmp_path: Any) -> None:
    code, calls, comment, output = _run_preflight_step(tmp_path, signed_in=True, stub_exit=1)

    assert code == 0 and "code=1" in output  # the verdict step fails the job after the comment is written
    assert calls.split()[:4] == ["preflight", "inference-t4", "--subscription", "00000000-0000-0000-0000-000000000001"]
    assert "--format markdown" in calls and "--record fidelity-inference-t4.json" in calls
    assert comment.startswith("<!-- gpu-stacks preflight inference-t4 -->") and "verdict of inference-t4" in comment


def test_preflight_step_without_credentials_says_azure_did_not_run(tmp_path: Any) -> None:
    code, calls, comment, output = _run_preflight_step(tmp_path, signed_in=False)

    assert code == 0 and "code=0" in output
    assert calls.split()[:2] == ["check", "inference-t4"]
    assert "verdict of inference-t4" in comment and "Azure's preflight did not run" in comment
