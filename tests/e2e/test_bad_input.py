"""Bad input: exit code 2, one line on stderr naming the file and the key, no traceback, nothing printed
on stdout and nothing written anywhere.

The stack files are a corpus, one file per case, in tests/data/bad_stacks/; `BAD_STACKS` says what
each one must be told. Projects that cannot be run (not Python, no program, no Pulumi.yaml, an
unknown stack) are built per test. Every case goes through one command (`CORPUS_COMMAND`: `check`, what
CI runs), since all commands read stacks and projects through the same code; each command, and each
output format that writes as it goes, then gets one smoke case of each kind (`SMOKE`).
"""

from __future__ import annotations

import json
import re
import shutil
import textwrap
from pathlib import Path

import pytest
from azure_gpu_stacks.engine.cli import main

from tests.conftest import REPO

CORPUS = REPO / "tests" / "data" / "bad_stacks"
COMMANDS = (["plan"], ["check"], ["cost"], ["quota"], ["check", "--format", "sarif"], ["cost", "--format", "json"])
CORPUS_COMMAND = ["check"]

# case (the file tests/data/bad_stacks/Pulumi.<case>.yaml) -> what the one message must say after the file name
BAD_STACKS: dict[str, str] = {
    "invalid-yaml": "not valid YAML (line 2, column 1): expected the node content",
    "empty": "azure-native:location: required key is missing; allowed: a region name such as eastus",
    "list-at-top": "expected a mapping with a `config` key, got list",
    "config-is-a-list": "config: expected a mapping of namespace:key to values, got list",
    "section-is-a-list": "azure-gpu-stacks:costAlert: [{'amount': 100}]; allowed: a map of keys",
    "tags-is-a-list": "azure-gpu-stacks:tags: ['team', 'ml']; allowed: a map",
    "key-with-two-colons": (
        "config: could not parse 'azure-gpu-stacks:vm:size' as a configuration key; allowed: <namespace>:<name>"
    ),
    "misspelt-namespace": (
        "config: key 'azure-gpu-stack:costAlert': 'azure-gpu-stack' is neither this project's namespace nor a "
        "provider's; "
        "did you mean 'azure-gpu-stacks:costAlert'? allowed: azure-gpu-stacks:<key>"
    ),
    "duplicate-key": "not valid YAML (line 6, column 5): mapping key 'amount' already defined at line 4",
    "same-key-twice-namespaced": (
        "config: 'azure-gpu-stacks:costAlert' and 'costAlert' are the same key, azure-gpu-stacks:costAlert; "
        "allowed: one of them"
    ),
    "unknown-section": (
        "azure-gpu-stacks:frobnicator: unknown key; allowed keys: aksGpuPool, amlCluster, batchGpuPool, costAlert"
    ),
    "misspelt-section": "azure-gpu-stacks:cosAlert: unknown key; did you mean 'costAlert'?",
    "misspelt-key": "azure-gpu-stacks:vm.vmSzie: unknown key; did you mean 'vmSize'?",
    "wrong-type-number": "azure-gpu-stacks:costAlert.amount: 'lots'; allowed: a number",
    "wrong-type-bool": "azure-gpu-stacks:vm.spot: 'perhaps'; allowed: true or false",
    "wrong-type-list": "azure-gpu-stacks:costAlert.contactEmails: 'a@b.co'; allowed: a list",
    "missing-required": "azure-gpu-stacks:costAlert.amount: required key is missing",
    "missing-location": "azure-native:location: required key is missing",
    "negative-count": "azure-gpu-stacks:trainingCluster.nodeCount: -1 nodes; allowed: 0 (parked: no nodes run) to 100",
    "fractional-count": (
        "azure-gpu-stacks:trainingCluster.nodeCount: 2.5 nodes; allowed: 0 (parked: no nodes run) to 100"
    ),
    "absurd-count": (
        "azure-gpu-stacks:trainingCluster.nodeCount: 100000 nodes; allowed: 0 (parked: no nodes run) to 100"
    ),
    "absurd-aml-nodes": (
        "azure-gpu-stacks:amlCluster.maxNodeCount: 1000000000 nodes; allowed: 1 to 65,000 (Azure ML's limit per "
        "cluster)"
    ),
    "absurd-aks-nodes": "azure-gpu-stacks:aksGpuPool.maxCount: 5000; allowed: a whole number from 1 to 1000",
    "negative-aks-nodes": "azure-gpu-stacks:aksGpuPool.minCount: -2; allowed: a whole number from 0 to 1000",
    "infinite-budget": "azure-gpu-stacks:costAlert.amount: inf; allowed: a finite number",
    "negative-budget": "azure-gpu-stacks:costAlert.amount: -300; allowed: a number of USD greater than 0",
    "absurd-threshold": (
        "azure-gpu-stacks:costAlert.actualThresholds[1]: 1000000; allowed: a percent greater than 0 and at most 1000"
    ),
    "unknown-size": (
        "azure-gpu-stacks:vm.vmSize: unknown VM size 'Standard_NC999_T4_v9'; did you mean Standard_NC8as_T4_v3"
    ),
    "retired-size": "azure-gpu-stacks:vm.vmSize: 'Standard_NV6' was retired on 2023-09-06",
    "unknown-region": "azure-native:location: 'moon' is not an Azure region; allowed: a region name such as eastus",
    "misspelt-region": "azure-native:location: 'eastuss' is not an Azure region; did you mean eastus",
    "iana-time-zone": (
        "azure-gpu-stacks:vm.shutdownTimeZone: 'Europe/Berlin' is an IANA time zone name (did you mean W. Europe "
        "Standard "
        "Time?); allowed: a Windows time zone id, e.g. UTC, W. Europe Standard Time, Eastern Standard Time (all of "
        "them: "
        "`tzutil /l` on Windows, or `Get-TimeZone -ListAvailable` in PowerShell)"
    ),
    # hostile input: encodings, YAML the schema does not expect, expansion, depth, numbers, secrets, echoes
    "latin1-bytes": "not UTF-8: byte 0xe9 at line 3, column 38; allowed: UTF-8 text",
    "utf16-text": "UTF-16 text (it starts with a UTF-16 byte-order mark); allowed: UTF-8 text",
    "binary-tag": (
        "config.azure-gpu-stacks:tags.blob: !!binary 'aGVsbG8=' is not allowed; allowed: strings, numbers, "
        "booleans, null, dates"
    ),
    "set-tag": "config.azure-gpu-stacks:costAlert: !!set is not allowed; allowed: strings, numbers",
    "date-as-amount": "azure-gpu-stacks:costAlert.amount: '2026-12-01'; allowed: a number",
    "recursive-alias": "config.azure-gpu-stacks:tags.self: an alias refers to the value that holds it (line 3)",
    "billion-laughs": (
        "config.azure-gpu-stacks:tags.e: expands to more than 100,000 values through aliases; allowed: at most 100,000"
    ),
    "deep-nesting": "line 3, column 91: nested deeper than 64 levels; allowed: at most 64",
    "huge-integer": (
        "config.azure-gpu-stacks:costAlert.amount: a number of 5,000 characters is out of range; allowed: whole numbers"
    ),
    "secure-not-ciphertext": (
        "config.azure-gpu-stacks:sshPublicKey.secure: a number, not ciphertext; allowed: the string"
    ),
    "control-characters": (
        "azure-gpu-stacks:vm.vmSize: unknown VM size '\\x1b[2J\\x1b[31mStandard_NC4as_T4_v3\\x00'; allowed:"
    ),
    "long-value": "azure-gpu-stacks:vm.vmSize: unknown VM size a value of 3,009 characters (not shown); allowed:",
}


