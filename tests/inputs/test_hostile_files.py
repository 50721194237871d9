"""Hostile files beside the stack files: `az` output (--usage, --skus), policy configs, odd entries
in the stack directory and paths that never end. Each through every command, serially and with
--jobs: exit 2, one stderr line naming the file, the entry or key and the value, nothing written.

The files are a corpus: tests/data/bad_az/ and tests/data/bad_policy_configs/, one file per case.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable
from pathlib import Path

import pytest
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.inputs.files import MAX_BYTES

from tests.conftest import REPO
from tests.e2e.test_bad_input import BAD_STACKS, assert_failed_stacks, assert_one_clean_error, snapshot
from tests.e2e.test_bad_input import CORPUS as BAD_STACKS_DIR

DATA = REPO / "tests" / "data"
AZ = DATA / "bad_az"
POLICY_CONFIGS = DATA / "bad_policy_configs"
GOOD_STACK = REPO / "stacks" / "Pulumi.inference-t4.yaml"
USAGE_FILE = "the JSON list that `az vm list-usage -l REGION -o json` writes"
SKUS_FILE = "the JSON list that `az vm list-skus --all -o json` writes"

# case (tests/data/bad_az/<case>.json) -> what the one message must say after the file name
BAD_AZ_FILES: dict[str, str] = {
    "usage-negative": (
        f"entry [0].currentValue: '-40' is not allowed: Input should be greater than or equal to 0; "
        f"allowed: {USAGE_FILE}"
    ),
    "usage-empty": f"no quota counters; allowed: {USAGE_FILE}, which lists at least `cores`",
    "usage-latin1": "not UTF-8: byte 0xf6 at line 1, column 86; allowed: UTF-8 text",
    "usage-huge-number": (
        "[0].limit: a number of 5,000 digits is out of range; allowed: whole numbers from -2^63 to 2^63-1"
    ),
    "usage-deep": "nested deeper than 64 levels; allowed: at most 64",
    "usage-nan": "[0].currentValue: NaN is not allowed; allowed: finite numbers",
    "usage-overflowing-float": "[0].currentValue: 1e999 is not allowed; allowed: finite numbers",
    "usage-name-is-a-string": (
        f"entry [0].name: 'cores' is not allowed: Input should be a valid dictionary; allowed: {USAGE_FILE}"
    ),
    "skus-locations-a-string": (
        f"entry [0].locations: 'eastus' is not allowed: Input should be a valid list; allowed: {SKUS_FILE}"
    ),
    "skus-restriction-info-a-list": (
        f"entry [0].restrictions[0].restrictionInfo: ['eastus'] is not allowed: Input should be a valid dictionary; "
        f"allowed: {SKUS_FILE}"
    ),
    "skus-number-for-restriction": (
        f"entry [0].restrictions[0]: 3 is not allowed: Input should be a valid dictionary; allowed: {SKUS_FILE}"
    ),
    "skus-utf16": "UTF-16 text (it starts with a UTF-16 byte-order mark); allowed: UTF-8 text",
}

BAD_POLICY_CONFIGS: dict[str, str] = {
    "latin1-bytes": "not UTF-8: byte 0xe9 at line 1, column 90; allowed: UTF-8 text",
    "utf16-text": "UTF-16 text (it starts with a UTF-16 byte-order mark); allowed: UTF-8 text",
    "huge-number": (
        "warn-retiring-vm-sizes.retiringWindowDays: a number of 5,000 digits is out of range; allowed: whole numbers"
    ),
    "deep-nesting": "nested deeper than 64 levels; allowed: at most 64",
    "infinity": "warn-retiring-vm-sizes.retiringWindowDays: Infinity is not allowed; allowed: finite numbers",
}

# Every command that takes the file, with a second stack and --jobs 2 where the command plans many.
COMMANDS = (
    ["plan"],
    ["check"],
    ["cost"],
    ["quota"],
    ["check", "--format", "sarif"],
    ["check", "--jobs", "2", "TWO"],
    ["cost", "--jobs", "2", "TWO"],
)


def argv_for(command: list[str], stack: Path, second: Path) -> list[str]:
    """The command line: the stack, and a second stack where the command plans two in workers."""
    stacks = [str(stack), str(second)] if "TWO" in command else [str(stack)]
    return [command[0], *stacks, *(part for part in command[1:] if part != "TWO")]


@pytest.fixture
def stacks(tmp_path: Path) -> tuple[Path, Path]:
    one = tmp_path / "Pulumi.one.yaml"
    two = tmp_path / "Pulumi.two.yaml"
    shutil.copy(GOOD_STACK, one)
    shutil.copy(GOOD_STACK, two)
    return one, two


def test_bad_file_corpus_is_the_table() -> None:
    assert sorted(p.stem for p in AZ.iterdir()) == sorted(BAD_AZ_FILES)
    assert sorted(p.stem for p in POLICY_CONFIGS.iterdir()) == sorted(BAD_POLICY_CONFIGS)


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
@pytest.mark.parametrize("case", sorted(BAD_AZ_FILES))
def test_bad_az_file_exits_2_naming_file_and_entry(
    tmp_path: Path, stacks: tuple[Path, Path], capsys: pytest.CaptureFixture[str], case: str, command: list[str]
) -> None:
    given = tmp_path / f"{case}.json"
    shutil.copy(AZ / given.name, given)
    flag = "--usage" if case.startswith("usage") else "--skus"
    before = snapshot(tmp_path)

    assert_one_clean_error(capsys, [*argv_for(command, *stacks), flag, str(given)], f"{given}: ", BAD_AZ_FILES[case])
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
@pytest.mark.parametrize("case", sorted(BAD_POLICY_CONFIGS))
def test_bad_policy_config_exits_2_naming_file_and_key(
    tmp_path: Path, stacks: tuple[Path, Path], capsys: pytest.CaptureFixture[str], case: str, command: list[str]
) -> None:
    given = tmp_path / f"{case}.json"
    shutil.copy(POLICY_CONFIGS / given.name, given)
    before = snapshot(tmp_path)

    assert_one_clean_error(
        capsys, [*argv_for(command, *stacks), "--policy-config", str(given)], f"{given}: ", BAD_POLICY_CONFIGS[case]
    )
    assert snapshot(tmp_path) == before


def test_a_stack_file_over_the_cap_is_refused_unread(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = tmp_path / "Pulumi.big.yaml"
    big.write_text("config:\n  azure-native:location: eastus\n" + "# padding\n" * (MAX_BYTES["stack"] // 10))
    size = big.stat().st_size

    assert_one_clean_error(capsys, ["plan", str(big)], f"{big}: ", f"{size:,} bytes; allowed: at most 1 MiB")


def odd_project(root: Path, cases: Iterable[str]) -> Path:
    """A project with one good stack and, per case, an entry named like a stack file (Pulumi.<case>.yaml) that is
    not a file."""
    root.mkdir()
    (root / "Pulumi.yaml").write_text("name: odd\nruntime: python\n")
    (root / "__main__.py").write_text("import pulumi\npulumi.export('ok', True)\n")
    (root / "Pulumi.good.yaml").write_text("config: {}\n")
    for case in cases:
        odd = root / f"Pulumi.{case}.yaml"
        if case == "directory":
            odd.mkdir()
        elif case == "self-symlink":
            odd.symlink_to(odd.name)
        else:
            odd.symlink_to("Pulumi.gone.yaml")
    return root


ODD_ENTRIES = {
    "directory": "Pulumi.directory.yaml: is a directory; allowed: a file",
    "self-symlink": "Pulumi.self-symlink.yaml: a symbolic link that loops; allowed: a file",
    "dangling-symlink": (
        "Pulumi.dangling-symlink.yaml: a symbolic link to 'Pulumi.gone.yaml', which does not exist; allowed: a file"
    ),
}


@pytest.mark.parametrize("command", [["plan"], ["quota"]], ids=" ".join)
@pytest.mark.parametrize("case", sorted(ODD_ENTRIES))
def test_odd_entry_named_as_the_stack_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, command: list[str]
) -> None:
    root = odd_project(tmp_path / "p", [case])
    before = sorted(os.listdir(root))

    assert_one_clean_error(capsys, [command[0], case, "--project", str(root)], "", ODD_ENTRIES[case])
    assert sorted(os.listdir(root)) == before
    assert main(["stacks", "--project", str(root)]) == 0
    assert capsys.readouterr().out == "".join(f"{name}\n" for name in sorted(["good", case]))


@pytest.mark.parametrize("command", [["check"], ["cost"], ["check", "--jobs", "2"]], ids=" ".join)
def test_odd_entries_in_the_stack_directory_are_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    """Every kind of odd entry beside one good stack, in one project: each is its own line naming it, and the good
    stack is still planned and reported (issue 40). One command per project rather than one per kind: the entries
    are read one by one and do not meet, and the good stack is planned once per command instead of once per kind."""
    root = odd_project(tmp_path / "p", ODD_ENTRIES)
    before = sorted(os.listdir(root))

    assert_failed_stacks(
        capsys,
        [*command, "--project", str(root)],
        {case: ODD_ENTRIES[case] for case in sorted(ODD_ENTRIES)},  # in the order the stacks are listed
        passed=("good",),
    )
    assert sorted(os.listdir(root)) == before
    assert main(["stacks", "--project", str(root)]) == 0
    # listed, so that `check` names each rather than skip it
    assert capsys.readouterr().out == "".join(f"{name}\n" for name in sorted(["good", *ODD_ENTRIES]))


def test_bad_stacks_planned_in_workers_are_the_same_one_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`check --jobs 2` of a good stack, every bad stack of the corpus, and a good stack: each bad stack is
    read in a forked worker, and its one line comes back as the serial run prints it, in order; the good
    stacks are reported (issue 40). One check for the whole corpus rather than one per case: each line is
    still asserted, and the two good stacks are planned once instead of once per case (about 35 s)."""
    first, last = tmp_path / "Pulumi.first.yaml", tmp_path / "Pulumi.last.yaml"
    shutil.copy(GOOD_STACK, first)
    shutil.copy(GOOD_STACK, last)
    bad = [tmp_path / f"Pulumi.{case}.yaml" for case in sorted(BAD_STACKS)]
    for stack_file in bad:
        shutil.copy(BAD_STACKS_DIR / stack_file.name, stack_file)
    before = snapshot(tmp_path, REPO / "stacks")

    assert_failed_stacks(
        capsys,
        ["check", str(first), *map(str, bad), str(last), "--jobs", "2"],
        {case: f"{stack_file}: {BAD_STACKS[case]}" for case, stack_file in zip(sorted(BAD_STACKS), bad)},
        passed=("first", "last"),
    )
    assert snapshot(tmp_path, REPO / "stacks") == before
