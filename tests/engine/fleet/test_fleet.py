"""`gpu-stacks check --root`, `--affected`, the cache, `--shard K/N` and `gpu-stacks merge` (issue 26), on a
generated monorepo of 200 small stacks in 8 projects (bench/monorepo.py): what a platform team's CI sees.

The tests that change a copy of the monorepo and check it again (the cache's keys, `--affected`) re-plan whole
projects; where the fleet's size is not what they test, they run on a fleet of the same 8 projects with their first
4 stacks each (every layout, reference and refused stack of the large one). It is the monorepo without its other
stack files, so each of its stacks has the key it has in the monorepo and the monorepo's warm cache is its own: the
200 plans that fill it are the file's only whole-fleet planning (docs/testing.md)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from azure_gpu_stacks.catalog.clock import utc_today
from azure_gpu_stacks.catalog.model import catalog
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.engine.commands import check_root as fleet_check
from azure_gpu_stacks.engine.fleet.render import dump_streamed
from azure_gpu_stacks.engine.run.project import OFFLINE_SECRET, load_project

from bench.monorepo import git, write_monorepo
from tests.cli_process import gpu_stacks_process
from tests.conftest import REPO

PROJECTS, STACKS = 8, 25
SMALL_STACKS = 4  # per project: place 3 is a refused stack (bench/monorepo.py), places 0 and 2 reference
FORMATS = ("text", "json", "markdown", "sarif")
# The checks here that plan several stacks plan them in one process: a worker forked per stack from this test process
# is a third fork per plan (0.02 CPU-s each, measured on the 200-stack check), and nothing these tests assert depends
# on it (the cache key holds no --jobs; test_parallel and test_partial_results hold --jobs N to the serial output).
SERIAL = ("--jobs", "1")
# Every check here judges on the day the module started (a check's own --as-of, given after it, wins): the day is in
# each cache key, so a run that crossed midnight UTC between filling the warm cache and reading it missed it.
DAY = utc_today()


def on_one_day(argv: tuple[str | Path, ...]) -> list[str]:
    words = [str(a) for a in argv]
    return [words[0], "--as-of", DAY.isoformat(), *words[1:]] if words[:1] == ["check"] else words


def gpu_stacks(*argv: str | Path) -> tuple[int, str, str]:
    """`gpu-stacks ARGV` in this process, a check on the module's `DAY`: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(on_one_day(argv))
        except SystemExit as exc:  # argparse's refusals
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def monorepo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_monorepo(tmp_path_factory.mktemp("fleet") / "repo", PROJECTS, STACKS)


@contextlib.contextmanager
def beside(root: Path) -> Iterator[None]:
    """Run from the root's parent: the root's path from the working directory is part of every cache key
    (SARIF paths are relative to it), and a copy of the monorepo run from its own parent shares the keys."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root.parent)
        yield


@pytest.fixture(scope="module")
def warm(monorepo: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache holding every stack of the monorepo, filled by one check run from beside the root with `--jobs 1`,
    as a process forked from the zygote (tests/cli_process.py, about 210 MB) rather than in this test worker (hundreds
    of MB by then): each plan forks its engine process and the program's child from the process that runs the
    check, and a fork's system time grows with that process's memory (docs/testing.md, seventh session). The key holds
    no --jobs and no way of starting the toolkit (`cache.installed_versions`), so the in-process runs below read
    these records; test_a_cache_hit_is_a_fresh_run_byte_for_byte compares records served as hits with a fresh run;
    test_parallel holds --jobs N to the serial output."""
    cache = tmp_path_factory.mktemp("cache")
    done = gpu_stacks_process(
        on_one_day(("check", "--root", monorepo.name, "--cache-dir", cache, "--format", "json", *SERIAL)),
        cwd=monorepo.parent,
    )
    assert done.returncode == 1, done.stderr
    return cache