def snapshot(*roots: Path) -> dict[str, tuple[float, int]]:
    """Every file and directory under the roots, with its modification time and size."""
    return {
        str(p): (p.stat().st_mtime, p.stat().st_size)
        for root in roots
        for p in [root, *root.rglob("*")]
        if "__pycache__" not in p.parts
    }


def assert_one_clean_error(capsys: pytest.CaptureFixture[str], argv: list[str], prefix: str, expected: str) -> None:
    code = main(argv)
    out, err = capsys.readouterr()

    assert code == 2
    assert err.count("\n") == 1 and err.startswith(f"gpu-stacks: error: {prefix}"), err
    if "json" in argv:  # asked for JSON on stdout: the error is a JSON document there too (issue 37)
        line = err.removeprefix("gpu-stacks: error: ")[:-1]
        assert json.loads(out) == {"formatVersion": 1, "error": line, "exitCode": 2}
    else:
        assert out == ""
    assert expected in err, err
    assert "Traceback" not in err
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f]", err), err  # control characters from input are escaped


def assert_failed_stacks(
    capsys: pytest.CaptureFixture[str], argv: list[str], failed: dict[str, str], passed: tuple[str, ...] = ()
) -> None:
    """A command over several stacks where `failed` (stack: what its line says) could not be planned: exit 2, one
    clean stderr line per failed stack naming it, and the report still holds every stack (issue 40)."""
    code = main(argv)
    out, err = capsys.readouterr()

    assert code == 2
    lines = err.splitlines()
    assert len(lines) == len(failed), err
    for line, (stack, expected) in zip(lines, failed.items()):
        assert line.startswith(f"gpu-stacks: error: {stack}: ") and expected in line, err
    assert "Traceback" not in err
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f]", err), err
    assert all(stack in out for stack in [*failed, *passed]), out
    assert out.lower().count("not planned") + out.count("gpu-stacks/not-planned") >= len(failed), out


def test_bad_input_corpus_is_the_table() -> None:
    assert sorted(p.name for p in CORPUS.iterdir()) == sorted(f"Pulumi.{case}.yaml" for case in BAD_STACKS)


def assert_stack_file_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, command: list[str]
) -> None:
    stack_file = tmp_path / f"Pulumi.{case}.yaml"
    shutil.copy(CORPUS / stack_file.name, stack_file)
    before = snapshot(tmp_path, REPO / "stacks")

    assert_one_clean_error(capsys, [command[0], str(stack_file), *command[1:]], f"{stack_file}: ", BAD_STACKS[case])
    assert snapshot(tmp_path, REPO / "stacks") == before


