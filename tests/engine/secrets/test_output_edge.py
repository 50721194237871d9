"""One output edge: every format of one run, to stdout or to files, masked after its own escaping, and valid
against its public schema (SARIF 2.1.0's JSON schema from OASIS, JUnit's junit-10.xsd from Jenkins;
tests/data/schemas/SOURCES.md says where each was read)."""

from __future__ import annotations

import contextlib
import io
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from azure_gpu_stacks.engine.cli import main

from tests.conftest import REPO
from tests.shared_plans import plans_shared

SCHEMAS = REPO / "tests" / "data" / "schemas"
# A declared secret with every character a format escapes: a markdown cell's pipe, XML's <, & and ", JSON's ".
# Its five parts are checked one by one: any of them in an output is a leak, whatever escaping surrounds it.
PARTS = ("Qz7", "Wk9", "Rm4", "Tp2", "Vx5")
TOKEN = 'Qz7|Wk9<Rm4&Tp2"Vx5'
PROGRAM = """
import pulumi
from pulumi_azure_native import compute, resources

token = pulumi.Config().get("apiToken")  # read plainly: the project declares the key secret all the same
rg = resources.ResourceGroup("rg", location="eastus")
compute.VirtualMachine(token, resource_group_name=rg.name, location="eastus",
    hardware_profile=compute.HardwareProfileArgs(vm_size=token),
    os_profile=compute.OSProfileArgs(admin_username="azureuser", computer_name="vm"))
"""
FORMATS = ("text", "json", "markdown", "sarif", "junit")


def write_project(root: Path) -> Path:
    root.mkdir(parents=True)
    (root / "Pulumi.yaml").write_text("name: team\nruntime: python\nconfig:\n  apiToken:\n    secret: true\n")
    (root / "Pulumi.dev.yaml").write_text("config:\n  team:apiToken: 'Qz7|Wk9<Rm4&Tp2\"Vx5'\n")
    (root / "__main__.py").write_text(PROGRAM)
    return root


def gpu_stacks(*argv: object) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([str(a) for a in argv])
        except SystemExit as exc:  # a bad command line: argparse's exit
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The team's project, written once for the file; no test changes it."""
    return write_project(tmp_path_factory.mktemp("edge") / "team")


@pytest.fixture(scope="module", autouse=True)
def plans(team: Path) -> Iterator[dict[str, Any]]:
    """The file's plans by their arguments (tests/shared_plans.py): every format, level and fleet path of a check
    reports the same plan of the team's stack (of training-a100 for the soft-fail test)."""
    with plans_shared(unchanged=(team,)) as plans:
        yield plans


