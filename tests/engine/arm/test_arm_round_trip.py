"""The template of every shipped stack and of the team corpus round-trips: template -> the bodies ARM
would receive -> azure-native inputs (catalog.arm.bodies.from_arm_body) -> a fresh fake ARM -> the same
refusals and skips as the plan.

The template's values are evaluated here by a reader of the few expressions the exporter may write
(`format` of the subscription and tenant, `parameters`, `resourceGroup().location`, the `[[` escape);
any other expression fails the test, so the template cannot carry one the fake never saw.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.catalog.arm.bodies import from_arm_body
from azure_gpu_stacks.catalog.clock import utc_today
from azure_gpu_stacks.engine.arm.template import Template, TemplateResource, export
from azure_gpu_stacks.engine.errors import InputError
from azure_gpu_stacks.engine.run.plan import Plan, ReferenceFiles, make_arm
from azure_gpu_stacks.engine.run.project import load_project, load_stack
from azure_gpu_stacks.fakeazure import FAKE_SUBSCRIPTION_ID, FAKE_TENANT_ID, ArmError, FakeArm
from azure_gpu_stacks.fakeazure.backend import DependencyFailed
from azure_gpu_stacks.fakeazure.models import resource_type
from azure_gpu_stacks.fakeazure.models.authorization import deployer_object_id

from tests.conftest import REPO
from tests.e2e.test_team_corpus import CHECKS, TEAMS
from tests.shared_plans import corpus, plan_once

# with tests/e2e/test_team_corpus.py, whose checks plan the same stacks: one process plans each once
pytestmark = pytest.mark.xdist_group("team-corpus")

FORMAT = re.compile(
    r"^\[format\('(?P<text>(?:[^']|'')*)'"
    r"(?P<args>(?:, (?:subscription\(\)\.(?:subscriptionId|tenantId)|deployer\(\)\.objectId))+)\)\]$"
)
PARAMETER = re.compile(r"^\[parameters\('(\w+)'\)\]$")
IDS = {
    "subscriptionId": FAKE_SUBSCRIPTION_ID,
    "tenantId": FAKE_TENANT_ID,
    "objectId": deployer_object_id(FakeArm()),  # the deployment's deployer().objectId, in the fake: its deployer
}


def ids_of(plan: Plan) -> dict[str, str]:
    """What the deployment's functions stand for: the subscription the plan ran as (an `--existing` file's
    subscription where it names one), the fake's tenant and deployer."""
    assert plan.identity is not None
    return {**IDS, "subscriptionId": plan.identity.subscription_id}


SHIPPED = sorted(p.name.removeprefix("Pulumi.").removesuffix(".yaml") for p in (REPO / "stacks").glob("Pulumi.*.yaml"))
TEAM = [(TEAMS / team, stack, extra) for team, stack, extra, code in CHECKS if code != 2]


def evaluate(value: Any, template: Template, group_location: str | None, ids: dict[str, str] = IDS) -> Any:
    if isinstance(value, dict):
        return {k: evaluate(v, template, group_location, ids) for k, v in value.items()}
    if isinstance(value, list):
        return [evaluate(v, template, group_location, ids) for v in value]
    if not isinstance(value, str) or not value.startswith("["):
        return value
    if value.startswith("[["):
        return value[1:]
    if value == "[resourceGroup().location]":
        return group_location
    if (found := PARAMETER.match(value)) is not None:
        return template.secret_values[found[1]]
    if (found := FORMAT.match(value)) is not None:
        names = re.findall(r"(?:subscription|deployer)\(\)\.(\w+)", found["args"])
        text = found["text"].replace("''", "'").replace("{{", "\0").replace("}}", "\1")
        for index, name in enumerate(names):
            text = text.replace(f"{{{index}}}", ids[name])
        return text.replace("\0", "{").replace("\1", "}")
    raise AssertionError(f"an expression the round trip cannot read: {value}")


def placed(template: Template) -> dict[tuple[str, str], tuple[dict[str, Any], str | None]]:
    """(ARM type, name) -> (entry, its resource group) for every resource entry of the document."""
    out: dict[tuple[str, str], tuple[dict[str, Any], str | None]] = {}
    for entry in template.document["resources"]:
        if entry["type"] == "Microsoft.Resources/deployments":
            for inner in entry["properties"]["template"]["resources"]:
                out[(inner["type"], inner["name"].lower())] = (inner, entry["resourceGroup"])
        else:
            out[(entry["type"], entry["name"].lower())] = (entry, None)
    return out


