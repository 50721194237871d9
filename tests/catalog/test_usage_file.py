"""The team's usage file (`gpu-stacks.usage.yaml` beside Pulumi.yaml): its values override the shipped usage
assumptions key by key (`defaults`) and per resource (`resources`), every figure resting on one says where the value
came from, and a bad file is one stderr line naming the file, the key path, the value and what is allowed (exit 2).

Through `gpu-stacks` in-process, on a project that runs the shipped program with the shipped aml-gpu stack (one metric
alert with two criteria on one workspace, eastus). Expected figures come from catalog/charge_prices.yaml and the
shipped catalog/usage_assumptions.yaml, never from the pricing code."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from azure_gpu_stacks.engine.cli import main

from tests.conftest import REPO

PRICES = yaml.safe_load((REPO / "catalog" / "charge_prices.yaml").read_text(encoding="utf-8"))["prices"]
SHIPPED = yaml.safe_load((REPO / "catalog" / "usage_assumptions.yaml").read_text(encoding="utf-8"))["assumptions"]
PER_SERIES = PRICES["metricAlertTimeSeries"]["usdPerMonth"]  # 0.10 USD a month, eastus
ALERT = "aml-gpu-idle"  # two criteria (GPU utilisation, active nodes), one workspace in scope, no dimension
KEY = "metricAlertTimeSeriesPerCriterion"
YOURS = "(your file gpu-stacks.usage.yaml)"


def project(tmp_path: Path, usage: str | None) -> Path:
    """A project that runs the shipped program with the shipped aml-gpu stack, and `usage` as its usage file."""
    (tmp_path / "stacks").mkdir()
    (tmp_path / "stacks" / "Pulumi.aml-gpu.yaml").write_text((REPO / "stacks" / "Pulumi.aml-gpu.yaml").read_text())
    (tmp_path / "Pulumi.yaml").write_text(
        yaml.safe_dump({"name": "azure-gpu-stacks", "runtime": "python", "main": str(REPO), "stackConfigDir": "stacks"})
    )
    if usage is not None:
        (tmp_path / "gpu-stacks.usage.yaml").write_text(usage)
    return tmp_path


def cost_json(root: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["cost", "--project", str(root), "aml-gpu", "--format", "json"]) == 0
    (stack,) = json.loads(capsys.readouterr().out)["stacks"]
    return {n["resource"]: n for n in stack["cost"]["notCounted"]}


@pytest.fixture(scope="module")
def shipped_and_yours(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Projects planned by the tests below: without a file, with a default for every resource, and with the alert's
    own value beside a different default."""
    made = {}
    for name, usage in {
        "shipped": None,
        "defaults": f"defaults:\n  {KEY}: 3\n  keyVaultOperationsPerMonth: 200000\n",
        "resource": f"defaults:\n  {KEY}: 3\nresources:\n  {ALERT}:\n    {KEY}: 5\n",
    }.items():
        made[name] = project(tmp_path_factory.mktemp(name), usage)
    return made


