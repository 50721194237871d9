"""Azure's own PUT examples, every one the saved spec data has for the types the fake models, through the
fake as Pulumi programs (scripts/conformance.py): each is accepted, or refused for a listed reason with
the code that reason says; docs/azure-conformance.md is what the run gives."""

from __future__ import annotations

import pytest

from scripts import conformance


@pytest.fixture(scope="module")
def verdicts() -> list[conformance.Verdict]:
    return conformance.run_all()


def test_every_example_of_every_modelled_type_is_run(verdicts: list[conformance.Verdict]) -> None:
    assert len(verdicts) == len(conformance.examples()) >= 200


def test_every_refusal_has_a_listed_reason_and_its_code(verdicts: list[conformance.Verdict]) -> None:
    unexplained = [
        (v.example.token, v.example.title, v.code) for v in verdicts if v.code and not conformance.stale_of(v)
    ]
    wrong_code = [
        (v.example.title, v.code)
        for v in verdicts
        if v.code and (rule := conformance.stale_of(v)) is not None and rule.code != v.code
    ]

    assert unexplained == [] and wrong_code == []


def test_the_azure_valid_examples_still_refused_are_the_listed_few(verdicts: list[conformance.Verdict]) -> None:
    pending = [v.example.title for v in verdicts if v.code and (r := conformance.stale_of(v)) and not r.stale]

    assert len(pending) <= 2  # a scale set's sku.name Mix (instance mix), listed in the docs page


def test_the_docs_page_is_what_the_run_gives(verdicts: list[conformance.Verdict]) -> None:
    assert conformance.DOC.read_text(encoding="utf-8") == conformance.page(verdicts), (
        "run python scripts/conformance.py"
    )
