"""Cost guardrails (`limit-stack-cost`) through `gpu-stacks diff` and `check`: a pull request that takes the
shipped training-a100 cluster from 2 to 3 Standard_ND96asr_v4 nodes around the clock. Expected figures come
from the catalog's price for the size (its data file, as written), never from the pricing code."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.engine.cli import main

from tests.conftest import REPO
from tests.engine.diff.test_diff import commit, edit, project_repo
from tests.policy_helpers import catalog_size

ND = "Standard_ND96asr_v4"
MONTH = 730  # hours, as Azure's pricing calculator counts a month


def nodes_month(nodes: int) -> float:
    return nodes * float(catalog_size(ND)["prices"]["eastus"]["payg"]) * MONTH


@pytest.fixture(scope="module")
def pull_request(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository with the pull request's edit in its working tree, made once: each test diffs it under its own
    policy config (written beside the repository) and changes nothing in it."""
    repo = project_repo(tmp_path_factory.mktemp("guardrail") / "repo", ("training-a100",))
    commit(repo)
    edit(repo / "stacks" / "Pulumi.training-a100.yaml", "nodeCount: 2", "nodeCount: 3")
    return repo


def diff(capsys: pytest.CaptureFixture[str], repo: Path, config: dict[str, Any] | None, fmt: str) -> tuple[int, str]:
    argv = ["diff", "HEAD", "--project", str(repo), "--format", fmt, "-j", "1"]
    if config is not None:
        path = repo.parent / "policy-config.json"
        path.write_text(json.dumps(config))
        argv += ["--policy-config", str(path)]
    code = main(argv)
    out, err = capsys.readouterr()
    assert err == ""
    return code, out


def test_by_default_an_increase_past_10000_usd_is_noted_not_blocking(
    pull_request: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before, after = nodes_month(2), nodes_month(3)

    code, out = diff(capsys, pull_request, None, "json")

    [stack] = json.loads(out)["stacks"]
    assert code == 0 and stack["problems"] == []
    assert after - before > 10_000  # one more node; 50 %, under the default 100 %
    assert stack["costGuardrail"] == {
        "policy": "limit-stack-cost",
        "level": "advisory",
        "exceeded": [
            f"full-scale cost up {after - before:,.2f} USD a month ({before:,.2f} -> {after:,.2f}), more than "
            "10,000.00 (limit-stack-cost.maxIncreaseUsd)"
        ],
    }


def test_mandatory_percent_limit_fails_the_diff_and_the_pr_comment_says_why(
    pull_request: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = {"limit-stack-cost": {"enforcementLevel": "mandatory", "maxIncreaseUsd": 0, "maxIncreasePercent": 40}}

    code, out = diff(capsys, pull_request, config, "markdown")

    assert code == 1
    before, after = nodes_month(2), nodes_month(3)
    expected = f"full-scale cost up 50.0 % ({before:,.2f} -> {after:,.2f} USD a month), more than 40 %"
    assert f"- Cost guardrail (mandatory): {expected} (limit-stack-cost.maxIncreasePercent)." in out
    assert "cost guardrail: " + expected in out  # the stack's row: why it fails


def test_mandatory_limits_the_change_stays_under_pass(pull_request: Path, capsys: pytest.CaptureFixture[str]) -> None:
    limits = {"maxMonthlyUsd": 100_000, "maxIncreaseUsd": 20_000, "maxIncreasePercent": 51}
    config = {"limit-stack-cost": {"enforcementLevel": "mandatory", **limits}}

    code, out = diff(capsys, pull_request, config, "text")

    assert (code, "limit-stack-cost" in out, "cost guardrail" in out) == (0, False, False)


def test_mandatory_total_limit_is_a_new_violation_that_fails_the_diff(
    pull_request: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    limit = round((nodes_month(2) + nodes_month(3)) / 2)  # the base fits, the change does not
    config = {"limit-stack-cost": {"enforcementLevel": "mandatory", "maxMonthlyUsd": limit, "maxIncreaseUsd": 0}}

    code, out = diff(capsys, pull_request, config, "text")

    assert code == 1
    assert (
        f"new [mandatory] limit-stack-cost: (stack): the stack costs {nodes_month(3):,.2f} USD a month at full scale, "
        f"above the limit of {limit:,.2f} (maxMonthlyUsd)"
    ) in out


def test_check_passes_every_shipped_stack_with_the_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)

    assert "limit-stack-cost" not in json.dumps(document)
    assert len(document["stacks"]) == len(list((REPO / "stacks").glob("Pulumi.*.yaml")))


def test_the_shipped_workflow_sets_the_guardrails_from_a_file_the_pack_accepts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    workflow = (REPO / ".github" / "workflows" / "pull-request.yml").read_text()
    settings = json.loads((REPO / ".github" / "cost-guardrails.json").read_text())

    assert workflow.count("--policy-config .github/cost-guardrails.json") == 3  # check, cost and diff
    assert settings["limit-stack-cost"]["enforcementLevel"] == "advisory"
    assert main(["check", "--policy-config", str(REPO / ".github" / "cost-guardrails.json")]) == 0
    assert "limit-stack-cost" not in capsys.readouterr().out


def test_a_bad_limit_exits_2_with_one_line_naming_file_key_and_what_is_allowed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "guardrails.json"
    path.write_text(json.dumps({"limit-stack-cost": {"maxIncreasePercent": -5}}))

    assert main(["diff", "HEAD", "--policy-config", str(path)]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == (
        "",
        f"gpu-stacks: error: {path}: limit-stack-cost.maxIncreasePercent: -5 is not allowed; "
        "allowed: a number of at least 0\n",
    )
