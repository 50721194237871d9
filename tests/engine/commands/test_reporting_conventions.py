"""What a reviewer or a CI log reads from the commands that report, run as a user runs them on the shipped stacks:
progress lines on demand (`--progress`), `-s/--stack` as Pulumi spells it, counted nouns without "(s)", a total
under `cost` for several stacks, and `--json` documents with a `formatVersion`, each valid against its schema
under docs/schemas/."""

from __future__ import annotations

import contextlib
import io
import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.catalog.words import counted
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.engine.commands.parser import parser

from tests.conftest import REPO
from tests.json_schemas import schema_errors
from tests.shared_plans import Store, share_outcomes

DAY = "2026-11-27"
TWO = ("inference-t4", "training-a100")
USAGE = REPO / "tests" / "data" / "list-usage-cli.json"


class Terminal(io.StringIO):
    """stderr as a terminal shows it to `isatty`."""

    def isatty(self) -> bool:
        return True


def gpu_stacks(*argv: object, stderr: io.StringIO | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), stderr if stderr is not None else io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([str(a) for a in argv])
        except SystemExit as exc:  # argparse's exits (a bad command line)
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], tuple[int, str, str]]:
    """The module's command lines, each run once (a plan is the slow part), by a short name."""
    markdown = tmp_path_factory.mktemp("report") / "check.md"
    check_json = markdown.with_name("check.json")
    lines: dict[str, Callable[[], tuple[int, str, str]]] = {
        "check": lambda: gpu_stacks(
            "check",
            *TWO,
            "--project",
            REPO,
            "--as-of",
            DAY,
            "--jobs",
            1,
            "--progress",
            "always",
            "--format",
            f"markdown={markdown}",
            "--format",
            f"json={check_json}",
        ),
        "cost-text": lambda: gpu_stacks("cost", *TWO, "--project", REPO, "--as-of", DAY, "--jobs", 1),
        "cost-json": lambda: gpu_stacks(
            "cost", "-s", TWO[0], "--stack", TWO[1], "--json", "--project", REPO, "--as-of", DAY, "--jobs", 1
        ),
        "plan-json": lambda: gpu_stacks(
            "plan", "-s", TWO[0], "--json", "--project", REPO, "--as-of", DAY, "--progress", "never", stderr=Terminal()
        ),
        "quota-json": lambda: gpu_stacks(
            "quota", "--stack", TWO[0], "--usage", USAGE, "--json", "--project", REPO, stderr=Terminal()
        ),
    }

    made: Store = {}

    @cache
    def run(name: str) -> tuple[int, str, str]:
        if name in ("check-markdown", "check-json"):
            run("check")
            return 0, (markdown if name == "check-markdown" else check_json).read_text(encoding="utf-8"), ""
        if name.startswith("cost-"):
            # cost-json reports the plans cost-text made of the same two stacks (tests/shared_plans.py): cost-text
            # plans them itself, so its stderr is what --progress auto says; no test reads cost-json's stderr
            if name == "cost-json":
                run("cost-text")
            with pytest.MonkeyPatch.context() as patch:
                share_outcomes(patch, made)
                return lines[name]()
        return lines[name]()

    return run


def valid(name: str, document: dict[str, Any]) -> dict[str, Any]:
    assert schema_errors(name, document) == []
    return document


# --- progress -----------------------------------------------------------------------------------


def test_progress_always_says_a_plain_line_per_stack_where_stderr_is_a_log(ran: Callable[..., Any]) -> None:
    code, _, err = ran("check")

    assert code == 0
    assert err.splitlines() == [  # --jobs 1: each stack as it starts
        "gpu-stacks: [1/2] planning inference-t4…",
        "gpu-stacks: [2/2] planning training-a100…",
    ]
    assert "\x1b" not in err


def test_progress_auto_is_silent_off_a_terminal_and_speaks_on_one(ran: Callable[..., Any]) -> None:
    assert ran("cost-text")[2] == ""  # captured stderr: no terminal, no line
    assert ran("quota-json")[2] == "gpu-stacks: planning inference-t4 offline…\n"  # a terminal, --progress auto
    assert ran("plan-json")[2] == ""  # a terminal, --progress never


# --- -s/--stack ----------------------------------------------------------------------------------


