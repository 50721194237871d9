"""Every output a modelled type returns in Azure's answer is in the fake's answer, or written down as why not.

For each type of tests/data/azure-responses/response_keys.json: the REST spec's own example request (the saved
request of the same title, tests/data/azure-specs) goes to the fake, whose answer, in ARM's shape
(catalog.arm.bodies.to_arm_body), must hold every top-level and `properties` key of the spec's 200/201 answer to
that request, except the keys the row lists under `notAnswered`, each with why. Expected keys come from the spec's
example (Azure/azure-rest-api-specs, the file and commit each row names), never from the fake.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from azure_gpu_stacks.catalog.arm import bodies, registry
from azure_gpu_stacks.catalog.clock import utc_today
from azure_gpu_stacks.catalog.limits import LIMITS
from azure_gpu_stacks.fakeazure import FakeArm

from tests.conftest import REPO

SAVED_KEYS: dict[str, Any] = json.loads(
    (REPO / "tests" / "data" / "azure-responses" / "response_keys.json").read_text(encoding="utf-8")
)
ROWS: dict[str, Any] = SAVED_KEYS["types"]
SAVED = REPO / "tests" / "data" / "azure-specs"
GROUP = "rg1"


def _request(arm_type: str, title: str, own: dict[str, Any] | None = None) -> dict[str, Any]:
    """The spec example's request body, as bicep-types-az's samples.md keeps it (saved by scripts/read_specs.py), or
    the spec example's own (`own`, a row's `request`) where bicep-types-az keeps no sample of the type."""
    if own is not None:
        return dict(own)
    for path in SAVED.rglob("examples.json"):
        for found in json.loads(path.read_text(encoding="utf-8"))["examples"]:
            if found["type"].lower() == arm_type.lower() and found["title"] == title:
                return dict(found["body"])
    raise LookupError(f"{arm_type}: no saved example titled {title!r}")


def _filled(send: dict[str, Any], made_first: str = "") -> dict[str, Any]:
    """`send` with the row's placeholders filled in: the day the test runs, the id of what the row creates first."""
    today = utc_today()
    text = json.dumps(send).replace("{first day of this month}", today.replace(day=1).isoformat())
    text = text.replace("{the id of what the row creates first}", made_first)
    text = text.replace("{a Kubernetes version AKS supports today}", LIMITS.supported_kubernetes_versions(today)[0])
    return dict(json.loads(text))


def _answer(token: str, row: dict[str, Any]) -> tuple[set[str], set[str]]:
    """(top-level keys, `properties` keys) of the fake's answer to the example's request, in ARM's shape; a child's
    parent (`parent`) and a resource the request names (`before`) are created first from their own saved examples."""
    send, parent, before = row.get("send"), row.get("parent"), row.get("before")
    place = registry.placement(token)
    assert place is not None and len(place.parent_inputs) == (1 if parent else 0)
    arm = FakeArm(default_location="eastus")
    arm.put("azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": GROUP, "location": "eastus"}, "rg")
    # a resource group's own example names the group: no group around it
    path = {"resourceGroupName": GROUP} if place.name_input != "resourceGroupName" else {}
    made_first = ""
    if before is not None:
        first = registry.placement(before["token"])
        assert first is not None
        made = bodies.from_arm_body(before["token"], _request(first.arm_type, before["title"]), dict(path))
        made_first = arm.put(before["token"], "before", made, "before").id
    if parent is not None:
        above = registry.placement(parent["token"])
        assert above is not None
        made = bodies.from_arm_body(parent["token"], _request(above.arm_type, parent["title"]), dict(path))
        made[above.name_input] = "parent1"
        made.update(_filled(parent.get("send", {})))
        arm.put(parent["token"], "parent", made, "parent")
        path[place.parent_inputs[0]] = "parent1"
    if place.scope_input:  # an extension resource: the example's scope is a resource group
        path = {place.scope_input: f"/subscriptions/{arm.subscription_id}/resourceGroups/{GROUP}"}
    inputs = bodies.from_arm_body(token, _request(place.arm_type, row["title"], row.get("request")), path)
    inputs.setdefault(place.name_input, "example")
    inputs.update(_filled(send or {}, made_first))
    resource = arm.put(token, "example", inputs, "example")
    assert arm.refusals == [] and not resource.failed
    body = bodies.to_arm_body(token, resource.outputs)
    top = set(body) | ({"id"} if resource.id else set())  # the id is the resource's own, not an output property
    # a `properties` key the SDK takes as an input of the URL (a role assignment's `scope`) is an output all the same
    return top, set(body.get("properties", {})) | set(resource.outputs)


def test_every_type_the_fake_models_is_compared_or_says_why_not() -> None:
    from azure_gpu_stacks.fakeazure.models import RESOURCE_TYPES

    skipped = SAVED_KEYS["notCompared"]
    assert set(ROWS) | set(skipped) == set(RESOURCE_TYPES) and not set(ROWS) & set(skipped)
    assert all(why.strip() for why in skipped.values())
    assert len(ROWS) >= 20


def test_every_row_names_its_example_s_file_and_commit_and_a_modelled_type() -> None:
    from azure_gpu_stacks.fakeazure.models import RESOURCE_TYPES

    for token, row in ROWS.items():
        assert token in RESOURCE_TYPES
        assert row["source"].startswith("https://github.com/Azure/azure-rest-api-specs ")
        version = registry.placement(token).api_version  # type: ignore[union-attr]
        # where the stored index lacks the file at the SDK's version: the same example at the versions either side
        either_side = row.get("versionsEitherSide", [version])
        assert all(f"/{v}/examples/" in row["source"] for v in either_side), token
        assert min(either_side) <= str(version) <= max(either_side), token


@pytest.mark.parametrize("token", sorted(ROWS))
def test_the_fake_answers_every_key_azure_s_example_answer_has_or_says_why_not(token: str) -> None:
    row = ROWS[token]
    top, inner = _answer(token, row)
    missing = sorted({k for k in row["top"] if k not in top} | {f"properties.{k}" for k in row["properties"]
                                                                  if k not in inner})  # fmt: skip

    assert missing == sorted(row.get("notAnswered", {})), token
    assert all(why.strip() for why in row.get("notAnswered", {}).values())