def inputs_of(
    res: TemplateResource, entry: dict[str, Any], group: str | None, template: Template, ids: dict[str, str] = IDS
) -> dict[str, Any]:
    """azure-native's inputs again, from the entry's body and where the template places it."""
    groups = {
        e["name"].lower(): e.get("location") for e in template.document["resources"] if "resourceGroups" in e["type"]
    }
    body = evaluate(
        {k: v for k, v in entry.items() if k not in ("dependsOn", "scope")},
        template,
        groups.get(str(group).lower()),
        ids,
    )
    rtype = resource_type(res.token)
    names = entry["name"].split("/")
    path: dict[str, Any] = dict(zip(rtype.parent_inputs, names[:-1], strict=True))
    if group is not None:
        path["resourceGroupName"] = group
    if rtype.scoped:
        group_id = f"/subscriptions/{ids['subscriptionId']}" + (f"/resourceGroups/{group}" if group else "")
        scope = entry.get("scope")
        if scope is None:
            path[rtype.scope_input] = group_id
        elif scope.startswith("["):
            path[rtype.scope_input] = evaluate(scope, template, None, ids)
        else:  # Namespace/type[/child]/name[/childName] inside the group
            namespace, *rest = scope.split("/")
            half = len(rest) // 2
            pairs = "/".join(f"{t}/{n}" for t, n in zip(rest[:half], rest[half:], strict=True))
            path[rtype.scope_input] = f"{group_id}/providers/{namespace}/{pairs}"
    return from_arm_body(res.token, {**body, "name": names[-1]}, path)


def replay(plan: Plan, template: Template, project_dir: Path, extra: tuple[str, ...]) -> tuple[set[Any], set[Any]]:
    project = load_project(project_dir)
    existing = tuple(Path(extra[i + 1]) for i, flag in enumerate(extra) if flag == "--existing")
    # the day the plan was made for, passed as the engine passes it (no module-level clock)
    arm = make_arm(load_stack(project, plan.stack), ReferenceFiles(existing=existing), plan.as_of)
    entries = placed(template)
    for res in template.resources:
        entry, group = entries[(res.arm_type, res.name.lower())]
        inputs = inputs_of(res, entry, group, template, ids_of(plan))
        seed = f"{res.token}::{res.logical_name}"
        try:
            arm.put(res.token, res.logical_name, inputs, seed)
        except ArmError as error:
            arm.refuse(res.token, res.logical_name, inputs, seed, error)
        except DependencyFailed as cause:
            arm.skip(res.token, res.logical_name, inputs, seed, cause)
    refusals = {(r.resource, r.type, r.code) for r in arm.refusals}
    return refusals, {name for name, _ in arm.skipped}


def assert_round_trips(plan: Plan, project_dir: Path, extra: tuple[str, ...]) -> None:
    template = export(plan.resources, project=plan.project, stack=plan.stack, identity=plan.identity)

    refusals, skipped = replay(plan, template, project_dir, extra)

    assert template.resources, "an empty template proves nothing"
    assert refusals == {(r.resource, r.type, r.code) for r in plan.refusals}
    assert skipped == {name for name, _ in plan.skipped}


@pytest.mark.parametrize("stack", SHIPPED, ids=[f"{REPO.name}-{stack}" for stack in SHIPPED])
def test_the_template_of_a_shipped_stack_gives_the_fake_arm_the_plan_s_verdict(
    shipped_plans: dict[str, Plan], stack: str
) -> None:
    """The shipped stack's plan as conftest's session fixture makes it (plan_stack with no reference files)."""
    assert_round_trips(shipped_plans[stack], REPO, ())


@pytest.mark.parametrize(("project_dir", "stack", "extra"), TEAM, ids=[f"{c[0].name}-{c[1]}" for c in TEAM])
def test_the_template_gives_the_fake_arm_the_plan_s_verdict(
    project_dir: Path, stack: str, extra: tuple[str, ...]
) -> None:
    existing = tuple(Path(extra[i + 1]) for i, flag in enumerate(extra) if flag == "--existing")
    try:
        reference = ReferenceFiles(existing=existing)
        plan = plan_once(corpus("teams"), load_project(project_dir), stack, reference, day=utc_today())
    except InputError as exc:  # pragma: no cover - CHECKS says which stacks plan
        pytest.fail(str(exc))
    assert_round_trips(plan, project_dir, extra)