def test_without_a_file_the_shipped_default_is_used_and_said_to_be_the_default(
    shipped_and_yours: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    charges = cost_json(shipped_and_yours["shipped"], capsys)
    estimate = charges[ALERT]["estimate"]

    assert estimate["monthlyUsd"] == round(2 * SHIPPED[KEY]["value"] * PER_SERIES, 2) == 0.20
    vault = SHIPPED["keyVaultOperationsPerMonth"]["value"] / 10_000 * PRICES["keyVaultOperations"]["usdPerUnit"]
    assert charges["kvaml"]["estimate"]["monthlyUsd"] == round(vault, 2) == 0.03
    assert "aml-appi" not in charges  # workspace-based: its telemetry is billed as aml-log's ingestion
    assert "no dated rate for its settings in eastus" in charges["aml-log"]["unpricedDetail"]
    assert estimate["usage"] == [{"key": KEY, "value": 1, "from": "shipped default"}]
    (said,) = estimate["assumptions"]
    assert said.endswith(f"(shipped default, {SHIPPED[KEY]['source']})") and YOURS not in said


def test_the_files_default_overrides_the_shipped_one_and_every_output_says_it_is_yours(
    shipped_and_yours: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    charges = cost_json(shipped_and_yours["defaults"], capsys)
    estimate = charges[ALERT]["estimate"]
    assert estimate["monthlyUsd"] == round(2 * 3 * PER_SERIES, 2) == 0.60
    assert charges["kvaml"]["estimate"]["monthlyUsd"] == round(20 * PRICES["keyVaultOperations"]["usdPerUnit"], 2)
    assert charges["kvaml"]["estimate"]["assumptions"] == [f"the key vault serves 200,000 operations a month {YOURS}"]
    assert estimate["usage"] == [{"key": KEY, "value": 3, "from": "your file gpu-stacks.usage.yaml"}]
    stated = SHIPPED[KEY]["statement"].format(value="3")
    assert estimate["assumptions"] == [f"{stated} {YOURS}"]

    assert main(["plan", "--project", str(shipped_and_yours["defaults"]), "aml-gpu"]) == 0
    (line,) = [line for line in capsys.readouterr().out.splitlines() if line.strip().startswith(f"{ALERT}: 0.60 USD")]
    assert line.endswith(f"; assuming {stated} {YOURS}")


def test_a_resources_own_value_wins_over_the_files_default(
    shipped_and_yours: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    estimate = cost_json(shipped_and_yours["resource"], capsys)[ALERT]["estimate"]

    assert estimate["monthlyUsd"] == round(2 * 5 * PER_SERIES, 2) == 1.00
    assert estimate["usage"] == [{"key": KEY, "value": 5, "from": "your file gpu-stacks.usage.yaml"}]


def test_a_resource_name_the_stack_lacks_is_said_not_silently_ignored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path, f"resources:\n  aml-gpu-idel:\n    {KEY}: 2\n")

    assert main(["plan", "--project", str(root), "aml-gpu"]) == 0
    out = capsys.readouterr().out
    assert (
        "resources.aml-gpu-idel: no resource of this stack is named 'aml-gpu-idel'; its usage values are unused" in out
    )
    assert f"{ALERT}: 0.20 USD" in out  # the alert keeps the shipped default


BAD = {
    "a boolean": (f"defaults:\n  {KEY}: true\n", f"defaults.{KEY}: True; allowed: a whole number from 1 to 100,000"),
    "text": (f"defaults:\n  {KEY}: '3'\n", f"defaults.{KEY}: '3'; allowed: a whole number from 1 to 100,000"),
    "below the minimum": (f"defaults:\n  {KEY}: 0\n", f"defaults.{KEY}: 0; allowed: a whole number from 1"),
    "a fraction for a whole number": (f"defaults:\n  {KEY}: 1.5\n", f"defaults.{KEY}: 1.5; allowed: a whole number"),
    "not a number": (f"defaults:\n  {KEY}: .nan\n", f"defaults.{KEY}: nan; allowed: a whole number"),
    "a negative amount": (
        "defaults:\n  storageGb: -1\n",
        f"defaults.storageGb: -1; allowed: a number from 0 to {SHIPPED['storageGb']['maximum']:,} ("
        f"{SHIPPED['storageGb']['unit']})",
    ),
    "an unknown key": (
        "defaults:\n  prometheusSamples: 3\n",
        f"defaults.prometheusSamples: unknown usage key; allowed: {', '.join(sorted(SHIPPED))}",
    ),
    "an unknown section": (f"default:\n  {KEY}: 3\n", "default: unknown key; allowed: defaults, resources"),
    "a resource that is not a mapping": (
        "resources:\n  aml-gpu-idle: 3\n",
        "resources.aml-gpu-idle: 3; allowed: a mapping of usage keys",
    ),
    "a list": ("- 3\n", "(top level): [3]; allowed: a mapping with defaults and resources"),
    "a key given twice": (f"defaults:\n  {KEY}: 1\n  {KEY}: 2\n", KEY),
}


@pytest.mark.parametrize("text, said", BAD.values(), ids=BAD.keys())
def test_a_bad_file_is_one_line_naming_the_file_the_key_the_value_and_what_is_allowed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, said: str
) -> None:
    root = project(tmp_path, text)

    for command in ("cost", "check", "plan"):
        assert main([command, "--project", str(root), "aml-gpu"]) == 2
        captured = capsys.readouterr()
        (line,) = captured.err.splitlines()
        assert line.startswith(f"gpu-stacks: error: {root / 'gpu-stacks.usage.yaml'}: ") and said in line, line
        assert captured.out == "" and "Traceback" not in captured.err


def test_an_empty_file_overrides_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = project(tmp_path, "# nothing yet\n")

    estimate = cost_json(root, capsys)[ALERT]["estimate"]
    assert estimate["usage"] == [{"key": KEY, "value": 1, "from": "shipped default"}]
