"""`gpu-stacks diff` with broken input and misbehaving programs, as the other commands get them:
every bad stack file of the corpus is one stderr line naming the stack file, exit 2, nothing on
stdout, the checkout left as it was; and `--timeout` reaches the programs diff runs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.test_bad_input import BAD_STACKS, CORPUS
from tests.test_diff import commit, edit, project_repo, run, snapshot


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped inference-t4 project, committed: BASE for every case."""
    root = project_repo(tmp_path_factory.mktemp("diff-hostile") / "repo", ("inference-t4",))
    commit(root)
    return root


@pytest.mark.parametrize("case", sorted(BAD_STACKS))
def test_diff_bad_stack_file_exits_2_naming_file_and_key(
    repo: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    stack_file = repo / "stacks" / f"Pulumi.{case}.yaml"
    shutil.copy(CORPUS / stack_file.name, stack_file)
    try:
        before = snapshot(repo)
        code, out, err = run(capsys, "diff", "HEAD", case, "--project", str(repo), "-j", "1")
        after = snapshot(repo)
    finally:
        stack_file.unlink()

    assert (code, out) == (2, ""), err
    assert err.count("\n") == 1 and err.startswith(f"gpu-stacks: error: stacks/{stack_file.name}: "), err
    assert BAD_STACKS[case] in err
    assert "Traceback" not in err
    assert after == before


def test_diff_stops_a_program_that_runs_past_its_timeout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = project_repo(tmp_path / "repo", ("inference-t4",))
    commit(root)
    (root / "__main__.py").write_text("import time\n\ntime.sleep(60)\n", encoding="utf-8")

    code, out, err = run(capsys, "diff", "HEAD", "--project", str(root), "-j", "1", "--timeout", "2")

    assert (code, out) == (2, "")
    assert err == (
        "gpu-stacks: error: stacks/Pulumi.inference-t4.yaml: the program did not finish within 2 s (--timeout); "
        "it was stopped\n"
    )


def test_diff_cost_with_a_size_that_has_no_price_is_a_lower_bound_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project_repo(tmp_path / "repo", ("training-a100",))
    commit(root)
    edit(
        root / "stacks" / "Pulumi.training-a100.yaml", "vmSize: Standard_ND96asr_v4", "vmSize: Standard_ND96isr_H200_v5"
    )

    code, out, err = run(capsys, "diff", "HEAD", "--project", str(root), "-j", "1", "--format", "json")

    assert "lower bounds: no price is known for Standard_ND96isr_H200_v5" in json.loads(out)["total"]["prices"], err
