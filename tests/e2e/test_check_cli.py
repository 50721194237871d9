"""`gpu-stacks check` and `plan` end to end: the shipped stacks pass, one change makes them fail, and
other teams' projects are judged by the same pack."""

from __future__ import annotations

import contextlib
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from azure_gpu_stacks.engine.cli import main

from tests.conftest import RAW_VM_PROGRAM, REPO

SHIPPED = sorted(p.name.removeprefix("Pulumi.").removesuffix(".yaml") for p in (REPO / "stacks").glob("Pulumi.*.yaml"))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def stack_copy(tmp_path: Path, stack: str, edit: Any) -> str:
    """A copy of a shipped stack file, changed by `edit(config)`, in a temporary stacks directory."""
    data = yaml.safe_load((REPO / "stacks" / f"Pulumi.{stack}.yaml").read_text(encoding="utf-8"))
    edit(data["config"])
    path = tmp_path / f"Pulumi.{stack}.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return str(path)


@dataclass(frozen=True)
class Checked:
    """One in-process `gpu-stacks check ...` run: its exit code, its text on stdout, its stderr and the formats it
    wrote."""

    code: int
    text: str
    err: str
    written: dict[str, str]


def check_once(folder: Path, *argv: str, formats: tuple[str, ...] = ("json", "markdown", "sarif")) -> Checked:
    """`gpu-stacks check ARGV`, writing text to stdout and each of `formats` to a file, in one run (a module
    fixture's: capsys is per test)."""
    files = {fmt: folder / f"report.{fmt}" for fmt in formats}
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["check", *argv, *(f"--format={fmt}={path}" for fmt, path in files.items()), "--format", "text"])
    written = {fmt: path.read_text() for fmt, path in files.items() if path.exists()}
    return Checked(code, out.getvalue(), err.getvalue(), written)


@pytest.fixture(scope="module")
def shipped_checked(tmp_path_factory: pytest.TempPathFactory) -> Checked:
    """`gpu-stacks check` of the shipped project (every stack), once for the file."""
    return check_once(tmp_path_factory.mktemp("shipped"), "--project", str(REPO))


@pytest.mark.parametrize("stack", SHIPPED)
def test_check_passes_every_shipped_stack(shipped_checked: Checked, stack: str) -> None:
    document = json.loads(shipped_checked.written["json"])
    [checked] = [s for s in document["stacks"] if s["stack"] == stack]

    assert shipped_checked.code == 0
    assert [v for v in checked["violations"] if v["level"] == "mandatory"] == []
    assert document["summary"] == {**document["summary"], "failed": [], "mandatory": 0, "exitCode": 0}
    assert f"OK: {stack} deploys as planned" in shipped_checked.text


def _vm_size_keys(value: Any) -> list[dict[str, Any]]:
    """Every mapping in a stack's config that holds a `vmSize`."""
    if isinstance(value, dict):
        own = [value] if "vmSize" in value else []
        return own + [m for v in value.values() for m in _vm_size_keys(v)]
    if isinstance(value, list):
        return [m for v in value for m in _vm_size_keys(v)]
    return []


def without_budget(config: dict[str, Any]) -> None:
    config.pop("azure-gpu-stacks:costAlert")


def with_a_retired_size(config: dict[str, Any]) -> None:
    holders = _vm_size_keys(config)
    assert holders, "the stack names no vmSize"
    for holder in holders:
        holder["vmSize"] = "Standard_NC6"


@pytest.fixture(scope="module")
def broken_checked(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Checked]:
    """(edit, stack) -> the check of that shipped stack's copy changed by the edit, one run each for the file."""
    results = {}
    for edit in (without_budget, with_a_retired_size):
        for stack in SHIPPED:
            folder = tmp_path_factory.mktemp(f"{edit.__name__}-{stack}")
            results[(edit.__name__, stack)] = check_once(folder, stack_copy(folder, stack, edit), formats=("json",))
    return results


@pytest.mark.parametrize("stack", SHIPPED)
def test_check_fails_every_shipped_stack_without_its_budget(
    broken_checked: dict[tuple[str, str], Checked], stack: str
) -> None:
    checked = broken_checked[("without_budget", stack)]
    code = checked.code
    [plan] = json.loads(checked.written["json"])["stacks"]

    assert code == 1
    assert {(v["policy"], v["level"]) for v in plan["violations"]} >= {("require-cost-alerts", "mandatory")}


@pytest.mark.parametrize("stack", SHIPPED)
def test_check_fails_every_shipped_stack_with_a_retired_size(
    broken_checked: dict[tuple[str, str], Checked], stack: str
) -> None:
    checked = broken_checked[("with_a_retired_size", stack)]
    code, out, err = checked.code, checked.text, checked.err

    # Refused by the config schema (2) or by the policy pack (1): never deployed.
    assert code in (1, 2)
    assert "Standard_NC6" in out + err and "retired" in out + err


