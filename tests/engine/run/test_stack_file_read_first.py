"""A stack file, or a file beside it (--usage, --skus), that cannot be read is refused before any engine process
is forked: the user gets the same one line as from inside the plan, without a fork (bad input is bounded in time)."""

from __future__ import annotations

import datetime as dt
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.engine.errors import InputError
from azure_gpu_stacks.engine.run import children
from azure_gpu_stacks.engine.run.plan import ReferenceFiles, plan_stack
from azure_gpu_stacks.engine.run.project import load_project

from tests.conftest import REPO
from tests.e2e.test_bad_input import BAD_STACKS, CORPUS
from tests.inputs.test_hostile_files import AZ, BAD_AZ_FILES

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="plans run in forked children on Linux")

DAY = dt.date(2026, 11, 27)

# The corpus's stack files that are not a stack file at all (YAML, encoding, layout, keys): nothing to run.
UNREADABLE = (
    "invalid-yaml",
    "duplicate-key",
    "list-at-top",
    "config-is-a-list",
    "key-with-two-colons",
    "latin1-bytes",
    "utf16-text",
    "recursive-alias",
    "billion-laughs",
    "deep-nesting",
    "secure-not-ciphertext",
)


@pytest.fixture
def forked(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Each engine process forked (`children.call`) from here on."""
    calls: list[Any] = []
    real_call = children.call

    def recorded(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return real_call(*args, **kwargs)

    monkeypatch.setattr(children, "call", recorded)
    return calls


def test_an_unreadable_stack_file_is_its_one_line_before_any_engine_process(tmp_path: Path, forked: list[Any]) -> None:
    project = load_project(REPO)
    for case in UNREADABLE:
        stack_file = tmp_path / f"Pulumi.{case}.yaml"
        shutil.copy(CORPUS / stack_file.name, stack_file)

        with pytest.raises(InputError) as refused:
            plan_stack(project, str(stack_file), day=DAY)

        assert str(refused.value).startswith(f"{stack_file}: ") and BAD_STACKS[case] in str(refused.value), case
        assert forked == [], case


def test_an_unreadable_az_file_is_its_one_line_before_any_engine_process(forked: list[Any]) -> None:
    project = load_project(REPO)
    for case, expected in BAD_AZ_FILES.items():
        given = AZ / f"{case}.json"
        reference = ReferenceFiles(usage=given) if case.startswith("usage") else ReferenceFiles(skus=given)

        with pytest.raises(InputError) as refused:
            plan_stack(project, "inference-t4", reference, day=DAY)

        assert str(refused.value).startswith(f"{given}: ") and expected in str(refused.value), case
        assert forked == [], case