def test_stack_flag_names_the_stacks_as_pulumi_up_stack_does(ran: Callable[..., Any]) -> None:
    assert json.loads(ran("plan-json")[1])["stack"] == "inference-t4"
    assert json.loads(ran("quota-json")[1])["stack"] == "inference-t4"
    assert [s["stack"] for s in json.loads(ran("cost-json")[1])["stacks"]] == list(TWO)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["plan", "inference-t4", "-s", "training-a100"], "inference-t4, training-a100: several stacks; allowed: one"),
        (["plan", "-s", "inference-t4", "-s", "aks-gpu"], "inference-t4, aks-gpu: several stacks; allowed: one"),
        (["quota"], "the following arguments are required: STACK (or -s/--stack STACK)"),
        (["cost", "aks-gpu", "-s", "inference-t4"], "STACK aks-gpu and --stack inference-t4 name different stacks"),
    ],
)
def test_stack_flag_and_argument_that_disagree_are_one_error_line(argv: list[str], said: str) -> None:
    code, out, err = gpu_stacks(*argv, "--project", REPO)

    assert (code, out) == (2, "")
    assert err.splitlines()[-1].startswith(f"gpu-stacks: error: {said}")
    assert "Traceback" not in err


def test_the_same_stacks_as_arguments_and_flags_are_one_command_line() -> None:
    args = parser().parse_args(["check", "aks-gpu", "inference-t4", "-s", "aks-gpu", "-s", "inference-t4"])
    assert args.stacks == ["aks-gpu", "inference-t4"]
    assert parser().parse_args(["plan", "aks-gpu", "--stack", "aks-gpu"]).stack == "aks-gpu"


# --- counted nouns -------------------------------------------------------------------------------


def test_counted_nouns_are_singular_for_one_only() -> None:
    assert [counted(n, "stack") for n in (0, 1, 2)] == ["0 stacks", "1 stack", "2 stacks"]
    assert counted(1, "policy", "policies") == "1 policy" and counted(3, "policy", "policies") == "3 policies"
    assert [counted(n, "node") for n in (1.0, 2.0, 0.5)] == ["1 node", "2 nodes", "0.5 nodes"]  # a policy's numbers


def test_no_report_says_s_in_parentheses(ran: Callable[..., Any]) -> None:
    for name in ("check", "check-markdown", "cost-text"):
        assert "(s)" not in ran(name)[1], name
    resources = len(json.loads(ran("plan-json")[1])["resources"])
    assert f"OK: inference-t4 deploys as planned ({resources} resources" in ran("check")[1]
    assert ran("check-markdown")[1].startswith("### gpu-stacks check: all 2 stacks pass\n")


# --- cost's total --------------------------------------------------------------------------------


def test_cost_of_several_stacks_has_their_total_in_json_and_text(ran: Callable[..., Any]) -> None:
    code, out, _ = ran("cost-json")
    document = valid("cost", json.loads(out))
    costs = [s["cost"] for s in document["stacks"]]

    assert code == 0
    assert document["total"] == {
        "stacks": 2,
        "notPlanned": 0,
        "hourlyUsd": round(sum(c["hourlyUsd"] for c in costs), 4),
        "monthlyUsd": round(sum(c["monthlyUsd"] for c in costs), 2),
        "idleHourlyUsd": round(sum(c["idleHourlyUsd"] for c in costs), 4),
        "idleMonthlyUsd": round(sum(c["idleMonthlyUsd"] for c in costs), 2),
        "lowerBound": any(c["lowerBound"] for c in costs),
    }
    [row] = [line for line in ran("cost-text")[1].splitlines() if line.startswith("total")]
    least = ">= " if document["total"]["lowerBound"] else ""
    total = document["total"]
    assert re.split(r"\s{2,}", row) == [
        "total (2 stacks)",
        f"{least}{total['hourlyUsd']:,.4f}",
        f"{least}{total['monthlyUsd']:,.2f}",
        f"{least}{total['idleHourlyUsd']:,.4f}",
        f"{least}{total['idleMonthlyUsd']:,.2f}",
    ]


def test_cost_of_one_stack_has_no_total_row() -> None:
    code, out, _ = gpu_stacks("cost", "batch-gpu", "--project", REPO, "--as-of", DAY)

    assert code == 0 and [line.split()[0] for line in out.splitlines()[2:3]] == ["batch-gpu"]
    assert not any(line.startswith("total") for line in out.splitlines())