@pytest.fixture(scope="module")
def every_format(team: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """One `check` writing markdown to stdout and every format to a file: each format's text, stdout, stderr."""
    out_dir = tmp_path_factory.mktemp("reports")
    files = [f"--format={fmt}={out_dir / fmt}" for fmt in FORMATS]
    code, out, err = gpu_stacks("check", "--project", team, "--format", "markdown", *files)
    assert code == 1, err  # the VM's size is no size: Azure would refuse it
    return {"stdout": out, "stderr": err, **{fmt: (out_dir / fmt).read_text() for fmt in FORMATS}}


@pytest.fixture(scope="module")
def fleet_formats(team: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The same through a fleet's records (`check --root`, no cache), every format to a file."""
    out_dir = tmp_path_factory.mktemp("fleet-reports")
    files = [f"-o{fmt}={out_dir / fmt}" for fmt in FORMATS]
    code, out, err = gpu_stacks("check", "--root", team.parent, "--no-cache", *files)
    assert code == 1, err
    return {"stdout": out, "stderr": err, **{fmt: (out_dir / fmt).read_text() for fmt in FORMATS}}


@pytest.mark.parametrize("where", ["stdout", *FORMATS])
def test_a_secret_with_markup_characters_survives_no_format(every_format: dict[str, str], where: str) -> None:
    assert "[secret]" in every_format[where]
    assert [part for part in PARTS if part in every_format[where] + every_format["stderr"]] == []


@pytest.mark.parametrize("where", ["stdout", *FORMATS])
def test_a_secret_with_markup_characters_survives_no_format_of_a_fleet(
    fleet_formats: dict[str, str], where: str
) -> None:
    assert [part for part in PARTS if part in fleet_formats[where] + fleet_formats["stderr"]] == []


def test_the_markdown_table_cell_holds_the_mask_not_the_escaped_secret(every_format: dict[str, str]) -> None:
    [row] = [line for line in every_format["markdown"].splitlines() if "InvalidParameter" in line]

    assert row.startswith("| `[secret]` | InvalidParameter |")
    assert row.count(" | ") == 2  # three cells: nothing of the secret's pipe split the row


def test_stdout_and_a_file_of_the_same_format_are_the_same(every_format: dict[str, str]) -> None:
    assert every_format["stdout"] == every_format["markdown"]


def test_with_every_format_in_files_stdout_keeps_the_text_verdict(team: Path, tmp_path: Path) -> None:
    code, out, _ = gpu_stacks("check", "--project", team, "-o", f"json={tmp_path / 'r.json'}")

    assert code == 1
    assert out.startswith("FAILED: dev: ")
    assert json.loads((tmp_path / "r.json").read_text())["exitCode"] == 1


def test_the_sarif_the_cli_writes_is_valid_sarif_2_1_0(
    every_format: dict[str, str], fleet_formats: dict[str, str]
) -> None:
    schema = json.loads((SCHEMAS / "sarif-schema-2.1.0.json").read_text())
    validator = jsonschema.Draft4Validator(schema)

    for document in (every_format["sarif"], fleet_formats["sarif"]):
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(json.loads(document))]
        assert errors == []


def junit_schema() -> Any:
    """JUnit's junit-10.xsd, read by xmlschema, imported here rather than with the module: collection imports every
    test module into every test process, which keeps what they import for the whole run (about 6 MB for xmlschema),
    and every plan forked from the process pays for its memory (docs/testing.md)."""
    import xmlschema

    return xmlschema.XMLSchema(SCHEMAS / "junit-10.xsd")


def test_the_shipped_stacks_sarif_is_valid_sarif_2_1_0(tmp_path: Path) -> None:
    """Every shipped stack, with its findings located on the stack file and the program."""
    schema = json.loads((SCHEMAS / "sarif-schema-2.1.0.json").read_text())
    code, _, err = gpu_stacks("check", "-o", f"sarif={tmp_path / 'r.sarif'}", "-o", f"junit={tmp_path / 'r.xml'}")
    document = json.loads((tmp_path / "r.sarif").read_text())

    assert code in (0, 1), err
    assert [e.message for e in jsonschema.Draft4Validator(schema).iter_errors(document)] == []
    assert document["runs"][0]["results"]  # the advisories of the shipped stacks: not an empty run
    junit_schema().validate(str(tmp_path / "r.xml"))


def test_the_junit_the_cli_writes_is_valid_junit(every_format: dict[str, str], fleet_formats: dict[str, str]) -> None:
    schema = junit_schema()

    for document in (every_format["junit"], fleet_formats["junit"]):
        schema.validate(document)
    suites = schema.to_dict(every_format["junit"])
    [suite] = suites["testsuite"]
    assert (suite["@name"], suite["@errors"]) == ("dev", "0")
    assert int(suite["@failures"]) >= 1  # Azure's refusal fails its case


def test_a_merge_writes_every_format_as_the_unsharded_check(team: Path, tmp_path: Path, plans: dict[str, Any]) -> None:
    shard = tmp_path / "shard.jsonl"
    code, out, err = gpu_stacks("check", "--root", team.parent, "--no-cache", "--shard", "1/1")
    shard.write_text(out)
    files = [f"--format={fmt}={tmp_path / ('merged-' + fmt)}" for fmt in FORMATS]
    merged_code, _, merge_err = gpu_stacks("merge", shard, *files)
    plans.clear()  # the unsharded check plans the stack again: the same reports from a plan of its own
    unsharded = [f"--format={fmt}={tmp_path / ('whole-' + fmt)}" for fmt in FORMATS]
    whole_code, _, _ = gpu_stacks("check", "--root", team.parent, "--no-cache", *unsharded)

    assert (code, merged_code, whole_code) == (1, 1, 1), err + merge_err
    for fmt in FORMATS:
        assert (tmp_path / f"merged-{fmt}").read_text() == (tmp_path / f"whole-{fmt}").read_text(), fmt


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--format", "json", "--format", "sarif"], "--format json and sarif: two formats on stdout"),
        (["--json", "--format", "markdown"], "--format markdown and json: two formats on stdout"),
        (["--format", "yaml"], "'yaml'; allowed: text, json, markdown, sarif, junit"),
        (["-o", "sarif"], "'sarif'; allowed: FORMAT=FILE"),
        (["--format", "sarif="], "no file after '='"),
    ],
)
def test_format_mistakes_are_one_line_and_exit_2(team: Path, argv: list[str], said: str) -> None:
    code, out, err = gpu_stacks("check", "--project", team, *argv)

    assert code == 2
    assert out == "" or json.loads(out)["exitCode"] == 2  # asked for JSON on stdout: the error is JSON there
    assert said in err.splitlines()[-1]


