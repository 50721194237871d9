"""The types' own checks as data (issue 33): tests/data/mutations/model.json holds a single-rule mutation of every
rule of fakeazure/model_rules.py that a PUT body reaches, each naming its rule's source, built on an example of
Azure's the fake accepts as it is (or a body of its own). The fake refuses each with the rule's code and the rule's
own words; the body each one breaks is accepted; a rule without a mutation says why no body reaches it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from azure_gpu_stacks.fakeazure.model_rules import MODEL_RULES

from scripts import make_mutations

CORPUS = json.loads(make_mutations.MODEL_CORPUS.read_text(encoding="utf-8"))
ROWS = {f"{r.module}: {r.code}: {r.says}": r for r in MODEL_RULES}


@pytest.fixture(scope="module")
def answers() -> list[tuple[dict[str, Any], str, str]]:
    return make_mutations.run_model(CORPUS["mutations"])


def _says(fragment: str, message: str) -> bool:
    """Whether `message` carries the rule's own words (its fragment, `{}` standing for the values)."""
    return all(part in message for part in fragment.split("{}") if part)


def test_each_mutation_names_its_rules_source_and_code() -> None:
    assert len(CORPUS["mutations"]) >= 100
    named = [(m["rule"], m["source"], m["code"]) for m in CORPUS["mutations"]]

    assert [n for n in named if n[0] not in ROWS] == []
    assert [n for n in named if (ROWS[n[0]].source, ROWS[n[0]].code) != (n[1], n[2]) or not n[1]] == []


def test_each_mutation_is_refused_by_its_rule_with_azures_code(answers: list[tuple[dict[str, Any], str, str]]) -> None:
    wrong = [
        (m["rule"], code, message[:200])
        for m, code, message in answers
        if code != m["code"] or not _says(ROWS[m["rule"]].says, message)
    ]

    assert wrong == []


def test_the_body_each_mutation_breaks_is_accepted() -> None:
    controls: dict[str, dict[str, Any]] = {}
    for mutation in CORPUS["mutations"]:
        control = {k: v for k, v in mutation.items() if k not in ("set", "delete", "name", "rule", "source", "code")}
        controls.setdefault(json.dumps(control, sort_keys=True), control)

    refused = [
        (c["token"], c.get("example"), code, message[:200])
        for c, code, message in make_mutations.run_model(list(controls.values()))
        if code
    ]

    assert len(controls) >= 30 and refused == []


def test_every_rule_of_the_types_checks_has_a_mutation_or_says_why_no_body_reaches_it() -> None:
    mutated = {m["rule"] for m in CORPUS["mutations"]}
    unreached = {u["rule"] for u in CORPUS["unreached"] if u["why"]}

    assert sorted(set(ROWS) - mutated - unreached) == []
    assert mutated & unreached == set()