@pytest.fixture(scope="module")
def small_monorepo(monorepo: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same 8 projects with their first 4 stacks each, for the tests that re-plan projects of a copy: the
    monorepo (its git history too) without its other stack files, committed. A stack's cache key holds its own stack
    file and every other file of its project, never the other stacks' files (engine/fleet/cache.py), and every other
    file here is the monorepo's (`stack-outputs/` of all 25 places too): so each stack keeps its key, and the
    monorepo's warm cache holds this fleet (test_a_warm_cache_plans_nothing)."""
    copy = Path(shutil.copytree(monorepo, tmp_path_factory.mktemp("small") / monorepo.name, symlinks=True))
    for stack, path in stack_files(copy).items():
        if int(stack.rpartition("-s")[2]) >= SMALL_STACKS:
            path.unlink()
    git(copy, "add", "-A")
    git(copy, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "the first 4 stacks of each")
    return copy


@pytest.fixture(scope="module")
def small_warm(small_monorepo: Path, warm: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache holding every stack of the small monorepo: the monorepo's warm cache, only the entries of this fleet's
    stacks copied (a test that picks a cached stack picks one of this fleet)."""
    cache = tmp_path_factory.mktemp("small-cache")
    stacks = set(stack_files(small_monorepo))
    for entry in warm.glob("*.json"):
        record = json.loads(entry.read_text(encoding="utf-8"))["record"]
        if isinstance(record, dict) and record.get("stack") in stacks:
            shutil.copy(entry, cache / entry.name)
    assert len(list(cache.iterdir())) == len(stacks)
    return cache


@pytest.fixture(scope="module")
def unsharded(monorepo: Path, warm: Path) -> dict[str, tuple[int, str]]:
    """The report of the whole monorepo in each format, from the cache (whose hits equal fresh runs:
    test_a_cache_hit_is_a_fresh_run_byte_for_byte)."""
    with beside(monorepo):
        return {
            fmt: gpu_stacks("check", "--root", monorepo.name, "--cache-dir", warm, "--format", fmt)[:2]
            for fmt in FORMATS
        }


@pytest.fixture
def fleet_cache(warm: Path, tmp_path: Path) -> Path:
    """A copy of the monorepo's warm cache: a test that adds to it leaves the others' alone."""
    return Path(shutil.copytree(warm, tmp_path / "cache"))


@pytest.fixture
def cache(small_warm: Path, tmp_path: Path) -> Path:
    """A copy of the small monorepo's warm cache (the keys of `repo`)."""
    return Path(shutil.copytree(small_warm, tmp_path / "cache"))


def spy_on_plans(patch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the stacks the checks plan while `patch` holds (the others come from the cache)."""
    seen: list[str] = []
    real = fleet_check._plan

    def spy(stacks: list[Any], *rest: Any) -> Any:
        seen.extend(s.id for s in stacks)
        return real(stacks, *rest)

    patch.setattr(fleet_check, "_plan", spy)
    return seen


@pytest.fixture
def planned(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the stacks a check plans (the others come from the cache)."""
    return spy_on_plans(monkeypatch)


@pytest.fixture
def repo(small_monorepo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the small monorepo (its git history too) a test may change, run from beside it (the keys of
    `cache`)."""
    copy = Path(shutil.copytree(small_monorepo, tmp_path / small_monorepo.name, symlinks=True))
    monkeypatch.chdir(tmp_path)
    return copy


def stack_files(root: Path) -> dict[str, Path]:
    """Every stack file under `root` by fleet id, found from each Pulumi.yaml and its stackConfigDir."""
    found = {}
    for project_file in sorted(root.rglob("Pulumi.yaml")):
        project = load_project(project_file.parent)
        directory = project_file.parent.relative_to(root).as_posix()
        for path in project.stack_dir.glob("Pulumi.*.yaml"):
            found[f"{directory}:{path.name.removeprefix('Pulumi.').removesuffix('.yaml')}"] = path
    return found


def config(path: Path) -> dict[str, Any]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))["config"]


def test_root_checks_every_stack_of_every_project_with_one_verdict(
    monorepo: Path, unsharded: dict[str, tuple[int, str]]
) -> None:
    code, out = unsharded["json"]
    document = json.loads(out)
    files = stack_files(monorepo)
    retired = {s.name for s in catalog().sizes if s.status_on(DAY) == "retired"}
    failing = {i for i, path in files.items() if any(v in retired for v in config(path).values())}

    assert len(files) >= 200 and {p.parent.name for p in files.values()} >= {"stacks", "config"}
    assert [s["stack"] for s in document["stacks"]] == sorted(files, key=lambda i: tuple(i.split(":")))
    assert set(document["summary"]["failed"]) == failing != set()
    assert code == document["exitCode"] == 1


Reports = tuple[int, dict[str, str], str]  # exit code, the report in each format, stderr


def every_format(directory: Path, *argv: str | Path) -> Reports:
    """`gpu-stacks check ARGV` once, writing every format: text on stdout, the others to files in `directory`
    (`--format FMT=FILE`, the same report as `--format FMT` prints)."""
    files = {fmt: directory / f"check.{fmt}" for fmt in FORMATS if fmt != "text"}
    code, out, err = gpu_stacks("check", *SERIAL, *argv, *(f"--format={fmt}={path}" for fmt, path in files.items()))
    return code, {"text": out, **{fmt: path.read_text(encoding="utf-8") for fmt, path in files.items()}}, err


@pytest.fixture(scope="module")
def one_project(monorepo: Path, warm: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Reports, Reports]:
    """Four stacks of one project checked with --project, and with --root of that project (and a copy of the warm
    cache), each run once for every format: one stack of each kind the fleet has (places 0 and 2 reference a stack of
    team-00, place 1 is plain, place 3 asks for a retired size), which is all a fifth stack would add."""
    project = monorepo / "teams" / "team-01"
    names = [p.name.removeprefix("Pulumi.").removesuffix(".yaml") for p in sorted(project.rglob("Pulumi.*.yaml"))][:4]
    one, fleet = tmp_path_factory.mktemp("one"), tmp_path_factory.mktemp("fleet")
    cache = Path(shutil.copytree(warm, fleet / "cache"))

    return (
        every_format(one, "--project", project, *names),
        every_format(fleet, "--root", project, "--cache-dir", cache, *names),
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_fleet_of_one_project_reports_as_a_one_project_check(one_project: tuple[Reports, Reports], fmt: str) -> None:
    (one_code, one_reports, one_err), (fleet_code, fleet_reports, fleet_err) = one_project

    assert (fleet_code, fleet_reports[fmt], fleet_err) == (one_code, one_reports[fmt], one_err)


def test_the_fleet_cost_table_ends_with_the_total_of_its_stacks(unsharded: dict[str, tuple[int, str]]) -> None:
    stacks = json.loads(unsharded["json"][1])["stacks"]
    costs = [s["cost"] for s in stacks if "cost" in s]
    [row] = [line for line in unsharded["markdown"][1].splitlines() if line.startswith("| total (")]
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    least = ">= " if len(costs) < len(stacks) or any(c["lowerBound"] for c in costs) else ""

    assert len(stacks) > 1
    assert cells[0] == (
        f"total ({len(stacks)} stacks)"
        if len(costs) == len(stacks)
        else f"total ({len(costs)} of {len(stacks)} stacks planned)"
    )
    assert cells[1:5] == [
        f"{least}{round(sum(c['hourlyUsd'] for c in costs), 4):,.4f}",
        f"{least}{round(sum(c['monthlyUsd'] for c in costs), 2):,.2f}",
        f"{least}{round(sum(c['idleHourlyUsd'] for c in costs), 4):,.4f}",
        f"{least}{round(sum(c['idleMonthlyUsd'] for c in costs), 2):,.2f}",
    ]


def test_a_warm_cache_plans_nothing(repo: Path, cache: Path, planned: list[str]) -> None:
    code, out, _ = gpu_stacks("check", "--root", repo.name, "--cache-dir", cache, "--format", "json")

    assert planned == [] and len(json.loads(out)["stacks"]) == len(stack_files(repo)) and code == 1


@pytest.fixture(scope="module")
def fresh_and_hit(
    small_monorepo: Path, small_warm: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[list[str], Reports, Reports, list[str]]:
    """Some stacks of the small monorepo checked with --no-cache, then from a copy of its warm cache, each run once
    writing every format: (the stacks, the fresh reports, the cache's reports, the stacks the two runs planned)."""
    base = tmp_path_factory.mktemp("hit")
    cache = Path(shutil.copytree(small_warm, base / "cache"))
    some = sorted(stack_files(small_monorepo))[::5]  # failing stacks among them (place 3 of a project)
    (base / "fresh").mkdir()
    (base / "hit").mkdir()
    with beside(small_monorepo), pytest.MonkeyPatch.context() as patch:
        seen = spy_on_plans(patch)
        fresh = every_format(base / "fresh", "--root", small_monorepo.name, "--no-cache", *some)
        hit = every_format(base / "hit", "--root", small_monorepo.name, "--cache-dir", cache, *some)
    return some, fresh, hit, seen


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_cache_hit_is_a_fresh_run_byte_for_byte(
    fresh_and_hit: tuple[list[str], Reports, Reports, list[str]], fmt: str
) -> None:
    """The cache's records were stored by the monorepo's 200-stack check (the small fleet shares its keys), so a hit
    here is also a record made by a run of another fleet; one run per side writes every format."""
    some, (fresh_code, fresh, fresh_err), (hit_code, hit, hit_err), planned = fresh_and_hit

    assert planned == some
    assert (hit_code, hit[fmt], hit_err) == (fresh_code, fresh[fmt], fresh_err) and fresh_code == 1


@pytest.mark.parametrize("count", [3, 8])
def test_shards_merged_equal_the_unsharded_run_byte_for_byte(
    monorepo: Path, fleet_cache: Path, unsharded: dict[str, tuple[int, str]], tmp_path: Path, count: int
) -> None:
    files = []
    held: list[str] = []
    for index in range(1, count + 1):
        with beside(monorepo):
            code, out, err = gpu_stacks(
                "check", "--root", monorepo.name, "--cache-dir", fleet_cache, "--shard", f"{index}/{count}"
            )
        assert code in (0, 1), err
        files.append(tmp_path / f"shard-{index}.jsonl")
        files[-1].write_text(out, encoding="utf-8")
        held += [json.loads(line)["record"]["stack"] for line in out.splitlines()[1:]]

    for fmt in FORMATS:
        assert gpu_stacks("merge", *reversed(files), "--format", fmt)[:2] == unsharded[fmt]
    assert sorted(held) == sorted(stack_files(monorepo))


def test_shards_spread_heavy_stacks_evenly_and_the_same_way_every_time(tmp_path: Path) -> None:
    """Every other stack configures many more values: taking every N-th stack would give one shard all of them. Four
    stacks show it as eight did (two heavy ones, one to a shard), and each is planned once."""
    root = write_monorepo(tmp_path / "repo", 1, 4)
    files = stack_files(root)
    heavy = set(sorted(files)[1::2])
    for stack in heavy:
        document = yaml.safe_load(files[stack].read_text())
        document["config"]["team-00:tags"] = {f"tag{i}": f"value {i}" for i in range(40)}
        files[stack].write_text(yaml.safe_dump(document))

    def shard(index: int) -> tuple[list[str], str]:
        code, out, err = gpu_stacks("check", "--root", root, "--cache-dir", tmp_path / "cache", "--shard", f"{index}/2")
        assert code in (0, 1), err
        return [json.loads(line)["record"]["stack"] for line in out.splitlines()[1:]], out

    (first, first_out), (second, _) = shard(1), shard(2)

    assert sorted(first + second) == sorted(files)
    assert len(heavy & set(first)) == len(heavy & set(second)) == 1 and len(first) == len(second) == 2
    assert shard(1)[1] == first_out


def test_merge_refuses_shards_that_are_not_one_whole_run(monorepo: Path, fleet_cache: Path, tmp_path: Path) -> None:
    def shard(index: int, count: int, *extra: str) -> Path:
        path = tmp_path / f"{index}-{count}-{len(extra)}.jsonl"
        with beside(monorepo):
            argv = ["--root", monorepo.name, "--cache-dir", fleet_cache, "--shard", f"{index}/{count}", *extra]
            path.write_text(gpu_stacks("check", *argv)[1])
        return path

    first, second = shard(1, 2), shard(2, 2)
    other_run = shard(2, 2, *sorted(stack_files(monorepo))[:4])  # other stacks: another run
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(second.read_text().splitlines()[:-1]) + "\n")
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("{not json\n")
    header, *lines = second.read_text().splitlines()
    lines.append(first.read_text().splitlines()[1])  # a stack of shard 1 in shard 2 as well
    overlapping = tmp_path / "overlapping.jsonl"
    overlapping.write_text("\n".join([header, *sorted(lines, key=lambda line: json.loads(line)["place"])]) + "\n")

    for shards, named in [
        ([first], "missing 2/2"),
        ([first, first], "given twice 1/2"),
        ([first, other_run], "another run"),
        ([first, cut], "stacks in the shards"),
        ([first, overlapping], "in two shards"),
        ([first, garbage], "not JSON"),
        ([first, tmp_path / "absent.jsonl"], "no such shard file"),
    ]:
        code, out, err = gpu_stacks("merge", *shards)
        assert (code, out) == (2, ""), shards
        assert err.count("\n") == 1 and named in err and "Traceback" not in err


def test_the_cache_key_holds_what_changes_a_result_and_nothing_else(
    repo: Path, cache: Path, planned: list[str]
) -> None:
    files = stack_files(repo)
    edited, other_project = sorted(files)[3], "teams/team-05"
    files[edited].write_text(files[edited].read_text() + "# a comment changes the file's bytes\n")
    (repo / other_project / "naming.py").write_text((repo / other_project / "naming.py").read_text() + "\n# edited\n")
    (repo / "teams" / "team-02" / "README.md").write_text("Read by no program.\n")

    gpu_stacks("check", "--root", repo.name, "--cache-dir", cache, *SERIAL)
    first = list(planned)
    planned.clear()
    gpu_stacks("check", "--root", repo.name, "--cache-dir", cache)
    second = list(planned)
    gpu_stacks("check", "--root", repo.name, "--cache-dir", cache, edited, "--as-of", "2027-02-01")
    gpu_stacks("check", "--root", repo.name, "--cache-dir", cache, edited, "--organization", "other-org")

    # Any file of a project may be read by its program (a data file, a Kubernetes manifest): the README counts.
    projects = (f"{other_project}:", "teams/team-02:")
    assert first == sorted({edited, *(i for i in files if i.startswith(projects))}) and second == []
    assert planned == [edited, edited]


def test_no_cache_neither_reads_nor_writes_it(repo: Path, tmp_path: Path, planned: list[str]) -> None:
    """One stack: planned, and no cache directory made for its record (three stacks showed no more)."""
    empty = tmp_path / "never"
    names = sorted(stack_files(repo))[:1]

    gpu_stacks("check", "--root", repo.name, "--no-cache", "--cache-dir", empty, *names)

    assert planned == names and not empty.exists()


SECRET_PROGRAM = """
import pulumi
from pulumi_azure_native import resources

token = pulumi.Config().require_secret("token")
print("the token is", "hunter2-not-for-logs")
pulumi.export("token", token)
pulumi.export("literal", pulumi.Output.secret("hunter2-not-for-logs"))
resources.ResourceGroup("rg", resource_group_name="rg-secret", location="eastus")
"""
CIPHERTEXT = "v1:6Bc1xGtmeiAHyGLO:ciphertext-of-a-secret"


def test_neither_the_cache_nor_a_shard_holds_a_secret_in_clear(tmp_path: Path) -> None:
    project = tmp_path / "root" / "vault"
    project.mkdir(parents=True)
    (project / "Pulumi.yaml").write_text("name: vault\nruntime: python\n")
    (project / "__main__.py").write_text(SECRET_PROGRAM)
    (project / "Pulumi.dev.yaml").write_text(f"config:\n  vault:token:\n    secure: {CIPHERTEXT}\n")
    cache = tmp_path / "cache"

    code, out, err = gpu_stacks("check", "--root", tmp_path / "root", "--cache-dir", cache, "--shard", "1/1")
    stored = "".join(p.read_text() for p in cache.iterdir())

    assert code == 0, err
    assert json.loads(out.splitlines()[1])["record"]["json"]["outputs"]["token"] == "[secret]"
    for text in (stored, out):
        assert "hunter2-not-for-logs" not in text and CIPHERTEXT not in text and OFFLINE_SECRET not in text


def affected(repo: Path, cache: Path, *extra: str) -> tuple[int, dict[str, Any]]:
    code, out, err = gpu_stacks(
        "check", "--root", repo.name, "--cache-dir", cache, "--affected", "HEAD", "--format", "json", *SERIAL, *extra
    )
    assert code in (0, 1), err
    return code, json.loads(out)["affected"]


def referencing(root: Path, files: dict[str, Path], ids: set[str]) -> set[str]:
    """The stacks whose config names one of `ids` as ORG/PROJECT/STACK, transitively (read from the stack files)."""
    names = {i: f"{load_project(root / i.split(':')[0]).name}/{i.split(':')[1]}" for i in files}
    found = set(ids)
    while True:
        more = {
            i
            for i, path in files.items()
            if any(isinstance(v, str) and any(v.endswith(f"/{names[j]}") for j in found) for v in config(path).values())
        }
        if more <= found:
            return found
        found |= more


def test_affected_checks_a_changed_stack_and_those_that_reference_it(repo: Path, cache: Path) -> None:
    files = stack_files(repo)
    changed = next(i for i in sorted(files) if i.startswith("teams/team-02:") and i.endswith("0"))
    files[changed].write_text(files[changed].read_text() + "# edited\n")
    expected = referencing(repo, files, {changed})

    _, report = affected(repo, cache)
    checked = {c["stack"]: c["reasons"] for c in report["checked"]}

    assert set(checked) == expected and len(expected) > 1
    assert sorted(report["unchanged"]) == sorted(set(files) - expected)
    assert any("stack file changed" in r for r in checked[changed])
    assert all("StackReference" in checked[i][0] for i in expected - {changed})


def test_a_changed_stack_outputs_file_checks_the_stacks_that_read_it(repo: Path, cache: Path) -> None:
    files = stack_files(repo)
    outputs_dir = repo / "teams" / "team-03" / "stack-outputs"
    outputs = sorted(outputs_dir.rglob("*.json"))[0]
    outputs.write_text(json.dumps({"subnetId": "/subscriptions/0/subnets/moved"}))
    target = outputs.relative_to(outputs_dir).with_suffix("").as_posix()  # ORG/PROJECT/STACK
    readers = {i for i, path in files.items() if i.startswith("teams/team-03:") and target in config(path).values()}

    _, report = affected(repo, cache)
    checked = {c["stack"]: c["reasons"] for c in report["checked"]}

    assert len(readers) == 1 and set(checked) == referencing(repo, files, readers)
    assert all(
        checked[i] == [f"stack outputs of {target} changed (teams/team-03/stack-outputs/{target}.json)"]
        for i in readers
    )


def test_affected_follows_the_program_import_graph(repo: Path, cache: Path) -> None:
    files = stack_files(repo)
    (repo / "teams" / "team-04" / "naming.py").write_text((repo / "teams" / "team-04" / "naming.py").read_text() + "\n")
    (repo / "teams" / "team-06" / "README.md").write_text("No program reads this.\n")
    team = {i for i in files if i.startswith("teams/team-04:")}

    _, report = affected(repo, cache)

    assert {c["stack"] for c in report["checked"]} == referencing(repo, files, team)


def test_a_changed_usage_file_checks_every_stack_of_its_project(repo: Path, cache: Path) -> None:
    files = stack_files(repo)
    (repo / "teams" / "team-05" / "gpu-stacks.usage.yaml").write_text(
        "defaults:\n  metricAlertTimeSeriesPerCriterion: 2\n"
    )
    team = {i for i in files if i.startswith("teams/team-05:")}

    _, report = affected(repo, cache)
    checked = {c["stack"]: c["reasons"] for c in report["checked"]}

    assert set(checked) == referencing(repo, files, team) and team
    assert all(checked[i] == ["usage file changed (teams/team-05/gpu-stacks.usage.yaml)"] for i in team)


def test_a_program_with_unknown_dependencies_is_checked_when_its_project_changes(repo: Path, cache: Path) -> None:
    main_file = repo / "teams" / "team-06" / "__main__.py"
    main_file.write_text(main_file.read_text() + "\nopen('README.md').read()\n")
    git(repo, "commit", "-qam", "reads a file at run time")
    (repo / "teams" / "team-06" / "README.md").write_text("Now the program reads this.\n")
    files = stack_files(repo)
    team = {i for i in files if i.startswith("teams/team-06:")}

    code, report = affected(repo, cache)
    checked = {c["stack"]: c["reasons"] for c in report["checked"]}

    assert set(checked) == referencing(repo, files, team)
    assert all("cannot be read statically" in checked[i][0] and "open()" in checked[i][0] for i in team)


def test_a_file_every_stack_reads_affects_every_stack(repo: Path, cache: Path, tmp_path: Path) -> None:
    usage = repo / "usage.json"
    shutil.copy(REPO / "tests" / "data" / "list-usage-cli.json", usage)
    git(repo, "add", "usage.json")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "usage")
    shutil.copy(REPO / "tests" / "data" / "list-usage-rest.json", usage)

    _, report = affected(repo, cache, "--usage", str(usage), "teams/team-00:t00-s000", "teams/team-07:t07-s001")

    assert [c["reasons"][0] for c in report["checked"]] == [f"--usage file {usage} changed"] * 2
    assert report["unchanged"] == []


def test_nothing_changed_checks_nothing_and_lists_every_stack_unchanged(repo: Path, cache: Path) -> None:
    code, report = affected(repo, cache)

    assert code == 0 and report["checked"] == []
    assert sorted(report["unchanged"]) == sorted(stack_files(repo))


@pytest.mark.parametrize(
    "document",
    [
        {"stacks": None, "summary": {"a": [1, 2.5, "x\u00e9"]}, "exitCode": 1},
        {"runs": [{"tool": {"driver": {"rules": [{}]}}, "results": None}]},
    ],
)
@pytest.mark.parametrize("items", [[], [{"a": {"b": [1, {}, []]}}], [1, "two", None, {"three": [3.0]}]])
def test_a_streamed_document_is_json_dumps_of_the_whole(document: dict[str, Any], items: list[Any]) -> None:
    placed = json.loads(json.dumps(document).replace("null", '"\\u0000streamed\\u0000"', 1))
    whole = json.loads(json.dumps(document))
    _place(whole, items)

    assert "".join(dump_streamed(placed, iter(items))) == json.dumps(whole, indent=2)


def _place(value: Any, items: list[Any]) -> bool:
    """Put `items` where the first None is (depth first, as json.dumps writes)."""
    pairs = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
    for key, child in list(pairs):
        if child is None:
            value[key] = items
            return True
        if _place(child, items):
            return True
    return False


def test_bad_fleet_flags_say_so_in_one_line(monorepo: Path, tmp_path: Path) -> None:
    for argv, named in [
        (["--root", tmp_path / "absent"], "no such directory"),
        (["--root", tmp_path], "no Python Pulumi project"),
        (["--root", monorepo, "--project", monorepo], "one of them"),
        (["--root", monorepo, "--shard", "1/2", "--format", "markdown"], "--shard alone"),
        (["--root", monorepo, "--shard", "3/2"], "1 <= K <= N"),
        (["--root", monorepo, "--affected", "no-such-revision"], "not a commit"),
        (["--root", monorepo, "teams/team-09:nothing"], "unknown stack"),
    ]:
        code, out, err = gpu_stacks("check", *argv)
        [error] = [line for line in err.splitlines() if line.startswith("gpu-stacks: error:")]
        assert (code, out) == (2, "") and named in error and "Traceback" not in err, (argv, err)


def test_missing_git_is_named_not_read_as_a_bad_revision(
    monorepo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    no_tools = tmp_path / "no-tools"
    no_tools.mkdir()
    monkeypatch.setenv("PATH", str(no_tools))  # HEAD is a commit of the monorepo; only git is missing

    code, out, err = gpu_stacks("check", "--root", monorepo, "--affected", "HEAD")

    [error] = [line for line in err.splitlines() if line.startswith("gpu-stacks: error:")]
    assert (code, out) == (2, "") and "git not found" in error and "not a commit" not in error, err


def nested(depth: int) -> str:
    """JSON `depth` lists deep: past Python's recursion limit when depth is in the tens of thousands."""
    return "[" * depth + "]" * depth


def test_a_cache_entry_that_is_a_fifo_or_nested_deep_is_a_miss(repo: Path, cache: Path, planned: list[str]) -> None:
    held: dict[str, list[Path]] = {}
    for entry in sorted(cache.glob("*.json")):  # a stack may have entries of other options' keys too
        record = json.loads(entry.read_text())["record"]
        if isinstance(record, dict) and "stack" in record:  # not the pack's SARIF rules, cached by a SARIF run
            held.setdefault(record["stack"], []).append(entry)
    fifo_stack, deep_stack = sorted(held)[7], sorted(held)[len(held) // 2]
    for entry in held[fifo_stack]:
        entry.unlink()
        os.mkfifo(entry)  # no writer: opened for reading, it would wait forever
    for entry in held[deep_stack]:
        entry.write_text(entry.read_text().rstrip()[:-1] + ', "deep": ' + nested(50_000) + "}")

    code, out, err = gpu_stacks("check", "--root", repo.name, "--cache-dir", cache, "--format", "json")

    assert code == 1 and "Traceback" not in err, err
    assert {fifo_stack, deep_stack} <= set(planned)
    assert len(json.loads(out)["stacks"]) == len(stack_files(repo))


def test_a_shard_line_or_header_nested_deep_is_one_line_from_merge(
    monorepo: Path, fleet_cache: Path, tmp_path: Path
) -> None:
    with beside(monorepo):
        first, second = (
            gpu_stacks("check", "--root", monorepo.name, "--cache-dir", fleet_cache, "--shard", f"{k}/2")[1]
            for k in (1, 2)
        )
    good = tmp_path / "1.jsonl"
    good.write_text(first)
    header, *lines = second.splitlines()
    deep_line = tmp_path / "deep-line.jsonl"
    deep_line.write_text("\n".join([header, *lines[:3], nested(50_000), *lines[4:]]) + "\n")
    deep_header = tmp_path / "deep-header.jsonl"
    deep_header.write_text("\n".join([nested(50_000), *lines]) + "\n")

    for shard, line in [(deep_line, 5), (deep_header, 1)]:
        code, out, err = gpu_stacks("merge", good, shard)

        assert (code, out) == (2, "") and "Traceback" not in err, err
        assert err.count("\n") == 1 and f"{shard}:{line}:" in err and "nested deeper" in err
