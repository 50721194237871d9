"""An azure-native resource whose type no rule covers is reported "not checked offline" in every format
(issue 39): pulumi/examples' azure-py-aci creates a Microsoft.ContainerInstance container group, which
the fake ARM does not model and the REST spec mapping does not cover."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from typing import Any

import pytest
from azure_gpu_stacks.engine.cli import main

from tests.conftest import REPO
from tests.shared_plans import plans_shared


@pytest.fixture(scope="module", autouse=True)
def plans() -> Iterator[dict[str, Any]]:
    """The file's plans by their arguments (tests/shared_plans.py): each format reads one plan of the stack."""
    with plans_shared() as plans:
        yield plans


ACI = REPO / "tests" / "data" / "public" / "azure-py-aci"
GROUP = "urn:pulumi:dev::azure-py-aci::azure-native:containerinstance:ContainerGroup::containerGroup"


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """One check of the program for the file, every format written at once: format -> its report."""
    folder = tmp_path_factory.mktemp("reports")
    formats = ("json", "markdown", "sarif")
    argv = ["check", "dev", "--project", str(ACI), "--format", "text"]
    for fmt in formats:
        argv += ["--format", f"{fmt}={folder / fmt}"]
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        code = main(argv)
    assert code == 0
    return {"text": out.getvalue(), **{fmt: (folder / fmt).read_text() for fmt in formats}}


def test_text_counts_it(reports: dict[str, str]) -> None:
    assert reports["text"].startswith("OK: dev deploys as planned (2 resources, 1 not checked offline).")


def test_json_lists_it(reports: dict[str, str]) -> None:
    [stack] = json.loads(reports["json"])["stacks"]

    assert stack["notChecked"] == [GROUP]


def test_markdown_lists_it(reports: dict[str, str]) -> None:
    out = reports["markdown"]

    assert "Not checked offline (1)" in out
    assert "`azure-native:containerinstance:ContainerGroup`" in out


def test_sarif_has_a_note_for_it(reports: dict[str, str]) -> None:
    results = json.loads(reports["sarif"])["runs"][0]["results"]

    assert [(r["ruleId"], r["level"]) for r in results] == [("gpu-stacks/not-checked-offline", "note")]
    assert "containerGroup" in results[0]["message"]["text"]


def test_a_modelled_type_is_not_reported(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["plan", "inference-t4", "--json"])
    document = json.loads(capsys.readouterr().out)

    assert code == 0
    assert "notChecked" not in document


def test_export_arm_places_an_azure_resource_the_fake_does_not_model(capsys: pytest.CaptureFixture[str]) -> None:
    """Not checked offline, but Azure's: the container group goes to Validate and What-If (the type registry
    places it as Azure's ARM template reference does, Microsoft.ContainerInstance/containerGroups)."""
    code = main(["export-arm", "dev", "--project", str(ACI)])
    out, err = capsys.readouterr()
    document = json.loads(out)
    inner = [e for d in document["resources"] for e in d.get("properties", {}).get("template", {}).get("resources", [])]

    assert code == 0
    assert document["metadata"]["outsideTemplate"] == []
    assert [e["type"] for e in inner] == ["Microsoft.ContainerInstance/containerGroups"]
    assert "not in the template" not in err