# --- JSON documents ------------------------------------------------------------------------------


def test_plan_and_quota_json_are_versioned_and_valid(ran: Callable[..., Any]) -> None:
    plan = valid("plan", json.loads(ran("plan-json")[1]))
    quota = valid("quota", json.loads(ran("quota-json")[1]))

    assert plan["formatVersion"] == quota["formatVersion"] == 1
    assert ran("quota-json")[0] == quota["exitCode"]


@pytest.mark.parametrize("command", [["cost"], ["quota", "dev"], ["diff", "HEAD"], ["plan", "dev"], ["stacks"]])
def test_json_is_format_json_on_every_command_that_reports(command: list[str]) -> None:
    assert parser().parse_args([*command, "--json"]).format == "json"
    assert parser().parse_args([*command, "--format", "text"]).format == "text"


def test_an_error_under_json_is_a_versioned_json_document() -> None:
    code, out, err = gpu_stacks("cost", "--json", "-s", "no-such-stack", "--project", REPO)

    assert code == 2 and err.startswith("gpu-stacks: error: ")
    assert valid("error", json.loads(out))["exitCode"] == 2


def test_a_total_over_a_stack_not_planned_is_a_lower_bound_and_says_how_many_were_planned() -> None:
    from azure_gpu_stacks.engine.report.cost import total_row
    from azure_gpu_stacks.engine.report.cost_total import CostTotal

    planned = {"hourlyUsd": 0.526, "monthlyUsd": 383.98, "idleHourlyUsd": 0.2192, "idleMonthlyUsd": 159.99}
    total = CostTotal.of_stack({**planned, "lowerBound": False}).then(CostTotal.of_stack(None))

    assert total_row(total) == ["total (1 of 2 stacks planned)", ">= 0.5260", ">= 383.98", ">= 0.2192", ">= 159.99", ""]


@pytest.mark.parametrize("asks", [["--json"], ["--format", "json"], ["--format=json"]])
def test_a_command_line_argparse_refuses_under_json_is_a_json_document_too(asks: list[str]) -> None:
    code, out, err = gpu_stacks("quota", "inference-t4", *asks, "--timeout", "-1", "--project", REPO)
    line = err.splitlines()[-1].removeprefix("gpu-stacks: error: ")

    assert code == 2 and err.splitlines()[0].startswith("usage: gpu-stacks quota ")
    assert valid("error", json.loads(out)) == {"formatVersion": 1, "error": line, "exitCode": 2}
    assert line.startswith("argument --timeout: ")


def test_a_command_line_argparse_refuses_without_json_leaves_stdout_empty() -> None:
    assert gpu_stacks("quota", "inference-t4", "--timeout", "-1", "--project", REPO)[:2] == (2, "")


# --- check's and merge's JSON, and a check's cost total --------------------------------------------


def test_check_json_holds_each_plan_as_plan_json_prints_it_and_the_cost_total_cost_gives(
    ran: Callable[..., Any],
) -> None:
    check = valid("check", json.loads(ran("check-json")[1]))
    plan = json.loads(ran("plan-json")[1])

    assert [s["stack"] for s in check["stacks"]] == list(TWO)
    assert check["stacks"][0]["formatVersion"] == plan["formatVersion"] == 1
    assert check["stacks"][0]["cost"] == plan["cost"]
    assert check["costTotal"] == json.loads(ran("cost-json")[1])["total"]  # what `cost` adds up for the same stacks


