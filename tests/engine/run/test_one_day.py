"""The day is one parameter: the CLI resolves it once (`--as-of`, else the policy config's `asOf`, else today in
UTC) and every consumer of a run judges on it; a policy config's `asOf` that is not a calendar date is one
error line and exit 2 whether or not `--as-of` overrides it, and never quietly becomes today."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from azure_gpu_stacks.components.checks import AS_OF_CONFIG_KEY, deployment_day

from tests.e2e.test_check_cli import run
from tests.policy_helpers import Res, found

RETIRED = "disallow-retired-vm-sizes"
# 2027-02-30 matches the asOf pattern the pack's schema publishes (`^([0-9]{4}-[0-9]{2}-[0-9]{2})?$`) and
# is no day of the calendar: only a date check can refuse it.
NOT_A_DAY = "2027-02-30"
LINE = f"{RETIRED}.asOf: '{NOT_A_DAY}' is not a date; allowed: a calendar date as YYYY-MM-DD, e.g. 2027-01-31"


@pytest.fixture
def bad_day_config(tmp_path: Path) -> Path:
    path = tmp_path / "policy.json"
    path.write_text(json.dumps({RETIRED: {"asOf": NOT_A_DAY}}), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "argv",
    [
        ["plan", "inference-t4", "--as-of", "2027-01-01"],
        ["check", "inference-t4", "--as-of", "2027-01-01"],
        ["cost", "inference-t4", "--as-of", "2027-01-01"],
        ["export-arm", "inference-t4", "--as-of", "2027-01-01"],
        ["quota", "inference-t4"],
    ],
    ids=lambda argv: argv[0],
)
def test_a_policy_config_day_that_is_no_date_is_one_line_and_exit_2_even_under_as_of(
    capsys: pytest.CaptureFixture[str], bad_day_config: Path, argv: list[str]
) -> None:
    code, out, err = run(capsys, *argv, "--policy-config", str(bad_day_config))

    assert (code, out) == (2, "")
    assert err == f"gpu-stacks: error: {bad_day_config}: {LINE}\n"


def test_a_size_policy_given_no_date_says_so_instead_of_judging_today() -> None:
    """Under `pulumi preview --policy-pack-config` the schema's pattern lets 2027-02-30 through: the policy names
    it rather than judging on another day than the one asked for."""
    vm = Res("azure-native:compute:VirtualMachine", "fail_vm", {"hardwareProfile": {"vmSize": "Standard_NP10s"}})

    with pytest.raises(ValueError, match=f"'{NOT_A_DAY}' is not a date"):
        found([vm], RETIRED, {RETIRED: {"asOf": NOT_A_DAY}})


def test_the_program_reads_its_day_from_its_config_as_the_policies_do() -> None:
    """`pulumi up` runs the program without gpu-stacks: its config's `gpu-stacks:asOf`, else today, and a value
    that is no date is refused the same way a policy's is."""
    assert deployment_day({AS_OF_CONFIG_KEY: "2027-05-31"}).isoformat() == "2027-05-31"
    with pytest.raises(ValueError, match=f"'{NOT_A_DAY}' is not a date"):
        deployment_day({AS_OF_CONFIG_KEY: NOT_A_DAY})
