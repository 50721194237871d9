"""`gpu-stacks -C DIR COMMAND`, as Pulumi users type it (`pulumi -C DIR preview`: -C/--cwd is a global flag of the
pulumi CLI, pulumi/pulumi `pkg/cmd/pulumi/pulumi.go`), means what `gpu-stacks COMMAND -C DIR` means (issue 37)."""

from __future__ import annotations

import contextlib
import io
import json

import pytest
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.engine.commands.parser import parser

from tests.conftest import REPO


def gpu_stacks(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("before", [["-C", "stacks"], ["--cwd", "stacks"], ["--cwd=stacks"], ["-Cstacks"]])
def test_cwd_before_the_command_finds_the_project_from_that_directory(
    before: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO.parent)  # nowhere near a Pulumi.yaml of its own
    after = gpu_stacks("stacks", "--json", "-C", str(REPO / "stacks"))
    monkeypatch.chdir(REPO)

    code, out, err = gpu_stacks(*before, "stacks", "--json")

    assert (code, err) == (0, "")
    assert json.loads(out) == json.loads(after[1])
    assert "inference-t4" in json.loads(out)["stacks"]


def test_cwd_after_the_command_is_unchanged() -> None:
    assert parser().parse_args(["plan", "inference-t4", "-C", str(REPO / "stacks")]).project == REPO