def test_under_format_json_an_error_is_json_on_stdout_too_and_a_typo_gets_a_suggestion(team: Path) -> None:
    code, out, err = gpu_stacks("check", "dve", "--project", team, "--format", "json")

    assert code == 2
    assert err == "gpu-stacks: error: unknown stack 'dve' in ./; did you mean 'dev'? known stacks: dev\n"
    assert json.loads(out) == {
        "formatVersion": 1,
        "error": err.removeprefix("gpu-stacks: error: ").strip(),
        "exitCode": 2,
    }


@pytest.mark.parametrize(("level", "expected"), [("mandatory", 1), ("advisory", 1), ("none", 0)])
def test_the_fail_level_sets_the_exit_code_and_the_report_stays(team: Path, level: str, expected: int) -> None:
    code, out, _ = gpu_stacks("check", "--project", team, "--fail-level", level)

    assert code == expected
    assert out.startswith("FAILED: dev: 1 resource")  # the same findings, whatever the level


def test_soft_fail_is_fail_level_none_and_advisory_fails_a_stack_with_only_advisories(tmp_path: Path) -> None:
    """training-a100 has advisory notes only (always on, no encryption at host) and nothing mandatory."""
    assert gpu_stacks("check", "training-a100")[0] == 0
    assert gpu_stacks("check", "training-a100", "--fail-level", "advisory")[0] == 1
    assert gpu_stacks("check", "training-a100", "--fail-level", "advisory", "--soft-fail")[0] == 0


def test_a_format_file_that_is_not_a_regular_file_is_refused_before_any_work(team: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    code, out, err = gpu_stacks("check", "--project", team, "-o", f"sarif={fifo}", "-o", f"json={tmp_path}")

    assert (code, out) == (2, "")
    assert err == (
        f"gpu-stacks: error: --format {fifo}: not a regular file (a FIFO, device or socket); "
        "allowed: a new or regular file\n"
    )
    assert not (tmp_path / "fifo").is_file()


def test_the_markdown_report_draws_each_planned_stack_with_a_plain_text_fallback(every_format: dict[str, str]) -> None:
    markdown = every_format["markdown"]
    mermaid = markdown.split("```mermaid\n", 1)[1].split("```", 1)[0]
    plain = markdown.split("<pre>\n", 1)[1].split("</pre>", 1)[0].splitlines()

    assert mermaid.startswith("flowchart LR\n") and "resources:ResourceGroup" in mermaid
    assert plain == ["rg [resources:ResourceGroup]", "[secret] [compute:VirtualMachine]"]