def test_check_text_of_several_stacks_ends_with_their_cost_total(ran: Callable[..., Any]) -> None:
    total = json.loads(ran("cost-json")[1])["total"]
    least = "at least " if total["lowerBound"] else ""

    assert ran("check")[1].splitlines()[-2:] == [
        "",
        f"Cost total (2 stacks): full scale {least}{total['hourlyUsd']:,.4f} USD/h = "
        f"{least}{total['monthlyUsd']:,.2f} USD/month; idle {least}{total['idleHourlyUsd']:,.4f} USD/h = "
        f"{least}{total['idleMonthlyUsd']:,.2f} USD/month.",
    ]


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, str, str]]:
    """A fleet of four small stacks (bench/monorepo.py: the fourth asks for a retired size, refused) with the second
    one's stack file broken (not planned): `check --root` in JSON and text, and `merge` of its two shards."""
    from bench.monorepo import write_monorepo

    base = tmp_path_factory.mktemp("fleet")
    root = write_monorepo(base / "repo", 1, 4)
    second = sorted(root.rglob("Pulumi.t00-s*.yaml"))[1]
    second.write_text("config: [not, a, mapping\n", encoding="utf-8")
    # the shards' stacks come from the check's cache (a hit is a fresh run: tests/engine/fleet/test_fleet.py), the
    # stack not planned is tried again: never cached
    common = ("--root", root, "--cache-dir", base / "cache", "--jobs", 1, "--as-of", DAY, "--progress", "never")
    document = base / "check.json"
    runs = {"check": gpu_stacks("check", *common, "--format", f"json={document}")}
    runs["check-json"] = (runs["check"][0], document.read_text(encoding="utf-8"), "")
    shards = []
    for k in (1, 2):
        shards.append(base / f"shard-{k}.jsonl")
        shards[-1].write_text(gpu_stacks("check", *common, "--shard", f"{k}/2")[1], encoding="utf-8")
    sarif = base / "merged.sarif"
    runs["merge-json"] = gpu_stacks(
        "merge", *shards, "--format", "json", "--format", f"sarif={sarif}", "--sarif-category", "gpu-stacks/fleet"
    )
    runs["merge-sarif"] = (runs["merge-json"][0], sarif.read_text(encoding="utf-8"), "")
    return runs


def test_fleet_check_and_merge_json_are_valid_with_a_stack_refused_and_one_not_planned(
    fleet: dict[str, tuple[int, str, str]],
) -> None:
    check = valid("check", json.loads(fleet["check-json"][1]))
    merged = valid("merge", json.loads(fleet["merge-json"][1]))

    assert fleet["check"][0] == fleet["merge-json"][0] == 2  # a stack not planned
    assert check == merged
    ids = [f"teams/team-00:t00-s00{n}" for n in range(4)]
    assert [s["stack"] for s in check["stacks"]] == ids
    assert (check["summary"]["failed"], check["summary"]["notPlanned"]) == ([ids[1], ids[3]], [ids[1]])
    assert {s["formatVersion"] for s in check["stacks"]} == {1}
    assert check["costTotal"]["notPlanned"] == 1 and check["costTotal"]["lowerBound"] is True


def test_fleet_text_counts_and_totals_cleanly(fleet: dict[str, tuple[int, str, str]]) -> None:
    text = fleet["check"][1]

    assert "(s)" not in text
    assert text.splitlines()[-1].startswith("Cost total (3 of 4 stacks planned): full scale at least ")


def test_a_shard_judges_its_exit_code_at_the_fail_level_and_keeps_each_records_code(tmp_path: Path) -> None:
    # the fleet workflow's shard step: findings are the merge's to report, without `|| test $? -eq 1`
    from bench.monorepo import write_monorepo

    root = write_monorepo(tmp_path / "repo", 1, 4)  # the fourth stack asks for a retired size: refused
    # the second run's records come from the first's cache: its exit code is judged from the same records
    argv = ("check", "--root", root, "--cache-dir", tmp_path / "cache", "--jobs", 1, "--as-of", DAY, "--shard", "1/1")
    code, out, err = gpu_stacks(*argv, "--soft-fail")
    header, *lines = (json.loads(line) for line in out.splitlines())

    assert (code, err) == (0, "")
    assert [entry["record"]["exitCode"] for entry in lines] == [0, 0, 0, 1]
    assert gpu_stacks(*argv)[0] == 1


def test_a_fleets_sarif_names_its_own_code_scanning_category(fleet: dict[str, tuple[int, str, str]]) -> None:
    # GitHub replaces a category's alerts with the next upload of that category; upload-sarif keeps the SARIF's
    # own automationDetails.id over its `category` input (github/codeql-action src/upload-lib.ts): so the
    # fleet's id must differ from the one-project check's, or its affected-only upload closes the other's alerts
    [run] = json.loads(fleet["merge-sarif"][1])["runs"]

    assert run["automationDetails"]["id"] == "gpu-stacks/fleet/"  # the category ends at the id's last "/"
    assert run["results"]
