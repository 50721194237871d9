"""The corpus of single-rule mutations of the spec's rules (tests/data/mutations/spec.json, written by
scripts/make_mutations.py from the spec's constraints and Azure's own examples): each names its rule's source, and
the fake refuses each with the code its rule's row names, for that value (the message names the path it broke)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scripts import make_mutations

CORPUS = make_mutations.OUT


@pytest.fixture(scope="module")
def corpus() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = json.loads(CORPUS.read_text(encoding="utf-8"))["mutations"]
    return found


@pytest.fixture(scope="module")
def answers(corpus: list[dict[str, Any]]) -> list[tuple[dict[str, Any], str, str]]:
    return make_mutations.run(corpus)


def _path(steps: list[Any]) -> str:
    """The body path of `steps` as the fake's messages write it (`properties.securityRules[0].properties.priority`)."""
    out = ""
    for step in steps:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out


def test_the_corpus_is_what_the_generator_gives() -> None:
    assert CORPUS.read_text(encoding="utf-8") == make_mutations.text(), "run python scripts/make_mutations.py"


def test_each_mutation_names_its_source_and_a_code(corpus: list[dict[str, Any]]) -> None:
    assert len(corpus) >= 200
    assert all(m["source"] and m["code"] for m in corpus)
    assert all(m["source"].startswith("generated/") for m in corpus)  # the autorest.bicep types of the spec


def test_each_mutation_is_refused_with_its_rules_code_for_that_value(
    answers: list[tuple[dict[str, Any], str, str]],
) -> None:
    wrong_code = [(m["token"], m["rule"], code) for m, code, _ in answers if code != m["code"]]
    other_value = [
        (m["token"], m["rule"], message)
        for m, code, message in answers
        if code == m["code"]
        and (m["token"], m["rule"].split(" ")[0]) not in make_mutations.OVERLAPS
        and _path(m["at"]) not in message
    ]

    assert wrong_code == [] and other_value == []


def test_each_body_built_to_reach_a_rule_is_accepted_before_it_is_broken(corpus: list[dict[str, Any]]) -> None:
    built = [m for m in corpus if m.get("built")]
    assert len(built) >= 90  # rules no accepted example of Azure's reaches as it is
    refused = [(m["token"], m["rule"], code, message) for m, code, message in make_mutations.run(built, controls=True)]

    assert [r for r in refused if r[2]] == []


def test_every_rule_of_the_spec_has_a_mutation_or_says_why_no_body_reaches_it() -> None:
    from scripts import rule_table

    data = json.loads(CORPUS.read_text(encoding="utf-8"))
    reached = {(m["armType"], m["rule"].split(" ")[0]) for m in data["mutations"] if '"type"' not in m["rule"]}
    typed = {m["armType"] for m in data["mutations"] if '"type"' in m["rule"]}
    unreached = {(u["armType"], u["rule"].split(" ")[0]) for u in data["unreached"] if u["why"]}
    untyped = {u["armType"] for u in data["unreached"] if u["rule"].startswith("{") and u["why"]}
    missing = []
    for row in rule_table.spec_rows():
        if row.skipped:
            continue
        if "`" in row.rule:
            key = (row.arm_type, row.rule.split("`")[1])
            if key not in reached and key not in unreached:
                missing.append(key)
        elif row.arm_type not in typed | untyped:
            missing.append((row.arm_type, row.rule))

    assert missing == []


def test_each_body_of_our_own_and_each_repaired_example_is_accepted_as_it_is() -> None:
    """The controls the mutations of a type without an accepted example of Azure's are built on: bodies made of the
    spec's required properties, and examples whose dates or values were moved to what Azure accepts on AS_OF."""
    bases = [(kind, base["title"]) for kind, found in make_mutations.OWN_BASES.items() for base in found] + list(
        make_mutations.REPAIRS
    )
    mutations = json.loads(CORPUS.read_text(encoding="utf-8"))["mutations"]
    controls = [next(m for m in mutations if (m["armType"].lower(), m["example"]) == base) for base in bases]
    answers = make_mutations.run([{**m, "built": []} for m in controls], controls=True)

    assert [(m["armType"], m["example"], code, message) for m, code, message in answers if code] == []
    assert json.loads(CORPUS.read_text(encoding="utf-8"))["asOf"] == make_mutations.AS_OF.date().isoformat()


def test_a_location_that_is_not_a_string_is_refused_with_the_specs_code() -> None:
    """A raw dict can send any JSON as `location`; the spec types it a string, and ARM refuses an object there."""
    from azure_gpu_stacks.fakeazure import FakeArm
    from azure_gpu_stacks.fakeazure.errors import ArmError

    arm = FakeArm(default_location="eastus")
    arm.put("azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": "rg", "location": "eastus"}, "rg")
    inputs = {"resourceGroupName": "rg", "resourceName": "id-a", "location": {"name": "eastus"}}
    with pytest.raises(ArmError) as refused:
        arm.put("azure-native:managedidentity:UserAssignedIdentity", "id", inputs, "id")

    assert refused.value.code == "InvalidParameter" and "location" in refused.value.message