@pytest.mark.parametrize("case", sorted(BAD_STACKS))
def test_bad_input_stack_file_exits_2_naming_file_and_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    assert_stack_file_refused(tmp_path, capsys, case, CORPUS_COMMAND)


def write_project(root: Path, pulumi_yaml: str, program: str | None = "import pulumi\n") -> Path:
    root.mkdir(parents=True)
    (root / "Pulumi.yaml").write_text(pulumi_yaml)
    if program is not None:
        (root / "__main__.py").write_text(textwrap.dedent(program))
    (root / "Pulumi.dev.yaml").write_text("config: {}\n")
    return root


# case -> (Pulumi.yaml, __main__.py or None for no program, the file the message names, what it says)
BAD_PROJECTS: dict[str, tuple[str, str | None, str, str]] = {
    "runtime-not-python": ("name: x\nruntime: nodejs\n", "", "Pulumi.yaml", "runtime: 'nodejs'; allowed: python"),
    "runtime-map-not-python": (
        "name: x\nruntime:\n  name: go\n",
        "",
        "Pulumi.yaml",
        "runtime: 'go'; allowed: python (gpu-stacks runs Python programs)",
    ),
    "no-program": ("name: x\nruntime: python\n", None, "Pulumi.yaml", "main: no Python program at"),
    "main-dir-without-program": (
        "name: x\nruntime: python\nmain: src/\n",
        "",
        "Pulumi.yaml",
        "main: no Python program at",
    ),
    "no-name": ("runtime: python\n", "", "Pulumi.yaml", "name: missing; allowed: the project's name"),
    "project-file-invalid-yaml": ("name: [x\n", "", "Pulumi.yaml", "not valid YAML"),
    "project-file-a-list": ("- name\n", "", "Pulumi.yaml", "expected a mapping with name and runtime"),
    "program-registers-infinity": (
        "name: x\nruntime: python\n",
        """
        from pulumi_azure_native import consumption, resources
        rg = resources.ResourceGroup("rg", location="eastus")
        consumption.Budget("b", scope=rg.id, amount=float("inf"), category="Cost", time_grain="Monthly",
                           time_period={"start_date": "2026-12-01T00:00:00Z"})
        """,
        "",
        "b [azure-native:consumption:Budget]: input amount: inf; allowed: a finite number (the policy pack cannot "
        "read it",
    ),
    "program-raises": (
        "name: x\nruntime: python\n",
        "raise ValueError('boom')\n",
        "",
        "the program raised ValueError: boom (at __main__.py:1)",
    ),
}


def assert_project_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, command: list[str]) -> None:
    pulumi_yaml, program, names, expected = BAD_PROJECTS[case]
    project = write_project(tmp_path / "p", pulumi_yaml, program)
    before = snapshot(tmp_path)
    prefix = f"{project / names}: " if names else ""

    assert_one_clean_error(capsys, [command[0], "dev", *command[1:], "--project", str(project)], prefix, expected)
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("case", sorted(BAD_PROJECTS))
def test_bad_input_project_exits_2_naming_file_and_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    assert_project_refused(tmp_path, capsys, case, CORPUS_COMMAND)


# each command and format once: a stack file the schema refuses, one YAML cannot parse, a program that raises
SMOKE = (("stack", "negative-budget"), ("stack", "invalid-yaml"), ("project", "program-raises"))


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
@pytest.mark.parametrize(("kind", "case"), SMOKE, ids=[case for _, case in SMOKE])
def test_bad_input_every_command_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, case: str, command: list[str]
) -> None:
    refused = assert_stack_file_refused if kind == "stack" else assert_project_refused
    refused(tmp_path, capsys, case, command)


def test_bad_input_project_directory_without_pulumi_yaml(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = snapshot(tmp_path)

    assert_one_clean_error(capsys, ["check", "--project", str(tmp_path)], f"{tmp_path}: ", "no Pulumi.yaml")
    assert snapshot(tmp_path) == before


def test_bad_input_missing_project_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nowhere"

    assert_one_clean_error(
        capsys, ["plan", "dev", "--project", str(missing)], f"{missing}: ", "no such project directory"
    )
    assert not missing.exists()


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_bad_input_unknown_stack_lists_known_ones(capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    before = snapshot(REPO / "stacks")

    assert_one_clean_error(
        capsys,
        [command[0], "inference-t5", *command[1:]],
        "unknown stack 'inference-t5' in stacks/; ",
        "known stacks: aks-gpu, aml-gpu, batch-gpu, inference-t4, training-a100",
    )
    assert snapshot(REPO / "stacks") == before


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Pulumi.dev.txt", "not a stack file; allowed: a file named Pulumi.<stack>.yaml"),
        ("Pulumi.gone.yaml", "no such stack file"),
    ],
)
def test_bad_input_stack_path(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, expected: str) -> None:
    path = tmp_path / "sub" / name

    assert_one_clean_error(capsys, ["plan", str(path)], f"{path}: ", expected)
    assert not (tmp_path / "sub").exists()