def test_check_fails_the_t4_stack_without_its_budget(broken_checked: dict[tuple[str, str], Checked]) -> None:
    checked = broken_checked[("without_budget", "inference-t4")]
    code, out = checked.code, checked.text

    assert code == 1
    # the advisory: warn-gpu-host-without-encryption-at-host
    assert out.splitlines()[0] == "FAILED: inference-t4: 1 mandatory policy violation, 1 advisory policy note."
    assert (
        "  - [mandatory] require-cost-alerts: gpu-vm-vm: 'gpu-vm-vm' (hardwareProfile.vmSize 'Standard_NC4as_T4_v3', "
        "NVIDIA T4) is billed by GPU in resource group 'rg-inference-t4', but no budget with an enabled notification "
        "to a contact covers it."
    ) in out


def test_check_refuses_the_t4_stack_with_a_retired_size_before_planning(
    broken_checked: dict[tuple[str, str], Checked],
) -> None:
    # Our own stacks are stopped earlier, by the config schema (exit 2, nothing registered); the
    # policy catches the same size in programs that do not use our components (next test). The T4 stack's one
    # vmSize is azure-gpu-stacks:vm.vmSize, which with_a_retired_size sets to Standard_NC6.
    checked = broken_checked[("with_a_retired_size", "inference-t4")]
    code, err = checked.code, checked.err

    assert code == 2
    assert "azure-gpu-stacks:vm.vmSize: 'Standard_NC6' was retired on 2023-09-06" in err


def other_team_project(root: Path) -> Path:
    """A project that uses pulumi-azure-native directly, none of our components."""
    (root / "Pulumi.yaml").write_text("name: vision\nruntime: python\n", encoding="utf-8")
    (root / "__main__.py").write_text(RAW_VM_PROGRAM, encoding="utf-8")
    (root / "Pulumi.dev.yaml").write_text("config:\n  azure-native:location: eastus\n", encoding="utf-8")
    return root


@pytest.fixture
def other_team(tmp_path: Path) -> Path:
    """The other team's project, for a test that changes it."""
    return other_team_project(tmp_path)


@pytest.fixture(scope="module")
def other_team_checked(tmp_path_factory: pytest.TempPathFactory) -> Checked:
    """`gpu-stacks check --project OTHER_TEAM` once for the file, every format written (the project unchanged)."""
    root = other_team_project(tmp_path_factory.mktemp("vision"))
    return check_once(tmp_path_factory.mktemp("vision-reports"), "--project", str(root))


def test_check_catches_a_raw_vm_with_a_retired_size_in_another_project(other_team_checked: Checked) -> None:
    code = other_team_checked.code
    [plan] = json.loads(other_team_checked.written["json"])["stacks"]
    by_policy = {v["policy"]: v for v in plan["violations"]}

    assert code == 1
    assert by_policy["disallow-retired-vm-sizes"] == {
        "policy": "disallow-retired-vm-sizes",
        "level": "mandatory",
        "severity": "high",
        "resource": "trainer",
        "type": "azure-native:compute:VirtualMachine",
        "urn": "urn:pulumi:dev::vision::azure-native:compute:VirtualMachine::trainer",
        "message": "hardwareProfile.vmSize is 'Standard_NC6', which Azure retired on 2023-09-06 and can no longer "
        "deploy; use Standard_NC4as_T4_v3 or another current size.",
        "description": "VM sizes must not be retired by Azure.",
    }
    # The fake ARM refused the VM too; the policies still saw it.
    assert [r["resource"] for r in plan["refusals"]] == ["trainer"]


def test_check_policy_config_changes_levels_like_policy_pack_config(
    capsys: pytest.CaptureFixture[str], other_team: Path, tmp_path: Path
) -> None:
    config = tmp_path / "policy-config.json"
    config.write_text(json.dumps({"all": "advisory", "require-cost-alerts": "disabled"}), encoding="utf-8")
    (other_team / "Pulumi.dev.yaml").write_text(
        "config:\n  azure-native:location: eastus\n  vision:size: Standard_NC4as_T4_v3\n", encoding="utf-8"
    )

    code, out, _ = run(
        capsys, "check", "--project", str(other_team), "--policy-config", str(config), "--format", "json"
    )
    [plan] = json.loads(out)["stacks"]

    assert code == 0
    assert sorted((v["policy"], v["level"]) for v in plan["violations"]) == [
        ("require-gpu-vm-auto-shutdown", "advisory"),
        ("warn-gpu-host-without-encryption-at-host", "advisory"),  # nor encryption at host (issue 36)
        ("warn-gpu-host-without-identity", "advisory"),  # the raw VM has no managed identity (issue 36)
    ]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            '{"require-cost-alert": "advisory"}',
            "require-cost-alert: unknown policy; did you mean 'require-cost-alerts'?",
        ),
        ('{"all": "strict"}', "all: 'strict' is not allowed; allowed: advisory, mandatory, remediate, disabled"),
        (
            '{"warn-retiring-vm-sizes": {"retiringWindowDays": "soon"}}',
            "warn-retiring-vm-sizes.retiringWindowDays: 'soon' is not allowed; allowed: a whole number of at least 0",
        ),
        (
            '{"require-cost-alerts": {"budgets": []}}',
            "require-cost-alerts.budgets: unknown property; allowed: enforcementLevel, externalBudgetScopes",
        ),
        ("{not json", "not JSON (line 1, column 2"),
    ],
    ids=["unknown-policy", "bad-level", "bad-type", "unknown-property", "not-json"],
)
def test_check_refuses_a_bad_policy_config_with_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str, message: str
) -> None:
    config = tmp_path / "policy-config.json"
    config.write_text(content, encoding="utf-8")

    code, out, err = run(capsys, "check", "inference-t4", "--policy-config", str(config))

    assert (code, out) == (2, "")
    assert err.startswith(f"gpu-stacks: error: {config}: ") and message in err
    assert "Traceback" not in err


def test_check_markdown_is_a_pull_request_comment(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    broken = stack_copy(tmp_path, "inference-t4", lambda c: c.pop("azure-gpu-stacks:costAlert"))

    code, out, _ = run(capsys, "check", "inference-t4", broken, "--format", "markdown")
    lines = out.splitlines()

    assert code == 1
    assert lines[0] == "### gpu-stacks check: 1 of 2 stacks fails"
    # Each with one advisory: the GPU VM runs without encryption at host (warn-gpu-host-without-encryption-at-host).
    assert "| `inference-t4` | pass | 11 | 0 | 0 | 1 |" in lines
    assert "| `inference-t4` | **fail** | 9 | 0 | 1 | 1 |" in lines
    assert any(line.startswith("| mandatory | `require-cost-alerts` | `gpu-vm-vm` | 'gpu-vm-vm' (") for line in lines)


def test_check_sarif_names_the_rule_and_the_stack_file(other_team_checked: Checked) -> None:
    code, out = other_team_checked.code, other_team_checked.written["sarif"]
    run_ = json.loads(out)["runs"][0]
    results = {r["ruleId"]: r for r in run_["results"]}

    assert code == 1 and json.loads(out)["version"] == "2.1.0"
    assert results["disallow-retired-vm-sizes"]["level"] == "error"
    assert (
        results["disallow-retired-vm-sizes"]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        == "Pulumi.dev.yaml"
    )
    assert results["require-gpu-vm-auto-shutdown"]["level"] == "warning"
    assert "azure/SkuNotAvailable" in {rule["id"] for rule in run_["tool"]["driver"]["rules"]}


def test_plan_json_fills_violations(other_team_checked: Checked) -> None:
    """The check's JSON holds each stack's document as `plan --json` prints it (tests/e2e/test_team_corpus.py's
    test_check_json_holds_what_plan_json_prints)."""
    code = other_team_checked.code
    [document] = json.loads(other_team_checked.written["json"])["stacks"]

    assert code == 1
    assert [v["policy"] for v in document["violations"]] == [
        "disallow-retired-vm-sizes",
        "warn-gpu-host-without-identity",
        "require-cost-alerts",
        "require-gpu-vm-auto-shutdown",
    ]


def test_plan_text_lists_policy_violations(capsys: pytest.CaptureFixture[str], other_team: Path) -> None:
    _, out, _ = run(capsys, "plan", "dev", "--project", str(other_team))

    assert (
        "Policy violations:\n  - [mandatory] disallow-retired-vm-sizes: trainer: hardwareProfile.vmSize is "
        "'Standard_NC6'" in out
    )


def test_check_as_a_subprocess_exits_0_on_the_shipped_t4_stack(tmp_path: Path) -> None:
    from tests.cli_process import gpu_stacks_process  # its own process, forked from one that imported gpu-stacks

    done = gpu_stacks_process(["check", "inference-t4", "--format", "markdown"], cwd=REPO, timeout=300)

    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("### gpu-stacks check: the 1 stack passes")


def test_check_markdown_carries_the_cost_table(shipped_checked: Checked) -> None:
    from azure_gpu_stacks.catalog import catalog

    code, out = shipped_checked.code, shipped_checked.written["markdown"]
    monthly = catalog().get("Standard_NC4as_T4_v3").usd_per_hour("eastus") * 730  # type: ignore[operator]

    assert code == 0
    assert "#### Cost" in out
    assert "| inference-t4 | " in out and f"{monthly:,.2f}" in out
